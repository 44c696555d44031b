#!/usr/bin/env bash
# Material values blended with learned piece values (issue 12, 2026-11-24 evening; an experiment, since built into
# main as config materialPrior: research/recipes/material-prior.sh replicates it there).
# material-blend.patch, applied to a4fbd35 in a worktree, adds one switch:
#   MORPH_MAT_SHRINK=K   the material searches value a material difference d as (n·w + K·p) / (n + K), w and n its
#                        material pattern's weight and updates (n = 0 when the database has none), p the logistic
#                        of an additive fit: logit(weight) ≈ Σ value_i · d_i over P N B R Q, least squares
#                        weighted by updates over the database's material patterns (weights clipped to
#                        [.02, .98]), fitted once per opened database. K = 0: main's behaviour.
# Why: 1,331 of the 2-hour run's 4,670 material patterns have one update (94% of them at 0 or 1), and the
# quiescence reaches such rare differences deep in capture lines; unseen ones count .5.
# Arms: K = 5, 20 (and 1e9, the additive fit alone, stopped: ten times the evaluations a move) on the final
# database, seed 1; K = 20 on the final, seed 2, and on the 6,000-game checkpoint, seed 1; 200 games against ab:2,q, the balanced suite,
# paired by opening with main's matches on the same database and seed (training/paired-match-diff.ts).
#
#   research/recipes/material-blend.sh OUT_DIR FINAL_DB CHECKPOINT_DB
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: material-blend.sh OUT_DIR FINAL_DB CHECKPOINT_DB}
FINAL=${2:?usage: material-blend.sh OUT_DIR FINAL_DB CHECKPOINT_DB}
CHECKPOINT=${3:?usage: material-blend.sh OUT_DIR FINAL_DB CHECKPOINT_DB}
WT="$OUT/worktree"
mkdir -p "$OUT"
git worktree add -f "$WT" a4fbd35
git -C "$WT" apply "$PWD/research/recipes/material-blend.patch"
ln -s "$PWD/node_modules" "$WT/node_modules"

arm() { # K DB NAME [SEED]
  (cd "$WT" && MORPH_MAT_SHRINK=$1 node bin/morph.js match --white "morph:$2" --black ab:2,q --games 200 --seed "${4:-1}" \
    --search material-forks --openings openings/balanced-6ply.epd --json --no-progress) > "$OUT/$3.json"
}
arm 0 "$FINAL" final-main
arm 5 "$FINAL" final-k5
arm 20 "$FINAL" final-k20
arm 0 "$FINAL" final-main-s2 2
arm 20 "$FINAL" final-k20-s2 2
arm 0 "$CHECKPOINT" checkpoint-main
arm 20 "$CHECKPOINT" checkpoint-k20
for pair in final-main:final-k5 final-main:final-k20 final-main-s2:final-k20-s2 checkpoint-main:checkpoint-k20; do
  node bin/run-ts.js training/paired-match-diff.ts "$OUT/${pair%%:*}.json" "$OUT/${pair##*:}.json"
done
git worktree remove --force "$WT"
