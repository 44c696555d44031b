#!/usr/bin/env bash
# Training from varied openings (issue 12, the curve): a run from a fresh database with the defaults, but every
# pair of games starting from the next opening of openings/train-6ply.epd (1,000 balanced six-ply openings, none
# in the match suite), and its curve against ab:2,q on the match suite, as research/recipes/two-hours-curve.sh
# measures the run from the start position.
#
# The run of 2026-12-04 (build 048fded, seed 65, `--jobs 2`, DIR /work/data/s65/open): one hour,
#   node bin/morph.js train --db DIR/morph.db --hours 1 --seed 65 --openings openings/train-6ply.epd \
#     --checkpoint-every 1000 --json-log DIR/games.jsonl
# A segment cut short is resumed with the same command and --hours set to what is left (the seed is the
# database's; --openings must be given again). Then the curve (resumable; each match is kept once played):
#   CHECKPOINTS="3000 10000" research/recipes/two-hours-curve.sh DIR
# (this session ran the 3,000-game checkpoint's and the final's matches; results in docs/lab/2026-12.md, 2026-12-04
# evening; the paired difference: training/paired-match-diff.ts over the three seeds' JSONs, as two-hours-curve.sh).
# The second run (2026-12-04 night; build b3c95cf, DIR /work/data/s66/open): SEED=66, the same command with
# --seed 66, one hour, the 3,000-game checkpoint's policy and matches beside it; then the final's matches. Results
# in docs/lab/2026-12.md, 2026-12-04 (night).
#
#   research/recipes/train-openings.sh DIR [HOURS]          SEED (default 65) picks the run's seed
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR=${1:?usage: train-openings.sh DIR [HOURS]}
HOURS=${2:-1}
SEED=${SEED:-65}
mkdir -p "$DIR"
node bin/morph.js train --db "$DIR/morph.db" --hours "$HOURS" --seed "$SEED" --openings openings/train-6ply.epd \
  --checkpoint-every 1000 --json-log "$DIR/games.jsonl" --progress lines
CHECKPOINTS=${CHECKPOINTS:-3000 10000} research/recipes/two-hours-curve.sh "$DIR"
