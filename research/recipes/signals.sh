#!/usr/bin/env bash
# Training signals beside the default partner (issue 12 part 3), with the search `captures` of today's defaults:
#   1. a mix of opponents in turn: --opponent 'mix:stockfish;ab:1;ab:2,q' (game n plays member (n-1) mod 3),
#      the adaptive handicap --opponent 'noisy:auto=0.5:stockfish', and self-play (--opponent self, --jobs 2);
#   2. pre-training on engine-vs-engine games: ENGINE_PAIRS matches of the native Debian Stockfish at mixed
#      skills and depths and toga2 (300 games each, the balanced suite, colours paired, seed = pairing number),
#      learned with `morph learn` (both sides, each judged by its own result), then GAMES games against the
#      default partner.
# Each database is measured like BASE (a database trained GAMES games from fresh with the defaults and the same
# seed, e.g. search.sh's captures.db): move quality on the 400 scored positions, paired against BASE, and
# 200-game matches against ab:1, ab:2,q and stockfish:skill=0,depth=1 (seed 1, the balanced suite).
#
#   research/recipes/signals.sh OUT_DIR BASE      (GAMES=1000 SEED=1 ENGINE_PAIRS=4; needs stockfish and toga2)
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: signals.sh OUT_DIR BASE}
BASE=${2:?usage: signals.sh OUT_DIR BASE}
GAMES=${GAMES:-1000}
SEED=${SEED:-1}
ENGINE_PAIRS=${ENGINE_PAIRS:-4}
SF=${SF:-/usr/games/stockfish}
TOGA=${TOGA:-/usr/games/toga2}
POSITIONS=positions/move-scores.jsonl
mkdir -p "$OUT"

measure() { # measure DB NAME -> OUT/NAME.quality.jsonl, OUT/NAME-OPPONENT.json
  node bin/run-ts.js training/compare-rankers.ts --positions "$POSITIONS" "db=$BASE;search=captures" \
    "db=$1;search=captures" > "$OUT/$2.quality.jsonl"
  for opponent in ab:1 'ab:2,q' stockfish:skill=0,depth=1; do
    nice -n 5 node bin/morph.js match --white "morph:$1" --black "$opponent" --games 200 --seed 1 --search captures \
      --json --pgn /dev/null > "$OUT/$2-$(echo "$opponent" | tr ':,=' '___').json"
  done
}

# 1. A mix of opponents.
nice -n 5 node bin/morph.js train --db "$OUT/mix.db" --games "$GAMES" --seed "$SEED" --jobs 1 --search captures \
  --opponent 'mix:stockfish;ab:1;ab:2,q' --json-log "$OUT/mix.jsonl" --progress lines > "$OUT/mix.train.log" 2>&1
measure "$OUT/mix.db" mix
nice -n 5 node bin/morph.js train --db "$OUT/handicap.db" --games "$GAMES" --seed "$SEED" --jobs 1 --search captures \
  --opponent 'noisy:auto=0.5:stockfish' --json-log "$OUT/handicap.jsonl" --progress lines > "$OUT/handicap.train.log" 2>&1
measure "$OUT/handicap.db" handicap
nice -n 5 node bin/morph.js train --db "$OUT/self.db" --games "$GAMES" --seed "$SEED" --jobs 2 --search captures \
  --opponent self --progress lines > "$OUT/self.train.log" 2>&1
measure "$OUT/self.db" self

# 2. Pre-training on engine games.
pairs=(
  "uci:$SF:depth=1,Skill Level=0|uci:$SF:depth=2,Skill Level=4"
  "uci:$SF:depth=2,Skill Level=3|uci:$SF:depth=3,Skill Level=8"
  "uci:$SF:depth=1,Skill Level=20|uci:$SF:depth=3,Skill Level=2"
  "uci:$SF:depth=4,Skill Level=10|uci:$TOGA:depth=2"
  "uci:$SF:depth=2,Skill Level=6|uci:$SF:depth=1,Skill Level=12"
  "uci:$TOGA:depth=1|uci:$SF:depth=2,Skill Level=1"
  "uci:$SF:depth=5,Skill Level=15|uci:$SF:depth=3,Skill Level=5"
  "uci:$SF:depth=2,Skill Level=0|uci:$TOGA:depth=3"
)
: > "$OUT/engines.pgn"
for ((i = 1; i <= ENGINE_PAIRS; i++)); do
  IFS='|' read -r white black <<< "${pairs[i - 1]}"
  node bin/morph.js match --white "$white" --black "$black" --games 300 --seed "$i" --concurrency 2 \
    --pgn "$OUT/engines-$i.pgn" --json --no-progress > "$OUT/engines-$i.json"
  cat "$OUT/engines-$i.pgn" >> "$OUT/engines.pgn"
done
node bin/morph.js learn --pgn "$OUT/engines.pgn" --db "$OUT/pre.db" --seed "$SEED" --json > "$OUT/pre.learn.json"
measure "$OUT/pre.db" pre
cp "$OUT/pre.db" "$OUT/pre-then-games.db"
nice -n 5 node bin/morph.js train --db "$OUT/pre-then-games.db" --games "$GAMES" --seed "$SEED" --jobs 1 \
  --progress lines > "$OUT/pre-then-games.train.log" 2>&1
measure "$OUT/pre-then-games.db" pre-then-games
