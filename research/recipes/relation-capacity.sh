#!/usr/bin/env bash
# Does the relation terms' fit keep growing with lessons, and with larger patterns (issue 69, capacity)?
# 1. Held-out R2 of the gap for the relation terms and three larger families (forks, piles, king squares), each fitted
#    on a quarter, half and all of a run's kept lessons (research/relation-capacity.ts; seconds).
# 2. Sixteen lessons a game instead of four for the same games: 12 more searched for each game of the 1,000-game
#    checkpoint (research/relation-lessons-replay.ts, about 85 ms a lesson on a loaded machine: 17 minutes), refitted,
#    and move quality on the scored positions against four a game (5-10 minutes).
# Takes about half an hour. Needs the run of research/recipes/relation-ridge.sh (seed 11) and its checkpoints.
#
# 2026-12-06 (session 73), main at c9a24d9: results in docs/lab/2026-12.md, "more lessons and larger patterns".
set -euo pipefail
cd "$(dirname "$0")/../.."
RUN=${1:-/work/runs/s11l.db}
OUT=${2:-/work/runs/more}
CHECKPOINTS=${RUN%.db}.checkpoints
mkdir -p "$OUT"
for games in 1000 3000; do
  node bin/run-ts.js research/relation-capacity.ts --db "$CHECKPOINTS/games-00$games.db" | tee "$OUT/capacity-$games.txt"
done
cp "$CHECKPOINTS/games-001000.db" "$OUT/k1-16.db"; chmod u+w "$OUT/k1-16.db"
node bin/run-ts.js research/relation-lessons-replay.ts --db "$OUT/k1-16.db" --per-game 12 --seed 1
node bin/run-ts.js research/relation-capacity.ts --db "$OUT/k1-16.db" | tee "$OUT/capacity-1000x16.txt"
node bin/run-ts.js research/relation-refit.ts --db "$OUT/k1-16.db"
# cmp1k/ridge.db: the 1,000-game checkpoint refitted by ridge on its own four lessons a game (relation-ridge.sh).
node bin/run-ts.js training/compare-rankers.ts --positions positions/move-scores.jsonl "db=/work/runs/cmp1k/ridge.db;graphPatterns=false;policy=none" \
  "db=/work/runs/cmp1k/ridge.db;policy=none" "db=$OUT/k1-16.db;policy=none" | tee "$OUT/quality.txt"
