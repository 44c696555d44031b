#!/usr/bin/env bash
# Tapered square values in an opponent model (issue 14; an experiment, not kept, 2026-12-03 evening).
# model-tapered.patch (applies to 097eff9) adds `morph model --tapered-squares`: the two-ply line's square values
# become a middlegame and an endgame table blended by the officers on the board, as Morph's own policy's are, in
# place of one table. Models of PyChess at depth 2 (second-engines.sh's collection) and Dreamer at depth 2
# (simple-engines.sh's) are built with it, seed 1, and each ranks its player's held-out moves beside the default
# model from the same games (paired on the same moves).
#
#   git apply research/recipes/model-tapered.patch
#   research/recipes/model-tapered.sh SECOND_ENGINES_OUT SIMPLE_ENGINES_OUT
set -euo pipefail
cd "$(dirname "$0")/../.."
PY_OUT=${1:?usage: model-tapered.sh SECOND_ENGINES_OUT SIMPLE_ENGINES_OUT}
DR_OUT=${2:?usage: model-tapered.sh SECOND_ENGINES_OUT SIMPLE_ENGINES_OUT}
tapered() { # OUT NAME PLAYER
  local out=$1 name=$2 player=$3
  [ -f "$out/$name-tapered.db" ] || nice -n 5 node bin/morph.js model --pgn "$out/opp/$name.train.pgn" --player "$player" \
    --seed 1 --tapered-squares --out "$out/$name-tapered.db" --json --no-progress > "$out/$name-tapered.json"
  node bin/morph.js predict --model "$out/$name-tapered.db" --other-model "$out/$name.db" --pgn "$out/opp/$name.heldout.pgn" \
    --player "$player"
}
tapered "$PY_OUT" pychess2 'xboard:training/engines/pychess-engine.sh:depth=2'
tapered "$DR_OUT" dreamer2 'xboard:dreamer:depth=2'
