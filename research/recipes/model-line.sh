#!/usr/bin/env bash
# Playing with a model of the opponent in model mode "line" (issue 14; 2026-11-29): Morph follows its best few
# moves along the model's likeliest reply to its own best answer there. Against ab:2,q, paired by opening with the
# same player without a model and with the default mode (look).
#
#   research/recipes/model-line.sh OUT_DIR
#
# OUT_DIR/t.db: a fresh database trained 3,000 games with the defaults (seed 52; its own policy built at the end).
# OUT_DIR/ab2q.db: the default model (seed 1) of ab:2,q from 240 of its games against other partners (seed 1,
# every 5th game held out), none against Morph. Matches: GAMES games a seed on the balanced suite, all at once.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: model-line.sh OUT_DIR}
GAMES=${GAMES:-100}
SEEDS=${SEEDS:-1 2}
MODES=${MODES:-none line}
mkdir -p "$OUT/opp"
[ -f "$OUT/t.db" ] || node bin/morph.js train --db "$OUT/t.db" --games 3000 --seed 52 --jobs 1 --progress lines > "$OUT/train.out" 2> "$OUT/train.err"
node bin/run-ts.js training/opponent-games.ts --player 'ab:2,q' \
  --partners 'stockfish:skill=5,depth=3;ab:2;stockfish:skill=10,depth=2;greedy' --games 300 --held-out-every 5 \
  --seed 1 --out "$OUT/opp/ab2q"
[ -f "$OUT/ab2q.db" ] || node bin/morph.js model --pgn "$OUT/opp/ab2q.train.pgn" --player 'ab:2,q' --seed 1 \
  --out "$OUT/ab2q.db" --json --no-progress > "$OUT/ab2q.json"
for seed in $SEEDS; do
  for mode in $MODES; do
    [ -s "$OUT/match-$mode-s$seed.json" ] && continue # a finished match is kept (the runs are long)
    model=()
    [ "$mode" != none ] && model=(--white-model "$OUT/ab2q.db" --model-mode "$mode")
    node bin/morph.js match --white "morph:$OUT/t.db" --black 'ab:2,q' --games "$GAMES" --seed "$seed" \
      --openings openings/balanced-6ply.epd --json --no-progress "${model[@]}" > "$OUT/match-$mode-s$seed.json" &
  done
done
wait
# The control: the line with a model of another player, Glaurung's (research/recipes/quiescence-line.sh), seed 1.
if [ -f "$OUT/glaurung-twoply.db" ] && [ ! -s "$OUT/match-line-glaurungmodel-s1.json" ]; then
  node bin/morph.js match --white "morph:$OUT/t.db" --black 'ab:2,q' --games "$GAMES" --seed 1 \
    --openings openings/balanced-6ply.epd --json --no-progress --white-model "$OUT/glaurung-twoply.db" --model-mode line \
    > "$OUT/match-line-glaurungmodel-s1.json"
fi
for mode in $MODES; do
  [ "$mode" = none ] && continue
  node bin/run-ts.js training/paired-match-diff.ts \
    "$(for s in $SEEDS; do printf '%s,' "$OUT/match-none-s$s.json"; done | sed 's/,$//')" \
    "$(for s in $SEEDS; do printf '%s,' "$OUT/match-$mode-s$s.json"; done | sed 's/,$//')"
done
