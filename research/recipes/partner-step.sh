#!/usr/bin/env bash
# Does a stronger sparring partner, met later in training, make Morph stronger (issue 12, the climbing curve)?
# A copy of BASE (a database trained with the defaults) trains GAMES more games against PARTNER, one job, with
# seed SEED; `morph train` then rebuilds its move policy from the last 1000 games (so from PARTNER's moves), and
# the result plays 200 games against ab:2,q, seed 1, on the balanced suite. Run it once with the default partner
# (the control) and once with a stronger one on the same BASE and SEED, then pair the two matches by opening:
#   node bin/run-ts.js training/paired-match-diff.ts OUT_A/ab2q.json OUT_B/ab2q.json
#
#   research/recipes/partner-step.sh BASE.db OUT_DIR PARTNER [GAMES] [SEED]
set -euo pipefail
cd "$(dirname "$0")/../.."
BASE=${1:?usage: partner-step.sh BASE.db OUT_DIR PARTNER [GAMES] [SEED]}
OUT=${2:?usage: partner-step.sh BASE.db OUT_DIR PARTNER [GAMES] [SEED]}
PARTNER=${3:?usage: partner-step.sh BASE.db OUT_DIR PARTNER [GAMES] [SEED]}
GAMES=${4:-1000}
SEED=${5:-8}
mkdir -p "$OUT"
DB="$OUT/step.db"
[ -e "$DB" ] || cp "$BASE" "$DB"  # BASE must not be in use
node bin/morph.js train --db "$DB" --games "$GAMES" --opponent "$PARTNER" --seed "$SEED" --jobs 1 --progress lines > "$OUT/train.log" 2>&1
node bin/morph.js match --white "morph:$DB" --black ab:2,q --games 200 --seed 1 --openings openings/balanced-6ply.epd --json > "$OUT/ab2q.json"
