#!/usr/bin/env bash
# A second real engine past issue 14's bar (2026-12-03 evening): engines not modelled before, or at another
# setting. Phalanx on a 2-second clock for the game (xboard:...:clock=2000), at full speed and held to 20,000
# nodes a second; Dreamer at depth 1 (at depth 2 it missed the bar by under a point); PyChess's own engine at
# depths 2 and 1, without its book (training/engines/pychess-engine.sh).
#
#   apt-get install -y phalanx dreamchess pychess
#   training/recipes/second-engines.sh OUT_DIR VALUE_DB OTHER_MODEL [MORE_OTHER_MODELS...]
#
# VALUE_DB: model-line.sh's value database (3,000 games from fresh, seed 52, its policy built at the end).
# OTHER_MODEL: a model of a different engine, here model-size.sh's model of Glaurung from 3,000 games; more (here
# simple-engines.sh's model of Dreamer at depth 2) rank the moves of the engines that come near the bar.
# Collections: opponent-games.ts, seed 1, 400 games against the four partners, every 5th held out. Models: seed 1,
# the defaults. Each engine's 80 held-out games are ranked by its own model and OTHER_MODEL (paired on the same
# moves). The value database (about two moves a second) and the more models rank only PyChess's at depth 2, the
# one that came near; a model of it with pull 1000 beside the default.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: second-engines.sh OUT_DIR VALUE_DB OTHER_MODEL}
VALUE_DB=${2:?usage: second-engines.sh OUT_DIR VALUE_DB OTHER_MODEL}
OTHER=${3:?usage: second-engines.sh OUT_DIR VALUE_DB OTHER_MODEL}
shift 3
NAMES=${NAMES:-phalanx phalanxn dreamer1 pychess2 pychess1}
PARTNERS='stockfish:skill=5,depth=3;ab:2;stockfish:skill=10,depth=2;greedy'
mkdir -p "$OUT/opp"

spec() {
  case $1 in
    phalanx) echo 'xboard:phalanx -b- -l-:clock=2000' ;;
    phalanxn) echo 'xboard:phalanx -b- -l- -n 20000:clock=2000' ;;
    dreamer1) echo 'xboard:dreamer:depth=1' ;;
    pychess2) echo 'xboard:training/engines/pychess-engine.sh:depth=2' ;;
    pychess1) echo 'xboard:training/engines/pychess-engine.sh:depth=1' ;;
    *) echo "second-engines: unknown name $1" >&2; exit 2 ;;
  esac
}

for name in $NAMES; do
  nice -n 5 node bin/run-ts.js training/opponent-games.ts --player "$(spec $name)" --partners "$PARTNERS" \
    --games 400 --held-out-every 5 --seed 1 --out "$OUT/opp/$name" > "$OUT/$name.out"
  [ -f "$OUT/$name.db" ] || nice -n 5 node bin/morph.js model --pgn "$OUT/opp/$name.train.pgn" --player "$(spec $name)" \
    --seed 1 --out "$OUT/$name.db" --json --no-progress > "$OUT/$name.json"
  [ -s "$OUT/predict-$name.json" ] || node bin/morph.js predict --model "$OUT/$name.db" --other-model "$OTHER" \
    --pgn "$OUT/opp/$name.heldout.pgn" --player "$(spec $name)" --json > "$OUT/predict-$name.json"
done

PY=$(spec pychess2)
[ -s "$OUT/predict-pychess2-db.json" ] || node bin/morph.js predict --model "$OUT/pychess2.db" --other-model "$OTHER" \
  --db "$VALUE_DB" --pgn "$OUT/opp/pychess2.heldout.pgn" --player "$PY" --json > "$OUT/predict-pychess2-db.json"
for more in "$@"; do
  node bin/morph.js predict --model "$OUT/pychess2.db" --other-model "$more" --pgn "$OUT/opp/pychess2.heldout.pgn" --player "$PY"
done
[ -f "$OUT/pychess2-pull1000.db" ] || nice -n 5 node bin/morph.js model --pgn "$OUT/opp/pychess2.train.pgn" --player "$PY" \
  --seed 1 --shrinkage 1000 --out "$OUT/pychess2-pull1000.db" --json --no-progress > "$OUT/pychess2-pull1000.json"
node bin/morph.js predict --model "$OUT/pychess2-pull1000.db" --other-model "$OUT/pychess2.db" --pgn "$OUT/opp/pychess2.heldout.pgn" --player "$PY"
# The depth-1 players with material "settled" (the captures a move allows, no two-ply line), beside the default.
for name in dreamer1 pychess1; do
  [ -f "$OUT/$name-settled.db" ] || nice -n 5 node bin/morph.js model --pgn "$OUT/opp/$name.train.pgn" --player "$(spec $name)" \
    --seed 1 --material settled --out "$OUT/$name-settled.db" --json --no-progress > "$OUT/$name-settled.json"
  node bin/morph.js predict --model "$OUT/$name-settled.db" --other-model "$OUT/$name.db" --pgn "$OUT/opp/$name.heldout.pgn" \
    --player "$(spec $name)"
done
# PyChess at depth 2 from 960 training games: the collection resumed to 1,200 games in OUT/big (its first 400 are the
# games above), then the default model and the 320-game one rank all 240 held-out games beside Glaurung's model and
# the value database (the first 80 are the held-out games above).
mkdir -p "$OUT/big"
[ -f "$OUT/big/pychess2.train.pgn" ] || cp "$OUT/opp/pychess2.train.pgn" "$OUT/opp/pychess2.heldout.pgn" "$OUT/big/"
node bin/run-ts.js training/opponent-games.ts --player "$PY" --partners "$PARTNERS" --games 1200 --held-out-every 5 --seed 1 \
  --out "$OUT/big/pychess2" > "$OUT/big/collect.out"
[ -f "$OUT/pychess2-960.db" ] || nice -n 5 node bin/morph.js model --pgn "$OUT/big/pychess2.train.pgn" --player "$PY" \
  --seed 1 --out "$OUT/pychess2-960.db" --json --no-progress > "$OUT/pychess2-960.json"
node bin/morph.js predict --model "$OUT/pychess2-960.db" --other-model "$OUT/pychess2.db" --pgn "$OUT/big/pychess2.heldout.pgn" --player "$PY"
node bin/morph.js predict --model "$OUT/pychess2-960.db" --other-model "$OTHER" --db "$VALUE_DB" --pgn "$OUT/big/pychess2.heldout.pgn" --player "$PY"
