#!/usr/bin/env bash
# Two hours from a fresh database with the defaults, and the curve against ab:2,q (issue 12; 2026-11-25, day):
# train with checkpoints every 1000 games, then each of the 1,000-, 3,000- and 6,000-game checkpoints (with its
# own policy, built here from its last 1000 games) and the final database play 200 games against ab:2,q, seed 1,
# on the balanced suite; the final database also against the partner. The RESULTS run trained on 404cb0e (seed
# 37) and measured on 840d9a2.
#
#   research/recipes/two-hours.sh OUT_DIR [SEED]
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: two-hours.sh OUT_DIR [SEED]}
SEED=${2:-37}
mkdir -p "$OUT"
DB="$OUT/fresh.db"
node bin/morph.js train --db "$DB" --hours 2 --seed "$SEED" --checkpoint-every 1000 --progress lines --json > "$OUT/train.json"
MATCH=(--games 200 --seed 1 --openings openings/balanced-6ply.epd --json)
for games in 1000 3000 6000; do
  checkpoint="$OUT/fresh.checkpoints/games-$(printf '%06d' "$games").db"
  [ -e "$checkpoint" ] || continue
  node bin/morph.js model --from-db "$checkpoint" --no-progress > /dev/null
  node bin/morph.js match --white "morph:$checkpoint" --black ab:2,q "${MATCH[@]}" > "$OUT/ab2q-$games.json"
done
node bin/morph.js match --white "morph:$DB" --black ab:2,q "${MATCH[@]}" > "$OUT/ab2q-final.json"
node bin/morph.js match --white "morph:$DB" --black stockfish:skill=0,depth=1 "${MATCH[@]}" > "$OUT/sf0-final.json"
for games in 3000 6000 final; do
  node bin/run-ts.js training/paired-match-diff.ts "$OUT/ab2q-1000.json" "$OUT/ab2q-$games.json"
done
