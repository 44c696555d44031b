#!/usr/bin/env bash
# Mating a bare king by the rules (src/search/bareKing.ts; issue 12, 2026-11-25, early morning).
# On the database of research/recipes/material-prior.sh (OUT_DIR/t1.db, 6,110 games, seed 1, with its own
# policy): main before the bare-king order (c659a6f) against main with it (2ab9ed5), seeds 3 and 4.
# For seed 3 the base was the repetition-look match of search-order.sh (the same command at 6b3c4aa).
#
#   research/recipes/bare-king.sh OUT_DIR [MATCH_SEED]
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: bare-king.sh OUT_DIR [MATCH_SEED]}
training/recipes/paired-commits.sh "$OUT/t1.db" "$OUT/bare-king" "${2:-4}" c659a6f 2ab9ed5
