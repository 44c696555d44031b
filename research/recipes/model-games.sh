#!/usr/bin/env bash
# Models from more games, the pull chosen by top-1, mobility, and three more engines against the value database
# (issue 14; 2026-12-02 morning). Fairy-Max at depth 2 was 8.9 points above the value database from 200 training
# games (xboard-models.sh).
#
#   research/recipes/model-games.sh OUT_DIR
#
# OUT_DIR/t.db: model-line.sh's value database, regenerated (3,000 games from fresh, seed 52, its policy built at
# the end). Collections (opponent-games.sh, seed 1, every 5th game held out): Fairy-Max 750 games, HoiChess 250,
# GNU Chess at depth 2, Ethereal and Glaurung at depth 1 400 each. Models seed 1. The pulls given by hand (.1, 10)
# are those `--shrinkage auto` chose when it judged by the log-likelihood (before 2026-12-02's change to top-1),
# so that the first models are rebuilt as they were run.
set -euo pipefail
cd "$(dirname "$0")/../.."
source research/recipes/lib.sh
OUT=${1:?usage: model-games.sh OUT_DIR}
mkdir -p "$OUT/opp"
[ -f "$OUT/t.db" ] || node bin/morph.js train --db "$OUT/t.db" --games 3000 --seed 52 --jobs 1 --progress lines > "$OUT/train.out" 2> "$OUT/train.err"
GAMES=750 ONLY=fairymax2 OUT="$OUT/opp" training/recipes/opponent-games.sh
GAMES=250 ONLY=hoichess2 OUT="$OUT/opp" training/recipes/opponent-games.sh
for name in gnuchess ethereal glaurung; do GAMES=400 ONLY=$name OUT="$OUT/opp" training/recipes/opponent-games.sh; done
# The first 200 training games are those of the first 250 games, as in xboard-models.sh's collection.
awk '/^\[Event /{n++} n<=200' "$OUT/opp/fairymax2.train.pgn" > "$OUT/opp/fairymax2-200.train.pgn"

FM='xboard:fairymax:depth=2'
HOI='xboard:hoichess:depth=2'
GNU='gnuchess:depth=2'
ETH='uci:/usr/games/ethereal-chess:depth=1'
GLA='uci:/usr/games/glaurung:depth=1'
model() { build_model "$OUT/$1.db" "${@:2}"; } # NAME PGN PLAYER [OPTIONS...]
predict() { # OUTPUT_NAME PLAYER HELD_OUT MODEL OTHER [DB]
  local db=()
  [ -n "${6:-}" ] && db=(--db "$6")
  [ -s "$OUT/$1.json" ] || nice -n 5 node bin/morph.js predict --model "$OUT/$4.db" --other-model "$OUT/$5.db" "${db[@]}" \
    --pgn "$3" --player "$2" --json > "$OUT/$1.json"
}

# 1. More games, the pull as the log-likelihood chose it.
model fairymax2-200 "$OUT/opp/fairymax2-200.train.pgn" "$FM" --shrinkage 0.1 &
model fairymax2 "$OUT/opp/fairymax2.train.pgn" "$FM" --shrinkage 0.1 &
wait
model hoichess2 "$OUT/opp/hoichess2.train.pgn" "$HOI" --shrinkage 0.1 &
model gnuchess "$OUT/opp/gnuchess.train.pgn" "$GNU" --shrinkage 10 &
wait
predict predict-fm600-fm200-db "$FM" "$OUT/opp/fairymax2.heldout.pgn" fairymax2 fairymax2-200 "$OUT/t.db" &
predict predict-gnuchess-fm200-db "$GNU" "$OUT/opp/gnuchess.heldout.pgn" gnuchess fairymax2-200 "$OUT/t.db" &
wait

# 2. Headroom (research/headroom.ts): would pawn structure, or mobility, help these models? 1,500 training decisions.
for feature in pawn mobility; do
  node bin/run-ts.js training/$feature-headroom.ts "$OUT/gnuchess.db" "$OUT/opp/gnuchess.train.pgn" "$OUT/opp/gnuchess.heldout.pgn" "$GNU" 1500
  node bin/run-ts.js training/$feature-headroom.ts "$OUT/fairymax2-200.db" "$OUT/opp/fairymax2-200.train.pgn" "$OUT/opp/fairymax2.heldout.pgn" "$FM" 1500
done

# 3. Mobility built in (--mobility), against the same model without it.
model gnuchess-mobility "$OUT/opp/gnuchess.train.pgn" "$GNU" --shrinkage 10 --mobility &
model fairymax2-mobility "$OUT/opp/fairymax2.train.pgn" "$FM" --shrinkage 0.1 --mobility &
model ethereal "$OUT/opp/ethereal.train.pgn" "$ETH" --shrinkage 0.1 &
wait
predict predict-gnuchess-mobility "$GNU" "$OUT/opp/gnuchess.heldout.pgn" gnuchess-mobility gnuchess
predict predict-fm600-mobility "$FM" "$OUT/opp/fairymax2.heldout.pgn" fairymax2-mobility fairymax2
predict predict-ethereal-fm200-db "$ETH" "$OUT/opp/ethereal.heldout.pgn" ethereal fairymax2-200 "$OUT/t.db"

# 4. Larger pulls, which the validation's top-1 preferred.
model fairymax2-200-pull10 "$OUT/opp/fairymax2-200.train.pgn" "$FM" --shrinkage 10 &
model hoichess2-pull10 "$OUT/opp/hoichess2.train.pgn" "$HOI" --shrinkage 10 &
model fairymax2-200-pull100 "$OUT/opp/fairymax2-200.train.pgn" "$FM" --shrinkage 100 &
wait
predict predict-fm200-pull10 "$FM" "$OUT/opp/fairymax2.heldout.pgn" fairymax2-200-pull10 fairymax2-200
predict predict-hoi-pull10 "$HOI" "$OUT/opp/hoichess2.heldout.pgn" hoichess2-pull10 hoichess2
predict predict-fm200-pull100 "$FM" "$OUT/opp/fairymax2.heldout.pgn" fairymax2-200-pull100 fairymax2-200-pull10
predict predict-fm200p10-hoip10-db "$FM" "$OUT/opp/fairymax2.heldout.pgn" fairymax2-200-pull10 hoichess2-pull10 "$OUT/t.db" &
predict predict-hoip10-fm200p10-db "$HOI" "$OUT/opp/hoichess2.heldout.pgn" hoichess2-pull10 fairymax2-200-pull10 "$OUT/t.db" &
wait

# 5. The default now (the pull chosen by top-1 among .01 to 100): Fairy-Max from 600 games, Glaurung.
model fairymax2-auto "$OUT/opp/fairymax2.train.pgn" "$FM" &
model glaurung "$OUT/opp/glaurung.train.pgn" "$GLA" &
wait
predict predict-fm600auto-fm200p100-db "$FM" "$OUT/opp/fairymax2.heldout.pgn" fairymax2-auto fairymax2-200-pull100 "$OUT/t.db" &
predict predict-glaurung-fm600auto-db "$GLA" "$OUT/opp/glaurung.heldout.pgn" glaurung fairymax2-auto "$OUT/t.db" &
wait

# 6. The deterministic engine (issue 14's 80%) with the default now.
GAMES=400 ONLY=sf20 OUT="$OUT/opp" training/recipes/opponent-games.sh
model sf20 "$OUT/opp/sf20.train.pgn" 'stockfish:skill=20,depth=1'
predict predict-sf20-glaurung 'stockfish:skill=20,depth=1' "$OUT/opp/sf20.heldout.pgn" sf20 glaurung
