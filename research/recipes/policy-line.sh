#!/usr/bin/env bash
# Morph's own policy as the model it follows in the line mode (issue 12; 2026-11-29 morning; not kept): with no
# model of the opponent, could Morph follow its best four moves along the reply its own policy (a model of its
# sparring partners) finds likeliest? The policy file given as the opponent's model does exactly that. Against
# ab:2,q, paired by opening with the same player without a model (model-line.sh's "none" matches).
#
#   research/recipes/policy-line.sh DIR
#
# DIR holds t.db (3,000 games from fresh, seed 52, with its own policy t.policy.db) and match-none-sSEED.json, both
# from research/recipes/model-line.sh. Matches: GAMES games a seed on the balanced suite, all at once.
# Move quality with the line was measured with the experiment's build, policy-line.patch beside this file (it
# applies to 1a4b606): it adds --no-policy-line and the compare-rankers field ';line=off', and then
#   node bin/run-ts.js training/compare-rankers.ts --positions positions/move-scores.jsonl \
#     "db=DIR/t.db;line=off" "db=DIR/t.db"
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR=${1:?usage: policy-line.sh DIR}
GAMES=${GAMES:-100}
SEEDS=${SEEDS:-1 2}
for seed in $SEEDS; do
  [ -s "$DIR/match-policyline-s$seed.json" ] || node bin/morph.js match --white "morph:$DIR/t.db" --black 'ab:2,q' \
    --games "$GAMES" --seed "$seed" --openings openings/balanced-6ply.epd --json --no-progress \
    --white-model "$DIR/t.policy.db" --model-mode line > "$DIR/match-policyline-s$seed.json" &
done
wait
node bin/run-ts.js training/paired-match-diff.ts \
  "$(for s in $SEEDS; do printf '%s,' "$DIR/match-none-s$s.json"; done | sed 's/,$//')" \
  "$(for s in $SEEDS; do printf '%s,' "$DIR/match-policyline-s$s.json"; done | sed 's/,$//')"
