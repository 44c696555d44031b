#!/usr/bin/env bash
# The patterns' pull chosen by validation (issue 14; 2026-11-25 night). On the collections of
# research/recipes/settled-material.sh (OUT_DIR/opp, seed 1, every 5th game held out) plus gnuchess at depth 1
# (training/recipes/opponent-games.sh, ONLY=gnuchess1): for ab:2,q, Glaurung and Toga II a model with the pull 1,
# paired on the held-out moves against the default of the evening (.1, OUT_DIR/NAME-default.db from
# square-values.sh); for gnuchess a model at .1 beside the value database and Glaurung's and Toga II's models; then
# every player with --shrinkage auto (now the default), paired against .1; and Stockfish skill 20 at depth 1 with
# square values (.1), paired against the afternoon's two-ply model (OUT_DIR/sf20-two-ply.db, two-ply-material.sh).
#
#   T1=DB research/recipes/shrinkage.sh OUT_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: shrinkage.sh OUT_DIR}
T1=${T1:-$OUT/t1.db}
OUT="$OUT/opp" ONLY=gnuchess1 GAMES=400 training/recipes/opponent-games.sh
declare -A PLAYER=([ab2q]='ab:2,q' [toga2]='uci:/usr/games/toga2:depth=1' [glaurung]='uci:/usr/games/glaurung:depth=1'
  [gnuchess1]='gnuchess:depth=1' [sf20]='stockfish:skill=20,depth=1')
model() { # NAME SUFFIX [options]
  [ -f "$OUT/$1-$2.db" ] || node bin/morph.js model --pgn "$OUT/opp/$1.train.pgn" --player "${PLAYER[$1]}" --seed 1 \
    --out "$OUT/$1-$2.db" --json --no-progress "${@:3}" > "$OUT/$1-$2.json"
}
predict() { # NAME MODEL OTHER OUTPUT [options]
  local labels=()
  [ "$1" = ab2q ] && labels=(--labels 'ab:2,q')
  node bin/morph.js predict --model "$OUT/$2.db" --other-model "$OUT/$3.db" --pgn "$OUT/opp/$1.heldout.pgn" \
    --player "${PLAYER[$1]}" "${labels[@]}" --json "${@:5}" > "$OUT/$4.json"
}
model gnuchess1 default --shrinkage 0.1
predict gnuchess1 gnuchess1-default glaurung-default predict-gnuchess1-glaurung --db "$T1"
predict gnuchess1 gnuchess1-default toga2-default predict-gnuchess1-toga2
for name in ab2q glaurung toga2; do
  model "$name" shr1 --shrinkage 1
  predict "$name" "$name-shr1" "$name-default" "predict-$name-shr1"
done
for name in ab2q glaurung toga2 gnuchess1; do
  model "$name" auto --shrinkage auto
  predict "$name" "$name-auto" "$name-default" "predict-$name-auto"
done
model sf20 default --shrinkage 0.1
predict sf20 sf20-default sf20-two-ply predict-sf20-default
