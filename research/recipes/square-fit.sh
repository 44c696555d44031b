#!/usr/bin/env bash
# Square values learned from game results (issue 12, 2026-11-25 night; an experiment, not in main's code).
# square-fit.patch, applied to 2604263 in a worktree, adds src/eval/squareFit.ts (a logistic regression of each
# position's result, for the side that just moved, on its material difference and a middlegame and an endgame
# value per piece type and square, tapered by the game phase: Texel tuning from the rules and results alone),
# training/fit-square-values.ts (fits on a value database's recorded games, every 10th game held out; --learner no
# leaves out the term for Morph's own side) and a switch:
#   MORPH_SQUARE_VALUES=FILE.json   the material searches add the fitted square values to the fitted piece values
#   MORPH_SQUARE_SCALE=S            ... times S
# Then move quality on the 400 engine positions (positions/move-scores.jsonl) of the 6,110-game database with
# its exact policy and material-forks, without and with the square values.
#
#   T1=DB POLICY=POLICY_DB research/recipes/square-fit.sh OUT_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=$(realpath -m "${1:?usage: square-fit.sh OUT_DIR}")
T1=${T1:-$OUT/t1.db}
POLICY=${POLICY:-$OUT/t1.exact.policy.db}
mkdir -p "$OUT"
WT="$OUT/worktree"
[ -d "$WT" ] || { git worktree add -f "$WT" 2604263 && git -C "$WT" apply "$PWD/research/recipes/square-fit.patch" && ln -s "$PWD/node_modules" "$WT/node_modules"; }
fit() { node "$WT/bin/run-ts.js" "$WT/training/fit-square-values.ts" --db "$T1" "$@"; }
fit --learner no --out "$OUT/squares.json" > "$OUT/squares.txt"
fit --learner no --ridge 0.01 --out "$OUT/squares-r01.json" > "$OUT/squares-r01.txt"
fit --out "$OUT/squares-learner.json" > "$OUT/squares-learner.txt"
agree() { node "$WT/bin/morph.js" agree --positions positions/move-scores.jsonl --db "$T1" --policy "$POLICY" \
  --search material-forks --material-prior 1000000 --json; }
agree > "$OUT/agree-base.json"
MORPH_SQUARE_VALUES="$OUT/squares.json" agree > "$OUT/agree-squares.json"
MORPH_SQUARE_VALUES="$OUT/squares.json" MORPH_SQUARE_SCALE=0.3 agree > "$OUT/agree-squares-03.json"
MORPH_SQUARE_VALUES="$OUT/squares-learner.json" agree > "$OUT/agree-learner.json"
MORPH_SQUARE_VALUES="$OUT/squares-learner.json" MORPH_SQUARE_SCALE=0.5 agree > "$OUT/agree-learner-05.json"
