#!/usr/bin/env bash
# Would mobility help a model predict an engine? (issue 14; 2026-11-29 morning; research/mobility-headroom.ts.)
# DIR is research/recipes/quiescence-line.sh's: the default models DIR/NAME-twoply.db and the collections DIR/opp.
#
#   research/recipes/mobility-headroom.sh DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR=${1:?usage: mobility-headroom.sh DIR}
declare -A PLAYER=([glaurung]='uci:/usr/games/glaurung:depth=1' [toga2]='uci:/usr/games/toga2:depth=1')
for name in glaurung toga2; do
  echo "$name:"
  node bin/run-ts.js research/mobility-headroom.ts "$DIR/$name-twoply.db" "$DIR/opp/$name.train.pgn" \
    "$DIR/opp/$name.heldout.pgn" "${PLAYER[$name]}" 1500
done
