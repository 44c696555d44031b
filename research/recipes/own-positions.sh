#!/usr/bin/env bash
# Move quality on the positions Morph's own games reach (issue 12; diagnosis): Morph (material-forks, the 2-hour
# run's final database with its policy) plays ab:2,q (200 games, seed 2, the balanced suite); every 13th of
# Morph's choices (651 positions) is labelled by the embedded Stockfish at depth 8, every legal move scored
# (training/label-move-scores.ts, a few minutes); rankers are compared on them position by position
# (training/compare-rankers.ts). The labelled set is kept as research/sets/own-positions-scores.jsonl.
#
#   research/recipes/own-positions.sh OUT_DIR DB     (DB: a database with its DB.policy.db beside it)
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: own-positions.sh OUT_DIR DB}
DB=${2:?usage: own-positions.sh OUT_DIR DB}
mkdir -p "$OUT"

node bin/morph.js match --white "morph:$DB" --black ab:2,q --games 200 --seed 2 --search material-forks \
  --openings openings/balanced-6ply.epd --json --no-progress > "$OUT/match.json"
node bin/run-ts.js research/match-positions.ts "$OUT/match.json" --every 13 > "$OUT/positions.fen"
node bin/run-ts.js training/label-move-scores.ts --in "$OUT/positions.fen" --depth 8 --out "$OUT/scores.jsonl"
node bin/run-ts.js training/compare-rankers.ts --positions "$OUT/scores.jsonl" \
  "db=$DB;search=material-forks" 'ranker=ab:2,q' 'ranker=ab:1,q' \
  "db=$DB;search=material-forks;weight=0.015" "db=$DB;search=material-forks;policy=none"
