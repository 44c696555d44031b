#!/usr/bin/env bash
# Opponent models with material "two-ply" against "settled" (issue 14; 2026-11-25, afternoon). The collections of
# training/recipes/settled-material.sh (OUT_DIR/opp: seed 1, every 5th game held out). For each player a model
# from its training games with each material mode (seed 1, one ply), then `morph predict` on its held-out games,
# the two-ply model against the settled one on the same moves (paired).
#
#   training/recipes/two-ply-material.sh OUT_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: two-ply-material.sh OUT_DIR}
declare -A PLAYER=([sf20]='stockfish:skill=20,depth=1' [ab2q]='ab:2,q' [toga2]='uci:/usr/games/toga2:depth=1'
  [glaurung]='uci:/usr/games/glaurung:depth=1')
for name in ab2q sf20 toga2 glaurung; do
  labels=()
  [ "$name" = ab2q ] && labels=(--labels 'ab:2,q')
  for material in settled two-ply; do
    [ -f "$OUT/$name-$material.db" ] || node bin/morph.js model --pgn "$OUT/opp/$name.train.pgn" --player "${PLAYER[$name]}" \
      --seed 1 --material "$material" --search one-ply --out "$OUT/$name-$material.db" --json --no-progress > "$OUT/$name-$material.json"
  done
  node bin/morph.js predict --model "$OUT/$name-two-ply.db" --other-model "$OUT/$name-settled.db" \
    --pgn "$OUT/opp/$name.heldout.pgn" --player "${PLAYER[$name]}" "${labels[@]}" --json > "$OUT/predict-$name.json"
done
