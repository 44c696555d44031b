#!/usr/bin/env bash
# The curve from fresh with today's defaults (issue 69's first target): `morph train` with nothing but a seed,
# checkpoints every 1,000 games judged on the scored positions as it plays (the checkpoint judge, searching as the
# database plays: material-full-width since 2026-12-07), carried to TARGET games; then checkpoints played head to
# head (`morph match`, balanced openings, paired), each against the one before it.
#
#   research/recipes/fresh-curve.sh DIR [TARGET]     (resumable: training goes on from the games the database has,
#                                                      and a match already played is kept)
#
# Seed 21, JOBS games at once (default 2). Started 2026-12-07 (session 79) with JOBS=1 to 3,000 games (/work/runs/curve21,
# carried to 7,974 games, its checkpoints judged level from 2,000 games). Session 80 changed the relation lessons'
# defaults (6 a game, valued two plies past the move) and started it again from fresh in /work/runs/curve21b, JOBS=1
# to 3,000 games, then JOBS=2; later sessions carry it to 10,000 and 30,000 with the same command and a larger TARGET.
# Session 83 changed the defaults again (no move policy, bootstrapped lessons, material-five-plies) and started it from
# fresh in /work/runs/curve21d, JOBS=2, TARGET 10000.
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR=${1:?usage: fresh-curve.sh DIR [TARGET]}
TARGET=${2:-3000}
DB="$DIR/curve.db"
mkdir -p "$DIR"

games_in() {
  [ -e "$1" ] || { echo 0; return; }
  node -e 'const D=require("better-sqlite3");const d=new D(process.argv[1],{readonly:true});
    process.stdout.write(String(d.prepare("SELECT count(*) FROM games").pluck().get()))' "$1"
}

played=$(games_in "$DB")
if [ "$played" -lt "$TARGET" ]; then
  nice -n 5 node bin/morph.js train --db "$DB" --games $((TARGET - played)) --seed 21 --jobs "${JOBS:-2}" --checkpoint-every 1000 \
    --progress lines
fi

# Head to head: each checkpoint (and the last database) against the checkpoint a step before it, 100 games, seed 1,
# an SPRT (elo0 0, elo1 +30) stopping a comparison once it is decided.
CHECKPOINTS="$DIR/curve.checkpoints"
pair() {
  local newer=$1 older=$2 name=$3
  [ -s "$DIR/$name.json" ] || nice -n 5 node bin/morph.js match --white "morph:$newer" --black "morph:$older" --games 100 \
    --seed 1 --openings openings/balanced-6ply.epd --sprt elo0=0,elo1=30 --json --pgn "$DIR/$name.pgn" --no-progress > "$DIR/$name.json"
}
[ -e "$CHECKPOINTS/games-003000.db" ] && pair "$CHECKPOINTS/games-003000.db" "$CHECKPOINTS/games-001000.db" h2h-3000-1000
[ -e "$CHECKPOINTS/games-010000.db" ] && pair "$CHECKPOINTS/games-010000.db" "$CHECKPOINTS/games-003000.db" h2h-10000-3000
[ -e "$CHECKPOINTS/games-030000.db" ] && pair "$CHECKPOINTS/games-030000.db" "$CHECKPOINTS/games-010000.db" h2h-30000-10000
# Move quality of every checkpoint and the database, paired over the 400 scored positions (the first row is the
# baseline of the differences), with ab:2,q beside them. Checkpoints taken before 2026-12-07 (session 79) have no
# policy beside them and are valued without one. compare-rankers values only the moves a game move chooses among
# (a full ranking under the full-width search was about three times dearer).
quality="$DIR/quality-$(games_in "$DB").jsonl"
[ -s "$quality" ] || node bin/run-ts.js training/compare-rankers.ts --positions positions/move-scores.jsonl \
  $(for c in "$CHECKPOINTS"/games-0*[0-9].db; do echo "db=$c"; done) "db=$DB" 'ranker=ab:2,q' > "$quality"

# What the graph patterns are worth in move quality (their relation terms and the policy's term; then the policy's
# term alone), paired on the 400 scored positions, on the database as it stands.
worth="$DIR/graph-worth-$(games_in "$DB").jsonl"
[ -s "$worth" ] || node bin/run-ts.js training/compare-rankers.ts --positions positions/move-scores.jsonl \
  "db=$DB" "db=$DB;graphPatterns=false" "db=$DB;policy=none" > "$worth"

# Issue 69's absolute yardstick: the database as it plays against gnuchess at depth 2 (100 games, seed 1; needs
# Debian's gnuchess), named by the games it had learned from.
gnu2() {
  local db=$1 name=$2
  [ -s "$DIR/$name.json" ] || nice -n 5 node bin/morph.js match --white "morph:$db" --black gnuchess:depth=2 --games 100 \
    --seed 1 --openings openings/balanced-6ply.epd --json --pgn "$DIR/$name.pgn" --no-progress > "$DIR/$name.json"
}
gnu2 "$DB" "gnu2-$(games_in "$DB")"
node bin/morph.js report --db "$DB" --out "$DIR/report" > /dev/null && echo "report: $DIR/report/index.html"
