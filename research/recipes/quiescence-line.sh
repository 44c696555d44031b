#!/usr/bin/env bash
# Opponent models whose search line is one ply and a quiescence instead of two plies (issue 14; 2026-11-29; an
# experiment, not kept), and each engine's model against models of other players on its moves.
#
#   research/recipes/quiescence-line.sh OUT_DIR
#
# Collections: training/recipes/opponent-games.sh (seed 1, 400 games, every 5th held out) for Stockfish skill 20
# at depth 1, Glaurung and Toga II at depth 1. For each, the default model (two-ply line, seed 1) and the same
# with the line of quiescence-line.patch (the opponent's captures and the mover's in turn after the move, each
# free to stop: the shape of an engine's depth-1 search), switched on by MORPH_LINE=quiescence when the patch is
# applied, in building and in predicting. Then each engine's default model against the other engines' models on
# its held-out moves, and against OUT_DIR/t.db (research/recipes/model-line.sh) as a value database.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: quiescence-line.sh OUT_DIR}
declare -A PLAYER=([sf20]='stockfish:skill=20,depth=1' [toga2]='uci:/usr/games/toga2:depth=1'
  [glaurung]='uci:/usr/games/glaurung:depth=1')
for name in sf20 glaurung toga2; do
  ONLY=$name OUT="$OUT/opp" training/recipes/opponent-games.sh
done
for name in sf20 glaurung toga2; do
  [ -f "$OUT/$name-twoply.db" ] || node bin/morph.js model --pgn "$OUT/opp/$name.train.pgn" --player "${PLAYER[$name]}" \
    --seed 1 --out "$OUT/$name-twoply.db" --json --no-progress > "$OUT/$name-twoply.json"
  node bin/morph.js predict --model "$OUT/$name-twoply.db" --pgn "$OUT/opp/$name.heldout.pgn" --player "${PLAYER[$name]}" \
    --json > "$OUT/predict-$name-twoply.json"
done
if git apply --check research/recipes/quiescence-line.patch 2> /dev/null; then
  git apply research/recipes/quiescence-line.patch
  for name in sf20 glaurung toga2; do
    [ -f "$OUT/$name-q.db" ] || MORPH_LINE=quiescence node bin/morph.js model --pgn "$OUT/opp/$name.train.pgn" \
      --player "${PLAYER[$name]}" --seed 1 --out "$OUT/$name-q.db" --json --no-progress > "$OUT/$name-q.json"
    MORPH_LINE=quiescence node bin/morph.js predict --model "$OUT/$name-q.db" --pgn "$OUT/opp/$name.heldout.pgn" \
      --player "${PLAYER[$name]}" --json > "$OUT/predict-$name-q.json"
  done
  git apply -R research/recipes/quiescence-line.patch
fi
for pair in glaurung:toga2 toga2:glaurung glaurung:sf20 toga2:sf20; do
  name=${pair%%:*} other=${pair##*:}
  node bin/morph.js predict --model "$OUT/$name-twoply.db" --other-model "$OUT/$other-twoply.db" \
    --pgn "$OUT/opp/$name.heldout.pgn" --player "${PLAYER[$name]}" --json > "$OUT/predict-$name-vs-$other.json"
done
for name in glaurung toga2; do
  node bin/morph.js predict --model "$OUT/$name-twoply.db" --db "$OUT/t.db" --pgn "$OUT/opp/$name.heldout.pgn" \
    --player "${PLAYER[$name]}" --json > "$OUT/predict-$name-db.json"
done
