#!/usr/bin/env bash
# Opponent models whose two-ply search also learns square values (issue 14; 2026-11-25, evening). The collections
# of research/recipes/settled-material.sh (OUT_DIR/opp: seed 1, every 5th game held out). For each player a model
# with square values (material two-ply, seed 1, one ply, the patterns' shrinkage .01), the same without square
# values (the afternoon's two-ply model), and the default (square values, shrinkage .1); `morph predict` on the
# held-out games, paired on the same moves; Toga II and Glaurung against each other's model. Then the
# 6,110-game value database (research/recipes/material-prior.sh) with its exact policy (settled-material.sh)
# playing ab:2,q with the new model of ab:2,q (seeds 1 and 2), to compare with the same player without a model
# (settled-material.sh's policy-exact-s1/-s2 matches).
#
#   T1=DB POLICY=POLICY_DB research/recipes/square-values.sh OUT_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: square-values.sh OUT_DIR}
T1=${T1:-$OUT/t1.db}
POLICY=${POLICY:-$OUT/t1.exact.policy.db}
declare -A PLAYER=([sf20]='stockfish:skill=20,depth=1' [ab2q]='ab:2,q' [toga2]='uci:/usr/games/toga2:depth=1'
  [glaurung]='uci:/usr/games/glaurung:depth=1')
for name in ab2q sf20 toga2 glaurung; do
  labels=()
  [ "$name" = ab2q ] && labels=(--labels 'ab:2,q')
  [ -f "$OUT/$name-squares.db" ] || node bin/morph.js model --pgn "$OUT/opp/$name.train.pgn" --player "${PLAYER[$name]}" \
    --seed 1 --shrinkage 0.01 --out "$OUT/$name-squares.db" --json --no-progress > "$OUT/$name-squares.json"
  [ -f "$OUT/$name-material.db" ] || node bin/morph.js model --pgn "$OUT/opp/$name.train.pgn" --player "${PLAYER[$name]}" \
    --seed 1 --shrinkage 0.01 --no-square-values --out "$OUT/$name-material.db" --json --no-progress > "$OUT/$name-material.json"
  [ -f "$OUT/$name-default.db" ] || node bin/morph.js model --pgn "$OUT/opp/$name.train.pgn" --player "${PLAYER[$name]}" \
    --seed 1 --out "$OUT/$name-default.db" --json --no-progress > "$OUT/$name-default.json"
  node bin/morph.js predict --model "$OUT/$name-squares.db" --other-model "$OUT/$name-material.db" \
    --pgn "$OUT/opp/$name.heldout.pgn" --player "${PLAYER[$name]}" "${labels[@]}" --json > "$OUT/predict-$name.json"
  node bin/morph.js predict --model "$OUT/$name-default.db" --other-model "$OUT/$name-squares.db" \
    --pgn "$OUT/opp/$name.heldout.pgn" --player "${PLAYER[$name]}" "${labels[@]}" --json > "$OUT/predict-$name-default.json"
done
for pair in toga2:glaurung glaurung:toga2; do
  name=${pair%%:*} other=${pair##*:}
  node bin/morph.js predict --model "$OUT/$name-squares.db" --other-model "$OUT/$other-squares.db" \
    --pgn "$OUT/opp/$name.heldout.pgn" --player "${PLAYER[$name]}" --json > "$OUT/predict-$name-other.json"
done
# Playing with the model of ab:2,q against ab:2,q, 200 games a seed on the balanced suite.
for seed in 1 2; do
  node bin/morph.js match --white "morph:$T1" --white-policy "$POLICY" --search material-forks --material-prior 1000000 \
    --black 'ab:2,q' --games 200 --seed "$seed" --openings openings/balanced-6ply.epd --json \
    --white-model "$OUT/ab2q-squares.db" > "$OUT/model-squares-s$seed.json"
done
