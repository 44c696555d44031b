#!/usr/bin/env bash
# TreeStrap proper (issue 69, the signal): do the relation terms learn more when their lessons' searches read the
# terms themselves? Training's lessons are valued by the play search with no terms at its leaves, so the terms learn
# only what two plies of material search find beyond captures, and nothing compounds. Here the search that values a
# lesson reads the relation terms as they stand (no policy), as TreeStrap's target does, and the terms are refitted;
# twice, each round valuing every lesson with the last round's terms (fitted value iteration).
#   boot1   lesson-count.sh's p2more (37,550 lessons valued two plies past the move, no terms) valued again with
#           p2more's terms at the leaves (research/relation-retarget.ts --with-terms), refitted;
#   boot2   boot1's lessons valued again with boot1's terms, refitted;
# then move quality on the 400 scored positions, paired, with and without the policy.
#
#   research/recipes/bootstrap-lessons.sh LESSONS OUT   (LESSONS: the OUT of research/recipes/lesson-count.sh;
#                                                        resumable: a step whose output exists is kept)
set -euo pipefail
cd "$(dirname "$0")/../.."
LESSONS=${1:?usage: bootstrap-lessons.sh LESSONS OUT}
OUT=${2:?usage: bootstrap-lessons.sh LESSONS OUT}
TWO_PLIES=material,quiescence,mates=4,plies=2,bare-king
mkdir -p "$OUT"

# round NAME FROM: FROM's lessons valued with FROM's terms at the leaves, refitted, into NAME.
round() {
  [ -e "$OUT/$1.refit.json" ] && return 0
  sqlite3 "$2" ".backup $OUT/$1.db"
  ln -sf "$(realpath "${2%.db}.policy.db")" "$OUT/$1.policy.db"
  node bin/run-ts.js research/relation-retarget.ts --db "$OUT/$1.db" --search $TWO_PLIES --with-terms 2> "$OUT/$1.retarget.log"
  node bin/run-ts.js research/relation-refit.ts --db "$OUT/$1.db" > "$OUT/$1.refit.json"
}
round boot1 "$LESSONS/p2more.db"
round boot2 "$OUT/boot1.db"

quality() { [ -s "$OUT/$1.jsonl" ] || node bin/run-ts.js training/compare-rankers.ts --positions positions/move-scores.jsonl "${@:2}" > "$OUT/$1.jsonl"; }
quality with-policy "db=$LESSONS/p2more.db" "db=$OUT/boot1.db" "db=$OUT/boot2.db"
quality no-policy "db=$LESSONS/p2more.db;policy=none" "db=$OUT/boot1.db;policy=none" "db=$OUT/boot2.db;policy=none"
