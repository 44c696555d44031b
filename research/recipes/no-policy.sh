#!/usr/bin/env bash
# Training without the move policy (issue 69). At four plies the policy, fitted to the sparring partner's choices,
# is worth nothing measurable (session 82: -42 Elo [-106, +20] with it against without, on seed 21's 3,000-game
# database), while learning it online is most of a training run's upkeep. Does a run without it (`train
# --no-policy`) play as well at the same games, and how many more games does it play an hour?
#   1. seed 21 from fresh with --no-policy to 3,000 games (checkpoints every 1,000, judged as they play); the
#      games an hour are in its log, beside fresh-curve.sh's run with the policy;
#   2. its 3,000-game database with the new default play search (material-four-plies) against fresh-curve.sh's
#      3,000-game checkpoint as four-plies.sh played it (four.db, with its policy), 100 games, paired openings.
#
#   research/recipes/no-policy.sh OUT FOUR_DB   (FOUR_DB: four-plies.sh's OUT/four.db; resumable: training goes on
#                                                 from the games the database has, a match already played is kept)
# 2026-12-07 (session 82): trained; 2026-12-08 (session 83): the match, 48/16/36 for the run without the policy, +42 Elo [-20, +107]
# (SPRT undecided at 100 games). Results in docs/lab/2026-12.md, session 83.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: no-policy.sh OUT FOUR_DB}
FOUR=${2:?usage: no-policy.sh OUT FOUR_DB}
DB="$OUT/nopolicy.db"
mkdir -p "$OUT"
played=0
[ -e "$DB" ] && played=$(node -e 'const D=require("better-sqlite3");process.stdout.write(String(new D(process.argv[1],{readonly:true}).prepare("SELECT count(*) FROM games").pluck().get()))' "$DB")
if [ "$played" -lt 3000 ]; then
  nice -n 5 node bin/morph.js train --db "$DB" --games $((3000 - played)) --seed 21 --jobs "${JOBS:-2}" --no-policy \
    --checkpoint-every 1000 --progress lines
fi
CHECKPOINT="$OUT/nopolicy.checkpoints/games-003000.db"
[ -e "$OUT/four-nopolicy.db" ] || node bin/run-ts.js research/with-config.ts "$CHECKPOINT" "$OUT/four-nopolicy.db" playSearch=material-four-plies
[ -s "$OUT/h2h.json" ] || nice -n 5 node bin/morph.js match --white "morph:$OUT/four-nopolicy.db" --black "morph:$FOUR" --games 100 \
  --seed 1 --openings openings/balanced-6ply.epd --sprt elo0=-30,elo1=0 --json --pgn "$OUT/h2h.pgn" --no-progress > "$OUT/h2h.json"
