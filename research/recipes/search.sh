#!/usr/bin/env bash
# The search modes side by side (issue 12 part 4): one-ply against captures (one ply, then the opponent's captures).
#   1. play-time: the same database played both ways, on move quality (paired) and in 200-game matches
#      (seed 1, the balanced suite) against OPPONENTS;
#   2. training: a fresh database trained with --search captures (seed 1, --jobs 1 so it repeats exactly) against
#      BASE, a database trained one-ply with the same seed and games (e.g. languages.sh's safety.db).
#
#   research/recipes/search.sh OUT_DIR DB [BASE]     (GAMES=1000 SEED=1 MATCH_GAMES=200 OPPONENTS='ab:1;ab:2,q;stockfish:skill=0,depth=1')
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: search.sh OUT_DIR DB [BASE]}
DB=${2:?usage: search.sh OUT_DIR DB [BASE]}
BASE=${3:-}
GAMES=${GAMES:-1000}
SEED=${SEED:-1}
MATCH_GAMES=${MATCH_GAMES:-200}
OPPONENTS=${OPPONENTS:-ab:1;ab:2,q;stockfish:skill=0,depth=1}
POSITIONS=positions/move-scores.jsonl
mkdir -p "$OUT"

match() { # match DB SEARCH OPPONENT -> OUT/NAME-SEARCH-OPPONENT.json
  local tag
  tag="$(basename "${1%.db}")-$2-$(echo "$3" | tr ':,=' '___')"
  nice -n 5 node bin/morph.js match --white "morph:$1" --black "$3" --games "$MATCH_GAMES" --seed "$SEED" --search "$2" \
    --json --pgn /dev/null > "$OUT/$tag.json" 2> "$OUT/$tag.err"
}

# 1. Play-time.
node bin/run-ts.js training/compare-rankers.ts --positions "$POSITIONS" "db=$DB;search=one-ply" "db=$DB;search=captures" \
  "ranker=ab:2" > "$OUT/quality-playtime.jsonl"
IFS=';' read -ra opponents <<< "$OPPONENTS"
for opponent in "${opponents[@]}"; do
  for search in one-ply captures; do match "$DB" "$search" "$opponent"; done
done
node bin/run-ts.js training/paired-match-diff.ts "$OUT/$(basename "${DB%.db}")-one-ply-ab_1.json" \
  "$OUT/$(basename "${DB%.db}")-captures-ab_1.json" > "$OUT/paired-ab_1.json"

# 2. Training with captures from fresh, against a one-ply database of the same seed and games.
if [ -n "$BASE" ]; then
  nice -n 10 node bin/morph.js train --db "$OUT/captures.db" --games "$GAMES" --seed "$SEED" --jobs 1 --search captures \
    --progress lines > "$OUT/captures.train.log" 2>&1
  node bin/run-ts.js training/compare-rankers.ts --positions "$POSITIONS" "db=$BASE;search=captures" "db=$OUT/captures.db" \
    "db=$BASE;search=one-ply" > "$OUT/quality-trained.jsonl"
  match "$BASE" captures ab:1
  match "$OUT/captures.db" captures ab:1
  node bin/run-ts.js training/paired-match-diff.ts "$OUT/$(basename "${BASE%.db}")-captures-ab_1.json" \
    "$OUT/captures-captures-ab_1.json" > "$OUT/paired-trained-ab_1.json"
fi
