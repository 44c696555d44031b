#!/usr/bin/env bash
# The ladder (issue 8, 15): a trained Morph database matched against the baseline opponents, plus its move
# agreement on the labelled set next to the baselines'. Each match plays GAMES games as game pairs: every opening
# of the balanced suite (openings/balanced-6ply.epd, or OPENINGS=FILE) twice with colours reversed, so even a
# deterministic opponent meets distinct games. The table reports W/D/L, the Elo interval from the pair
# (pentanomial) variance, LOS, draw ratio, Ptnml and distinct games. Results go to OUT/*.json, OUT/*.pgn and a
# summary table to OUT/ladder.md.
# Takes: six matches of GAMES games (the default player: about 20 minutes of CPU per 100 games, docs/lab/2026-12.md,
# 2026-12-01) and move agreement on 400 positions (minutes): a few hours on 2 cores with the defaults.
#
#   training/recipes/ladder.sh data/morph.db            (GAMES=200 OUT=ladder JOBS=2 SEED=1 by default)
#   COMPARE=other.db training/recipes/ladder.sh data/morph.db
#       adds an SPRT of data/morph.db against other.db (normalized Elo, elo0=0 elo1=20, alpha=beta=0.05,
#       at most SPRT_GAMES=2000 games; SPRT="elo0=..,elo1=.." to change it)
#
# To train the database first as the note reports: npx morph train --db data/morph.db --games 1000 --seed 1
set -euo pipefail
cd "$(dirname "$0")/../.."
DB=${1:-data/morph.db}
GAMES=${GAMES:-200}
OUT=${OUT:-ladder}
JOBS=${JOBS:-2}
SEED=${SEED:-1}
OPENINGS=${OPENINGS:-openings/balanced-6ply.epd}
mkdir -p "$OUT"
OPPONENTS=(random greedy ab:1 ab:2,q stockfish:skill=0,depth=1 gnuchess:depth=1)
command -v gnuchess >/dev/null || { echo "ladder: gnuchess not installed, left out" >&2; OPPONENTS=("${OPPONENTS[@]:0:5}"); }

run_match() {
  local opponent=$1
  local name=${opponent//[:,=]/_}
  node bin/morph.js match --white "morph:$DB" --black "$opponent" --games "$GAMES" --openings "$OPENINGS" \
    --seed "$SEED" --no-progress --json --pgn "$OUT/match-$name.pgn" > "$OUT/match-$name.json"
}
export -f run_match
export DB GAMES OUT SEED OPENINGS
printf '%s\n' "${OPPONENTS[@]}" | xargs -P "$JOBS" -I{} bash -c 'run_match "$@"' _ {}

if [ -n "${COMPARE:-}" ]; then
  node bin/morph.js match --white "morph:$DB" --black "morph:$COMPARE" --games "${SPRT_GAMES:-2000}" \
    --openings "$OPENINGS" --seed "$SEED" --sprt "${SPRT:-elo0=0,elo1=20}" --no-progress --json \
    --pgn "$OUT/sprt.pgn" > "$OUT/sprt.json"
fi

node bin/morph.js agree --db "$DB" --positions test/fixtures/agreement.jsonl --json > "$OUT/agree-morph.json"
for ranker in random greedy ab:1 ab:2,q; do
  node bin/morph.js agree --ranker "$ranker" --positions test/fixtures/agreement.jsonl --json > "$OUT/agree-${ranker//[:,=]/_}.json"
done

node --input-type=module - "$OUT" <<'JS'
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
const out = process.argv[2];
const signed = (x) => (x >= 0 ? '+' : '') + x.toFixed(0);
const lines = [
  '| opponent | games | W | D | L | score | Elo [95% interval, pairs] | LOS | draws | Ptnml(0-2) | distinct games | avg plies |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|',
];
for (const file of readdirSync(out).filter((f) => f.startsWith('match-') && f.endsWith('.json')).sort()) {
  const m = JSON.parse(readFileSync(`${out}/${file}`, 'utf8'));
  const p = m.pairs;
  const elo = p ? `${signed(p.elo)} [${signed(p.low)}, ${signed(p.high)}]` : `sweep: ${signed(m.elo.elo)} (bound)`;
  lines.push(
    `| ${m.second} | ${m.games} | ${m.wins} | ${m.draws} | ${m.losses} | ${m.scoreFraction.toFixed(3)} | ${elo} | ` +
      `${(100 * m.los).toFixed(1)}% | ${(100 * m.drawRatio).toFixed(1)}% | ${m.pentanomial.join(' ')} | ` +
      `${m.distinctGames}/${m.games} | ${m.averagePlies.toFixed(1)} |`,
  );
}
if (existsSync(`${out}/sprt.json`)) {
  const m = JSON.parse(readFileSync(`${out}/sprt.json`, 'utf8'));
  const s = m.sprt;
  lines.push('', `SPRT ${m.first} vs ${m.second} (${s.model} Elo [${s.elo0}, ${s.elo1}], alpha ${s.alpha}, beta ${s.beta}): ` +
    `LLR ${s.llr.toFixed(2)} (${s.lower.toFixed(2)}, ${s.upper.toFixed(2)}) after ${m.games} games: ${s.decision}; ` +
    `Ptnml ${m.pentanomial.join(' ')}`);
}
lines.push('', '| ranker | positions | top1 | top4 | topThird |', '|---|---|---|---|---|');
for (const file of readdirSync(out).filter((f) => f.startsWith('agree-')).sort()) {
  const a = JSON.parse(readFileSync(`${out}/${file}`, 'utf8'));
  lines.push(`| ${file.slice(6, -5)} | ${a.positions} | ${a.top1.toFixed(3)} | ${a.top4.toFixed(3)} | ${a.topThird.toFixed(3)} |`);
}
writeFileSync(`${out}/ladder.md`, lines.join('\n') + '\n');
console.log(lines.join('\n'));
JS
