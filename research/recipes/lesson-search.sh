#!/usr/bin/env bash
# Which search should value the relation terms' lessons under a full-width play search (issue 69, the signal)?
# TreeStrap's targets from material-forks (how the terms are learned today, lessonSearchFor) against targets from the
# play search itself (material-full-width: every move three plies past the position's reply, then captures).
# On the same database and the same lesson positions (the 4,983 its run kept):
#   the database as it is   its lessons as training valued them (material-forks, with the piece values of the time);
#   full                    a copy whose every lesson is valued again by material-full-width
#                           (research/relation-retarget.ts, today's piece values), refitted by ridge
#                           (research/relation-refit.ts);
# then
# 1. the held-out R2 of each one's gap by the relation terms and larger families (research/relation-capacity.ts);
# 2. move quality on the 400 scored positions, paired (both play material-full-width, each with its policy).
# Games were not played: the refitted terms correlate .97 with the database's and move quality showed nothing.
# Takes: about 15 minutes of retargeting on an idle core (34 on a loaded machine), about 20 of move quality.
#
#   research/recipes/lesson-search.sh DB [OUT]   (DB: session 75's s14-material-quiescence.db with playSearch
#                                                 material-full-width: research/recipes/full-width.sh's plies3.db)
#
# 2026-12-07 (session 78): results in docs/lab/2026-12.md, session 78.
set -euo pipefail
cd "$(dirname "$0")/../.."
DB=${1:?usage: lesson-search.sh DB [OUT]}
OUT=${2:-/work/runs/fw2}
mkdir -p "$OUT"
if [ ! -s "$OUT/rel-full.refit.json" ]; then
  sqlite3 "$DB" ".backup $OUT/rel-full.db"
  sqlite3 "${DB%.db}.policy.db" ".backup $OUT/rel-full.policy.db"
  node bin/run-ts.js research/relation-retarget.ts --db "$OUT/rel-full.db" --search material-full-width 2> "$OUT/rel-full.log"
  node bin/run-ts.js research/relation-refit.ts --db "$OUT/rel-full.db" > "$OUT/rel-full.refit.json"
fi
[ -s "$OUT/capacity-orig.txt" ] || node bin/run-ts.js research/relation-capacity.ts --db "$DB" > "$OUT/capacity-orig.txt"
[ -s "$OUT/capacity-full.txt" ] || node bin/run-ts.js research/relation-capacity.ts --db "$OUT/rel-full.db" > "$OUT/capacity-full.txt"
[ -s "$OUT/quality-full-vs-orig.txt" ] || node bin/run-ts.js training/compare-rankers.ts --positions positions/move-scores.jsonl \
  "db=$DB" "db=$OUT/rel-full.db" > "$OUT/quality-full-vs-orig.txt"
