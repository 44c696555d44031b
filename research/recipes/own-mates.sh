#!/usr/bin/env bash
# Morph playing its own mates by checks (issue 12; docs/lab/2026-12.md, 2026-12-01, "own mates by checks").
# Plays DB (with its policy) against each OPPONENT@SEED, 100 games a seed on the balanced suite, with this
# checkout's build, writing OUT/NAME-sSEED.json (games included) and keeping finished matches. Run it once at the
# build before the change (83000dc, from a git worktree) and once at the change, each with its own OUT, then pair
# them by opening: node bin/run-ts.js training/paired-match-diff.ts BASE.json,... NEW.json,...
# The 2026-12-01 database DB is research/recipes/model-line.sh's t.db (3,000 games from fresh, seed 52).
#
#   research/recipes/own-mates.sh DB OUT 'gnuchess:depth=1@1' 'ab:2,q@3' ...
set -euo pipefail
cd "$(dirname "$0")/../.."
DB=$(realpath "${1:?usage: own-mates.sh DB OUT OPPONENT@SEED...}")
OUT=${2:?usage: own-mates.sh DB OUT OPPONENT@SEED...}
shift 2
mkdir -p "$OUT"
for spec in "$@"; do
  opponent=${spec%@*}
  seed=${spec##*@}
  name="$(printf '%s' "$opponent" | tr -c 'A-Za-z0-9' '_')-s$seed"
  [ -s "$OUT/$name.json" ] && continue
  node bin/morph.js match --white "morph:$DB" --black "$opponent" --games "${GAMES:-100}" --seed "$seed" \
    --openings openings/balanced-6ply.epd --json --no-progress > "$OUT/$name.json" &
done
wait
