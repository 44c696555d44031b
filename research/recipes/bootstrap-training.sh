#!/usr/bin/env bash
# TreeStrap's bootstrapped target in training (issue 69, the signal that keeps paying). A relation lesson is valued
# by a two-ply search over material alone, so what the terms learn never feeds back into their own targets, and the
# fit levels off. With config bootstrapLessons the lesson's search reads the relation terms at its leaves, as they
# stand when the game is played, so what they learn compounds. Both runs are seed 21 without a move policy (a new
# database's default since session 83), one job each, side by side:
#   plain   no-policy.sh's run (OUT/nopolicy.db, 3,000 games) copied and continued to GAMES;
#   boot    from fresh with bootstrapLessons (its first game, with no terms yet, is the plain run's) to GAMES;
# then, at four plies (the default play search), boot against plain at GAMES and plain at GAMES against plain at
# 3,000 (100 games each, balanced openings, seed 1), and move quality on the 2,100 scored positions.
#
#   research/recipes/bootstrap-training.sh NOPOLICY OUT [GAMES]   (NOPOLICY: no-policy.sh's OUT; GAMES default 6000;
#                                                                  resumable: training goes on from the games a
#                                                                  database has, a finished match is kept)
# 2026-12-08 (session 83), GAMES 6000: boot against plain -0.13 [-0.23, -0.02] in move quality, +42 Elo [-17, +103]
# head to head; taken as a new database's default. Results in docs/lab/2026-12.md, session 83. For the curve, run it
# again with a new OUT and GAMES 10000 (training resumes only within one OUT).
set -euo pipefail
cd "$(dirname "$0")/../.."
NOPOLICY=${1:?usage: bootstrap-training.sh NOPOLICY OUT [GAMES]}
OUT=${2:?usage: bootstrap-training.sh NOPOLICY OUT [GAMES]}
GAMES=${3:-6000}
mkdir -p "$OUT"
played() { node -e 'const D=require("better-sqlite3");process.stdout.write(String(new D(process.argv[1],{readonly:true}).prepare("SELECT count(*) FROM games").pluck().get()))' "$1"; }
train() { # DB: trained to GAMES, seed 21, no policy
  local n; n=$(played "$1")
  [ "$n" -ge "$GAMES" ] || nice -n 5 node bin/morph.js train --db "$1" --games $((GAMES - n)) --seed 21 --jobs 1 --no-policy \
    --checkpoint-every 3000 --progress lines
}
[ -e "$OUT/plain.db" ] || sqlite3 "$NOPOLICY/nopolicy.db" ".backup $OUT/plain.db"
if [ ! -e "$OUT/boot.db" ]; then
  node bin/morph.js train --db "$OUT/boot-first.db" --games 1 --seed 21 --jobs 1 --no-policy --progress none
  node bin/run-ts.js research/with-config.ts "$OUT/boot-first.db" "$OUT/boot.db" bootstrapLessons=true
  rm -f "$OUT"/boot-first.db*
fi
train "$OUT/plain.db" > "$OUT/plain.log" 2>&1 &
train "$OUT/boot.db" > "$OUT/boot.log" 2>&1 &
wait
four() { [ -e "$2" ] || node bin/run-ts.js research/with-config.ts "$1" "$2" playSearch=material-four-plies; }
four "$OUT/plain.db" "$OUT/plain-four.db"
four "$OUT/boot.db" "$OUT/boot-four.db"
four "$NOPOLICY/nopolicy.checkpoints/games-003000.db" "$OUT/plain3000-four.db"
h2h() { [ -s "$OUT/$1.json" ] || nice -n 5 node bin/morph.js match --white "morph:$2" --black "morph:$3" --games 100 --seed 1 \
  --openings openings/balanced-6ply.epd --json --pgn "$OUT/$1.pgn" --no-progress > "$OUT/$1.json"; }
h2h boot-plain "$OUT/boot-four.db" "$OUT/plain-four.db" &
h2h plain-3000 "$OUT/plain-four.db" "$OUT/plain3000-four.db" &
wait
[ -s "$OUT/quality-2k.jsonl" ] || nice -n 5 node bin/run-ts.js training/compare-rankers.ts --positions positions/move-scores-2k.jsonl \
  "db=$OUT/plain-four.db" "db=$OUT/boot-four.db" "db=$OUT/plain3000-four.db" > "$OUT/quality-2k.jsonl"
