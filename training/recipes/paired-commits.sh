#!/usr/bin/env bash
# Two commits of Morph, each playing the same 200-game match against ab:2,q on one database (material-forks,
# fitted piece values alone, the balanced suite), then their paired difference by opening
# (training/paired-match-diff.ts) and how the second one's games ended (training/game-ends.ts). Each commit runs
# from a temporary git worktree, so the checkout is left alone. Extra arguments go to both matches (for example
# --policy-weight 0.0075 or --no-policy).
# Takes: two 200-game matches of the default player (about 20 minutes of CPU per 100 games, docs/lab/2026-12.md,
# 2026-12-01): over an hour on 2 cores.
#
#   training/recipes/paired-commits.sh DB OUT_PREFIX MATCH_SEED BASE_COMMIT NEW_COMMIT [MATCH_ARGS...]
# writes OUT_PREFIX-base-sSEED.json and OUT_PREFIX-new-sSEED.json.
set -euo pipefail
cd "$(dirname "$0")/../.."
DB=$(realpath "${1:?usage: paired-commits.sh DB OUT_PREFIX MATCH_SEED BASE_COMMIT NEW_COMMIT [MATCH_ARGS...]}")
OUT=${2:?OUT_PREFIX missing}
SEED=${3:?MATCH_SEED missing}
BASE=${4:?BASE_COMMIT missing}
NEW=${5:?NEW_COMMIT missing}
shift 5
MATCH=(match --white "morph:$DB" --black ab:2,q --games 200 --seed "$SEED" --search material-forks
  --material-prior 1000000 --openings "$(realpath openings/balanced-6ply.epd)" --json --no-progress "$@")

TREES=$(mktemp -d)
trap 'git worktree remove --force "$TREES/base"; git worktree remove --force "$TREES/new"; rm -rf "$TREES"' EXIT
for arm in base new; do
  commit=$BASE; [ "$arm" = new ] && commit=$NEW
  git worktree add -q --detach "$TREES/$arm" "$commit"
  ln -s "$(pwd)/node_modules" "$TREES/$arm/node_modules"
done
(cd "$TREES/base" && node bin/morph.js "${MATCH[@]}") > "$OUT-base-s$SEED.json" &
(cd "$TREES/new" && node bin/morph.js "${MATCH[@]}") > "$OUT-new-s$SEED.json" &
wait
node bin/run-ts.js training/paired-match-diff.ts "$OUT-base-s$SEED.json" "$OUT-new-s$SEED.json"
node bin/run-ts.js training/game-ends.ts "$OUT-new-s$SEED.json"
