#!/usr/bin/env bash
# The online policy's upkeep (issue 69; docs/lab/2026-12.md, 2026-12-05 evening, "the online policy's upkeep cut"):
#   1. square values from six refits over a 3,000-game database's partner games, absorbing every game of each 500
#      or 100 of them spread evenly (research/square-refit-sample.ts), each written into a copy of the database's
#      online policy and measured on the 400 scored positions, paired;
#   2. the online policy replayed over the same games learning from every decision, a quarter or an eighth of each
#      game's (research/online-policy-replay.ts --share), each measured against the batch policy, paired;
#   3. a 600-game run from fresh with the build before the cut and with main, side by side (set OLD to a checkout
#      of 2bbdc60 with node_modules).
# Takes: about 12 minutes (1), 4-12 minutes each (2) plus 3 minutes of measuring, 5-8 minutes (3), on 2 busy cores.
# DB = s11.db (3,000 games, seed 11, main 03eba32, graph-terms.sh builds it), its batch policy DB.policy.db
# (morph model --from-db), and ONLINE = the every-decision replay's output.
set -euo pipefail
cd "$(dirname "$0")/../.."
DB=${DB:?set DB to a 3,000-game database}
ONLINE=${ONLINE:-out/policy-upkeep/online.policy.db}
OUT=${OUT:-out/policy-upkeep}
mkdir -p "$OUT"
for share in 1 0.25 0.125; do
  out="$OUT/share$share.policy.db"
  [ "$share" = 1 ] && out="$ONLINE"
  node bin/run-ts.js research/online-policy-replay.ts --db "$DB" --batch "${DB%.db}.policy.db" --out "$out" --share "$share" | tee "$OUT/share$share.out"
done
node bin/run-ts.js research/square-refit-sample.ts --db "$DB" --policy "$ONLINE" --work "$OUT/squares" | tee "$OUT/squares.jsonl"
if [ -n "${OLD:-}" ]; then
  here=$(realpath "$OUT")
  (cd "$OLD" && node bin/morph.js train --db "$here/old.db" --games 600 --jobs 2 --seed 11 --json > "$here/old.json") &
  node bin/morph.js train --db "$OUT/new.db" --games 600 --jobs 2 --seed 11 --json > "$OUT/new.json"
  wait
fi
