#!/usr/bin/env bash
# Issue 14's "from recorded games alone": does a model from 300 of an engine's games come within 5 points of one
# from 3,000? (2026-12-03.) One collection of Glaurung at depth 1 (opponent-games.sh, seed 1, 3,750 games, every
# 5th held out: 3,000 to train, 750 held out), models from its first 300, 1,000 and 3,000 training games (seed 1,
# the defaults, `--pgn` only), each predicting the same 750 held-out games beside the 3,000-game model (paired on
# the same moves).
#
#   apt-get install -y glaurung
#   research/recipes/model-size.sh OUT_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: model-size.sh OUT_DIR}
PLAYER='uci:/usr/games/glaurung:depth=1'
SIZES=${SIZES:-3000 300 1000}
mkdir -p "$OUT/opp"
GAMES=3750 ONLY=glaurung OUT="$OUT/opp" training/recipes/opponent-games.sh

# The first N games of a PGN file (a game starts at its Event tag).
first_games() { awk -v n="$1" '/^\[Event /{ count++ } count <= n' "$2"; }

for size in $SIZES; do
  [ -f "$OUT/glaurung-$size.pgn" ] || first_games "$size" "$OUT/opp/glaurung.train.pgn" > "$OUT/glaurung-$size.pgn"
  [ -f "$OUT/glaurung-$size.db" ] || { /usr/bin/time -v nice -n 5 node bin/morph.js model --pgn "$OUT/glaurung-$size.pgn" \
    --player "$PLAYER" --seed 1 --out "$OUT/glaurung-$size.db" --json --no-progress > "$OUT/glaurung-$size.json" 2> "$OUT/glaurung-$size.time"; } &
done
wait
for size in $SIZES; do
  [ "$size" = 3000 ] && continue
  file="$OUT/predict-$size-vs-3000.json"
  [ -s "$file" ] || nice -n 5 node bin/morph.js predict --model "$OUT/glaurung-$size.db" --other-model "$OUT/glaurung-3000.db" \
    --pgn "$OUT/opp/glaurung.heldout.pgn" --player "$PLAYER" --json > "$file"
done

# Issue 14's bar for a real engine, on the first 80 held-out games (the value database ranks a few moves a
# second): the 3,000- and 300-game models beside the value database (model-line.sh's, regenerated: 3,000 games from
# fresh, seed 52, its policy built at the end) and a model of another engine (Dreamer at depth 2: 400 games and a
# model as evaluation-terms.sh makes them, in OUT/dr).
[ -f "$OUT/t.db" ] || node bin/morph.js train --db "$OUT/t.db" --games 3000 --seed 52 --jobs 1 --progress lines > "$OUT/train.out" 2> "$OUT/train.err"
DREAMER="$OUT/dr/dreamer2.db"
[ -f "$DREAMER" ] || { GAMES=400 ONLY=dreamer2 OUT="$OUT/dr" training/recipes/opponent-games.sh
  node bin/morph.js model --pgn "$OUT/dr/dreamer2.train.pgn" --player 'xboard:dreamer:depth=2' --seed 1 --out "$DREAMER" --json --no-progress > "$OUT/dr/dreamer2.json"; }
[ -f "$OUT/glaurung-heldout-80.pgn" ] || first_games 80 "$OUT/opp/glaurung.heldout.pgn" > "$OUT/glaurung-heldout-80.pgn"
for size in 3000 300; do
  file="$OUT/bar-$size.json"
  [ -s "$file" ] || nice -n 5 node bin/morph.js predict --model "$OUT/glaurung-$size.db" --other-model "$DREAMER" --db "$OUT/t.db" \
    --pgn "$OUT/glaurung-heldout-80.pgn" --player "$PLAYER" --json > "$file" &
done
wait
# And the other way: Dreamer's held-out moves, Dreamer's model beside Glaurung's (3,000 games).
[ -s "$OUT/bar-dreamer.json" ] || nice -n 5 node bin/morph.js predict --model "$DREAMER" --other-model "$OUT/glaurung-3000.db" \
  --pgn "$OUT/dr/dreamer2.heldout.pgn" --player 'xboard:dreamer:depth=2' --json > "$OUT/bar-dreamer.json"
