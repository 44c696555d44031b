#!/usr/bin/env bash
# The 2-hour run of 2026-11-28 from a fresh database with the defaults (issues 12 and 13; training/RESULTS.md,
# 2026-11-28 evening and night): how it was run, and its curve.
#
# The run (build 8f30a44 and after, `--jobs 2`, seed 48), in three segments on one database:
#   node bin/morph.js train --db DIR/morph.db --hours 2 --seed 48 --checkpoint-every 1000 --json-log DIR/games.jsonl
#     (killed with kill -9 after 32 minutes, 13,196 games)
#   node bin/morph.js train --db DIR/morph.db --hours 0.47 --checkpoint-every 1000 --json-log DIR/games.jsonl
#   node bin/morph.js train --db DIR/morph.db --hours 1 --checkpoint-every 1000 --json-log DIR/games.jsonl
# Each resumed segment takes the seed from the database; each ends by rebuilding the policy (DIR/morph.policy.db).
#
# The curve (this script; resumable, each step skips what exists): the 3,000-game checkpoint, with its own policy
# (built here from its last 1,000 games, square values fitted afresh on its 3,000 games), and the final database
# play ab:2,q, 200 games a seed (seeds 1-3) on the balanced suite, paired by opening; the final also plays
# gnuchess at depth 1 (the long-range goal), 200 games a seed (seeds 1 and 2).
#
#   training/recipes/two-hours-curve.sh DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR=${1:?usage: two-hours-curve.sh DIR}
OUT="$DIR/curve"
mkdir -p "$OUT"
C3000="$OUT/games-003000.db"
[ -e "$C3000" ] || cp "$DIR/morph.checkpoints/games-003000.db" "$C3000"
[ -e "$OUT/games-003000.policy.db" ] || node bin/morph.js model --from-db "$C3000" --no-progress > "$OUT/policy-3000.txt"
match() { # NAME DB OPPONENT SEED
  [ -s "$OUT/$1.json" ] || node bin/morph.js match --white "morph:$2" --black "$3" --games 200 --seed "$4" \
    --openings openings/balanced-6ply.epd --json --pgn "$OUT/$1.pgn" --no-progress > "$OUT/$1.json"
}
for seed in 1 2 3; do
  match "ab2q-3000-s$seed" "$C3000" ab:2,q $seed
  match "ab2q-final-s$seed" "$DIR/morph.db" ab:2,q $seed
done
match gnuchess1-final "$DIR/morph.db" gnuchess:depth=1 1
match gnuchess1-final-s2 "$DIR/morph.db" gnuchess:depth=1 2
# The final against the 3,000-game checkpoint, paired by opening over the three seeds.
node bin/run-ts.js training/paired-match-diff.ts "$OUT/ab2q-3000-s1.json,$OUT/ab2q-3000-s2.json,$OUT/ab2q-3000-s3.json" \
  "$OUT/ab2q-final-s1.json,$OUT/ab2q-final-s2.json,$OUT/ab2q-final-s3.json"
