#!/usr/bin/env bash
# The learning curve (issue 12): train a database with checkpoints, then measure every checkpoint on the ladder
# (ab:1, ab:2,q, stockfish:skill=0,depth=1; MATCH_GAMES games each with `morph match`: opening pairs, colours
# reversed, the same seed for every checkpoint) and on move quality (positions/move-scores.jsonl). Each result
# goes into the trained database's table checkpoint_results, which `morph report` shows. Each checkpoint is
# measured as Morph plays by default: with its own move policy (built here from its last 1000 games when it has
# none; POLICY=none measures without one).
# Takes: the training (3,000 games: about 3.5 minutes of games on 2 cores, 2026-12-05), then per checkpoint a
# policy build (about 10 minutes) and three matches (the default player: about 20 minutes of CPU per 100 games,
# docs/lab/2026-12.md, 2026-12-01): hours for six checkpoints.
#
#   GAMES=3000 EVERY=500 training/recipes/curve.sh tmp/curve.db [train options, e.g. --evaluation shrunk]
#   SKIP_TRAIN=1 training/recipes/curve.sh tmp/curve.db      (measure the checkpoints not measured yet)
#
# Defaults: GAMES=3000 EVERY=500 MATCH_GAMES=200 SEED=1 OPPONENTS='ab:1;ab:2,q;stockfish:skill=0,depth=1'
# OPENINGS (morph match's default suite when unset), ONLY (the checkpoints to measure, e.g. '002000 010000'; every
# one when unset). Each match's JSON is kept beside its checkpoint (games-NNNNNN.ab2q.json for ab:2,q), for
# training/paired-match-diff.ts.
set -euo pipefail
cd "$(dirname "$0")/../.."
DB=${1:?usage: curve.sh DB [train options]}
shift
GAMES=${GAMES:-3000}
EVERY=${EVERY:-500}
MATCH_GAMES=${MATCH_GAMES:-200}
SEED=${SEED:-1}
OPPONENTS=${OPPONENTS:-ab:1;ab:2,q;stockfish:skill=0,depth=1}
POSITIONS=${POSITIONS:-positions/move-scores.jsonl}
OPENING_ARGS=()
if [ -n "${OPENINGS:-}" ]; then OPENING_ARGS=(--openings "$OPENINGS"); fi
DIR="${DB%.db}.checkpoints"

if [ -z "${SKIP_TRAIN:-}" ]; then
  nice -n 10 node bin/morph.js train --db "$DB" --games "$GAMES" --seed "$SEED" --checkpoint-every "$EVERY" \
    --progress lines "$@"
fi

measured() {
  node -e 'const D=require("better-sqlite3");const d=new D(process.argv[1],{readonly:true});
    try{process.stdout.write(String(d.prepare("SELECT count(*) FROM checkpoint_results WHERE checkpoint=?").pluck().get(process.argv[2])))}
    catch{process.stdout.write("0")}' "$DB" "$1"
}

for checkpoint in "$DIR"/games-*.db; do
  case "$checkpoint" in *.policy.db) continue ;; esac
  # ONLY='002000 010000' measures those checkpoints alone.
  if [ -n "${ONLY:-}" ] && ! grep -qw "${checkpoint: -9:6}" <<< "$ONLY"; then continue; fi
  # A checkpoint already measured is skipped, so the recipe can be re-run as training goes on.
  if [ "$(measured "$checkpoint")" != "0" ]; then continue; fi
  POLICY_ARGS=()
  if [ "${POLICY:-}" = none ]; then
    POLICY_ARGS=(--no-policy)
  elif [ ! -e "${checkpoint%.db}.policy.db" ]; then
    nice -n 10 node bin/morph.js model --from-db "$checkpoint" --no-progress > /dev/null
  fi
  IFS=';' read -ra opponents <<< "$OPPONENTS"
  for opponent in "${opponents[@]}"; do
    nice -n 10 node bin/morph.js match --white "morph:$checkpoint" --black "$opponent" --games "$MATCH_GAMES" \
      --seed "$SEED" "${OPENING_ARGS[@]}" "${POLICY_ARGS[@]}" --json --pgn /dev/null 2>/dev/null \
      | tee "${checkpoint%.db}.$(tr -cd 'a-z0-9' <<< "$opponent").json" \
      | node bin/run-ts.js training/record-checkpoint.ts "$DB" "$checkpoint"
  done
  nice -n 10 node bin/morph.js agree --db "$checkpoint" --positions "$POSITIONS" "${POLICY_ARGS[@]}" --json \
    | tee "${checkpoint%.db}.agree.json" | node bin/run-ts.js training/record-checkpoint.ts "$DB" "$checkpoint"
  echo "measured $checkpoint"
done
node bin/morph.js report --db "$DB" --out "${DB%.db}-report" > /dev/null && echo "report: ${DB%.db}-report/index.html"
