#!/usr/bin/env bash
# Square values from the results of Morph's games against itself (issue 12: a signal beyond imitating the partner,
# whose evidence keeps growing with the games; an experiment, nothing in play changed). Self-play games between
# equals, so that a result says what the positions were worth and not who played them (2026-11-25's fit on games
# against the partner was confounded so), then research/result-squares.ts: Texel tuning of tapered square values
# beside the material difference on the quiet positions, every 10th game held out; then move quality on the 400
# scored engine positions with the policy's own square values (from the partner's choices) replaced by the fitted
# ones, or added to them.
#
# 2026-12-04 (session 67): BASE = /work/data/s66/open/morph.db (seed 66's final, 16,246 games from openings) and its
# policy; two self-play matches of Morph without its policy, search material-quiescence (1.6 s a game alone,
# against 11 s with material-forks), from the training openings, seeds 11 and 12, one process each; stopped by hand
# at 3,089 games (1,524 and 1,565). The session fitted snapshots of the two PGNs taken while they played: the move-quality
# rows on the first 531 games' fit (ridge .01), the held-out rows at 2,326 and 3,089 games (docs/lab/,
# 2026-12-04 late night). This script runs the same steps on whatever the two matches played.
#
#   BASE=DB POLICY=POLICY_DB research/recipes/result-squares.sh OUT_DIR [GAMES_EACH]
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=$(realpath -m "${1:?usage: BASE=DB POLICY=POLICY_DB result-squares.sh OUT_DIR [GAMES_EACH]}")
GAMES=${2:-2000}
mkdir -p "$OUT"
[ -f "$OUT/base.db" ] || cp "${BASE:?}" "$OUT/base.db"
[ -f "$OUT/base.policy.db" ] || cp "${POLICY:?}" "$OUT/base.policy.db"
selfplay() {
  local seed=$1
  [ -s "$OUT/self-q-s$seed.pgn" ] || nice -n 5 node bin/morph.js match --white "morph:$OUT/base.db" --black "morph:$OUT/base.db" \
    --no-policy --search material-quiescence --openings openings/train-6ply.epd --games "$GAMES" --seed "$seed" \
    --pgn "$OUT/self-q-s$seed.pgn" --no-progress > "$OUT/self-q-s$seed.log"
}
selfplay 11 & selfplay 12 & wait
GAMES_PGN="$OUT/self-q-s11.pgn,$OUT/self-q-s12.pgn"
# Held-out log-likelihood as the fitted games grow (the same held-out games each time), then the policies for play.
for n in 250 1000 ""; do
  node bin/run-ts.js research/result-squares.ts --pgn "$GAMES_PGN" --ridge 0.01 ${n:+--games $n}
done
for mode in replace add; do
  [ -f "$OUT/result-$mode.policy.db" ] || node bin/run-ts.js research/result-squares.ts --pgn "$GAMES_PGN" --ridge 0.01 \
    --policy "$OUT/base.policy.db" --out "$OUT/result-$mode.policy.db" --mode "$mode"
done
node bin/run-ts.js training/compare-rankers.ts --positions positions/move-scores.jsonl \
  "db=$OUT/base.db;policy=$OUT/base.policy.db" "db=$OUT/base.db;policy=$OUT/result-replace.policy.db" \
  "db=$OUT/base.db;policy=$OUT/result-add.policy.db"
