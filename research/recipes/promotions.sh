#!/usr/bin/env bash
# The material searches follow promotions as they follow captures (search.ts captureLook; issue 12, 2026-11-25,
# day). On the database of research/recipes/material-prior.sh (OUT_DIR/t1.db, 6,110 games, seed 1, with its own
# policy): main before (404cb0e) against the change (3e8130f), against ab:2,q, seeds 1 and 3. The contempt arms of
# the RESULTS table ran 3e8130f with contempt-experiment.patch applied (git apply) and MORPH_CONTEMPT=0.1 (an
# experiment's switch, not part of main).
#
#   research/recipes/promotions.sh OUT_DIR [MATCH_SEED] [MATCH_ARGS...]
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: promotions.sh OUT_DIR [MATCH_SEED] [MATCH_ARGS...]}
SEED=${2:-1}
shift $(( $# < 2 ? $# : 2 ))
training/recipes/paired-commits.sh "$OUT/t1.db" "$OUT/promotions" "$SEED" 404cb0e 3e8130f "$@"
