#!/usr/bin/env bash
# Evaluation functions and defaults side by side (issue 12 part 2, issue 16's unmeasured defaults), on databases
# trained with the same seed and number of games:
#   PAPER  trained with the defaults (paper's play function, learnFrom both, maturity 0)
#   JOINT  trained with --evaluation joint
#   OWN    trained with --learn-from own (optional)
# PAPER is also played with maturity 5 and 25, and with the shrunk and logodds functions (play-time variants:
# under λ = 1 the TD targets do not depend on the evaluation function, so the learned weights are the same;
# only the training games would differ). Each configuration: move quality on positions/move-scores.jsonl
# (paired differences against PAPER) and MATCH_GAMES games against each of OPPONENTS with `morph match`.
#
#   research/recipes/compare-evaluations.sh PAPER.db JOINT.db [OWN.db]     (OUT=tmp/compare MATCH_GAMES=100 SEED=1)
#   (a second instance with another OPPONENTS and SKIP_QUALITY=1 plays other matches alongside)
#
# The training runs behind the results in docs/lab/:
#   morph train --db paper.db --games 300 --seed 1
#   morph train --db joint.db --games 300 --seed 1 --evaluation joint
#   morph train --db own.db --games 300 --seed 1 --learn-from own
# The joint and logodds functions were retired in session 75 (docs/lab/2026-12.md): rerunning this needs main
# before that commit (git log -S RETIRED_EVALUATION_FUNCTIONS).
set -euo pipefail
cd "$(dirname "$0")/../.."
PAPER=${1:?usage: compare-evaluations.sh PAPER.db JOINT.db [OWN.db]}
JOINT=${2:?usage: compare-evaluations.sh PAPER.db JOINT.db [OWN.db]}
OWN=${3:-}
OUT=${OUT:-tmp/compare}
MATCH_GAMES=${MATCH_GAMES:-100}
SEED=${SEED:-1}
OPPONENTS=${OPPONENTS:-ab:1;greedy}
POSITIONS=${POSITIONS:-positions/move-scores.jsonl}
OPENING_ARGS=()
if [ -n "${OPENINGS:-}" ]; then OPENING_ARGS=(--openings "$OPENINGS"); fi
mkdir -p "$OUT"

declare -A CONFIGS=(
  [paper]="$PAPER"
  [joint]="$JOINT"
)
for variant in "maturity=5" "maturity=25" "evaluation=shrunk" "evaluation=logodds"; do
  name="paper-${variant#*=}"
  [ "${variant%%=*}" = maturity ] && name="paper-m${variant#*=}"
  [ -f "$OUT/$name.db" ] || node bin/run-ts.js research/with-config.ts "$PAPER" "$OUT/$name.db" "$variant" > /dev/null
  CONFIGS[$name]="$OUT/$name.db"
done
if [ -n "$OWN" ]; then CONFIGS[own]="$OWN"; fi

# Move quality, paired against the paper configuration.
args=("db=$PAPER")
for name in "${!CONFIGS[@]}"; do [ "$name" != paper ] && args+=("db=${CONFIGS[$name]}"); done
args+=("ranker=greedy" "ranker=ab:1" "ranker=ab:2" "ranker=ab:2,q" "ranker=random")
if [ -z "${SKIP_QUALITY:-}" ]; then
  nice -n 10 node bin/run-ts.js training/compare-rankers.ts --positions "$POSITIONS" "${args[@]}" > "$OUT/quality.jsonl"
fi

# Games.
IFS=';' read -ra opponents <<< "$OPPONENTS"
for name in "${!CONFIGS[@]}"; do
  for opponent in "${opponents[@]}"; do
    file="$OUT/match-$name-${opponent//[:,=]/_}.json"
    [ -s "$file" ] && continue
    nice -n 10 node bin/morph.js match --white "morph:${CONFIGS[$name]}" --black "$opponent" --games "$MATCH_GAMES" \
      --seed "$SEED" "${OPENING_ARGS[@]}" --json --pgn "$OUT/match-$name-${opponent//[:,=]/_}.pgn" 2>/dev/null > "$file"
  done
done
echo "results in $OUT"
