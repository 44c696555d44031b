#!/usr/bin/env bash
# A 100k-pattern database grown by training (issue 13's benchmark database), in 10 minutes to an hour of one
# core (10 minutes and 500 games on a quiet machine, 2026-11-25).
# Real training against the default partner (`morph train`, --jobs 1, seeded), with the creation rates raised
# through the saved config (--subgraphs-per-game, --regressions-per-game, ...), so that the database reaches its
# deletion cap (100,000 patterns, the default) in about 500 games instead of tens of thousands.
# Deletion keeps its defaults, so the database is shaped by use and forgetting as a long default run would be.
# --no-policy: no move policy is built beside it (a size benchmark; the measured database predates the policy).
#
#   training/recipes/grow-100k.sh /tmp/scale100k/trained-100k.db [START.db]
#
# START (optional): a database to start from, copied (never modified) when DB does not exist yet, e.g. a
# 22k-pattern database trained with the defaults. Without it training starts from a fresh database.
# Resumable: it re-runs `morph train` on DB, CHUNK games at a time, until DB holds TARGET patterns; a run killed
# part way loses only its game in flight, and running the recipe again carries on (the seed is per game number).
# Defaults: TARGET=100000 CHUNK=100 SEED=1 SUBGRAPHS=480 REGRESSIONS=120 GENERALISATIONS=60 SPECIALISATIONS=120
# OPPONENT=stockfish (the default partner). The bench reads the result with MORPH_BENCH_TRAINED_100K=DB
# (docs/scaling.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
DB=${1:?usage: grow-100k.sh DB [START.db]}
START=${2:-}
TARGET=${TARGET:-100000}
CHUNK=${CHUNK:-100}
SEED=${SEED:-1}
OPPONENT=${OPPONENT:-stockfish}

if [ ! -e "$DB" ] && [ -n "$START" ]; then cp "$START" "$DB"; fi

patterns() {
  if [ ! -e "$DB" ]; then echo 0; return; fi
  node -e 'const D=require("better-sqlite3");const d=new D(process.argv[1],{readonly:true});
    process.stdout.write(String(d.prepare("SELECT count(*) FROM patterns").pluck().get()))' "$DB"
}

while [ "$(patterns)" -lt "$TARGET" ]; do
  echo "$(date -u +%H:%M:%S) $(patterns) patterns"
  node bin/morph.js train --db "$DB" --games "$CHUNK" --seed "$SEED" --jobs 1 --opponent "$OPPONENT" --progress none --no-policy \
    --subgraphs-per-game "${SUBGRAPHS:-480}" --regressions-per-game "${REGRESSIONS:-120}" \
    --generalisations-per-game "${GENERALISATIONS:-60}" --specialisations-per-game "${SPECIALISATIONS:-120}"
done
echo "$(date -u +%H:%M:%S) $(patterns) patterns: done"
