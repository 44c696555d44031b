#!/usr/bin/env bash
# Square values learned from the partner's choices, in Morph's material searches (issue 12; an experiment).
# Historical: the patch applies to dd200e4. Square values are now part of Morph's policy; square-values-play.sh measures them.
# A two-ply opponent model with square values (issue 14) is built from the last 1000 partner games of DB; with
# the patch square-choices.patch applied, MORPH_SQUARE_MODEL=MODEL adds its square values to the fitted piece
# values' log-odds in every position the material searches judge (scaled from the model's units to Morph's by the
# ratio of their summed piece values, times MORPH_SQUARE_SCALE). Each scale plays ab:2,q, 200 games, seed 1, the
# balanced suite; pair each against DB's own match without the squares:
#   node bin/run-ts.js training/paired-match-diff.ts BASE.json OUT/ab2q-squares-SCALE.json
#
#   git apply research/recipes/square-choices.patch
#   research/recipes/square-choices.sh DB OUT_DIR [SCALES]      (SCALES default "1 0.5")
set -euo pipefail
cd "$(dirname "$0")/../.."
DB=${1:?usage: square-choices.sh DB OUT_DIR [SCALES]}
OUT=${2:?usage: square-choices.sh DB OUT_DIR [SCALES]}
SCALES=${3:-1 0.5}
mkdir -p "$OUT"
MODEL="$OUT/squares.db"
[ -e "$MODEL" ] || node bin/morph.js model --from-db "$DB" --material two-ply --square-values --out "$MODEL" --no-progress > /dev/null
for scale in $SCALES; do
  MORPH_SQUARE_MODEL="$MODEL" MORPH_SQUARE_SCALE="$scale" node bin/morph.js match --white "morph:$DB" --black ab:2,q \
    --games 200 --seed 1 --openings openings/balanced-6ply.epd --json --no-progress > "$OUT/ab2q-squares-$scale.json" &
done
wait
