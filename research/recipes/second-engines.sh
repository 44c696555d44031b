#!/usr/bin/env bash
# A second real engine past issue 14's bar (2026-12-03 evening): engines not modelled before, or at another
# setting. Phalanx on a 2-second clock for the game (xboard:...:clock=2000), at full speed and held to 20,000
# nodes a second; Dreamer at depth 1 (at depth 2 it missed the bar by under a point); PyChess's own engine at
# depths 2 and 1, without its book (training/engines/pychess-engine.sh).
#
#   apt-get install -y phalanx dreamchess pychess
#   research/recipes/second-engines.sh OUT_DIR VALUE_DB OTHER_MODEL [MORE_OTHER_MODELS...]
#
# VALUE_DB: model-line.sh's value database (3,000 games from fresh, seed 52, its policy built at the end).
# OTHER_MODEL: a model of a different engine, here model-size.sh's model of Glaurung from 3,000 games; more (here
# simple-engines.sh's model of Dreamer at depth 2) rank the moves of the engines that come near the bar.
# Collections: opponent-games.sh (ONLY=NAME), seed 1, 400 games against the four partners, every 5th held out. Models: seed 1,
# the defaults. Each engine's 80 held-out games are ranked by its own model and OTHER_MODEL (paired on the same
# moves). The value database (about two moves a second) and the more models rank only PyChess's at depth 2, the
# one that came near; a model of it with pull 1000 beside the default.
set -euo pipefail
cd "$(dirname "$0")/../.."
source research/recipes/lib.sh
OUT=${1:?usage: second-engines.sh OUT_DIR VALUE_DB OTHER_MODEL}
VALUE_DB=${2:?usage: second-engines.sh OUT_DIR VALUE_DB OTHER_MODEL}
OTHER=${3:?usage: second-engines.sh OUT_DIR VALUE_DB OTHER_MODEL}
shift 3
NAMES=${NAMES:-phalanx phalanxn dreamer1 pychess2 pychess1}
mkdir -p "$OUT/opp" "$OUT/big"

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
rank() { # MODEL HELD_OUT PLAYER [OPTIONS...]: morph predict, as text
  local file=$1 pgn=$2 player=$3
  shift 3
  node bin/morph.js predict --model "$file" --pgn "$pgn" --player "$player" "$@"
}

for name in $NAMES; do
  GAMES=400 ONLY=$name OUT="$OUT/opp" training/recipes/opponent-games.sh > "$OUT/$name.out"
  build_model "$OUT/$name.db" "$OUT/opp/$name.train.pgn" "$(spec $name)"
  [ -s "$OUT/predict-$name.json" ] || rank "$OUT/$name.db" "$OUT/opp/$name.heldout.pgn" "$(spec $name)" \
    --other-model "$OTHER" --json > "$OUT/predict-$name.json"
done

PY=$(spec pychess2)
[ -s "$OUT/predict-pychess2-db.json" ] || rank "$OUT/pychess2.db" "$OUT/opp/pychess2.heldout.pgn" "$PY" \
  --other-model "$OTHER" --db "$VALUE_DB" --json > "$OUT/predict-pychess2-db.json"
for more in "$@"; do rank "$OUT/pychess2.db" "$OUT/opp/pychess2.heldout.pgn" "$PY" --other-model "$more"; done
build_model "$OUT/pychess2-pull1000.db" "$OUT/opp/pychess2.train.pgn" "$PY" --shrinkage 1000
rank "$OUT/pychess2-pull1000.db" "$OUT/opp/pychess2.heldout.pgn" "$PY" --other-model "$OUT/pychess2.db"
# The depth-1 players with material "settled" (the captures a move allows, no two-ply line), beside the default.
for name in dreamer1 pychess1; do
  build_model "$OUT/$name-settled.db" "$OUT/opp/$name.train.pgn" "$(spec $name)" --material settled
  rank "$OUT/$name-settled.db" "$OUT/opp/$name.heldout.pgn" "$(spec $name)" --other-model "$OUT/$name.db"
done
# PyChess at depth 2 from 960 training games: the collection resumed to 1,200 games in OUT/big (its first 400 are the
# games above). On all 240 held-out games (the first 80 are the ones above): the 960-game model beside the 320-game
# one, the 320-game one beside Glaurung's and the more models, and the 960-game one beside Glaurung's and the value
# database.
[ -f "$OUT/big/pychess2.train.pgn" ] || cp "$OUT/opp/pychess2.train.pgn" "$OUT/opp/pychess2.heldout.pgn" "$OUT/big/"
GAMES=1200 ONLY=pychess2 OUT="$OUT/big" training/recipes/opponent-games.sh > "$OUT/big/collect.out"
build_model "$OUT/pychess2-960.db" "$OUT/big/pychess2.train.pgn" "$PY"
rank "$OUT/pychess2-960.db" "$OUT/big/pychess2.heldout.pgn" "$PY" --other-model "$OUT/pychess2.db"
for other in "$OTHER" "$@"; do rank "$OUT/pychess2.db" "$OUT/big/pychess2.heldout.pgn" "$PY" --other-model "$other"; done
rank "$OUT/pychess2-960.db" "$OUT/big/pychess2.heldout.pgn" "$PY" --other-model "$OTHER" --db "$VALUE_DB"
