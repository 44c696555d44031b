#!/usr/bin/env bash
# Opponent models with material "settled" against "exact", the default until then (issue 14; 2026-11-25, late morning).
# Collections from training/recipes/opponent-games.sh (seed 1, every 5th game held out; ab:2,q added with the
# same partners and 300 games), a model of each player from its training games with each material mode (seed 1),
# `morph predict` on its held-out games (one-ply and captures looks), and the own policy of the 6,110-game
# database (research/recipes/material-prior.sh, OUT_DIR/t1.db) built both ways and played against ab:2,q, and the
# settled model of ab:2,q played with (`--white-model`) against ab:2,q.
#
#   research/recipes/settled-material.sh OUT_DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=${1:?usage: settled-material.sh OUT_DIR}
PARTNERS='stockfish:skill=5,depth=3;ab:2;stockfish:skill=10,depth=2;greedy'
mkdir -p "$OUT/opp"
OUT="$OUT/opp" ONLY=sf20 training/recipes/opponent-games.sh
OUT="$OUT/opp" ONLY=toga2 training/recipes/opponent-games.sh
OUT="$OUT/opp" ONLY=glaurung training/recipes/opponent-games.sh
node bin/run-ts.js training/opponent-games.ts --player 'ab:2,q' --partners "$PARTNERS" --games 300 \
  --held-out-every 5 --seed 1 --out "$OUT/opp/ab2q"

declare -A PLAYER=([sf20]='stockfish:skill=20,depth=1' [ab2q]='ab:2,q' [toga2]='uci:/usr/games/toga2:depth=1'
  [glaurung]='uci:/usr/games/glaurung:depth=1')
for name in sf20 ab2q toga2 glaurung; do
  labels=()
  [ "$name" = ab2q ] && labels=(--labels 'ab:2,q')
  for material in exact settled; do
    node bin/morph.js model --pgn "$OUT/opp/$name.train.pgn" --player "${PLAYER[$name]}" --seed 1 \
      --material "$material" --out "$OUT/$name-$material.db" --json --no-progress > "$OUT/$name-$material.json"
    for search in one-ply captures; do
      node bin/morph.js predict --model "$OUT/$name-$material.db" --search "$search" --pgn "$OUT/opp/$name.heldout.pgn" \
        --player "${PLAYER[$name]}" "${labels[@]}" --json > "$OUT/predict-$name-$material-$search.json"
    done
  done
done
# The two engines against each other's model and the value database, settled, one ply.
for pair in toga2:glaurung glaurung:toga2; do
  name=${pair%%:*} other=${pair##*:}
  node bin/morph.js predict --model "$OUT/$name-settled.db" --other-model "$OUT/$other-settled.db" --db "$OUT/t1.db" \
    --search one-ply --pgn "$OUT/opp/$name.heldout.pgn" --player "${PLAYER[$name]}" --json > "$OUT/predict-$name-full.json"
done

# Morph's own policy both ways, against ab:2,q (200 games, seed 1, the balanced suite).
for material in exact settled; do
  node bin/morph.js model --from-db "$OUT/t1.db" --material "$material" --seed 1 --out "$OUT/t1.$material.policy.db" --json --no-progress
  node bin/morph.js match --white "morph:$OUT/t1.db" --white-policy "$OUT/t1.$material.policy.db" --search material-forks \
    --material-prior 1000000 --black 'ab:2,q' --games 200 --seed 1 --openings openings/balanced-6ply.epd --json \
    > "$OUT/policy-$material-s1.json"
done
node bin/run-ts.js training/paired-match-diff.ts "$OUT/policy-exact-s1.json" "$OUT/policy-settled-s1.json"

# Playing with the settled model of ab:2,q against ab:2,q (seeds 1 and 2), against the same player without it.
for seed in 1 2; do
  common=(--white "morph:$OUT/t1.db" --white-policy "$OUT/t1.exact.policy.db" --search material-forks --material-prior 1000000
    --black 'ab:2,q' --games 200 --seed "$seed" --openings openings/balanced-6ply.epd --json)
  node bin/morph.js match "${common[@]}" > "$OUT/no-model-s$seed.json"
  node bin/morph.js match "${common[@]}" --white-model "$OUT/ab2q-settled.db" > "$OUT/model-s$seed.json"
  node bin/run-ts.js training/paired-match-diff.ts "$OUT/no-model-s$seed.json" "$OUT/model-s$seed.json"
done

# The settled policy read one ply (the same weights; its model_settings' search set to one-ply by hand), seed 1.
cp "$OUT/t1.settled.policy.db" "$OUT/t1.settled1.policy.db"
node -e "const D=require('better-sqlite3'); const d=new D(process.argv[1]); const k=\"model_settings\";
  const s=JSON.parse(d.prepare('SELECT value FROM meta WHERE key = ?').get(k).value); s.search='one-ply';
  d.prepare('UPDATE meta SET value = ? WHERE key = ?').run(JSON.stringify(s), k); d.close();" "$OUT/t1.settled1.policy.db"
node bin/morph.js match --white "morph:$OUT/t1.db" --white-policy "$OUT/t1.settled1.policy.db" --search material-forks \
  --material-prior 1000000 --black 'ab:2,q' --games 200 --seed 1 --openings openings/balanced-6ply.epd --json \
  > "$OUT/policy-settled1-s1.json"
node bin/run-ts.js training/paired-match-diff.ts "$OUT/policy-exact-s1.json" "$OUT/policy-settled1-s1.json"
