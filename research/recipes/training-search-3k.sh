#!/usr/bin/env bash
# Which training search teaches more by 3,000 games (issue 69, speed at scale): captures-mates (the default, which
# values positions by every matching pattern, so its moves slow as the database grows) against material-quiescence
# (material and the relation terms, the play search's own evaluation, whose moves cost the same at any size).
# Four runs from fresh with the defaults otherwise (two seeds x two training searches, --jobs 1, two at a time),
# checkpoints every 1,000 games; then, per seed, move quality on the 400 scored positions (each run with its own
# online policy, as Morph plays) and 100 games head to head (the default play search, paired openings).
# Takes: about 50 minutes of training on 2 cores, then about 40 minutes of measuring.
# Resumable: a run that stopped is continued to 3,000 games (its games so far read from the database).
#
#   research/recipes/training-search-3k.sh [OUT]      (default /work/runs/tsearch; SEEDS="13 14" by default)
#
# 2026-12-06 (session 74), main at the commit that added this recipe: results in docs/lab/2026-12.md,
# "training with material-quiescence at 3,000 games".
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:-/work/runs/tsearch}
GAMES=${GAMES:-3000}
SEEDS=${SEEDS:-13 14}
mkdir -p "$OUT"

played() {
  [ -e "$1" ] || { echo 0; return; }
  node -e 'const D=require("better-sqlite3");const d=new D(process.argv[1],{readonly:true});
    process.stdout.write(String(d.prepare("SELECT count(*) FROM games").pluck().get()))' "$1"
}

train() { # SEED SEARCH
  local db="$OUT/s$1-$2.db" done
  done=$(played "$db")
  if [ "$done" -lt "$GAMES" ]; then
    node bin/morph.js train --db "$db" --games $((GAMES - done)) --seed "$1" --search "$2" --jobs 1 \
      --checkpoint-every 1000 --no-judge --progress lines >> "$OUT/s$1-$2.log" 2>&1
  fi
}
export -f played train; export OUT GAMES
for seed in $SEEDS; do printf '%s\n' "$seed material-quiescence" "$seed captures-mates"; done \
  | xargs -P 2 -L 1 bash -c 'train "$0" "$1"'

for seed in $SEEDS; do
  node bin/run-ts.js training/compare-rankers.ts --positions positions/move-scores.jsonl \
    "db=$OUT/s$seed-captures-mates.db" "db=$OUT/s$seed-material-quiescence.db" | tee "$OUT/quality-s$seed.txt"
done
for seed in $SEEDS; do
  node bin/morph.js match --white "morph:$OUT/s$seed-material-quiescence.db" --black "morph:$OUT/s$seed-captures-mates.db" \
    --games 100 --seed 1 --concurrency 1 --json --pgn "$OUT/h2h-s$seed.pgn" > "$OUT/h2h-s$seed.json" 2> "$OUT/h2h-s$seed.err" &
done
wait
