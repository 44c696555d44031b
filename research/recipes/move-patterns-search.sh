#!/usr/bin/env bash
# Move patterns learned from Morph's own search, and the search extension that uses them (issue 71, phase 2;
# src/train/moveLessons.ts, the patterns=K look in src/search/extensions.ts, docs/move-patterns.md).
#   1. A trained database: morph train --games 1000 --seed 11 --jobs 1 --no-judge (skipped when DB exists).
#   2. Move patterns from search lessons (POSITIONS positions a game of its last 1,000 games, each quiet move followed
#      through every reply, a positive when it finds more than half a pawn's log-odds above its settled material),
#      and, to compare, from the partner's choices in the same games (phase 1's target); seed 1 both.
#   3. Each as a root filter on the 400 scored positions (morph agree: top-1, top-4 with 95% intervals), beside ab:2,q.
#   4. The game path's move on the same positions (research/search-nodes.ts, with the database's own policy, as in
#      play) under material-forks (first: the paired differences are against it), the same looks without any quiet
#      move followed, patterns=K for each K with the search lessons' move patterns, and patterns=4 with the partner's:
#      the positions each search valued a move (median, mean), its time, and the played move's win-chance loss,
#      paired against material-forks with 95% intervals; and the same searches' full rankings by
#      training/compare-rankers.ts (mean win-chance loss paired against material-forks).
# How long on the 2-core machine, shared (2026-12-06): step 1 about 17 minutes; step 2 about 10 (search) and 5
# (partner) minutes at POSITIONS 2; steps 3-4 about 15 minutes, most of it material-forks.
#
#   research/recipes/move-patterns-search.sh OUT_DIR DB [POSITIONS [K...]]   (POSITIONS default 2, K default 2 4 8)
# The run of 2026-12-06: OUT_DIR /work/mp-runs/out, DB /work/mp-runs/s11.db.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: move-patterns-search.sh OUT_DIR DB [POSITIONS [K...]]}
DB=${2:?usage: move-patterns-search.sh OUT_DIR DB [POSITIONS [K...]]}
PER_GAME=${3:-2}
shift $(($# < 3 ? $# : 3))
if [ $# -gt 0 ]; then KS=("$@"); else KS=(2 4 8); fi
SCORED=positions/move-scores.jsonl
mkdir -p "$OUT"

[ -f "$DB" ] || node bin/morph.js train --db "$DB" --games 1000 --seed 11 --jobs 1 --no-judge

SEARCH_MP=$OUT/mp-search-p$PER_GAME.db
PARTNER_MP=$OUT/mp-partner.db
[ -f "$SEARCH_MP" ] || node bin/morph.js model --move-patterns --move-pattern-target search --from-db "$DB" --last 1000 \
  --positions-per-game "$PER_GAME" --out "$SEARCH_MP" --seed 1 --json --no-progress > "${SEARCH_MP%.db}.json"
[ -f "$PARTNER_MP" ] || node bin/morph.js model --move-patterns --from-db "$DB" --last 1000 --out "$PARTNER_MP" --seed 1 \
  --json --no-progress > "${PARTNER_MP%.db}.json"

for mp in "$SEARCH_MP" "$PARTNER_MP"; do
  [ -s "${mp%.db}.agree.json" ] || node bin/morph.js agree --positions "$SCORED" --ranker "move-patterns:$mp" --json > "${mp%.db}.agree.json"
done
[ -s "$OUT/ab2q.agree.json" ] || node bin/morph.js agree --positions "$SCORED" --ranker 'ab:2,q' --json > "$OUT/ab2q.agree.json"

LOOKS=material,quiescence,mates=4
SEARCHES=(material-forks "$LOOKS,bare-king")
for k in "${KS[@]}"; do SEARCHES+=("$LOOKS,patterns=$k,bare-king"); done
[ -s "$OUT/nodes-search-p$PER_GAME.jsonl" ] || node bin/run-ts.js research/search-nodes.ts --positions "$SCORED" --db "$DB" \
  --move-patterns "$SEARCH_MP" "${SEARCHES[@]}" > "$OUT/nodes-search-p$PER_GAME.jsonl"
[ -s "$OUT/nodes-partner.jsonl" ] || node bin/run-ts.js research/search-nodes.ts --positions "$SCORED" --db "$DB" \
  --move-patterns "$PARTNER_MP" material-forks "$LOOKS,patterns=4,bare-king" > "$OUT/nodes-partner.jsonl"

# The same searches' full rankings (what morph agree and move rank), paired mean win-chance loss against material-forks.
RANKERS=("db=$DB;search=material-forks" "db=$DB;search=$LOOKS,bare-king")
for k in "${KS[@]}"; do RANKERS+=("db=$DB;search=$LOOKS,patterns=$k,bare-king;movePatterns=$SEARCH_MP"); done
[ -s "$OUT/compare-search-p$PER_GAME.jsonl" ] || node bin/run-ts.js training/compare-rankers.ts --positions "$SCORED" "${RANKERS[@]}" \
  > "$OUT/compare-search-p$PER_GAME.jsonl"

# One line per filter and per search.
cat "$OUT"/*.agree.json | node -e '
  for (const l of require("fs").readFileSync(0, "utf8").split("\n").filter((l) => l.includes("\"top4\""))) {
    const r = JSON.parse(l);
    console.log(`${r.ranker}\ttop-1 ${r.top1.toFixed(3)}\ttop-4 ${r.top4.toFixed(3)} [${r.intervals.top4.map((x) => x.toFixed(3)).join(", ")}]`);
  }'
cat "$OUT"/nodes-*.jsonl "$OUT"/compare-*.jsonl
