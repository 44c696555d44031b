#!/usr/bin/env bash
# Contempt: a draw worth 1/(1+e^c) to Morph, c = .1 with the material searches (MorphPlayerOptions.contempt;
# issue 12, 2026-11-25, day). On the database of research/recipes/material-prior.sh (OUT_DIR/t1.db, 6,110 games,
# seed 1, with its own policy): promotions followed without contempt (3e8130f) against contempt .1 (96e77c1),
# against ab:2,q, seeds 1 and 3. The RESULTS table's contempt arm ran 3e8130f with contempt-experiment.patch and
# MORPH_CONTEMPT=0.1, which chooses the same moves as 96e77c1.
#
#   research/recipes/contempt.sh OUT_DIR [MATCH_SEED] [MATCH_ARGS...]
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: contempt.sh OUT_DIR [MATCH_SEED] [MATCH_ARGS...]}
SEED=${2:-1}
shift $(( $# < 2 ? $# : 2 ))
training/recipes/paired-commits.sh "$OUT/t1.db" "$OUT/contempt" "$SEED" 3e8130f 96e77c1 "$@"
