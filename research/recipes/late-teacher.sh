#!/usr/bin/env bash
# Issue 12, the climbing curve: does a stronger partner after 3,000 games make the later database stronger, now
# that Morph's square values and policy learn from the partner's choices? (2026-12-02)
#
#   research/recipes/late-teacher.sh OUT_DIR BASE_DB
#
# BASE_DB: a 3,000-game database trained with the defaults (model-line.sh's t.db, seed 52) and its policy.
# Arm A: 3,000 more games against the default partner. Arm B: 3,000 more against stockfish:skill=20,depth=1.
# Each rebuilds its policy at the end (the default). Then each arm plays ab:2,q, GAMES games a seed on the
# balanced suite, and the two are compared paired by opening.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: late-teacher.sh OUT_DIR BASE_DB}
BASE=${2:?usage: late-teacher.sh OUT_DIR BASE_DB}
GAMES=${GAMES:-100}
SEEDS=${SEEDS:-1 2}
mkdir -p "$OUT"
declare -A PARTNER=([A]=stockfish [B]='stockfish:skill=20,depth=1')
for arm in A B; do
  if [ ! -f "$OUT/$arm.trained" ]; then
    [ -f "$OUT/$arm.db" ] || { cp "$BASE" "$OUT/$arm.db"; cp "${BASE%.db}.policy.db" "$OUT/$arm.policy.db"; }
    # resumable: a killed run is continued up to 6,000 games
    done_games=$(node bin/morph.js inspect --db "$OUT/$arm.db" --json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).games.played))')
    ( node bin/morph.js train --db "$OUT/$arm.db" --games $((6000 - done_games)) --jobs 1 \
        --opponent "${PARTNER[$arm]}" --progress lines > "$OUT/$arm.train.out" 2> "$OUT/$arm.train.err" \
      && touch "$OUT/$arm.trained" ) &
  fi
done
wait
for seed in $SEEDS; do
  for arm in A B; do
    [ -s "$OUT/match-$arm-s$seed.json" ] && continue
    node bin/morph.js match --white "morph:$OUT/$arm.db" --black 'ab:2,q' --games "$GAMES" --seed "$seed" \
      --openings openings/balanced-6ply.epd --json --no-progress > "$OUT/match-$arm-s$seed.json" &
  done
  wait
done
node bin/run-ts.js training/paired-match-diff.ts \
  "$(for s in $SEEDS; do printf '%s,' "$OUT/match-A-s$s.json"; done | sed 's/,$//')" \
  "$(for s in $SEEDS; do printf '%s,' "$OUT/match-B-s$s.json"; done | sed 's/,$//')"
