#!/usr/bin/env bash
# The ladder (issue 8): a trained Morph database matched against the baseline opponents, 200 games each with
# colours alternating, plus its move agreement on the labelled set next to the baselines'. Results go to
# OUT/*.json and a summary table to OUT/ladder.md.
#
#   training/recipes/ladder.sh data/morph.db            (GAMES=200 OUT=ladder JOBS=2 by default)
#
# To train the database first as the note reports: npx morph train --db data/morph.db --games 1000 --seed 1
set -euo pipefail
cd "$(dirname "$0")/../.."
DB=${1:-data/morph.db}
GAMES=${GAMES:-200}
OUT=${OUT:-ladder}
JOBS=${JOBS:-2}
mkdir -p "$OUT"
OPPONENTS=(random greedy ab:1 ab:2,q stockfish:skill=0,depth=1 gnuchess:depth=1)

run_match() {
  local opponent=$1
  local name=${opponent//[:,=]/_}
  node bin/morph.js match --white "morph:$DB" --black "$opponent" --games "$GAMES" --swap --seed 1 \
    --no-progress --json --pgn "$OUT/match-$name.pgn" > "$OUT/match-$name.json"
}
export -f run_match
export DB GAMES OUT
printf '%s\n' "${OPPONENTS[@]}" | xargs -P "$JOBS" -I{} bash -c 'run_match "$@"' _ {}

node bin/morph.js agree --db "$DB" --positions test/fixtures/agreement.jsonl --json > "$OUT/agree-morph.json"
for ranker in random greedy ab:1 ab:2,q; do
  node bin/morph.js agree --ranker "$ranker" --positions test/fixtures/agreement.jsonl --json > "$OUT/agree-${ranker//[:,=]/_}.json"
done

node --input-type=module - "$OUT" <<'JS'
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
const out = process.argv[2];
const lines = ['| opponent | W | D | L | score | Elo (95% interval) | avg plies |', '|---|---|---|---|---|---|---|'];
for (const file of readdirSync(out).filter((f) => f.startsWith('match-') && f.endsWith('.json')).sort()) {
  const m = JSON.parse(readFileSync(`${out}/${file}`, 'utf8'));
  const e = m.elo ?? {};
  lines.push(`| ${m.second} | ${m.wins} | ${m.draws} | ${m.losses} | ${m.scoreFraction.toFixed(3)} | ${Math.round(e.elo)} (${Math.round(e.low)}, ${Math.round(e.high)}) | ${m.averagePlies.toFixed(1)} |`);
}
lines.push('', '| ranker | positions | top1 | top4 | topThird |', '|---|---|---|---|---|');
for (const file of readdirSync(out).filter((f) => f.startsWith('agree-')).sort()) {
  const a = JSON.parse(readFileSync(`${out}/${file}`, 'utf8'));
  lines.push(`| ${file.slice(6, -5)} | ${a.positions} | ${a.top1.toFixed(3)} | ${a.top4.toFixed(3)} | ${a.topThird.toFixed(3)} |`);
}
writeFileSync(`${out}/ladder.md`, lines.join('\n') + '\n');
console.log(lines.join('\n'));
JS
