#!/usr/bin/env bash
# Move patterns learned from a strong teacher's games (issue 71; SYLPH learned from Tal's): native Stockfish at depth
# 8 against itself at depth 9 from the training openings (the two depths keep a pair of games from repeating), every
# move of both sides learned as the teacher's (`morph model --move-patterns --pgn`); then, on the 400 scored
# positions, the move patterns alone as a root filter (top-4), and as a move policy beside a value database's own
# (`;movePolicy=FILE`, src/model/policy.ts movePatternPolicy and jointPolicy).
#   Seeds: match 5 (opening order), model 1. Needs `apt-get install -y stockfish` (/usr/games/stockfish).
#   How long (2026-12-07, 2 cores shared with two matches): about 7 s a game; 207 games' move patterns 2 minutes; the
#   rankers about 25 minutes; the 100-game match 71 minutes.
#
#   research/recipes/move-patterns-teacher.sh OUT_DIR DB [GAMES]   (DB: a value database with DB.policy.db beside it;
#                                                                  GAMES default 200; resumes: an existing PGN is kept)
# The run of 2026-12-07: DB = /work/runs/tsearch/s14-material-quiescence.db (research/recipes/training-search-3k.sh,
# seed 14, 2,000 games); the match was stopped at 228 games and the first 207 complete ones learned.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: move-patterns-teacher.sh OUT_DIR DB [GAMES]}
DB=${2:?usage: move-patterns-teacher.sh OUT_DIR DB [GAMES]}
GAMES=${3:-200}
SF=/usr/games/stockfish
POSITIONS=positions/move-scores.jsonl
mkdir -p "$OUT"

[ -s "$OUT/teacher.pgn" ] || node bin/morph.js match --white "uci:$SF:depth=8" --black "uci:$SF:depth=9" --games "$GAMES" \
  --openings openings/train-6ply.epd --seed 5 --pgn "$OUT/teacher.pgn" --json > "$OUT/teacher.json"
# Both players' moves are the teacher's: one name for both, complete games only.
python3 - "$OUT/teacher.pgn" "$OUT/teacher-both.pgn" <<'PY'
import re, sys
games = re.split(r'\n(?=\[Event )', open(sys.argv[1]).read().strip())
done = [g for g in games if re.search(r'(1-0|0-1|1/2-1/2)\s*$', g.strip())]
open(sys.argv[2], 'w').write('\n\n'.join(re.sub(r'\[(White|Black) "[^"]*"\]', r'[\1 "teacher"]', g) for g in done) + '\n')
PY
[ -f "$OUT/mp-teacher.db" ] || node bin/morph.js model --move-patterns --pgn "$OUT/teacher-both.pgn" --player teacher \
  --out "$OUT/mp-teacher.db" --seed 1 --no-progress
node bin/morph.js agree --positions "$POSITIONS" --ranker "move-patterns:$OUT/mp-teacher.db" --json > "$OUT/filter.json"
node bin/run-ts.js training/compare-rankers.ts --positions "$POSITIONS" "db=$DB" "db=$DB;movePolicy=$OUT/mp-teacher.db" \
  "db=$DB;movePolicy=$OUT/mp-teacher.db;movePolicyScale=0.5" "db=$DB;policy=none;movePolicy=$OUT/mp-teacher.db" \
  "db=$DB;policy=none" > "$OUT/policy.txt"
cat "$OUT/filter.json" "$OUT/policy.txt"
# In games: the database with the teacher's move patterns beside its own policy against itself without them.
[ -s "$OUT/h2h.json" ] || node bin/morph.js match --white "morph:$DB" --white-move-policy "$OUT/mp-teacher.db" --black "morph:$DB" \
  --games 100 --seed 1 --json --pgn "$OUT/h2h.pgn" > "$OUT/h2h.json"
