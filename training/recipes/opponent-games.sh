#!/usr/bin/env bash
# Game collections of the opponents Morph models (issue 14), each split by game into training and held-out
# PGN files (every 5th game held out): OUT/NAME.train.pgn and OUT/NAME.heldout.pgn (a collection cut short goes on
# from its first missing game when run again). Each opponent plays its
# partners in turn, colours alternating, from varied random openings (seeded).
# Takes: GAMES games for each engine installed; how long depends on which engines are installed and their depth.
#
#   training/recipes/opponent-games.sh            (GAMES=400 OUT=tmp/opponents SEED=1 by default)
#   ONLY=sf20 training/recipes/opponent-games.sh  (one collection)
#
# Debian engines join when installed (in PATH, or in /usr/games where Debian puts them): gnuchess
# (gnuchess:depth=2, and at depth 1 as gnuchess1), the UCI engines toga2 and glaurung at depth 1
# (uci:/usr/games/NAME:depth=1; Ethereal too), and the xboard engines fairymax, sjeng and hoichess at depth 2
# (xboard:NAME:depth=2). Phalanx takes no depth in xboard mode, only a time: it plays on a 2-second clock for
# the game (about 50 ms a move), at full speed and held to 20,000 nodes a second.
set -euo pipefail
cd "$(dirname "$0")/../.."
GAMES=${GAMES:-400}
OUT=${OUT:-tmp/opponents}
SEED=${SEED:-1}
ONLY=${ONLY:-}
PARTNERS='stockfish:skill=5,depth=3;ab:2;stockfish:skill=10,depth=2;greedy'

collect() {
  local name=$1 player=$2
  [[ -n "$ONLY" && "$ONLY" != "$name" ]] && return 0
  nice -n 10 node bin/run-ts.js training/opponent-games.ts --player "$player" --partners "$PARTNERS" \
    --games "$GAMES" --held-out-every 5 --seed "$SEED" --out "$OUT/$name"
}

collect sf20 'stockfish:skill=20,depth=1'
collect sf8 'stockfish:skill=8,depth=4'
collect ab2 'ab:2'
if command -v gnuchess > /dev/null || [ -x /usr/games/gnuchess ]; then
  collect gnuchess 'gnuchess:depth=2'
  collect gnuchess1 'gnuchess:depth=1'
fi
# Two UCI engines Debian packages (apt-get install toga2 glaurung), deterministic at a fixed depth.
if [ -x /usr/games/toga2 ]; then collect toga2 'uci:/usr/games/toga2:depth=1'; fi
if [ -x /usr/games/glaurung ]; then collect glaurung 'uci:/usr/games/glaurung:depth=1'; fi
# Ethereal (apt-get install ethereal-chess), a modern alpha-beta engine, at depth 1.
if [ -x /usr/games/ethereal-chess ]; then collect ethereal 'uci:/usr/games/ethereal-chess:depth=1'; fi
# Three xboard engines Debian packages (apt-get install fairymax sjeng hoichess). Fairy-Max randomises its choices.
for engine in fairymax sjeng hoichess; do
  if [ -x /usr/games/$engine ]; then collect ${engine}2 "xboard:$engine:depth=2"; fi
done
if [ -x /usr/games/fairymax ]; then collect fairymax1 'xboard:fairymax:depth=1'; fi
# Engines with simpler evaluations than the classical searchers above (2026-12-02 evening).
for engine in dreamer sjaakii; do
  if [ -x /usr/games/$engine ]; then collect ${engine}2 "xboard:$engine:depth=2"; fi
done
if [ -x /usr/games/phalanx ]; then
  collect phalanx 'xboard:phalanx -b- -l-:clock=2000'
  collect phalanxn 'xboard:phalanx -b- -l- -n 20000:clock=2000'
fi
# Dreamer at depth 1, and PyChess's own engine without its book (apt-get install pychess), 2026-12-03 evening.
if [ -x /usr/games/dreamer ]; then collect dreamer1 'xboard:dreamer:depth=1'; fi
if [ -f /usr/lib/python3/dist-packages/pychess/Players/PyChess.py ]; then
  collect pychess2 'xboard:training/engines/pychess-engine.sh:depth=2'
  collect pychess1 'xboard:training/engines/pychess-engine.sh:depth=1'
fi
if [ -x /usr/games/fairy-stockfish ]; then collect fairysf1 'uci:/usr/games/fairy-stockfish:depth=1'; fi
# npm's js-chess-engine (material and piece-square tables; training/engines/js-chess-engine-uci.mjs), when
# JS_CHESS_ENGINE_DIR names the prefix it is installed in (2026-12-03 night): level 2 at its base depth 2.
if [ -n "${JS_CHESS_ENGINE_DIR:-}" ]; then collect jce2 'uci:training/engines/js-chess-engine-uci.mjs:depth=2'; fi
