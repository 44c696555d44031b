#!/usr/bin/env bash
# A 2-hour run from a fresh database with the defaults, and its curve (issues 12 and 13).
#
# The run of 2026-11-28 (docs/lab/2026-11.md, 2026-11-28 evening and night; build 8f30a44 and after, `--jobs 2`,
# seed 48), in three segments on one database:
#   node bin/morph.js train --db DIR/morph.db --hours 2 --seed 48 --checkpoint-every 1000 --json-log DIR/games.jsonl
#     (killed with kill -9 after 32 minutes, 13,196 games)
#   node bin/morph.js train --db DIR/morph.db --hours 0.47 --checkpoint-every 1000 --json-log DIR/games.jsonl
#   node bin/morph.js train --db DIR/morph.db --hours 1 --checkpoint-every 1000 --json-log DIR/games.jsonl
# Each resumed segment takes the seed from the database; each ends by rebuilding the policy (DIR/morph.policy.db).
# The run of 2026-12-04 (build 8441b95, seed 63, DIR /work/data/s63/curve, nice 10 beside the session's CI): the
# same first command with --seed 63; a segment cut short is resumed with the same command and --hours set to
# what is left of the two hours (the json log's finish times say how much ran).
#
# The curve (this script; resumable, each step skips what exists): each checkpoint in CHECKPOINTS (default 3000)
# with its own policy (built here from its last 1,000 games, square values fitted afresh on its games), and the
# final database play ab:2,q, 200 games a seed (SEEDS, default 1 2 3) on the balanced suite, paired by opening;
# the final also plays gnuchess at depth 1 (the long-range goal), 200 games a seed (seeds 1 and 2). Then the
# final against each checkpoint, paired by opening over the seeds.
#
#   research/recipes/two-hours-curve.sh DIR
#   CHECKPOINTS="3000 10000" research/recipes/two-hours-curve.sh DIR
#   FINAL=0 research/recipes/two-hours-curve.sh DIR     only the checkpoints' matches (while the run still trains)
set -euo pipefail
cd "$(dirname "$0")/../.."
source research/recipes/lib.sh
DIR=${1:?usage: two-hours-curve.sh DIR}
CHECKPOINTS=${CHECKPOINTS:-3000}
SEEDS=${SEEDS:-1 2 3}
FINAL=${FINAL:-1}
OUT="$DIR/curve"
mkdir -p "$OUT"
for games in $CHECKPOINTS; do
  name=$(printf 'games-%06d' "$games")
  copy="$OUT/$name.db"
  [ -e "$copy" ] || cp "$DIR/morph.checkpoints/$name.db" "$copy"
  [ -e "$OUT/$name.policy.db" ] || node bin/morph.js model --from-db "$copy" --no-progress > "$OUT/policy-$games.txt"
  for seed in $SEEDS; do suite_match "$OUT" "ab2q-$games-s$seed" "$copy" ab:2,q "$seed"; done
done
[ "$FINAL" = 1 ] || exit 0
for seed in $SEEDS; do suite_match "$OUT" "ab2q-final-s$seed" "$DIR/morph.db" ab:2,q "$seed"; done
suite_match "$OUT" gnuchess1-final "$DIR/morph.db" gnuchess:depth=1 1
suite_match "$OUT" gnuchess1-final-s2 "$DIR/morph.db" gnuchess:depth=1 2
files() { # PREFIX: that prefix's match files over the seeds, comma-separated
  local list=""
  for seed in $SEEDS; do list="$list${list:+,}$OUT/$1-s$seed.json"; done
  echo "$list"
}
for games in $CHECKPOINTS; do
  echo "final against the $games-game checkpoint, paired by opening:"
  node bin/run-ts.js training/paired-match-diff.ts "$(files "ab2q-$games")" "$(files ab2q-final)"
done
