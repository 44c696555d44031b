#!/usr/bin/env bash
# Square values whose evidence accumulates (issue 12, the climbing curve; docs/lab/2026-11.md, 2026-11-28
# afternoon). The curve database's games (curve-10k.sh) are replayed as `morph train` rebuilds its policy: a first
# fit on the first 100 games, then one Laplace update per 100 games (src/model/choiceEvaluation.ts,
# accumulateChoiceSquares). The 1,000-, 3,000- and 10,000-game checkpoints keep their own policy's patterns with
# these square values, and play ab:2,q, 200 games a seed, the balanced suite: seeds 1-4 at 1,000 and 10,000
# games (800 games each), 1 and 2 at 3,000. Then the curve, paired by opening.
#
#   research/recipes/square-evidence.sh CHECKPOINTS_DIR OUT      (resumable: each step skips what exists)
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR=${1:?usage: square-evidence.sh CHECKPOINTS_DIR OUT}
OUT=${2:?usage: square-evidence.sh CHECKPOINTS_DIR OUT}
mkdir -p "$OUT"
[ -e "$OUT/p010000-evidence.db" ] || node bin/run-ts.js research/square-evidence-curve.ts "$DIR/games-010000.db" 100 "$OUT" "$DIR" \
  1000,3000,10000 > "$OUT/evidence-curve.log"
play() { # CHECKPOINT (games, zero-padded) SEED
  local suffix="" C="$DIR/games-$1"
  [ "$2" = 1 ] || suffix=-s$2
  [ -s "$OUT/p$1-evidence$suffix.json" ] || node bin/morph.js match --white "morph:$C.db" --white-policy "$OUT/p$1-evidence.db" \
    --black 'ab:2,q' --games 200 --seed "$2" --openings openings/balanced-6ply.epd --json --pgn /dev/null --no-progress \
    > "$OUT/p$1-evidence$suffix.json"
}
for seed in 1 2 3 4; do play 001000 $seed; play 010000 $seed; done
for seed in 1 2; do play 003000 $seed; done
E=$OUT/p
# Against last session's fit on at most 150,000 decisions (square-all-games.sh, its OUT as S46), seeds 1 and 2:
#   node bin/run-ts.js training/paired-match-diff.ts S46/p010000-all150k-a8-tapered.json,S46/p010000-all150k-a8-tapered-s2.json \
#     ${E}010000-evidence.json,${E}010000-evidence-s2.json
# The curve: 10,000 against 1,000 games over four seeds; 3,000 against 1,000 and 10,000 against 3,000 over two.
node bin/run-ts.js training/paired-match-diff.ts "${E}001000-evidence.json,${E}001000-evidence-s2.json,${E}001000-evidence-s3.json,${E}001000-evidence-s4.json" \
  "${E}010000-evidence.json,${E}010000-evidence-s2.json,${E}010000-evidence-s3.json,${E}010000-evidence-s4.json"
node bin/run-ts.js training/paired-match-diff.ts "${E}001000-evidence.json,${E}001000-evidence-s2.json" \
  "${E}003000-evidence.json,${E}003000-evidence-s2.json" "${E}010000-evidence.json,${E}010000-evidence-s2.json"
node bin/run-ts.js training/paired-match-diff.ts "${E}003000-evidence.json,${E}003000-evidence-s2.json" "${E}010000-evidence.json,${E}010000-evidence-s2.json"
