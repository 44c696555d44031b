#!/usr/bin/env bash
# Should a new database play four plies with a late-move reduction (material-four-plies) instead of three
# (material-full-width)? Issue 69. The paired half session 81 left (three plies against gnuchess at depth 2 on the
# same database), on a fresh run's checkpoint:
#   1. each search on the same database and policy against gnuchess:depth=2, 100 games each (the same balanced
#      openings and seed, so paired by opening), the two matches side by side;
#   2. move quality on the 2,100 scored positions, paired;
#   3. time and positions valued a game move (research/move-times.ts, 60 of Morph's own positions), back to back.
#
#   research/recipes/four-plies.sh DB OUT   (DB: fresh-curve.sh's games-003000.db of seed 21, its policy beside it;
#                                            resumable: a step whose output exists is kept)
# 2026-12-07 (session 82): results in docs/lab/2026-12.md, session 82.
set -euo pipefail
cd "$(dirname "$0")/../.."
DB=${1:?usage: four-plies.sh DB OUT}
OUT=${2:?usage: four-plies.sh DB OUT}
mkdir -p "$OUT"
if [ ! -e "$OUT/four.db" ]; then
  node bin/run-ts.js research/with-config.ts "$DB" "$OUT/four.db" playSearch=material-four-plies
  ln -sf "$(realpath "${DB%.db}.policy.db")" "$OUT/four.policy.db"
fi
gnu2() {
  local db=$1 name=$2
  [ -s "$OUT/$name.json" ] || nice -n 5 node bin/morph.js match --white "morph:$db" --black gnuchess:depth=2 --games 100 \
    --seed 1 --openings openings/balanced-6ply.epd --json --pgn "$OUT/$name.pgn" --no-progress > "$OUT/$name.json"
}
gnu2 "$OUT/four.db" gnu2-four &
gnu2 "$DB" gnu2-three &
wait
node bin/run-ts.js training/paired-match-diff.ts "$OUT/gnu2-three.json" "$OUT/gnu2-four.json" > "$OUT/gnu2-paired.txt" || true
[ -s "$OUT/quality-2k.jsonl" ] || node bin/run-ts.js training/compare-rankers.ts --positions positions/move-scores-2k.jsonl \
  "db=$DB" "db=$DB;search=material-four-plies" > "$OUT/quality-2k.jsonl"
for search in material-full-width material-four-plies; do
  [ -s "$OUT/times-$search.txt" ] || DB="$DB" SEARCH=$search node bin/run-ts.js research/move-times.ts > "$OUT/times-$search.txt"
done
# What the graph patterns are worth in games at four plies (issue 69's second target: at least 100 Elo): the same
# database without its relation terms and the policy's term (--no-graph-patterns, the first player only) against
# itself with them, 100 games, paired balanced openings.
[ -s "$OUT/nographs.json" ] || nice -n 5 node bin/morph.js match --white "morph:$OUT/four.db" --no-graph-patterns \
  --black "morph:$OUT/four.db" --games 100 --seed 1 --openings openings/balanced-6ply.epd --json --pgn "$OUT/nographs.pgn" \
  --no-progress > "$OUT/nographs.json"
# Which part of the graph patterns carries it, on the 2,100 scored positions at four plies: as it plays; without the
# relation terms and the policy's term (graphPatterns=false); without the policy (policy=none).
[ -s "$OUT/graph-worth-2k.jsonl" ] || node bin/run-ts.js training/compare-rankers.ts --positions positions/move-scores-2k.jsonl \
  "db=$OUT/four.db" "db=$OUT/four.db;graphPatterns=false" "db=$OUT/four.db;policy=none" > "$OUT/graph-worth-2k.jsonl"
# The policy alone in games: the database with its policy against a copy with none beside it, 100 games.
[ -e "$OUT/nopolicy.db" ] || sqlite3 "$OUT/four.db" ".backup $OUT/nopolicy.db"
[ -s "$OUT/policy.json" ] || nice -n 5 node bin/morph.js match --white "morph:$OUT/four.db" --black "morph:$OUT/nopolicy.db" \
  --games 100 --seed 1 --openings openings/balanced-6ply.epd --json --pgn "$OUT/policy.pgn" --no-progress > "$OUT/policy.json"
