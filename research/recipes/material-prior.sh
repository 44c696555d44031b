#!/usr/bin/env bash
# The material prior as built into main (config materialPrior, `--material-prior K`; issue 12, 2026-11-24 night):
# a fresh training run with the defaults (seed 1, a checkpoint every 2,000 games; run for --hours 1.1 and stopped
# by SIGTERM after 6,109 games, then one more game, seed 2, which rebuilt its policy; with 2 jobs a run repeats up
# to snapshot timing), then material-forks against ab:2,q, 200 games on the balanced suite, K = 0 (each material
# weight alone), 20 (the default) and 50, the same match seed, paired by opening with K = 0
# (training/paired-match-diff.ts). Run with match seeds 1, 2 and 3 (K = 50 with 1 and 2 only). A replication of research/recipes/material-blend.sh
# (the patch) on a database trained anew.
#
#   research/recipes/material-prior.sh OUT_DIR [MATCH_SEED]
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: material-prior.sh OUT_DIR [MATCH_SEED]}
SEED=${2:-1}
mkdir -p "$OUT"
DB="$OUT/t1.db"
if [ ! -e "$DB" ]; then
  node bin/morph.js train --db "$DB" --games 6109 --seed 1 --checkpoint-every 2000 --progress none --no-policy
  node bin/morph.js train --db "$DB" --games 1 --seed 2 --progress none
fi

arm() { # K NAME
  node bin/morph.js match --white "morph:$DB" --black ab:2,q --games 200 --seed "$SEED" --search material-forks \
    --material-prior "$1" --openings openings/balanced-6ply.epd --json --no-progress > "$OUT/$2.json" &
}
arm 0 "k0-s$SEED"
arm 20 "k20-s$SEED"
wait
arm 50 "k50-s$SEED"
wait
for k in 20 50; do node bin/run-ts.js training/paired-match-diff.ts "$OUT/k0-s$SEED.json" "$OUT/k$k-s$SEED.json"; done
