#!/usr/bin/env bash
# The TD discount (issue 12 part 2, a training signal): `--discount G` shrinks a result k positions later toward
# a draw, .5 + G^k (z - .5), so a position shortly before a loss gets a lower target than one forty moves
# before it. Against a partner that wins nine games in ten, the undiscounted target is "lost" almost everywhere;
# the discount adds "how soon", which material deficits predict.
#
# Each arm trains a fresh database with the defaults and one discount (seed 1, --jobs 1 so a run repeats
# exactly, no policy: the screen is of the learned values), then is measured with its values and captures
# look alone (--no-policy): move quality on the 400 labelled positions, paired against the first arm, and
# 200-game matches (seed 1, the balanced suite) against ab:2,q and the partner, paired by opening against the
# first arm for ab:2,q.
#
#   research/recipes/discount.sh OUT_DIR                (GAMES=1000 SEED=1 DISCOUNTS='1 0.97' MATCH_GAMES=200)
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: discount.sh OUT_DIR}
GAMES=${GAMES:-1000}
SEED=${SEED:-1}
DISCOUNTS=${DISCOUNTS:-1 0.97}
MATCH_GAMES=${MATCH_GAMES:-200}
POSITIONS=positions/move-scores.jsonl
mkdir -p "$OUT"

read -ra discounts <<< "$DISCOUNTS"
for g in "${discounts[@]}"; do
  nice -n 8 node bin/morph.js train --db "$OUT/g$g.db" --games "$GAMES" --seed "$SEED" --jobs 1 --discount "$g" \
    --no-policy --progress none --json-log "$OUT/g$g.jsonl" > "$OUT/g$g.train.json" 2> "$OUT/g$g.train.err" &
done
wait

rankers=()
for g in "${discounts[@]}"; do rankers+=("db=$OUT/g$g.db;policy=none"); done
node bin/run-ts.js training/compare-rankers.ts --positions "$POSITIONS" "${rankers[@]}" > "$OUT/quality.jsonl"

for g in "${discounts[@]}"; do
  for opponent in 'ab:2,q' 'stockfish:skill=0,depth=1'; do
    tag="g$g-$(echo "$opponent" | tr ':,=' '___')"
    node bin/morph.js match --white "morph:$OUT/g$g.db" --no-policy --black "$opponent" --games "$MATCH_GAMES" \
      --seed "$SEED" --concurrency 2 --json --pgn /dev/null > "$OUT/$tag.json" 2> "$OUT/$tag.err"
  done
done
for g in "${discounts[@]:1}"; do
  node bin/run-ts.js training/paired-match-diff.ts "$OUT/g${discounts[0]}-ab_2_q.json" "$OUT/g$g-ab_2_q.json" \
    > "$OUT/paired-g$g-ab_2_q.json"
done
