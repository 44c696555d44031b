#!/usr/bin/env bash
# Exact ridge against one pass of AdaGrad for the relation terms, on the same lessons (issue 69): training's lessons
# do not change how a run plays (its games do not read the terms), so one run with kept lessons (schema v7) gives
# both: the weights its learner left, and the ridge fit of the lessons it kept (research/relation-refit.ts).
# Takes: the run about 30 minutes for 3,000 games on 2 jobs (resumable: the same command goes on); each move-quality
# comparison 5-10 minutes; each head-to-head match of 100 games 25-50 minutes.
#
# 2026-12-06 (session 72): the run was started with main at 9352bcb's parent plus the lesson table (the learner then
# AdaGrad), seed 11, stopped at game 1,433; compared at its 1,000-game checkpoint (3,952 lessons), no policy in play.
# To repeat with an AdaGrad learner on main, train with a build before 9352bcb, or replay the kept lessons through
# research/adagrad-relation-learner.ts.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUN=${1:-/work/runs/s11l.db}
OUT=${2:-/work/runs/cmp1k}
CHECKPOINT=${3:-${RUN%.db}.checkpoints/games-001000.db}
npx morph train --db "$RUN" --games 3000 --seed 11 --checkpoint-every 1000 --no-judge
mkdir -p "$OUT"
for side in adagrad ridge; do cp "$CHECKPOINT" "$OUT/$side.db"; chmod u+w "$OUT/$side.db"; done
node bin/run-ts.js research/relation-refit.ts --db "$OUT/ridge.db" | tee "$OUT/refit.json"
node bin/run-ts.js training/compare-rankers.ts --positions positions/move-scores.jsonl "db=$OUT/adagrad.db;graphPatterns=false;policy=none" \
  "db=$OUT/adagrad.db;policy=none" "db=$OUT/ridge.db;policy=none" | tee "$OUT/quality.txt"
npx morph match --white "morph:$OUT/ridge.db" --black "morph:$OUT/adagrad.db" --games 100 --seed 1 --concurrency 2 \
  --json --pgn "$OUT/h2h.pgn" > "$OUT/h2h.json"
