#!/usr/bin/env bash
# The plies look (issue 69, "how far it looks"): a full-width alpha-beta N plies past each move over the learned
# values, against material-forks' hand-written threat looks, on one trained database (each side with its own policy).
# 1. Move quality on the 400 scored positions, paired: material-forks, plies=1, 2 and 3 (with quiescence and mates=4).
# 2. Time a game move takes (research/move-times.ts, 100 scored positions) for each.
# 3. 100 games head to head (seed 1, balanced openings, paired) of plies=2 and of plies=3 against material-forks, each
#    a copy of the database with its play search changed (research/with-config.ts), the same policy beside it.
# 4. 100 games each against gnuchess at depth 2 (issue 69's absolute target), plies=3 and material-forks, same seed.
# 5. (session 78) The graph patterns' worth under plies=3: 100 games of the database against itself with
#    --no-graph-patterns (its relation terms and policy term off) for the first player, seed 1.
# 6. (session 78, with the plies look's memory) plies=4 against gnuchess at depth 2, the same seed as step 4's.
# Takes: about 25 minutes of move quality, then about 50 minutes a head-to-head match and 20-40 a gnuchess one on
# 2 cores (the matches run two at a time). Needs Debian's gnuchess. Each step skips what its output already holds.
#
#   research/recipes/full-width.sh DB [OUT]    (DB: session 75's s14-material-quiescence.db, research/recipes/training-search-3k.sh)
#
# 2026-12-07 (session 77), branch full-width at the commit that added this recipe: results in docs/lab/2026-12.md,
# "a full-width search".
set -euo pipefail
cd "$(dirname "$0")/../.."
DB=${1:?usage: full-width.sh DB [OUT]}
OUT=${2:-/work/runs/fw}
mkdir -p "$OUT"
BASE=${DB%.db}
list() { echo "material,quiescence,mates=4,plies=$1,bare-king"; }

[ -s "$OUT/quality.txt" ] || node bin/run-ts.js training/compare-rankers.ts --positions positions/move-scores.jsonl \
  "db=$DB" "db=$DB;search=$(list 1)" "db=$DB;search=$(list 2)" "db=$DB;search=$(list 3)" > "$OUT/quality.txt"
[ -s "$OUT/move-times.txt" ] || for search in material-forks "$(list 1)" "$(list 2)" "$(list 3)"; do
  echo "$search: $(SEARCH=$search DB=$DB N=100 K=1000000 FENS=positions/move-scores.jsonl node bin/run-ts.js research/move-times.ts)"
done > "$OUT/move-times.txt"

copy() { # NAME PLAY_SEARCH
  [ -e "$OUT/$1.db" ] && return
  node bin/run-ts.js research/with-config.ts "$DB" "$OUT/$1.db" "playSearch=$2"
  cp "$BASE.policy.db" "$OUT/$1.policy.db"
}
copy forks material-forks
copy plies2 "$(list 2)"
copy plies3 "$(list 3)"

match() { # NAME WHITE BLACK [OPTIONS...]
  local name=$1 white=$2 black=$3
  shift 3
  [ -s "$OUT/$name.json" ] || node bin/morph.js match --white "$white" --black "$black" --games 100 --seed 1 "$@" \
    --pgn "$OUT/$name.pgn" --json > "$OUT/$name.json" 2> "$OUT/$name.err"
}
match h2h-plies2 "morph:$OUT/plies2.db" "morph:$OUT/forks.db" &
match h2h-plies3 "morph:$OUT/plies3.db" "morph:$OUT/forks.db"
wait
match gnu2-plies3 "morph:$OUT/plies3.db" gnuchess:depth=2 &
match gnu2-forks "morph:$OUT/forks.db" gnuchess:depth=2
wait
match abl-plies3 "morph:$OUT/plies3.db" "morph:$OUT/plies3.db" --no-graph-patterns
copy plies4 "$(list 4)"
match gnu2-plies4 "morph:$OUT/plies4.db" gnuchess:depth=2
for name in h2h-plies2 h2h-plies3 gnu2-plies3 gnu2-forks abl-plies3 gnu2-plies4; do echo "$name: $(tail -1 "$OUT/$name.err")"; done
