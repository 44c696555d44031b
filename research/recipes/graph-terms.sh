#!/usr/bin/env bash
# Graph-pattern terms (issue 69): do learned additive log-odds terms of the graph patterns, added to the material
# searches' value of each move's own position, make Morph choose better? Two signals, each replayed over a trained
# database's own recorded games (oldest first) with its final patterns, then move quality on the 400 scored engine
# positions, paired against the same database without the terms (no policy in either, so the terms are the only
# thing besides material that chooses among moves):
#   1. TD-Leaf(lambda) (research/graph-terms-replay.ts): each position Morph moved to, valued as its capture-settled
#      material plus its term, moves toward the next such value and the result (lambda .7 and 0; Morph's positions
#      only, or both sides'; and a control with the learned terms given to other patterns at random);
#   2. the partner's choices (research/choice-terms-replay.ts): a conditional logit over each of the partner's
#      decisions, a move's score its settled material log-odds plus its position's term, the terms by SGD.
# Takes: the training run 20 minutes plus the policy's rebuild (minutes to half an hour on a busy machine); each
# replay 10-40 minutes on one core.
#
# 2026-12-05 (session 68): DB = seed 11's 3,000-game checkpoint from fresh with the defaults of main at 03eba32
# (docs/lab/2026-12.md, 2026-12-05).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-out/graph-terms}
mkdir -p "$OUT"
[ -f "$OUT/s11.checkpoints/games-003000.db" ] || node bin/morph.js train --db "$OUT/s11.db" --games 3000 --seed 11 --checkpoint-every 1000 --no-judge --no-policy
DB="$OUT/s11.checkpoints/games-003000.db"
P=positions/move-scores.jsonl
for args in "--lambda 0.7" "--lambda 0" "--shuffle" "--both"; do
  node bin/run-ts.js research/graph-terms-replay.ts --db "$DB" --positions "$P" --no-policy $args | tee -a "$OUT/td-leaf.jsonl"
done
node bin/run-ts.js research/choice-terms-replay.ts --db "$DB" --positions "$P" | tee -a "$OUT/choice.jsonl"
