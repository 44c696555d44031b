#!/usr/bin/env bash
# Models of three xboard engines (issue 14; 2026-12-02): Fairy-Max, Sjeng and HoiChess at depth 2, each from 320
# of its games (training/recipes/opponent-games.sh, seed 1, 400 games, every 5th held out), predicted on its
# held-out games beside a model of another of them and beside a value database (VALUE_DB, with its own policy:
# research/recipes/model-line.sh's 3,000-game t.db).
#
#   research/recipes/xboard-models.sh OUT_DIR VALUE_DB
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: xboard-models.sh OUT_DIR VALUE_DB}
VALUE_DB=${2:?usage: xboard-models.sh OUT_DIR VALUE_DB}
NAMES=${NAMES:-fairymax2 sjeng2 hoichess2}
declare -A PLAYER=([fairymax2]='xboard:fairymax:depth=2' [sjeng2]='xboard:sjeng:depth=2' [hoichess2]='xboard:hoichess:depth=2'
  [fairymax1]='xboard:fairymax:depth=1')
# Run 2026-12-02: GAMES=250 NAMES='fairymax2 sjeng2', then NAMES='hoichess2 fairymax2' (the collections' 250 games: 200 to train, 50 held out).
for name in $NAMES; do
  ONLY=$name OUT="$OUT/opp" training/recipes/opponent-games.sh
done
for name in $NAMES; do
  [ -f "$OUT/$name.db" ] || nice -n 5 node bin/morph.js model --pgn "$OUT/opp/$name.train.pgn" --player "${PLAYER[$name]}" \
    --seed 1 --out "$OUT/$name.db" --json --no-progress > "$OUT/$name.json" &
done
wait
# Each model against the next one's (a model of a different player) on its own held-out moves.
set -- $NAMES
others=("${@:2}" "$1")
i=0
for name in $NAMES; do
  other=${others[$i]}; i=$((i + 1))
  [ -s "$OUT/predict-$name-vs-$other.json" ] || node bin/morph.js predict --model "$OUT/$name.db" --other-model "$OUT/$other.db" \
    --pgn "$OUT/opp/$name.heldout.pgn" --player "${PLAYER[$name]}" --json > "$OUT/predict-$name-vs-$other.json"
done
for name in $NAMES; do
  [ -s "$OUT/predict-$name-db.json" ] || nice -n 5 node bin/morph.js predict --model "$OUT/$name.db" --db "$VALUE_DB" \
    --pgn "$OUT/opp/$name.heldout.pgn" --player "${PLAYER[$name]}" --json > "$OUT/predict-$name-db.json" &
done
wait
