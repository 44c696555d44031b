#!/usr/bin/env bash
# Models of three more real engines (issue 14's "at least two real engines", 2026-12-02 evening): Dreamer
# (dreamchess's engine) and Sjaak II at depth 2 over xboard, Fairy-Stockfish (Stockfish 11's classical evaluation)
# at depth 1 over UCI. Fairy-Max, the one engine past the bar so far, has a simple evaluation unlike the value
# database's fitted material search; these are tried for the same reason.
#
#   apt-get install -y dreamchess sjaakii fairy-stockfish
#   research/recipes/simple-engines.sh OUT_DIR
#
# OUT_DIR/t.db: model-line.sh's value database, regenerated (3,000 games from fresh, seed 52, its policy built at
# the end). Collections (opponent-games.sh, seed 1, 400 games, every 5th held out). Models seed 1, the defaults
# (the pull chosen by held-out top-1). Each engine's held-out moves are ranked by its own model, the value database
# and each other engine's model; the value database beside the first.
set -euo pipefail
cd "$(dirname "$0")/../.."
source research/recipes/lib.sh
OUT=${1:?usage: simple-engines.sh OUT_DIR}
NAMES=${NAMES:-dreamer2 sjaakii2 fairysf1}
mkdir -p "$OUT/opp"
[ -f "$OUT/t.db" ] || node bin/morph.js train --db "$OUT/t.db" --games 3000 --seed 52 --jobs 1 --progress lines > "$OUT/train.out" 2> "$OUT/train.err"
for name in $NAMES; do GAMES=400 ONLY=$name OUT="$OUT/opp" training/recipes/opponent-games.sh; done

spec() {
  case $1 in
    dreamer2) echo 'xboard:dreamer:depth=2' ;;
    sjaakii2) echo 'xboard:sjaakii:depth=2' ;;
    fairysf1) echo 'uci:/usr/games/fairy-stockfish:depth=1' ;;
    *) echo "simple-engines: unknown name $1" >&2; exit 2 ;;
  esac
}
model() { build_model "$OUT/$1.db" "${@:2}"; } # NAME PGN PLAYER [OPTIONS...]
for name in $NAMES; do model "$name" "$OUT/opp/$name.train.pgn" "$(spec $name)" & done
wait
# The value database ranks 4-5 moves a second, so it ranks each engine's moves once, beside the first other model.
for name in $NAMES; do
  db=(--db "$OUT/t.db")
  for other in $NAMES; do
    [ "$other" = "$name" ] && continue
    file="$OUT/predict-$name-vs-$other.json"
    [ -s "$file" ] || nice -n 5 node bin/morph.js predict --model "$OUT/$name.db" --other-model "$OUT/$other.db" \
      "${db[@]}" --pgn "$OUT/opp/$name.heldout.pgn" --player "$(spec $name)" --json > "$file"
    db=()
  done &
done
wait

# Dreamer's variants, paired with its default model on the same held-out moves: 960 training games (the collection
# resumed to 1,200 games in OUT/big, whose first 400 are the games above), pull 1000, 8 passes; and the headroom of
# mobility and pawn structure (research/headroom.ts).
if [[ " $NAMES " == *" dreamer2 "* ]]; then
  DR=$(spec dreamer2)
  mkdir -p "$OUT/big"
  [ -f "$OUT/big/dreamer2.train.pgn" ] || cp "$OUT/opp/dreamer2.train.pgn" "$OUT/opp/dreamer2.heldout.pgn" "$OUT/big/"
  GAMES=1200 ONLY=dreamer2 OUT="$OUT/big" training/recipes/opponent-games.sh
  variant() { # NAME PGN [OPTIONS...]
    local name=$1 pgn=$2
    shift 2
    model "$name" "$pgn" "$DR" "$@"
    [ -s "$OUT/predict-$name.json" ] || node bin/morph.js predict --model "$OUT/$name.db" --other-model "$OUT/dreamer2.db" \
      --pgn "$OUT/opp/dreamer2.heldout.pgn" --player "$DR" --json > "$OUT/predict-$name.json"
  }
  variant dreamer2-960 "$OUT/big/dreamer2.train.pgn"
  variant dreamer2-pull1000 "$OUT/opp/dreamer2.train.pgn" --shrinkage 1000
  variant dreamer2-passes8 "$OUT/opp/dreamer2.train.pgn" --shrinkage 100 --passes 8
  [ -s "$OUT/predict-dreamer2-captures.json" ] || node bin/morph.js predict --model "$OUT/dreamer2.db" --other-model "$OUT/sjaakii2.db" --search captures \
    --pgn "$OUT/opp/dreamer2.heldout.pgn" --player "$DR" --json > "$OUT/predict-dreamer2-captures.json"
  for feature in mobility pawn; do
    node bin/run-ts.js training/$feature-headroom.ts "$OUT/dreamer2.db" "$OUT/opp/dreamer2.train.pgn" \
      "$OUT/opp/dreamer2.heldout.pgn" "$DR" 1500
  done
fi
