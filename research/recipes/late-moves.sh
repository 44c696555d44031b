#!/usr/bin/env bash
# A late-move reduction in the full-width search (late=K, search.ts fullWidthValue): after the K moves tried first at
# a node with two plies or more to go, quiet moves (no capture, promotion or check) are searched a ply shallower, and
# again at full depth if they would be chosen. Does it buy a fourth ply for less than four plies' time (issue 69,
# strength; issue 71, where a search looks)?
#   move quality on the 400 scored positions, paired: material-full-width (three plies), four plies with late=3 and
#   late=8, four plies in full; then four plies with late=3 against three plies in games (the database's play search
#   set in a copy, research/with-config.ts; 100 games, paired balanced openings, SPRT elo0 0 elo1 30), and each
#   against gnuchess at depth 2.
#
#   research/recipes/late-moves.sh CHECKPOINT OUT   (CHECKPOINT: fresh-curve.sh's games-005000.db of seed 21, with its
#                                                    policy beside it; resumable: a step whose output exists is kept)
# 2026-12-07 (session 81): results in docs/lab/2026-12.md, session 81.
set -euo pipefail
cd "$(dirname "$0")/../.."
CHECKPOINT=${1:?usage: late-moves.sh CHECKPOINT OUT}
OUT=${2:?usage: late-moves.sh CHECKPOINT OUT}
FOUR=material,quiescence,mates=4,plies=4
mkdir -p "$OUT"
[ -s "$OUT/late.jsonl" ] || node bin/run-ts.js training/compare-rankers.ts --positions positions/move-scores.jsonl "db=$CHECKPOINT" \
  "db=$CHECKPOINT;search=$FOUR,late=3,bare-king" "db=$CHECKPOINT;search=$FOUR,late=8,bare-king" "db=$CHECKPOINT;search=$FOUR,bare-king" \
  > "$OUT/late.jsonl"
if [ ! -e "$OUT/late3.db" ]; then
  node bin/run-ts.js research/with-config.ts "$CHECKPOINT" "$OUT/late3.db" "playSearch=$FOUR,late=3,bare-king"
  ln -sf "$(realpath "${CHECKPOINT%.db}.policy.db")" "$OUT/late3.policy.db"
fi
[ -s "$OUT/h2h-late3.json" ] || nice -n 5 node bin/morph.js match --white "morph:$OUT/late3.db" --black "morph:$CHECKPOINT" \
  --games 100 --seed 1 --openings openings/balanced-6ply.epd --sprt elo0=0,elo1=30 --json --pgn "$OUT/h2h-late3.pgn" \
  --no-progress > "$OUT/h2h-late3.json"
# Against an opponent outside the family: both searches on the same database against gnuchess at depth 2, the same
# 60 balanced openings and seed (paired by opening).
for side in late3:"$OUT/late3.db" three:"$CHECKPOINT"; do
  name=${side%%:*} db=${side#*:}
  [ -s "$OUT/gnu2-$name.json" ] || nice -n 5 node bin/morph.js match --white "morph:$db" --black gnuchess:depth=2 --games 60 \
    --seed 1 --openings openings/balanced-6ply.epd --concurrency 2 --json --pgn "$OUT/gnu2-$name.pgn" --no-progress > "$OUT/gnu2-$name.json"
done
