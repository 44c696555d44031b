#!/usr/bin/env bash
# Threat knowledge past the capture look (issue 12, 2026-11-24 night 2; an experiment, not in main's code).
# threat-knowledge.patch, applied to e8a2927 in a worktree, adds two switches:
#   MORPH_EXP_RESID=1       graph patterns learn a residual: .5 + (S(t+1) - S(t)) / 2, S the settled material
#                           value of the side's position t (its material pattern's weight after a capture
#                           quiescence) and S(T) = the result; material patterns still learn the result.
#   MORPH_EXP_RESID_PLAY=C  material-quiescence plays the settled material value plus 2C(d - .5), d the
#                           shrunk (prior 20) paper combination of the graph patterns matching the move's position
#                           (MORPH_EXP_RESID_COMBINE=extreme|mean to combine otherwise); 0 = plain material-quiescence.
#   MORPH_EXP_FORK=1        the "forkable" safety label: a non-pawn piece of the side that just moved that one quiet
#                           move of the side to move, to a square the first side does not attack, would attack
#                           together with another non-pawn piece or the king; with one seed per such piece label.
# Arms (seed 1, 1000 games, training and play with material-quiescence plus the residual at C = 1): R (residual),
# F (residual and forkable), R3000 (R trained on 2000 more games); H (residual and forkable, but training plays the
# default captures-mates, which reads the graph weights as win chances: a hybrid). Each is matched against ab:2,q and the
# partner (200 games, seed 1) with C = 1 and with C = 0, paired by opening: the residual's effect in play.
#
#   research/recipes/threat-knowledge.sh OUT_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=$(realpath -m "${1:?usage: threat-knowledge.sh OUT_DIR}")
mkdir -p "$OUT"
WT="$OUT/worktree"
[ -d "$WT" ] || { git worktree add -f "$WT" e8a2927 && git -C "$WT" apply "$PWD/research/recipes/threat-knowledge.patch" && ln -s "$PWD/node_modules" "$WT/node_modules"; }
morph() { node "$WT/bin/morph.js" "$@"; }
export MORPH_EXP_RESID=1 MORPH_EXP_RESID_PLAY=1
match() { # DB OPPONENT C NAME [extra]
  MORPH_EXP_RESID_PLAY=$3 morph match --white "morph:$OUT/$1" --black "$2" --search material-quiescence --games 200 --seed 1 \
    --json --pgn /dev/null "${@:5}" > "$OUT/$4.json" 2> "$OUT/$4.err"
}
arm() { # NAME DB
  for c in 1 0; do
    match "$2" ab:2,q $c "$1-ab2q-c$c"
    match "$2" stockfish:skill=0,depth=1 $c "$1-sf-c$c" --concurrency 2
  done
}
morph train --db "$OUT/r.db" --games 1000 --seed 1 --search material-quiescence > "$OUT/r.train.out" 2> "$OUT/r.train.err"
arm r r.db
MORPH_EXP_FORK=1 morph train --db "$OUT/f.db" --games 1000 --seed 1 --search material-quiescence > "$OUT/f.train.out" 2> "$OUT/f.train.err"
MORPH_EXP_FORK=1 arm f f.db
cp "$OUT/r.db" "$OUT/r3000.db" && cp "$OUT/r.policy.db" "$OUT/r3000.policy.db"
morph train --db "$OUT/r3000.db" --games 2000 --seed 1 --search material-quiescence > "$OUT/r3000.train.out" 2> "$OUT/r3000.train.err"
arm r3000 r3000.db
MORPH_EXP_FORK=1 morph train --db "$OUT/h.db" --games 1000 --seed 1 > "$OUT/h.train.out" 2> "$OUT/h.train.err"
MORPH_EXP_FORK=1 arm h h.db
for name in r f r3000 h; do
  for opponent in ab2q sf; do node bin/run-ts.js training/paired-match-diff.ts "$OUT/$name-$opponent-c0.json" "$OUT/$name-$opponent-c1.json"; done
done
