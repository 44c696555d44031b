#!/usr/bin/env bash
# Which search should value the relation terms' lessons under a full-width play search (issue 69, the signal)?
# TreeStrap's targets from material-forks (how the terms are learned today, lessonSearchFor) against targets from the
# play search itself (material-full-width: every move three plies past the position's reply, then captures).
# On the same database and the same lesson positions (the 4,983 its run kept), two copies:
#   ctl   every lesson valued again by material-forks (research/relation-retarget.ts), so both use today's piece values;
#   full  every lesson valued again by material-full-width;
# each refitted by ridge (research/relation-refit.ts), then:
# 1. the held-out R2 of each copy's gap by the relation terms and larger families (research/relation-capacity.ts);
# 2. move quality on the 400 scored positions, paired (both play material-full-width, each with its policy);
# 3. 100 games head to head, seed 1, balanced openings, paired.
# Takes: about 15 minutes (full) and 5 (ctl) of retargeting on an idle core, 20 of move quality, 50 of games.
#
#   research/recipes/lesson-search.sh DB [OUT]   (DB: session 75's s14-material-quiescence.db with playSearch
#                                                 material-full-width: research/recipes/full-width.sh's plies3.db)
#
# 2026-12-07 (session 78): results in docs/lab/2026-12.md, "lessons valued by the full-width search".
set -euo pipefail
cd "$(dirname "$0")/../.."
DB=${1:?usage: lesson-search.sh DB [OUT]}
OUT=${2:-/work/runs/fw2}
mkdir -p "$OUT"
for name in ctl full; do
  [ -e "$OUT/rel-$name.db" ] && continue
  sqlite3 "$DB" ".backup $OUT/rel-$name.db"
  sqlite3 "${DB%.db}.policy.db" ".backup $OUT/rel-$name.policy.db"
done
retarget() { # NAME SEARCH
  [ -s "$OUT/rel-$1.refit.json" ] && return
  node bin/run-ts.js research/relation-retarget.ts --db "$OUT/rel-$1.db" --search "$2" 2> "$OUT/rel-$1.log"
  node bin/run-ts.js research/relation-refit.ts --db "$OUT/rel-$1.db" > "$OUT/rel-$1.refit.json"
}
retarget full material-full-width
retarget ctl material-forks
for name in ctl full; do
  [ -s "$OUT/capacity-$name.txt" ] || node bin/run-ts.js research/relation-capacity.ts --db "$OUT/rel-$name.db" > "$OUT/capacity-$name.txt"
done
[ -s "$OUT/quality-lessons.txt" ] || node bin/run-ts.js training/compare-rankers.ts --positions positions/move-scores.jsonl \
  "db=$OUT/rel-ctl.db" "db=$OUT/rel-full.db" > "$OUT/quality-lessons.txt"
[ -s "$OUT/h2h-lessons.json" ] || node bin/morph.js match --white "morph:$OUT/rel-full.db" --black "morph:$OUT/rel-ctl.db" \
  --games 100 --seed 1 --pgn "$OUT/h2h-lessons.pgn" --json > "$OUT/h2h-lessons.json" 2> "$OUT/h2h-lessons.err"
