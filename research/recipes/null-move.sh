#!/usr/bin/env bash
# Null-move pruning (null=R, search.ts fullWidthValue), and the fifth ply it pays for (issue 69: strength in play).
# At a node with three plies or more to go, the side to move first passes and the line is searched R plies
# shallower; if the side that just moved still gains nothing, the node is cut. On seed 21's 3,000-game database
# trained without the policy (no-policy.sh's OUT/four-nopolicy.db):
#   1. move quality on the 2,100 scored positions, paired: four plies (material-four-plies), four with null=2, five
#      with late=3 and null=2;
#   2. time and positions valued a game move (research/move-times.ts, 60 of Morph's own positions), each search;
#   3. five plies with null=2 against four plies, head to head (100 games, balanced openings, seed 1, SPRT 0/50).
#
#   research/recipes/null-move.sh DB OUT   (resumable: a step whose output exists is kept)
# 2026-12-08 (session 83): five plies +95 Elo [+31, +165] over four, move quality -0.20 [-0.33, -0.07], median 166 ms
# against 76: material-five-plies, a new database's default. Results in docs/lab/2026-12.md, session 83.
set -euo pipefail
cd "$(dirname "$0")/../.."
DB=${1:?usage: null-move.sh DB OUT}
OUT=${2:?usage: null-move.sh DB OUT}
FOUR_NULL=material,quiescence,mates=4,plies=4,late=3,null=2,bare-king
FIVE_NULL=material,quiescence,mates=4,plies=5,late=3,null=2,bare-king
mkdir -p "$OUT"
[ -s "$OUT/quality-2k.jsonl" ] || nice -n 10 node bin/run-ts.js training/compare-rankers.ts --positions positions/move-scores-2k.jsonl \
  "db=$DB" "db=$DB;search=$FOUR_NULL" "db=$DB;search=$FIVE_NULL" > "$OUT/quality-2k.jsonl"
[ -e "$OUT/five.db" ] || node bin/run-ts.js research/with-config.ts "$DB" "$OUT/five.db" playSearch=$FIVE_NULL
[ -s "$OUT/h2h-five-four.json" ] || nice -n 5 node bin/morph.js match --white "morph:$OUT/five.db" --black "morph:$DB" --games 100 \
  --seed 1 --openings openings/balanced-6ply.epd --sprt elo0=0,elo1=50 --json --pgn "$OUT/h2h-five-four.pgn" --no-progress > "$OUT/h2h-five-four.json"
for search in material-four-plies $FOUR_NULL $FIVE_NULL; do
  [ -s "$OUT/times-$search.txt" ] || DB="$DB" N=60 SEARCH=$search node bin/run-ts.js research/move-times.ts > "$OUT/times-$search.txt"
done
