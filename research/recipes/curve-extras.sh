#!/usr/bin/env bash
# After two-hours-curve.sh on DIR (issue 12; docs/lab/2026-12.md, 2026-12-04 later): the final on the issue's other
# targets, the 3,000-game checkpoint against gnuchess at depth 1 (paired with the final's matches there), and Morph as
# training plays it (--no-policy) at 1,000 and 3,000 games and the final, against ab:2,q and against the partner.
# Each step skips what exists. Then the paired differences.
#
#   research/recipes/curve-extras.sh DIR          (needs DIR/curve/games-003000.db from two-hours-curve.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
source research/recipes/lib.sh
DIR=${1:?usage: curve-extras.sh DIR}
OUT="$DIR/curve"
suite_match "$OUT" ab1-final "$DIR/morph.db" ab:1 1
suite_match "$OUT" sf0-final "$DIR/morph.db" stockfish:skill=0,depth=1 1
[ -s "$OUT/agree-final.json" ] || node bin/morph.js agree --positions positions/move-scores.jsonl --db "$DIR/morph.db" --json > "$OUT/agree-final.json"
suite_match "$OUT" gnuchess1-3000-s1 "$OUT/games-003000.db" gnuchess:depth=1 1
suite_match "$OUT" gnuchess1-3000-s2 "$OUT/games-003000.db" gnuchess:depth=1 2
suite_match "$OUT" nopolicy-ab2q-1000-s1 "$DIR/morph.checkpoints/games-001000.db" ab:2,q 1 --no-policy
suite_match "$OUT" nopolicy-ab2q-3000-s1 "$OUT/games-003000.db" ab:2,q 1 --no-policy
suite_match "$OUT" nopolicy-ab2q-final-s1 "$DIR/morph.db" ab:2,q 1 --no-policy
suite_match "$OUT" nopolicy-sf0-3000-s1 "$OUT/games-003000.db" stockfish:skill=0,depth=1 1 --no-policy
suite_match "$OUT" nopolicy-sf0-final-s1 "$DIR/morph.db" stockfish:skill=0,depth=1 1 --no-policy
paired() { node bin/run-ts.js training/paired-match-diff.ts "$@"; }
paired "$OUT/gnuchess1-3000-s1.json,$OUT/gnuchess1-3000-s2.json" "$OUT/gnuchess1-final.json,$OUT/gnuchess1-final-s2.json"
paired "$OUT/nopolicy-ab2q-1000-s1.json" "$OUT/nopolicy-ab2q-3000-s1.json" "$OUT/nopolicy-ab2q-final-s1.json"
paired "$OUT/nopolicy-ab2q-3000-s1.json" "$OUT/nopolicy-ab2q-final-s1.json"
paired "$OUT/nopolicy-sf0-3000-s1.json" "$OUT/nopolicy-sf0-final-s1.json"
