#!/usr/bin/env bash
# The learning curve (issue 12): train a database with checkpoints, then measure every checkpoint on the ladder
# (ab:1, ab:2,q, stockfish:skill=0,depth=1; MATCH_GAMES games each with `morph match`: opening pairs, colours
# reversed, the same seed for every checkpoint, Elo interval over pairs) and on move quality and agreement
# (test/fixtures/move-scores.jsonl). One JSON line per checkpoint and opponent, and one per checkpoint's agree
# run, go to DB.checkpoints/curve.jsonl, which `morph report` shows.
#
#   GAMES=3000 EVERY=500 training/recipes/curve.sh tmp/curve.db [train options, e.g. --evaluation joint]
#   SKIP_TRAIN=1 training/recipes/curve.sh tmp/curve.db      (measure the checkpoints not measured yet)
#
# Defaults: GAMES=3000 EVERY=500 MATCH_GAMES=200 SEED=1 OPPONENTS='ab:1;ab:2,q;stockfish:skill=0,depth=1'
# OPENINGS (morph match's default suite when unset).
set -euo pipefail
cd "$(dirname "$0")/../.."
DB=${1:?usage: curve.sh DB [train options]}
shift
GAMES=${GAMES:-3000}
EVERY=${EVERY:-500}
MATCH_GAMES=${MATCH_GAMES:-200}
SEED=${SEED:-1}
OPPONENTS=${OPPONENTS:-ab:1;ab:2,q;stockfish:skill=0,depth=1}
POSITIONS=${POSITIONS:-test/fixtures/move-scores.jsonl}
OPENING_ARGS=()
if [ -n "${OPENINGS:-}" ]; then OPENING_ARGS=(--openings "$OPENINGS"); fi
DIR="${DB%.db}.checkpoints"

if [ -z "${SKIP_TRAIN:-}" ]; then
  nice -n 10 node bin/morph.js train --db "$DB" --games "$GAMES" --seed "$SEED" --checkpoint-every "$EVERY" \
    --progress lines "$@"
fi

OUT="$DIR/curve.jsonl"
# One curve line from `morph match --json` (the pair-based Elo) or `morph agree --json`, for checkpoint $1.
to_curve_line() {
  node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>{const r=JSON.parse(s);
    const trainedGames=Number(/games-(\d+)\.db$/.exec(process.argv[1])[1]);const db=process.argv[1];
    if(r.pentanomial){const e=r.pairs&&r.pairs.samples>1?r.pairs:r.elo;
      console.log(JSON.stringify({db,trainedGames,opponent:r.second,games:r.games,wins:r.wins,draws:r.draws,
        losses:r.losses,score:r.scoreFraction,elo:e.elo,eloLow:e.low,eloHigh:e.high}))}
    else console.log(JSON.stringify({db,trainedGames,ranker:"agree",top1:r.top1,top4:r.top4,intervals:r.intervals,quality:r.quality}))})' "$1"
}

for checkpoint in "$DIR"/games-*.db; do
  # A checkpoint already measured is skipped, so the recipe can be re-run as training goes on.
  if [ -f "$OUT" ] && grep -qF "\"db\":\"$checkpoint\"" "$OUT"; then continue; fi
  IFS=';' read -ra opponents <<< "$OPPONENTS"
  for opponent in "${opponents[@]}"; do
    nice -n 10 node bin/morph.js match --white "morph:$checkpoint" --black "$opponent" --games "$MATCH_GAMES" \
      --seed "$SEED" "${OPENING_ARGS[@]}" --json --pgn /dev/null 2>/dev/null | to_curve_line "$checkpoint" >> "$OUT"
  done
  nice -n 10 node bin/morph.js agree --db "$checkpoint" --positions "$POSITIONS" --json | to_curve_line "$checkpoint" >> "$OUT"
  echo "measured $checkpoint"
done
echo "curve: $OUT"
