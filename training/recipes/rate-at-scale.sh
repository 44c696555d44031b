#!/usr/bin/env bash
# Training games/hour on a large database against a small one (issue 13: at 100k patterns, at least 70% of the
# rate at 10k). The same `morph train` on a copy of each (never the originals): GAMES games, --jobs JOBS, the
# default partner, seed SEED, the default creation rates (a database grown by grow-100k.sh saved raised ones),
# play search SEARCH, no policy rebuild at the end, and any further `morph train` options in EXTRA (for example
# EXTRA="--relation-lessons 1", a long run's state). Prints each run's summary line (games/hour, then Morph's,
# the opponent's and learning's seconds).
# Takes: two training runs of GAMES (100) games; minutes each, more on the large database.
#
#   training/recipes/rate-at-scale.sh SMALL.db LARGE.db [OUT_DIR]
#
# Measured 2026-11-24 (docs/lab/): SMALL the 2-hour run's checkpoint at 2,000 games (10,723
# patterns), LARGE the trained 100k (grow-100k.sh); GAMES=100 SEED=7, SEARCH material-quiescence and
# captures-mates; JOBS=1 (this recipe's default) and 2 (`morph train`'s own default here: one per core).
# Stockfish at skill 0 randomises from the clock, so repeated runs play different games.
set -euo pipefail
cd "$(dirname "$0")/../.."
SMALL=${1:?usage: rate-at-scale.sh SMALL.db LARGE.db [OUT_DIR]}
LARGE=${2:?usage: rate-at-scale.sh SMALL.db LARGE.db [OUT_DIR]}
OUT=${3:-tmp/rate-at-scale}
GAMES=${GAMES:-100}
SEED=${SEED:-7}
SEARCH=${SEARCH:-material-quiescence}
JOBS=${JOBS:-1}
EXTRA=${EXTRA:-}
mkdir -p "$OUT"
for name in small large; do
  source=$SMALL
  [ "$name" = large ] && source=$LARGE
  copy="$OUT/$name.db"
  rm -f "$copy" "$copy-wal" "$copy-shm"
  cp "$source" "$copy"
  node bin/morph.js train --db "$copy" --games "$GAMES" --jobs "$JOBS" --seed "$SEED" --search "$SEARCH" \
    --subgraphs-per-game 6 --regressions-per-game 2 --generalisations-per-game 2 --specialisations-per-game 2 \
    --no-policy --progress lines $EXTRA > "$OUT/$name.out" 2> "$OUT/$name.err"
  echo "$name ($source): $(grep 'games/hour' "$OUT/$name.out")"
done
