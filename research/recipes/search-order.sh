#!/usr/bin/env bash
# The material searches' move ordering, and what better piece values would be worth (issue 12, 2026-11-25).
# On the database of research/recipes/material-prior.sh (OUT_DIR/t1.db, 6,110 games, seed 1), material-forks
# against ab:2,q, 200 games on the balanced suite, paired by opening (training/paired-match-diff.ts) with that
# recipe's K = 20 match of the same seed (before the ordering) and with this recipe's "main" arm:
#   main    main as it was at d57d7c0 (captures ordered best first; least-squares piece values blended at K = 20);
#   true    the piece values fixed at 1/3/3/5/9 x .22 log-odds, standing alone (a ceiling: Morph is given no piece
#           values, so this is diagnosis, not a player);
#   fit     the database's fitted piece values standing alone (--material-prior 1000000);
#   glm     piece values fitted by binomial maximum likelihood (computed outside main at the time, given here for
#           t1.db: .24 .85 1.04 1.18 2.51), standing alone.
# These ran at d57d7c0, when main's fit was least squares. Since 5eb1d9b main fits by maximum likelihood and a
# new database plays the fit alone, so on main "main" is K = 20 with the new fit (run as the "mle20" arm:
# `--material-prior 20`) and "fit" reproduces "glm". Run with match seeds 1 and 2. The checkpoints
# (t1.checkpoints/games-00{2,6}000.db, no policy of their own: --no-policy) were compared on main with
# --material-prior 20 against 1000000, seed 1; the 4,000-game checkpoint and t1.db itself (--no-policy) with 1000000 only.
# The repetition look (6b3c4aa: a move the opponent can answer by returning to a seen position counts .5) was
# measured with seed 3 on t1.db, --material-prior 1000000, against the same command at 64a8764 (before it).
#
#   research/recipes/search-order.sh OUT_DIR [MATCH_SEED]
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: search-order.sh OUT_DIR [MATCH_SEED]}
SEED=${2:-1}
DB="$OUT/t1.db"
[ -e "$DB" ] || { echo "search-order.sh: $DB missing: run research/recipes/material-prior.sh $OUT first" >&2; exit 2; }
MATCH=(match --white "morph:$DB" --black ab:2,q --games 200 --seed "$SEED" --search material-forks
  --openings openings/balanced-6ply.epd --json --no-progress)

node bin/morph.js "${MATCH[@]}" > "$OUT/main-s$SEED.json" &
PIECE_VALUES=0.22,0.66,0.66,1.1,1.98 node bin/run-ts.js research/with-piece-values.ts "${MATCH[@]}" \
  --material-prior 1000000 > "$OUT/true-s$SEED.json" &
wait
node bin/morph.js "${MATCH[@]}" --material-prior 1000000 > "$OUT/fit-s$SEED.json" &
PIECE_VALUES=0.24,0.85,1.04,1.18,2.51 node bin/run-ts.js research/with-piece-values.ts "${MATCH[@]}" \
  --material-prior 1000000 > "$OUT/glm-s$SEED.json" &
wait
[ -e "$OUT/k20-s$SEED.json" ] && node bin/run-ts.js training/paired-match-diff.ts "$OUT/k20-s$SEED.json" "$OUT/main-s$SEED.json"
for arm in true fit glm; do node bin/run-ts.js training/paired-match-diff.ts "$OUT/main-s$SEED.json" "$OUT/$arm-s$SEED.json"; done
