#!/usr/bin/env bash
# Is the gap between capture-settled material and the play search's value learnable from static features, and from
# which (issue 69, the signal; research/gap-learnability.ts)? Ridge least squares, the penalty chosen on held-out
# games, of the gap on: the database's graph patterns (every match), one-node patterns of the safety language
# (census), two-node attack relations (relations), and, for scale, features that look one ply ahead (lookahead).
# Takes: the targets (treestrap-terms.ts --save, roots of 200 games) 10-20 minutes on one core; each fit seconds to
# a few minutes.
#
# 2026-12-05 (session 71): DB = seed 11's 3,000-game checkpoint from fresh with the defaults of main at 8240233
# (`morph train --db s11.db --games 3000 --seed 11 --checkpoint-every 1000`; s11.checkpoints/games-003000.db).
set -euo pipefail
cd "$(dirname "$0")/../.."
DB=${1:?usage: gap-learnability.sh DB [OUT_DIR]}
OUT=${2:-out/gap-learnability}
mkdir -p "$OUT"
[ -s "$OUT/roots-fen-200.jsonl" ] || node bin/run-ts.js research/treestrap-terms.ts --db "$DB" --positions positions/move-scores.jsonl \
  --games 200 --no-measure --save "$OUT/roots-fen-200.jsonl"
for clip in 0.5 2; do
  node bin/run-ts.js research/gap-learnability.ts --load "$OUT/roots-fen-200.jsonl" --clip $clip | tee -a "$OUT/results.jsonl"
done
