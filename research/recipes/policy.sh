#!/usr/bin/env bash
# A model of stronger players as Morph's move policy (issue 12; src/model/policy.ts): Morph chooses by
# value + weight x log p(move), p from an opponent model.
#   1. Engine games: signals.sh's pairings 3 and 4 (the native Debian Stockfish at depth 1 skill 20 against depth 3
#      skill 2; Stockfish at depth 4 skill 10 against toga2 at depth 2; 300 games each, seeds 3 and 4, the balanced
#      suite). The three stronger players' moves are renamed "strong" and modelled together (`morph model`, seed 1).
#   2. Morph's own training games (`morph games` of BASE): its sparring partner's moves, modelled the same way.
#   3. Each policy over BASE: move quality on the 400 scored positions at several weights (paired against BASE
#      alone), and 200-game matches (seed 1, the balanced suite) against ab:1, ab:2,q and Stockfish skill 0,
#      paired by opening with BASE's own matches where the opponent is deterministic
#      (training/paired-match-diff.ts).
#
#   research/recipes/policy.sh OUT_DIR BASE     (WEIGHT=0.1 MODEL_SEARCH=captures; needs stockfish and toga2)
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: policy.sh OUT_DIR BASE}
BASE=${2:?usage: policy.sh OUT_DIR BASE}
WEIGHT=${WEIGHT:-0.1}
MODEL_SEARCH=${MODEL_SEARCH:-captures}
SF=${SF:-/usr/games/stockfish}
TOGA=${TOGA:-/usr/games/toga2}
POSITIONS=positions/move-scores.jsonl
mkdir -p "$OUT"

# 1. Engine games and the model of the stronger players.
node bin/morph.js match --white "uci:$SF:depth=1,Skill Level=20" --black "uci:$SF:depth=3,Skill Level=2" --games 300 \
  --seed 3 --concurrency 2 --pgn "$OUT/engines-3.pgn" --json --no-progress > "$OUT/engines-3.json"
node bin/morph.js match --white "uci:$SF:depth=4,Skill Level=10" --black "uci:$TOGA:depth=2" --games 300 \
  --seed 4 --concurrency 2 --pgn "$OUT/engines-4.pgn" --json --no-progress > "$OUT/engines-4.json"
sed -E 's/^\[(White|Black) "uci:[^"]*(depth=4,Skill Level=10|toga2:depth=2|depth=1,Skill Level=20)"\]/[\1 "strong"]/' \
  "$OUT/engines-4.pgn" "$OUT/engines-3.pgn" > "$OUT/strong.pgn"
# MODEL_SEARCH=one-ply for the first table of the figures, captures (the model default then) for the later rows: the
# fitted weights are the same either way, only the ranking looks at the opponent's captures. Material exact, the
# default when these ran (a player's model is settled by default since 2026-11-25).
node bin/morph.js model --out "$OUT/strong.model.db" --pgn "$OUT/strong.pgn" --player strong --seed 1 --search "$MODEL_SEARCH" --material exact --json \
  --no-progress > "$OUT/strong.model.json"

# 2. The sparring partner's moves in BASE's training games.
node bin/morph.js games --db "$BASE" --pgn "$OUT/base-games.pgn"
node bin/morph.js model --out "$OUT/partner.model.db" --pgn "$OUT/base-games.pgn" --player 'stockfish:skill=0,depth=1' \
  --seed 1 --search "$MODEL_SEARCH" --material exact --json --no-progress > "$OUT/partner.model.json"

# 3. Measure each policy.
for model in strong partner; do
  rankers=("db=$BASE")
  for weight in 0.01 0.03 0.1 0.3; do rankers+=("db=$BASE;policy=$OUT/$model.model.db;weight=$weight"); done
  node bin/run-ts.js training/compare-rankers.ts --positions "$POSITIONS" "${rankers[@]}" > "$OUT/$model.quality.jsonl"
done
for opponent in ab:1 'ab:2,q' stockfish:skill=0,depth=1; do
  tag=$(echo "$opponent" | tr ':,=' '___')
  node bin/morph.js match --white "morph:$BASE" --black "$opponent" --games 200 --seed 1 --json --pgn /dev/null \
    --no-progress > "$OUT/base-$tag.json"
  for model in strong partner; do
    node bin/morph.js match --white "morph:$BASE" --white-policy "$OUT/$model.model.db" --policy-weight "$WEIGHT" \
      --black "$opponent" --games 200 --seed 1 --json --pgn /dev/null --no-progress > "$OUT/$model-$tag.json"
    node bin/run-ts.js training/paired-match-diff.ts "$OUT/base-$tag.json" "$OUT/$model-$tag.json"
  done
done
