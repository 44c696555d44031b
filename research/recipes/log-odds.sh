#!/usr/bin/env bash
# The value's log-odds beside the policy (MorphPlayer.valueScale; issue 12, 2026-11-25, morning).
# On the database of research/recipes/material-prior.sh (OUT_DIR/t1.db, 6,110 games, seed 1, with its own
# policy): main with the bare-king order on the probability scale (2518b52) against log-odds (917795f), seeds 3
# and 4. The other arms of the RESULTS table ran the log-odds commit (or 2518b52 for the probability scale) with
# the same command and one more option: --policy-weight 0.12, --policy-weight 0.0075 (on 2518b52), --no-policy,
# --policy-weight 0.015. The seed-3 log-odds arm and the discounted-threat arm ran on d7712de with
# log-odds-experiment.patch applied (git apply), MORPH_LOGIT=1 MORPH_LOGIT_DIVISOR=1, and for the discount
# MORPH_THREAT_DISCOUNT=0.25 (an experiment's switches, not part of main).
#
#   research/recipes/log-odds.sh OUT_DIR [MATCH_SEED] [MATCH_ARGS...]
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: log-odds.sh OUT_DIR [MATCH_SEED] [MATCH_ARGS...]}
SEED=${2:-4}
shift $(( $# < 2 ? $# : 2 ))
training/recipes/paired-commits.sh "$OUT/t1.db" "$OUT/log-odds" "$SEED" 2518b52 917795f "$@"
