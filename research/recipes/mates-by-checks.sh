#!/usr/bin/env bash
# Mates by checks in the threat looks (issue 12; docs/lab/2026-11.md, 2026-11-28 night, "mates by checks").
# DIR holds the 2-hour run of 2026-11-28 (research/recipes/two-hours-curve.sh: DIR/morph.db with its policy,
# and DIR/curve with the matches this compares against, played by the build before the look).
#
# 1. Where the losses come from, on the baseline's games against gnuchess at depth 1:
#      node bin/run-ts.js research/mate-losses.ts DIR/curve/gnuchess1-final.pgn DIR/curve/gnuchess1-final-s2.pgn
# 2. The same database and policy, with this script's build, against gnuchess at depth 1 (seeds 1 and 2) and
#    ab:2,q (seeds 1 and 2), 200 games a seed on the balanced suite, each paired by opening with the baseline's
#    games of the same seed. Run it at the build to measure: 7e3d132 for the look 3 moves deep (OUT=DIR/mate3),
#    4c80a68 for the longest mate first (OUT=DIR/mate-length), and 4c80a68 with MATE_LOOK_DEPTH = 4 in
#    src/search/search.ts (OUT=DIR/mate4; the default since). For the paired differences between two of these,
#    run training/paired-match-diff.ts on their JSON files.
#
#   research/recipes/mates-by-checks.sh DIR OUT [gnuchess|ab2q]...
set -euo pipefail
cd "$(dirname "$0")/../.."
source research/recipes/lib.sh
DIR=${1:?usage: mates-by-checks.sh DIR OUT [gnuchess|ab2q]...}
OUT=${2:?usage: mates-by-checks.sh DIR OUT [gnuchess|ab2q]...}
shift 2
mkdir -p "$OUT"
for which in "${@:-gnuchess}"; do
  case $which in
    gnuchess)
      suite_match "$OUT" gnuchess1-s1 "$DIR/morph.db" gnuchess:depth=1 1 &
      suite_match "$OUT" gnuchess1-s2 "$DIR/morph.db" gnuchess:depth=1 2 & wait
      node bin/run-ts.js training/paired-match-diff.ts "$DIR/curve/gnuchess1-final.json,$DIR/curve/gnuchess1-final-s2.json" \
        "$OUT/gnuchess1-s1.json,$OUT/gnuchess1-s2.json"
      node bin/run-ts.js research/mate-losses.ts "$OUT/gnuchess1-s1.pgn" "$OUT/gnuchess1-s2.pgn" ;;
    ab2q)
      suite_match "$OUT" ab2q-s1 "$DIR/morph.db" ab:2,q 1 &
      suite_match "$OUT" ab2q-s2 "$DIR/morph.db" ab:2,q 2 & wait
      node bin/run-ts.js training/paired-match-diff.ts "$DIR/curve/ab2q-final-s1.json,$DIR/curve/ab2q-final-s2.json" \
        "$OUT/ab2q-s1.json,$OUT/ab2q-s2.json" ;;
    *) echo "unknown: $which (gnuchess or ab2q)" >&2; exit 2 ;;
  esac
done
