#!/usr/bin/env bash
# Square values for play (issue 12; docs/lab/2026-11.md, 2026-11-28 night): DB's own policy built with square values
# fitted to its partner's choices (the default since then), the same policy without them, and with them refitted on
# the last 300 games and on every game; each played by DB against ab:2,q, 200 games, seed 1, the balanced suite.
# Pair any two:  node bin/run-ts.js training/paired-match-diff.ts OUT/ab2q-none.json OUT/ab2q-1000.json
#
#   research/recipes/square-values-play.sh DB OUT_DIR [ALL_GAMES]      (ALL_GAMES default 3000: DB's game count)
set -euo pipefail
cd "$(dirname "$0")/../.."
DB=${1:?usage: square-values-play.sh DB OUT_DIR [ALL_GAMES]}
OUT=${2:?usage: square-values-play.sh DB OUT_DIR [ALL_GAMES]}
ALL=${3:-3000}
mkdir -p "$OUT"
[ -e "$OUT/policy-1000.db" ] || node bin/morph.js model --from-db "$DB" --out "$OUT/policy-1000.db" --no-progress
if [ ! -e "$OUT/policy-none.db" ]; then
  cp "$OUT/policy-1000.db" "$OUT/policy-none.db"
  node -e 'const D=require("better-sqlite3");const d=new D(process.argv[1]);d.prepare("DELETE FROM meta WHERE key = ?").run("model_choice_squares");d.close()' "$OUT/policy-none.db"
fi
[ -e "$OUT/policy-300.db" ] || node bin/run-ts.js research/square-values-from-games.ts "$DB" "$OUT/policy-1000.db" 300 "$OUT/policy-300.db"
[ -e "$OUT/policy-all.db" ] || node bin/run-ts.js research/square-values-from-games.ts "$DB" "$OUT/policy-1000.db" "$ALL" "$OUT/policy-all.db"
for arm in none 1000; do
  node bin/morph.js match --white "morph:$DB" --white-policy "$OUT/policy-$arm.db" --black ab:2,q --games 200 --seed 1 \
    --openings openings/balanced-6ply.epd --json --no-progress > "$OUT/ab2q-$arm.json" &
done
wait
for arm in 300 all; do
  node bin/morph.js match --white "morph:$DB" --white-policy "$OUT/policy-$arm.db" --black ab:2,q --games 200 --seed 1 \
    --openings openings/balanced-6ply.epd --json --no-progress > "$OUT/ab2q-$arm.json" &
done
wait
