#!/usr/bin/env bash
# The one-ply material player (issue 69: "the 1-ply player learns tactics from patterns"): relation terms fitted over
# static material from a run's kept lessons, read by `--search material-one-ply`, against 2-ply material alpha-beta.
# 1. research/one-ply-terms.ts: the fit by ridge (penalty chosen on held-out lessons) for several clips, and move
#    quality of a one-ply ranker built in the script; the clip was chosen on Morph's own positions (a set apart).
# 2. The product: a copy of the run, its lessons given static material (relation-refit --fill-static; lessons kept
#    since schema v8 have it), refitted, then move quality on both sets and 100 games each against ab:2.
# Takes about 15 minutes (the one-ply matches take under a minute each). Needs seed 11's 3,000-game run
# (research/recipes/relation-ridge.sh).
#
# 2026-12-06 (session 73), main at bd190b5: results in docs/lab/2026-12.md, "the one-ply material player".
set -euo pipefail
cd "$(dirname "$0")/../.."
RUN=${1:-/work/runs/s11l.db}
OUT=${2:-/work/runs/oneply}
mkdir -p "$OUT"
for set in research/sets/own-positions-scores.jsonl positions/move-scores.jsonl; do
  for clip in 1 1.5 2 3; do
    node bin/run-ts.js research/one-ply-terms.ts --db "$RUN" --positions "$set" --clip $clip > "$OUT/research-$(basename "$set" .jsonl)-clip$clip.json"
  done
done
cp "$RUN" "$OUT/run.db"; cp "${RUN%.db}.policy.db" "$OUT/run.policy.db"; chmod u+w "$OUT"/run*.db
node bin/run-ts.js research/relation-refit.ts --db "$OUT/run.db" --fill-static
for set in positions/move-scores.jsonl research/sets/own-positions-scores.jsonl; do
  node bin/run-ts.js training/compare-rankers.ts --positions "$set" "ranker=ab:2" "db=$OUT/run.db;search=material-one-ply" \
    "db=$OUT/run.db;search=material-one-ply;policy=none" "db=$OUT/run.db;search=material-one-ply;graphPatterns=false" | tee "$OUT/quality-$(basename "$set" .jsonl).txt"
done
npx morph match --white "morph:$OUT/run.db" --search material-one-ply --black ab:2 --games 100 --seed 1 --json > "$OUT/ab2.json"
npx morph match --white "morph:$OUT/run.db" --search material-one-ply --no-graph-patterns --black ab:2 --games 100 --seed 1 --json > "$OUT/ab2-ablated.json"
npx morph match --white "morph:$OUT/run.db" --search one-ply --black ab:2 --games 100 --seed 1 --json > "$OUT/ab2-paper.json"
node bin/run-ts.js training/paired-match-diff.ts "$OUT/ab2-paper.json" "$OUT/ab2.json" "$OUT/ab2-ablated.json"
