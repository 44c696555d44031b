#!/usr/bin/env bash
# Square values from every game so far instead of the last 1,000, one table or tapered (issue 12, the climbing
# curve; docs/lab/2026-11.md, 2026-11-28 morning). The 10,000-game checkpoint of the curve database
# (curve-10k.sh) keeps its own policy; its square values are refitted on 150,000 decisions drawn evenly from all
# its 10,000 games (eight sampled alternatives a decision, two rounds), once as one table and once tapered by the
# officers' share (src/eval/squareValues.ts). Each plays ab:2,q, 200 games, seeds 1 and 2, the balanced suite,
# paired by opening against the checkpoint's own matches (games-010000.ab2q.json and -s2.json). Then the
# 1,000- and 3,000-game checkpoints do the same tapered (all their games: 48,869 and 151,370 decisions), for the
# curve from 1,000 to 10,000 games with square values that keep learning.
#
#   research/recipes/square-all-games.sh CHECKPOINTS_DIR OUT      (resumable: each step skips what exists)
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR=${1:?usage: square-all-games.sh CHECKPOINTS_DIR OUT}
OUT=${2:?usage: square-all-games.sh CHECKPOINTS_DIR OUT}
mkdir -p "$OUT"
fit_and_play() { # CHECKPOINT (games, zero-padded) ARM
  local games=$1 arm=$2 C="$DIR/games-$1" tapered="" label="p$1-$2"
  [ "$arm" = all150k-a8-tapered ] && tapered=tapered
  [ -e "$OUT/$label.db" ] || node bin/run-ts.js research/square-values-from-games.ts "$C.db" "$C.policy.db" 10000 \
    "$OUT/$label.db" 150000 2 8 $tapered
  for seed in 1 2; do
    suffix=""
    [ "$seed" = 2 ] && suffix=-s2
    [ -s "$OUT/$label$suffix.json" ] || node bin/morph.js match --white "morph:$C.db" --white-policy "$OUT/$label.db" \
      --black 'ab:2,q' --games 200 --seed "$seed" --openings openings/balanced-6ply.epd --json --pgn /dev/null --no-progress \
      > "$OUT/$label$suffix.json"
  done
  node bin/run-ts.js training/paired-match-diff.ts "$C.ab2q.json,$C.ab2q-s2.json" "$OUT/$label.json,$OUT/$label-s2.json"
}
fit_and_play 010000 all150k-a8
fit_and_play 010000 all150k-a8-tapered
fit_and_play 001000 all150k-a8-tapered
fit_and_play 003000 all150k-a8-tapered
# The curve with tapered square values from every game: 3,000 and 10,000 games against 1,000, 10,000 against 3,000.
T=all150k-a8-tapered
node bin/run-ts.js training/paired-match-diff.ts "$OUT/p001000-$T.json,$OUT/p001000-$T-s2.json" \
  "$OUT/p003000-$T.json,$OUT/p003000-$T-s2.json" "$OUT/p010000-$T.json,$OUT/p010000-$T-s2.json"
node bin/run-ts.js training/paired-match-diff.ts "$OUT/p003000-$T.json,$OUT/p003000-$T-s2.json" "$OUT/p010000-$T.json,$OUT/p010000-$T-s2.json"
