#!/usr/bin/env bash
# The curve carried to 10,000 games (issue 12; docs/lab/2026-11.md, 2026-11-28 day). The database of
# square-values-play's curve (seed 11, 3,000 games, checkpoints every 500) trains 7,000 games more, then the
# checkpoints 2,000 and 10,000 are measured as curve.sh measures them (own policy with square values; ab:2,q, 200
# games, seed 1, the balanced suite; move quality), and the checkpoints 500, 1,000, 3,000 and 10,000 play a
# second match at seed 2, so that they are compared over 400 games.
#
#   research/recipes/curve-10k.sh DB      (DB: the 3,000-game curve database; resumable: each step skips what exists)
set -euo pipefail
cd "$(dirname "$0")/../.."
DB=${1:?usage: curve-10k.sh DB}
DIR="${DB%.db}.checkpoints"
if [ ! -e "$DIR/games-010000.db" ]; then
  node bin/morph.js train --db "$DB" --games 7000 --checkpoint-every 1000 --no-policy --progress lines
fi
ONLY='002000 010000' SKIP_TRAIN=1 OPPONENTS='ab:2,q' OPENINGS=openings/balanced-6ply.epd training/recipes/curve.sh "$DB"
for games in 000500 001000 003000 010000; do
  checkpoint="$DIR/games-$games"
  [ -e "$checkpoint.policy.db" ] || node bin/morph.js model --from-db "$checkpoint.db" --no-progress > /dev/null
  [ -s "$checkpoint.ab2q-s2.json" ] || node bin/morph.js match --white "morph:$checkpoint.db" --black 'ab:2,q' \
    --games 200 --seed 2 --openings openings/balanced-6ply.epd --json --pgn /dev/null --no-progress > "$checkpoint.ab2q-s2.json"
done
echo "pair any two, seed by seed: node bin/run-ts.js training/paired-match-diff.ts A.ab2q.json B.ab2q.json (and the -s2 files);"
echo "over both seeds RESULTS averages the two paired means and combines their variances"
