/**
 * `npm run bench`: every speed figure the project tracks, each with its target, as a table and as JSON
 * (bench/results.json). Rates are also given as a ratio to chess.js legal-move generation measured in the same
 * run, and times in units of one such call, so figures compare across noisy machines.
 *
 *   npm run bench                 everything (the first run grows cached databases of 1k/10k/100k patterns)
 *   npm run bench -- --quick      skip the 100k database and the training run (and growing the trained database)
 * A database grown by training (bench/trained.bench.ts) is measured beside the synthetic ones: the cached
 * bench/.cache/trained.db, grown by `node bin/run-ts.js bench/trained.bench.ts --build --hours H` (200 games
 * when the full bench finds none), and, when MORPH_BENCH_TRAINED_100K=PATH names one, a 100k-pattern database
 * grown by training (training/recipes/grow-100k.sh; 10 minutes to an hour of one core, so never grown by the bench).
 * On the trained database, also `morph uci`'s start-up as a GUI meets it (bench/uciStartup.bench.ts: median time to
 * uciok, readyok and the first move, and the processor time to uciok).
 * With it, training's games/hour on it as a share of the rate on a 10k-pattern database grown by training
 * (bench/.cache/trained-10k.db, grown by the bench when missing: about four minutes), 100 games each.
 *   npm run bench -- --learning   also the learning check: 3000 games from a fresh database (20-30 minutes;
 *                                 --learning-games N for another length)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { TRAINED_DB } from './trained.bench.ts';
import { benchCore, referenceRate } from './core.bench.ts';
import { benchMovegen } from './movegen.bench.ts';
import { benchDatabaseLoad } from './database.bench.ts';
import { benchTraining, benchTrainingAtScale, trained10kDatabase } from './training.bench.ts';
import { benchLearning } from './learning.bench.ts';
import { benchUciStartup } from './uciStartup.bench.ts';
import { type Figure, meetsTarget } from './figures.ts';

const quick = process.argv.includes('--quick');
const learning = process.argv.includes('--learning');
const learningGamesAt = process.argv.indexOf('--learning-games');
const learningGames = learningGamesAt > 0 ? Number(process.argv[learningGamesAt + 1]) : 3000;
if (!(Number.isInteger(learningGames) && learningGames > 0)) {
  console.error(`bench: --learning-games must be a positive integer, got ${process.argv[learningGamesAt + 1]}`);
  process.exit(2);
}
const jsonOnly = process.argv.includes('--json');
// The 100k-pattern database grown by training (training/recipes/grow-100k.sh, 10 minutes to an hour): measured when given.
const trained100k = process.env.MORPH_BENCH_TRAINED_100K;
if (trained100k !== undefined && !existsSync(trained100k)) {
  console.error(`bench: MORPH_BENCH_TRAINED_100K names no file: ${trained100k}`);
  process.exit(2);
}
const log = (text: string) => process.stderr.write(text + '\n');

/** Each database size in its own process, so resident memory is that size's alone. */
function hierarchyFigures(size: number, script = 'bench/hierarchy.bench.ts', args = ['--size', String(size)]): Figure[] {
  const output = execFileSync(process.execPath, ['bin/run-ts.js', script, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 24,
  });
  return JSON.parse(output.trim().split('\n').pop()!) as Figure[];
}

log('measuring the reference (chess.js moves({verbose:true}) on middlegame positions)...');
const reference = referenceRate();
const figures: Figure[] = [
  { name: 'reference: chess.js moves({verbose:true})', value: Math.round(reference), unit: 'calls/s' },
];
log('position graphs and matching...');
figures.push(...benchCore());
log('move generation...');
figures.push(...(await benchMovegen()));
log('database file load...');
figures.push(...(await benchDatabaseLoad()));
for (const size of quick ? [1000, 10_000] : [1000, 10_000, 100_000]) {
  log(`hierarchy of ${size} patterns...`);
  figures.push(...hierarchyFigures(size));
}
if (!quick || existsSync(TRAINED_DB)) {
  log('database grown by training...');
  figures.push(...hierarchyFigures(0, 'bench/trained.bench.ts'));
}
if (existsSync(TRAINED_DB)) {
  log('morph uci start-up on the database grown by training...');
  figures.push(...(await benchUciStartup(TRAINED_DB)));
}
if (trained100k) {
  log(`database of 100k patterns grown by training (${trained100k})...`);
  figures.push(...hierarchyFigures(0, 'bench/trained.bench.ts', ['--db', trained100k]));
  log('training at 100k patterns against 10k (growing bench/.cache/trained-10k.db first if needed)...');
  figures.push(...(await benchTrainingAtScale(trained100k, trained10kDatabase())));
}
for (const size of quick ? [10_000] : [10_000, 100_000]) {
  log(`opponent model of ${size} patterns...`);
  figures.push(...hierarchyFigures(size, 'bench/model.bench.ts'));
}
if (!quick) {
  log('training run against the embedded Stockfish...');
  figures.push(...(await benchTraining()));
}
if (learning) {
  log(`learning check: ${learningGames} games from a fresh database against the embedded Stockfish...`);
  figures.push(...(await benchLearning(learningGames)));
}

for (const figure of figures) {
  if (figure.unit.endsWith('/s')) figure.ratio = Number((figure.value / reference).toFixed(3));
  else if (figure.unit === 'ms') figure.ratio = Number((figure.value / (1000 / reference)).toFixed(3));
}

const rows = figures.map((f) => {
  const verdict = meetsTarget(f);
  return [
    f.name,
    `${f.value} ${f.unit}`,
    f.target ?? '',
    verdict === undefined ? '' : verdict ? 'ok' : 'MISSED',
    f.ratio === undefined ? '' : String(f.ratio),
    f.note ?? '',
  ];
});
const header = ['figure', 'value', 'target', '', 'ratio*', 'note'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
if (!jsonOnly) {
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
  console.log('* ratio: rates divided by the chess.js reference rate; times in units of one chess.js moves() call.');
}
const json = JSON.stringify({ measuredAt: new Date().toISOString(), node: process.version, figures }, null, 2);
writeFileSync('bench/results.json', json + '\n');
if (jsonOnly) console.log(json);
else console.log('JSON: bench/results.json');
