#!/usr/bin/env bash
# More decisions for the square values' fit (issue 12; docs/lab/2026-11.md, 2026-11-28 day): the 3,000-game
# checkpoint of the curve database (curve-10k.sh) with its own policy, the square values refitted on 45,000 of its
# last 1,000 games' decisions instead of 15,000, once with every move's line and once with eight sampled
# alternatives a decision (src/model/choiceEvaluation.ts, sampledAlternatives); each against ab:2,q, 200 games,
# seed 1, the balanced suite, paired by opening against the checkpoint's own match (games-003000.ab2q.json).
#
#   research/recipes/square-sample.sh CHECKPOINTS_DIR OUT
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR=${1:?usage: square-sample.sh CHECKPOINTS_DIR OUT}
OUT=${2:?usage: square-sample.sh CHECKPOINTS_DIR OUT}
mkdir -p "$OUT"
C="$DIR/games-003000"
for arm in 45k 45k-a8; do
  alternatives=""
  [ "$arm" = 45k-a8 ] && alternatives=8
  [ -e "$OUT/p3000-sq$arm.db" ] || node bin/run-ts.js research/square-values-from-games.ts "$C.db" "$C.policy.db" 1000 \
    "$OUT/p3000-sq$arm.db" 45000 2 $alternatives
  node bin/morph.js match --white "morph:$C.db" --white-policy "$OUT/p3000-sq$arm.db" --black 'ab:2,q' --games 200 \
    --seed 1 --openings openings/balanced-6ply.epd --json --pgn /dev/null --no-progress > "$OUT/p3000-sq$arm.json"
  node bin/run-ts.js training/paired-match-diff.ts "$C.ab2q.json" "$OUT/p3000-sq$arm.json"
done
