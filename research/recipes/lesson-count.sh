#!/usr/bin/env bash
# Do the relation terms keep improving with more lessons, and can a game afford more (issue 69, a curve that keeps
# climbing)? On one database (fresh-curve.sh's seed-21 checkpoint at 5,000 games, with its policy), only its relation
# terms vary:
#   l1000 l2000 l4000  its first N kept lessons (training's: material-forks, the piece values of their time), refitted;
#   lall               all 7,936 it kept, refitted (the same as its own terms: correlation 1);
#   p2all              those 7,936 valued again two plies past the move (material,quiescence,mates=4,plies=2,bare-king)
#                      with today's piece values (research/relation-retarget.ts), refitted;
#   p2more             p2all plus 6 new lessons from each of its 5,000 recorded games, valued the same way
#                      (research/extra-lessons.ts, seed 1): 37,550 lessons;
#   p2mid              the first 16,000 of p2more's;
# then move quality on the 400 scored positions, paired (training/compare-rankers.ts), the weights' size as a control
# (p2all's terms times p2more's norm over its own), the ridge penalty at 30, the terms' worth (relationScale=0), the
# held-out R2 of larger families (research/relation-capacity.ts), and p2more against lall head to head (SPRT).
#
#   research/recipes/lesson-count.sh CHECKPOINT OUT     (CHECKPOINT: DIR/curve.checkpoints/games-005000.db of
#                                                        research/recipes/fresh-curve.sh DIR 5000; resumable: a step
#                                                        whose output exists is kept)
#
# 2026-12-07 (session 80): results in docs/lab/2026-12.md, session 80. Took about 35 minutes of one loaded core for
# the lessons (16 for the extra 29,614 at about 32 ms each), 10 for move quality, and the match.
set -euo pipefail
cd "$(dirname "$0")/../.."
CHECKPOINT=${1:?usage: lesson-count.sh CHECKPOINT OUT}
OUT=${2:?usage: lesson-count.sh CHECKPOINT OUT}
POLICY=${CHECKPOINT%.db}.policy.db
TWO_PLIES=material,quiescence,mates=4,plies=2,bare-king
mkdir -p "$OUT"

# copy NAME: a copy of the checkpoint beside the checkpoint's policy; false when it exists already.
copy() {
  [ -e "$OUT/$1.db" ] && return 1
  sqlite3 "$CHECKPOINT" ".backup $OUT/$1.db"
  ln -sf "$(realpath "$POLICY")" "$OUT/$1.policy.db"
}
refit() { node bin/run-ts.js research/relation-refit.ts --db "$OUT/$1.db" "${@:2}" > "$OUT/$1.refit.json"; }
first_lessons() { sqlite3 "$OUT/$1.db" "DELETE FROM relation_lessons WHERE id >= (SELECT min(id) FROM relation_lessons) + $2"; }

for n in 1000 2000 4000; do copy "l$n" && { first_lessons "l$n" $n; refit "l$n"; }; done
copy lall && refit lall
if copy p2all; then
  node bin/run-ts.js research/relation-retarget.ts --db "$OUT/p2all.db" --search $TWO_PLIES 2> "$OUT/p2all.retarget.log"
  refit p2all
fi
if [ ! -e "$OUT/p2more.refit.json" ]; then
  [ -e "$OUT/p2more.db" ] || { sqlite3 "$OUT/p2all.db" ".backup $OUT/p2more.db"; ln -sf "$(realpath "$POLICY")" "$OUT/p2more.policy.db"; }
  # Resumes after the last game whose lessons were written (one transaction a game).
  kept=$(sqlite3 "$OUT/p2all.db" "SELECT max(id) FROM relation_lessons")
  last=$(sqlite3 "$OUT/p2more.db" "SELECT coalesce(max(game), 0) FROM relation_lessons WHERE id > $kept")
  node bin/run-ts.js research/extra-lessons.ts --db "$OUT/p2more.db" --from $((last + 1)) --to 5000 --per-game 6 --search $TWO_PLIES \
    2> "$OUT/p2more.lessons.log"
  refit p2more
fi
if [ ! -e "$OUT/p2mid.refit.json" ]; then
  sqlite3 "$OUT/p2more.db" ".backup $OUT/p2mid.db"; ln -sf "$(realpath "$POLICY")" "$OUT/p2mid.policy.db"
  first_lessons p2mid 16000
  refit p2mid
fi
for n in p2all p2more; do
  [ -e "$OUT/${n}30.refit.json" ] || { sqlite3 "$OUT/$n.db" ".backup $OUT/${n}30.db"; ln -sf "$(realpath "$POLICY")" "$OUT/${n}30.policy.db"; refit "${n}30" --penalty 30; }
done

quality() { [ -s "$OUT/$1.jsonl" ] || node bin/run-ts.js training/compare-rankers.ts --positions positions/move-scores.jsonl "${@:2}" > "$OUT/$1.jsonl"; }
quality forks-curve "db=$OUT/lall.db" "db=$OUT/l4000.db" "db=$OUT/l2000.db" "db=$OUT/l1000.db" "db=$OUT/lall.db;graphPatterns=false"
quality two-plies-curve "db=$OUT/p2all.db" "db=$OUT/p2mid.db" "db=$OUT/p2more.db" "db=$OUT/lall.db"
# The control: p2all's terms scaled to p2more's norm (.3388 / .244), and both fitted with a tenth of the penalty.
quality size-control "db=$OUT/p2more.db" "db=$OUT/p2all.db;relationScale=1.39" "db=$OUT/p2all30.db" "db=$OUT/p2more30.db"
quality worth "db=$OUT/p2more.db" "db=$OUT/p2more.db;relationScale=0" "db=$OUT/p2more.db;graphPatterns=false"
[ -s "$OUT/capacity-p2more.txt" ] || node bin/run-ts.js research/relation-capacity.ts --db "$OUT/p2more.db" \
  --families base,square,king,fork > "$OUT/capacity-p2more.txt"
[ -s "$OUT/h2h-lessons.json" ] || nice -n 5 node bin/morph.js match --white "morph:$OUT/p2more.db" --black "morph:$OUT/lall.db" \
  --games 100 --seed 1 --openings openings/balanced-6ply.epd --sprt elo0=0,elo1=30 --json --pgn "$OUT/h2h-lessons.pgn" \
  --no-progress > "$OUT/h2h-lessons.json"
