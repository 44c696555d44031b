#!/usr/bin/env bash
# The pattern languages side by side (issue 12 part 4): the paper's language against the safety language
# (en-prise pieces marked), trained from fresh with the same seed, opponent and number of games, then every
# checkpoint measured by training/recipes/curve.sh (matches against OPPONENTS and move quality on
# positions/move-scores.jsonl), plus a paired move-quality comparison of the final databases.
#
#   research/recipes/languages.sh tmp/languages        (GAMES=1000 EVERY=250 SEED=1 OPPONENTS='ab:1' MATCH_GAMES=200)
#   EXTRA='--evaluation shrunk' research/recipes/languages.sh tmp/languages-shrunk
#
# Each training run uses --jobs 1, so a run repeats exactly from its seed.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: languages.sh OUT_DIR}
export GAMES=${GAMES:-1000} EVERY=${EVERY:-250} SEED=${SEED:-1}
export OPPONENTS=${OPPONENTS:-ab:1} MATCH_GAMES=${MATCH_GAMES:-200}
EXTRA=${EXTRA:-}
mkdir -p "$OUT"

for language in paper safety; do
  # shellcheck disable=SC2086 # EXTRA is a list of options
  nice -n 10 node bin/morph.js train --db "$OUT/$language.db" --games "$GAMES" --seed "$SEED" --jobs 1 \
    --checkpoint-every "$EVERY" --language "$language" --progress lines $EXTRA > "$OUT/$language.train.log" 2>&1 &
done
wait

for language in paper safety; do
  SKIP_TRAIN=1 training/recipes/curve.sh "$OUT/$language.db"
done

nice -n 10 node bin/run-ts.js training/compare-rankers.ts --positions positions/move-scores.jsonl \
  "db=$OUT/paper.db" "db=$OUT/safety.db" "ranker=ab:1" "ranker=ab:2" > "$OUT/quality.jsonl"
echo "paired move quality: $OUT/quality.jsonl"
