#!/usr/bin/env bash
# Move patterns learned from Morph's own search, and the search extension that uses them (issue 71, phase 2;
# src/train/moveLessons.ts, the patterns=K look in src/search/extensions.ts, docs/move-patterns.md).
#   1. A trained database: morph train --games 1000 --seed 11 --jobs 1 --no-judge (skipped when DB exists).
#   2. Move patterns from search lessons (2 and 6 positions a game of its last 1,000 games, both sides', each quiet
#      move followed through every reply, a positive when it finds more than .5 log-odds above its settled
#      material), and, to compare, from the partner's choices in the same games (phase 1's target); seed 1 all.
#   3. Each as a root filter on the 400 scored positions (morph agree: top-1, top-4 with 95% intervals), beside ab:2,q;
#      and as the patterns look's chooser (research/move-lesson-recall.ts: the scored positions' quiet moves labelled
#      as the lessons label them; recall of the positives among each file's top K quiet moves, against random).
#   4. The game path's move on the scored positions (research/search-nodes.ts, with the database's own policy, as in
#      play): positions valued a move, time, the played move's win-chance loss, paired against the first search
#      (material-forks, or K quiet moves drawn at random: SEARCH@random:1); and the full rankings' mean loss by
#      training/compare-rankers.ts, paired against material-forks. Then steps 3-4 on Morph's own positions
#      (research/sets/own-positions-scores.jsonl, 651, from other databases' games).
# How long on the 2-core machine shared with three training runs (load 5-8, 2026-12-06): step 1 15 minutes; step 2
# 6 (2 a game), 21 (6 a game) and 5 (partner) minutes; step 3 2 minutes; step 4 about 25 minutes, most of it
# material-forks (13,807 positions valued a move, median).
#
#   research/recipes/move-patterns-search.sh OUT_DIR DB
# The run of 2026-12-06: OUT_DIR /work/mp-runs/out, DB /work/mp-runs/s11.db.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: move-patterns-search.sh OUT_DIR DB}
DB=${2:?usage: move-patterns-search.sh OUT_DIR DB}
SCORED=positions/move-scores.jsonl
mkdir -p "$OUT"

[ -f "$DB" ] || node bin/morph.js train --db "$DB" --games 1000 --seed 11 --jobs 1 --no-judge

for p in 2 6; do
  [ -f "$OUT/mp-search-p$p.db" ] || node bin/morph.js model --move-patterns --move-pattern-target search --from-db "$DB" \
    --last 1000 --positions-per-game "$p" --out "$OUT/mp-search-p$p.db" --seed 1 --json --no-progress > "$OUT/mp-search-p$p.json"
done
[ -f "$OUT/mp-partner.db" ] || node bin/morph.js model --move-patterns --from-db "$DB" --last 1000 --out "$OUT/mp-partner.db" \
  --seed 1 --json --no-progress > "$OUT/mp-partner.json"
P2=$OUT/mp-search-p2.db
P6=$OUT/mp-search-p6.db
PARTNER=$OUT/mp-partner.db

for mp in "$P2" "$P6" "$PARTNER"; do
  [ -s "${mp%.db}.agree.json" ] || node bin/morph.js agree --positions "$SCORED" --ranker "move-patterns:$mp" --json > "${mp%.db}.agree.json"
done
[ -s "$OUT/ab2q.agree.json" ] || node bin/morph.js agree --positions "$SCORED" --ranker 'ab:2,q' --json > "$OUT/ab2q.agree.json"
[ -s "$OUT/recall.jsonl" ] || node bin/run-ts.js research/move-lesson-recall.ts --positions "$SCORED" --db "$DB" "$P2" "$PARTNER" > "$OUT/recall.jsonl"
[ -s "$OUT/recall-p6.jsonl" ] || node bin/run-ts.js research/move-lesson-recall.ts --positions "$SCORED" --db "$DB" "$P6" > "$OUT/recall-p6.jsonl"

L=material,quiescence,mates=4
nodes() { # OUT_FILE [--move-patterns FILE] SEARCH...
  local file=$1
  shift
  [ -s "$file" ] || node bin/run-ts.js research/search-nodes.ts --positions "$SCORED" --db "$DB" "$@" > "$file"
}
nodes "$OUT/nodes-search-p2.jsonl" --move-patterns "$P2" material-forks "$L,bare-king" "$L,patterns=2,bare-king" "$L,patterns=4,bare-king" "$L,patterns=8,bare-king"
nodes "$OUT/nodes-partner.jsonl" --move-patterns "$PARTNER" material-forks "$L,patterns=4,bare-king"
nodes "$OUT/nodes-threats-search-p2.jsonl" --move-patterns "$P2" material-forks "$L,threats=1,bare-king" "$L,threats=1,patterns=4,bare-king" "$L,patterns=99,bare-king"
nodes "$OUT/nodes-random.jsonl" --move-patterns random:1 material-forks "$L,patterns=4,bare-king" "$L,threats=1,patterns=4,bare-king"
nodes "$OUT/paired-random.jsonl" "$L,patterns=4,bare-king@random:1" "$L,patterns=4,bare-king@$P2" "$L,patterns=4,bare-king@$PARTNER" "$L,patterns=4,bare-king@random:2"
nodes "$OUT/paired-random-threats.jsonl" "$L,threats=1,patterns=4,bare-king@random:1" "$L,threats=1,patterns=4,bare-king@$P2" "$L,threats=1,patterns=4,bare-king@$PARTNER"
nodes "$OUT/paired-p6.jsonl" "$L,patterns=4,bare-king@random:1" "$L,patterns=4,bare-king@$P6" "$L,patterns=8,bare-king@$P6" "$L,threats=1,patterns=4,bare-king@$P6"
nodes "$OUT/nodes-p6-forks.jsonl" material-forks "$L,patterns=4,bare-king@$P6" "$L,threats=1,patterns=4,bare-king@$P6"

# The same on Morph's own positions (651, held out from DB's lessons).
OWN=research/sets/own-positions-scores.jsonl
[ -s "$OUT/own-recall.jsonl" ] || node bin/run-ts.js research/move-lesson-recall.ts --positions "$OWN" --db "$DB" "$P2" "$P6" "$PARTNER" > "$OUT/own-recall.jsonl"
SCORED=$OWN nodes "$OUT/own-paired-random.jsonl" "$L,patterns=4,bare-king@random:1" "$L,patterns=4,bare-king@$P6" "$L,patterns=4,bare-king@$PARTNER" \
  "$L,patterns=4,bare-king@random:2" "$L,bare-king" "$L,patterns=99,bare-king@random:1"
SCORED=$OWN nodes "$OUT/own-forks.jsonl" material-forks "$L,threats=1,bare-king" "$L,threats=1,patterns=4,bare-king@$P6" \
  "$L,threats=1,patterns=4,bare-king@random:1" "$L,patterns=4,bare-king@$P6"
SCORED=$OWN nodes "$OUT/own-paired-threats.jsonl" "$L,threats=1,patterns=4,bare-king@random:1" "$L,threats=1,patterns=4,bare-king@$P6" \
  "$L,threats=1,patterns=4,bare-king@$PARTNER" "$L,threats=1,patterns=8,bare-king@$P6"
SCORED=$OWN nodes "$OUT/own-forks-k8.jsonl" material-forks "$L,threats=1,patterns=8,bare-king@$P6"
nodes "$OUT/forks-k8.jsonl" material-forks "$L,threats=1,patterns=8,bare-king@$P6" "$L,threats=1,patterns=8,bare-king@random:1"

# Games against ab:2,q, one seed and the balanced openings, material-forks and threats=1 with eight learned quiet
# moves (the 2026-12-06 run was stopped when the session ended; compare them pair by pair from the PGNs).
GAMES=(--black 'ab:2,q' --games 100 --seed 1 --openings openings/balanced-6ply.epd --json --no-progress)
[ -s "$OUT/games-forks.pgn" ] || node bin/morph.js match --white "morph:$DB" "${GAMES[@]}" --search material-forks \
  --pgn "$OUT/games-forks.pgn" > "$OUT/games-forks.json"
[ -s "$OUT/games-k8.pgn" ] || node bin/morph.js match --white "morph:$DB" "${GAMES[@]}" --search "$L,threats=1,patterns=8,bare-king" \
  --move-patterns "$P6" --pgn "$OUT/games-k8.pgn" > "$OUT/games-k8.json"
node bin/run-ts.js research/paired-pgns.ts "$OUT/games-forks.pgn" "$OUT/games-k8.pgn"

RANKERS=("db=$DB;search=material-forks" "db=$DB;search=$L,bare-king")
for k in 2 4 8; do RANKERS+=("db=$DB;search=$L,patterns=$k,bare-king;movePatterns=$P2"); done
[ -s "$OUT/compare-search-p2.jsonl" ] || node bin/run-ts.js training/compare-rankers.ts --positions "$SCORED" "${RANKERS[@]}" > "$OUT/compare-search-p2.jsonl"

# One line per filter, then every search row.
cat "$OUT"/*.agree.json | node -e '
  for (const l of require("fs").readFileSync(0, "utf8").split("\n").filter((l) => l.includes("\"top4\""))) {
    const r = JSON.parse(l);
    console.log(`${r.ranker}\ttop-1 ${r.top1.toFixed(3)}\ttop-4 ${r.top4.toFixed(3)} [${r.intervals.top4.map((x) => x.toFixed(3)).join(", ")}]`);
  }'
cat "$OUT"/recall*.jsonl "$OUT"/own-recall.jsonl "$OUT"/nodes-*.jsonl "$OUT"/paired-*.jsonl "$OUT"/own-*.jsonl "$OUT"/forks-k8.jsonl "$OUT"/compare-*.jsonl
