#!/usr/bin/env bash
# Mating a bare king by the rules (src/player/bareKing.ts; issue 12, 2026-11-25).
# On the database of training/recipes/material-prior.sh (OUT_DIR/t1.db, 6,110 games, seed 1, with its own
# policy), material-forks with the fitted piece values alone against ab:2,q, 200 games on the balanced suite,
# paired by opening (training/paired-match-diff.ts):
#   base  main before the bare-king order (c659a6f, run from a temporary git worktree of that commit);
#   new   this checkout.
# Seeds 3 and 4 were run. For seed 3 the base is the repetition-look match of search-order.sh (same command).
#
#   training/recipes/bare-king.sh OUT_DIR [MATCH_SEED] [BASE_COMMIT]
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: bare-king.sh OUT_DIR [MATCH_SEED] [BASE_COMMIT]}
SEED=${2:-4}
BASE=${3:-c659a6f}
DB="$OUT/t1.db"
[ -e "$DB" ] || { echo "bare-king.sh: $DB missing: run training/recipes/material-prior.sh $OUT first" >&2; exit 2; }
MATCH=(match --white "morph:$(realpath "$DB")" --black ab:2,q --games 200 --seed "$SEED" --search material-forks
  --material-prior 1000000 --openings "$(realpath openings/balanced-6ply.epd)" --json --no-progress)

WORKTREE=$(mktemp -d)/base
git worktree add -q --detach "$WORKTREE" "$BASE"
trap 'git worktree remove --force "$WORKTREE"' EXIT
ln -s "$(pwd)/node_modules" "$WORKTREE/node_modules"

(cd "$WORKTREE" && node bin/morph.js "${MATCH[@]}") > "$OUT/base-s$SEED.json" &
node bin/morph.js "${MATCH[@]}" > "$OUT/new-s$SEED.json" &
wait
node bin/run-ts.js training/paired-match-diff.ts "$OUT/base-s$SEED.json" "$OUT/new-s$SEED.json"
node bin/run-ts.js training/game-ends.ts "$OUT/new-s$SEED.json"
