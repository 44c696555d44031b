#!/usr/bin/env bash
# Training games/hour with --jobs 2 against --jobs 1 (issue 13's target: 1.7x), against the default partner and in
# self-play: the same `morph train` on copies of DB (never the original), seed SEED, no policy rebuild.
# Takes: four training runs of GAMES (200) and SELF_GAMES games: minutes each on a 10k-pattern database.
#
#   training/recipes/jobs-scaling.sh DB [OUT_DIR]
#
# Measured 2026-11-27 (docs/lab/) on a 10k database trained from fresh with the defaults
# (`morph train --games 2000 --seed 7 --jobs 1 --no-policy`): GAMES=200 for the partner, 100 and 400 self-play.
# Again 2026-11-28 (evening), on the same database: GAMES=200 SELF_GAMES=400 with the build before and after that
# session's changes (the old one from a `git worktree` of c1a9226), and GAMES=1000 SELF_GAMES=1000 after, two runs each.
set -euo pipefail
cd "$(dirname "$0")/../.."
DB=${1:?usage: jobs-scaling.sh DB [OUT_DIR]}
OUT=${2:-tmp/jobs-scaling}
SEED=${SEED:-7}
mkdir -p "$OUT"
for opponent in stockfish self; do
  games=${GAMES:-200}
  [ "$opponent" = self ] && games=${SELF_GAMES:-100}
  for jobs in 1 2; do
    copy="$OUT/$opponent-$jobs.db"
    rm -f "$copy" "$copy-wal" "$copy-shm"
    cp "$DB" "$copy"
    node bin/morph.js train --db "$copy" --games "$games" --jobs "$jobs" --seed "$SEED" --opponent "$opponent" \
      --no-policy --progress none > "$OUT/$opponent-$jobs.out" 2>&1
    echo "$opponent, $games games, --jobs $jobs: $(grep 'games/hour' "$OUT/$opponent-$jobs.out")"
  done
done
