#!/usr/bin/env bash
# Models from more games, against the value database (issue 14; 2026-12-02 morning). Fairy-Max at depth 2 was
# 8.9 points above the value database from 200 training games (xboard-models.sh): does a model from 600 of its
# games reach the 10 points? And GNU Chess at depth 2, a fourth classical engine against the same database.
#
#   training/recipes/model-games.sh OUT_DIR
#
# OUT_DIR/t.db: model-line.sh's value database, regenerated (3,000 games from fresh, seed 52, its policy built at
# the end). Collections (opponent-games.sh, seed 1, every 5th game held out): Fairy-Max 750 games, HoiChess 250
# (the model of another player), GNU Chess 400. Fairy-Max's models: from its first 200 training games (as
# xboard-models.sh) and from all 600, ranked on the same 150 held-out games. Models with the defaults, seed 1.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: model-games.sh OUT_DIR}
mkdir -p "$OUT/opp"
[ -f "$OUT/t.db" ] || node bin/morph.js train --db "$OUT/t.db" --games 3000 --seed 52 --jobs 1 --progress lines > "$OUT/train.out" 2> "$OUT/train.err"
GAMES=750 ONLY=fairymax2 OUT="$OUT/opp" training/recipes/opponent-games.sh
GAMES=250 ONLY=hoichess2 OUT="$OUT/opp" training/recipes/opponent-games.sh
GAMES=400 ONLY=gnuchess OUT="$OUT/opp" training/recipes/opponent-games.sh
# The first 200 training games are those of the first 250 games, as in xboard-models.sh's collection.
awk '/^\[Event /{n++} n<=200' "$OUT/opp/fairymax2.train.pgn" > "$OUT/opp/fairymax2-200.train.pgn"

model() { # NAME PGN PLAYER
  [ -f "$OUT/$1.db" ] || nice -n 5 node bin/morph.js model --pgn "$2" --player "$3" --seed 1 --out "$OUT/$1.db" --json --no-progress > "$OUT/$1.json"
}
FM='xboard:fairymax:depth=2'
model fairymax2 "$OUT/opp/fairymax2.train.pgn" "$FM" &
model fairymax2-200 "$OUT/opp/fairymax2-200.train.pgn" "$FM" &
wait
model hoichess2 "$OUT/opp/hoichess2.train.pgn" 'xboard:hoichess:depth=2' &
model gnuchess "$OUT/opp/gnuchess.train.pgn" 'gnuchess:depth=2' &
wait

predict() { # OUTPUT_NAME PLAYER HELD_OUT MODEL OTHER [DB]
  local db=()
  [ -n "${6:-}" ] && db=(--db "$6")
  [ -s "$OUT/$1.json" ] || nice -n 5 node bin/morph.js predict --model "$OUT/$4.db" --other-model "$OUT/$5.db" "${db[@]}" \
    --pgn "$3" --player "$2" --json > "$OUT/$1.json"
}
# More games against fewer, and both against the value database, on the same moves.
predict predict-fm600-fm200-db "$FM" "$OUT/opp/fairymax2.heldout.pgn" fairymax2 fairymax2-200 "$OUT/t.db" &
predict predict-gnuchess-fm200-db 'gnuchess:depth=2' "$OUT/opp/gnuchess.heldout.pgn" gnuchess fairymax2-200 "$OUT/t.db" &
wait
# A model of another player on Fairy-Max's moves.
predict predict-fm600-hoichess "$FM" "$OUT/opp/fairymax2.heldout.pgn" fairymax2 hoichess2
predict predict-fm200-hoichess "$FM" "$OUT/opp/fairymax2.heldout.pgn" fairymax2-200 hoichess2
# Headroom (training/headroom.ts): would pawn structure, or mobility, help these models? 1,500 training decisions.
for feature in pawn mobility; do
  node bin/run-ts.js training/$feature-headroom.ts "$OUT/gnuchess.db" "$OUT/opp/gnuchess.train.pgn" "$OUT/opp/gnuchess.heldout.pgn" 'gnuchess:depth=2' 1500
  node bin/run-ts.js training/$feature-headroom.ts "$OUT/fairymax2-200.db" "$OUT/opp/fairymax2-200.train.pgn" "$OUT/opp/fairymax2.heldout.pgn" "$FM" 1500
done
