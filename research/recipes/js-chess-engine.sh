#!/usr/bin/env bash
# npm's js-chess-engine as a second engine for issue 14's bar (2026-12-03 night). It searches material and
# piece-square tables, as Fairy-Max does, the one engine past the bar before it; its tables are its own. Played
# through training/engines/js-chess-engine-uci.mjs at level 2: two plies, a ply more after a check, no quiescence,
# one move per position. Fairy-Max at depth 2 is collected and modelled beside it, the model of a different player
# most like it.
#
#   research/recipes/js-chess-engine.sh OUT_DIR VALUE_DB [OTHER_MODEL...]
#
# VALUE_DB: model-line.sh's value database (3,000 games from fresh, seed 52, its policy built at the end).
# OTHER_MODELs: models of other engines (here model-size.sh's Glaurung from 3,000 games, simple-engines.sh's
# Dreamer at depth 2, second-engines.sh's PyChess at depth 2 from 960 games), ranked beside Fairy-Max's.
# Collections: opponent-games.sh, seed 1, 400 games against the four partners, every 5th held out; js-chess-engine's
# then resumed to 1,200 games for 240 held-out games. Models: seed 1, from the first 320 training games, with the
# defaults (the line's shape "quiescence"), with `--line checks`, `--line plain` and `--line auto`; Fairy-Max's with the
# defaults, `--line checks` and `--line auto`. Last, Stockfish at skill 20 and depth 1 (issue 14's deterministic
# engine), 400 games, its default model beside one with `--line auto`.
set -euo pipefail
cd "$(dirname "$0")/../.."
source research/recipes/lib.sh
OUT=${1:?usage: js-chess-engine.sh OUT_DIR VALUE_DB [OTHER_MODEL...]}
VALUE_DB=${2:?usage: js-chess-engine.sh OUT_DIR VALUE_DB [OTHER_MODEL...]}
shift 2
mkdir -p "$OUT/opp" "$OUT/jce"
export JS_CHESS_ENGINE_DIR="$OUT/jce"
[ -d "$OUT/jce/node_modules/js-chess-engine" ] || npm install --prefix "$OUT/jce" --no-save --silent js-chess-engine@2.4.6
JCE='uci:training/engines/js-chess-engine-uci.mjs:depth=2'
FAIRYMAX='xboard:fairymax:depth=2'

GAMES=400 ONLY=fairymax2 OUT="$OUT/opp" training/recipes/opponent-games.sh > "$OUT/fairymax2.out"
if [ ! -f "$OUT/opp/jce2.train320.pgn" ]; then
  GAMES=400 ONLY=jce2 OUT="$OUT/opp" training/recipes/opponent-games.sh > "$OUT/jce2.out"
  cp "$OUT/opp/jce2.train.pgn" "$OUT/opp/jce2.train320.pgn"
fi
GAMES=1200 ONLY=jce2 OUT="$OUT/opp" training/recipes/opponent-games.sh > "$OUT/jce2-1200.out"

build_model "$OUT/fairymax2.db" "$OUT/opp/fairymax2.train.pgn" "$FAIRYMAX"
build_model "$OUT/jce2.db" "$OUT/opp/jce2.train320.pgn" "$JCE"
build_model "$OUT/jce2-checks.db" "$OUT/opp/jce2.train320.pgn" "$JCE" --line checks
build_model "$OUT/jce2-plain.db" "$OUT/opp/jce2.train320.pgn" "$JCE" --line plain
# The shape chosen by validation (--line auto): its summary's lineChoice gives each shape's held-out top-1.
build_model "$OUT/jce2-auto.db" "$OUT/opp/jce2.train320.pgn" "$JCE" --line auto
build_model "$OUT/fairymax2-auto.db" "$OUT/opp/fairymax2.train.pgn" "$FAIRYMAX" --line auto
build_model "$OUT/fairymax2-checks.db" "$OUT/opp/fairymax2.train.pgn" "$FAIRYMAX" --line checks

rank() { # MODEL NAME [OPTIONS...]: js-chess-engine's 240 held-out games by MODEL, beside OPTIONS' rankers
  local file=$1 name=$2
  shift 2
  [ -s "$OUT/p240-$name.out" ] || node bin/morph.js predict --model "$file" --pgn "$OUT/opp/jce2.heldout.pgn" \
    --player "$JCE" "$@" > "$OUT/p240-$name.out"
}
rank "$OUT/jce2-checks.db" checks-default --other-model "$OUT/jce2.db"
rank "$OUT/jce2-checks.db" checks-plain --other-model "$OUT/jce2-plain.db"
rank "$OUT/jce2-checks.db" checks-fairymax --other-model "$OUT/fairymax2.db"
rank "$OUT/jce2-checks.db" checks-fairymax2-checks --other-model "$OUT/fairymax2-checks.db"
rank "$OUT/jce2-auto.db" auto-checks --other-model "$OUT/jce2-checks.db"
rank "$OUT/jce2.db" default-fairymax --other-model "$OUT/fairymax2.db"
for other in "$@"; do
  name=$(basename "${other%.db}")
  rank "$OUT/jce2-checks.db" "checks-$name" --other-model "$other"
  rank "$OUT/jce2.db" "default-$name" --other-model "$other"
done
rank "$OUT/jce2-checks.db" checks-value-db --db "$VALUE_DB"
rank "$OUT/jce2.db" default-value-db --db "$VALUE_DB"
# The line's shape on engines that search with a quiescence (research/line-shape-headroom.ts): Fairy-Max here.
node bin/run-ts.js research/line-shape-headroom.ts "$OUT/fairymax2.db" "$OUT/opp/fairymax2.train.pgn" \
  "$OUT/opp/fairymax2.heldout.pgn" "$FAIRYMAX" > "$OUT/fairymax2-line-headroom.out"
# Issue 14's deterministic engine, Stockfish at skill 20 and depth 1: its default model beside one with --line auto.
SF20='stockfish:skill=20,depth=1'
GAMES=400 ONLY=sf20 OUT="$OUT/opp" training/recipes/opponent-games.sh > "$OUT/sf20.out"
build_model "$OUT/sf20.db" "$OUT/opp/sf20.train.pgn" "$SF20"
build_model "$OUT/sf20-auto.db" "$OUT/opp/sf20.train.pgn" "$SF20" --line auto
[ -s "$OUT/p-sf20-auto.out" ] || node bin/morph.js predict --model "$OUT/sf20-auto.db" --pgn "$OUT/opp/sf20.heldout.pgn" \
  --player "$SF20" --other-model "$OUT/sf20.db" > "$OUT/p-sf20-auto.out"
