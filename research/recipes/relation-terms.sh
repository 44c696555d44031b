#!/usr/bin/env bash
# Relation terms (src/eval/relationTerms.ts: the smallest graph patterns, read at every position the material
# searches value) fitted to the gap between capture-settled material and the play search's value, then measured in
# play (issue 69: do graph patterns carry strength?). research/relation-terms.ts.
# Needs: the targets of research/recipes/gap-learnability.sh (roots of 200 games with FENs, OUT/roots-fen-200.jsonl).
# Takes: each fit seconds; each move-quality measurement (6 players on 400 positions) 5-10 minutes; the head-to-head
# match 200 games at about 20 s a game on 2 cores (about 60-90 minutes under load).
#
# 2026-12-05 (session 71): DB = seed 11's 3,000-game database from fresh with the defaults of main at 8240233
# (`morph train --db s11.db --games 3000 --seed 11 --checkpoint-every 1000`), its checkpoint games-003000.db for the
# fits and s11.db with its own policy (s11.policy.db) for the match; match seed 1.
set -euo pipefail
cd "$(dirname "$0")/../.."
DB=${1:?usage: relation-terms.sh DB(the 3,000-game checkpoint) FINAL_DB(with DB.policy.db beside it) [OUT_DIR]}
FINAL=${2:?usage: relation-terms.sh DB FINAL_DB [OUT_DIR]}
OUT=${3:-out/gap-learnability}
R="node bin/run-ts.js research/relation-terms.ts --db $DB --load $OUT/roots-fen-200.jsonl --positions positions/move-scores.jsonl"
# 1. Ridge (penalty chosen on held-out games), and one pass of the training learner at several rates (fit only).
$R --fit-only
for rate in 0.0001 0.0003 0.001 0.003 0.01 0.03; do $R --online $rate --fit-only; done
# 2. Move quality: the play search and material-quiescence without the terms, with them, with them shuffled.
$R --save "$OUT/relation-weights-ridge.json" | tee -a "$OUT/relation-terms.jsonl"
$R --online 0.001 --save "$OUT/relation-weights-online0.001.json" | tee -a "$OUT/relation-terms.jsonl"
# 3. Games: the final database with its policy, with the ridge weights stored in it, against the same without.
mkdir -p "$OUT/match"
for side in with without; do cp "$FINAL" "$OUT/match/$side.db"; cp "${FINAL%.db}.policy.db" "$OUT/match/$side.policy.db"; done
$R --write-db "$OUT/match/with.db"
npx morph match --white "morph:$OUT/match/with.db" --black "morph:$OUT/match/without.db" --games 200 --seed 1 --concurrency 2 \
  --json --pgn "$OUT/match/h2h.pgn" > "$OUT/match/h2h.json"
# 4. Learned in training: the same seed from fresh with 4 lessons a game (30 minutes on 2 jobs under load 4-6;
#    resumable), then the database against itself without its graph patterns, and paired move quality.
#    (2026-12-05: run as s11r.db; stopped at game 309 and resumed with the same command and --games 2691.)
TRAINED=${FINAL%.db}-lessons.db
npx morph train --db "$TRAINED" --games 3000 --seed 11 --relation-lessons 4 --checkpoint-every 1000 --no-judge
npx morph match --white "morph:$TRAINED" --no-graph-patterns --black "morph:$TRAINED" --games 100 --seed 1 --concurrency 2 \
  --json --pgn "$OUT/match/ablation.pgn" > "$OUT/match/ablation.json"
node bin/run-ts.js training/compare-rankers.ts --positions positions/move-scores.jsonl "db=$TRAINED" "db=$TRAINED;graphPatterns=false" \
  "db=$FINAL" "db=$TRAINED;policy=none" | tee "$OUT/match/quality.txt"
