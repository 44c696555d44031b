#!/usr/bin/env bash
# Opponent models with material "two-ply" against "settled" (issue 14; 2026-11-25, afternoon). The collections of
# research/recipes/settled-material.sh (OUT_DIR/opp: seed 1, every 5th game held out). For each player a model
# from its training games with each material mode (seed 1, one ply), then `morph predict` on its held-out games,
# the two-ply model against the settled one on the same moves (paired); Toga II and Glaurung against each other's
# model and a value database; and the 6,110-game value database (research/recipes/material-prior.sh) with its
# exact policy (settled-material.sh) playing ab:2,q with the two-ply model of ab:2,q (seeds 1 and 2), to compare
# with the same player without a model (settled-material.sh's policy-exact-s1/-s2 matches).
#
#   T1=DB POLICY=POLICY_DB research/recipes/two-ply-material.sh OUT_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: two-ply-material.sh OUT_DIR}
T1=${T1:-$OUT/t1.db}
POLICY=${POLICY:-$OUT/t1.exact.policy.db}
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
# The two engines against each other's model and the value database (T1: the 6,110-game one, /work/data/s34/t1.db here).
for pair in toga2:glaurung glaurung:toga2; do
  name=${pair%%:*} other=${pair##*:}
  node bin/morph.js predict --model "$OUT/$name-two-ply.db" --other-model "$OUT/$other-two-ply.db" --db "$T1" \
    --pgn "$OUT/opp/$name.heldout.pgn" --player "${PLAYER[$name]}" --json > "$OUT/predict-$name-full.json"
done
# Playing with the two-ply model of ab:2,q against ab:2,q, 200 games a seed on the balanced suite.
for seed in 1 2; do
  node bin/morph.js match --white "morph:$T1" --white-policy "$POLICY" --search material-forks --material-prior 1000000 \
    --black 'ab:2,q' --games 200 --seed "$seed" --openings openings/balanced-6ply.epd --json \
    --white-model "$OUT/ab2q-two-ply.db" > "$OUT/model-two-ply-s$seed.json"
done
