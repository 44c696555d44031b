#!/usr/bin/env bash
# Lessons valued deeper (issue 69, the signal). A relation lesson's target is the play search's value of the
# position two plies past the move (lessonSearchFor), while the play search now looks four plies: the terms learn
# what the search already sees. Do lessons valued three or four plies deep teach terms that choose better at four
# plies? The same positions (every 2nd lesson of four-plies.sh's database, seed 21 at 3,000 games: 8,888) valued
# by each search with today's piece values, refitted by ridge (penalty 300), then move quality on the 2,100 scored
# positions at four plies without the policy, paired:
#   two     material,quiescence,mates=4,plies=2,bare-king   (what training's lessons are: the control)
#   three   material,quiescence,mates=4,plies=3,bare-king
#   four    material,quiescence,mates=4,plies=4,late=3,bare-king
#
#   research/recipes/deeper-lessons.sh DB OUT   (DB: four-plies.sh's OUT/nopolicy.db, four.db without its policy;
#                                                resumable: a step whose output exists is kept)
# 2026-12-08 (session 83): three plies -0.02 [-0.10, +0.07], four +0.03 [-0.05, +0.12] against two: not taken.
set -euo pipefail
cd "$(dirname "$0")/../.."
DB=${1:?usage: deeper-lessons.sh DB OUT}
OUT=${2:?usage: deeper-lessons.sh DB OUT}
mkdir -p "$OUT"
valued() {
  local name=$1 search=$2
  [ -e "$OUT/$name.refit.json" ] && return 0
  sqlite3 "$DB" ".backup $OUT/$name.db"
  nice -n 5 node bin/run-ts.js research/relation-retarget.ts --db "$OUT/$name.db" --search "$search" --every 2 2> "$OUT/$name.retarget.log"
  node bin/run-ts.js research/relation-refit.ts --db "$OUT/$name.db" > "$OUT/$name.refit.json"
}
valued two material,quiescence,mates=4,plies=2,bare-king
valued three material,quiescence,mates=4,plies=3,bare-king &
valued four material,quiescence,mates=4,plies=4,late=3,bare-king &
wait
[ -s "$OUT/quality-2k.jsonl" ] || nice -n 5 node bin/run-ts.js training/compare-rankers.ts --positions positions/move-scores-2k.jsonl \
  "db=$OUT/two.db;policy=none" "db=$OUT/three.db;policy=none" "db=$OUT/four.db;policy=none" > "$OUT/quality-2k.jsonl"
