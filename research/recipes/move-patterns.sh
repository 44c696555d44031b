#!/usr/bin/env bash
# Move patterns as a root filter (issue 71, phase 1; src/model/movePatterns.ts, docs/move-patterns.md): how often the
# reference engine's best move is in a ranker's top 4 (and top 1, and the chosen move's win-chance loss) on the 400
# scored positions, for move patterns learned from the sparring partner's moves in a value database's last N games,
# beside the built-in rankers, Morph over the database with and without its own policy, and the policy alone.
#   Seed 1 (pattern induction and fitting). How long, on the 2-core machine under load 3-7 (2026-12-05): the
#   baselines about 4 minutes; move patterns from 50 / 500 / 3,000 games about 0.3 / 2 / 12 minutes to learn (peak
#   memory about 0.7 GB at 500 games) and 10-30 s each to measure.
#
#   research/recipes/move-patterns.sh OUT_DIR DB [GAMES...]   (DB: a value database with recorded partner games and,
#                                                              beside it, its policy DB.policy.db; GAMES default 50 500 3000)
# The run of 2026-12-05: DB = a copy of /work/runs/s11.checkpoints/games-003000.db with /work/runs/s11.policy.db beside it.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: move-patterns.sh OUT_DIR DB [GAMES...]}
DB=${2:?usage: move-patterns.sh OUT_DIR DB [GAMES...]}
shift 2
if [ $# -gt 0 ]; then GAMES=("$@"); else GAMES=(50 500 3000); fi
POLICY=${DB%.db}.policy.db
POSITIONS=positions/move-scores.jsonl
mkdir -p "$OUT"

# Baselines: built-ins, Morph with its policy (the database's own, beside it), without, and the policy alone.
[ -s "$OUT/baselines.json" ] || node bin/morph.js agree --positions "$POSITIONS" --ranker ab:1 --ranker ab:2,q --db "$DB" --json > "$OUT/baselines.json"
[ -s "$OUT/no-policy.json" ] || node bin/morph.js agree --positions "$POSITIONS" --db "$DB" --no-policy --json > "$OUT/no-policy.json"
[ -s "$OUT/policy-alone.json" ] || node bin/morph.js agree --positions "$POSITIONS" --ranker "policy:$POLICY" --json > "$OUT/policy-alone.json"

# Move patterns from the partner's moves in the last N games, then the move patterns alone as a ranker.
for n in "${GAMES[@]}"; do
  [ -f "$OUT/mp$n.db" ] || node bin/morph.js model --move-patterns --from-db "$DB" --last "$n" --out "$OUT/mp$n.db" --seed 1 \
    --json --no-progress > "$OUT/mp$n.json"
  [ -s "$OUT/mp$n.agree.json" ] || node bin/morph.js agree --positions "$POSITIONS" --ranker "move-patterns:$OUT/mp$n.db" --json > "$OUT/mp$n.agree.json"
done

# One line per ranker: top-1, top-4, mean loss.
cat "$OUT"/*.json | node -e '
  const lines = require("fs").readFileSync(0, "utf8").split("\n").filter((l) => l.includes("\"top4\""));
  for (const l of lines) {
    const r = JSON.parse(l);
    console.log(`${r.ranker}\t${r.positions}\ttop-1 ${r.top1.toFixed(3)}\ttop-4 ${r.top4.toFixed(3)} [${r.intervals.top4.map((x) => x.toFixed(3)).join(", ")}]\tloss ${r.quality ? r.quality.meanLoss.toFixed(2) : "-"}`);
  }'
