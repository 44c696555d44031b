#!/usr/bin/env bash
# Classical evaluation terms in an opponent model's two-ply line (issue 14; an experiment, not kept, 2026-12-03).
# evaluation-terms.patch (applies to 4dc0529) adds src/eval/evaluationTerms.ts: per side, castling rights kept (both,
# one), the queen out while minor pieces stay home, rooks on files without own pawns and without any, the bishop
# pair, own pawns on the bishops' colour, doubled, isolated and passed pawns (by advance). choiceEvaluation learns
# their weights beside the piece and square values (`terms: true`), and the line values positions with them;
# test/evaluationTerms.test.ts counts them on hand-read positions and learns a castling-rights keeper's preference.
# training/line-terms.ts ranks a player's held-out moves by the line alone, fitted with and without the terms from
# the same start (the model's piece values), so only the terms differ.
#
#   apt-get install -y dreamchess
#   git apply research/recipes/evaluation-terms.patch
#   research/recipes/evaluation-terms.sh OUT_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: evaluation-terms.sh OUT_DIR}
PLAYER='xboard:dreamer:depth=2'
mkdir -p "$OUT"
GAMES=400 ONLY=dreamer2 OUT="$OUT" training/recipes/opponent-games.sh
[ -f "$OUT/dreamer2.db" ] || node bin/morph.js model --pgn "$OUT/dreamer2.train.pgn" --player "$PLAYER" --seed 1 \
  --out "$OUT/dreamer2.db" --json --no-progress > "$OUT/dreamer2.json"
node bin/morph.js predict --model "$OUT/dreamer2.db" --pgn "$OUT/dreamer2.heldout.pgn" --player "$PLAYER" > "$OUT/predict.out"
run() { node bin/run-ts.js training/line-terms.ts "$OUT/dreamer2.db" "$OUT/dreamer2.train.pgn" "$OUT/dreamer2.heldout.pgn" "$PLAYER" "$@"; }
run none 0 > "$OUT/line-own.out"
run none 2 tapered > "$OUT/line-none.out" &
run terms 2 tapered > "$OUT/line-terms.out" &
wait
node bin/run-ts.js research/development-headroom.ts "$OUT/dreamer2.db" "$OUT/dreamer2.train.pgn" "$OUT/dreamer2.heldout.pgn" \
  "$PLAYER" 1500 > "$OUT/development-headroom.out"
