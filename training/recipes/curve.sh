#!/usr/bin/env bash
# The learning curve (issue 12): train a fresh database with checkpoints, then measure every checkpoint on the
# ladder (ab:1, ab:2,q, stockfish:skill=0,depth=1; PAIRS openings each played with both colours, random
# 4-ply openings from SEED, the same for every checkpoint) and on move quality (test/fixtures/move-scores.jsonl).
# Results: one JSON line per checkpoint and opponent / ranker in DB.checkpoints/curve.jsonl.
#
#   GAMES=3000 EVERY=500 training/recipes/curve.sh tmp/curve.db [train options, e.g. --evaluation joint]
#   SKIP_TRAIN=1 training/recipes/curve.sh tmp/curve.db      (measure existing checkpoints only)
#
# Defaults: GAMES=3000 EVERY=500 PAIRS=100 (200 games per opponent) SEED=1 OPPONENTS='ab:1;ab:2,q;stockfish:skill=0,depth=1'
set -euo pipefail
cd "$(dirname "$0")/../.."
DB=${1:?usage: curve.sh DB [train options]}
shift
GAMES=${GAMES:-3000}
EVERY=${EVERY:-500}
PAIRS=${PAIRS:-100}
SEED=${SEED:-1}
OPPONENTS=${OPPONENTS:-ab:1;ab:2,q;stockfish:skill=0,depth=1}
POSITIONS=${POSITIONS:-test/fixtures/move-scores.jsonl}
DIR="${DB%.db}.checkpoints"

if [ -z "${SKIP_TRAIN:-}" ]; then
  nice -n 10 node bin/morph.js train --db "$DB" --games "$GAMES" --seed "$SEED" --checkpoint-every "$EVERY" \
    --progress lines "$@"
fi

OUT="$DIR/curve.jsonl"
for checkpoint in "$DIR"/games-*.db; do
  # Measured once: a checkpoint already in the curve is skipped, so the recipe can be re-run as training goes on.
  if [ -f "$OUT" ] && grep -q "\"db\":\"$checkpoint\"" "$OUT"; then continue; fi
  nice -n 10 node bin/run-ts.js training/varied-games.ts --db "$checkpoint" --opponents "$OPPONENTS" \
    --pairs "$PAIRS" --seed "$SEED" >> "$OUT"
  nice -n 10 node bin/morph.js agree --db "$checkpoint" --positions "$POSITIONS" --json \
    | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const r=JSON.parse(s);
        const games=Number(process.argv[1].match(/games-(\d+)/)[1]);
        console.log(JSON.stringify({db:process.argv[1],trainedGames:games,ranker:"agree",top1:r.top1,top4:r.top4,
          intervals:r.intervals,quality:r.quality}))})' "$checkpoint" >> "$OUT"
done
echo "curve: $OUT"
