/**
 * Experiment (issue 69, the graph patterns carrying strength): relation terms (src/eval/relationTerms.ts, the
 * smallest graph patterns of the safety language read by their canonical index) fitted to what the play search
 * sees beyond capture-settled material, then read at every position the material searches value. Does a search
 * whose leaves carry them choose better moves?
 *
 * The fit: ridge least squares (research/ridge.ts; penalty chosen on the games after the first 80%, refitted on
 * 90%, the last 10% held out) of the gap, target minus settled, clipped at --clip log-odds, over the roots saved by
 * research/treestrap-terms.ts --save (with FENs; several files joined by commas). The constant is the gap every
 * position shares and is not read in play.
 *
 * Then move quality on the scored positions, paired, no policy anywhere: the database's play search without the
 * terms, with them, and with them shuffled among the features (the control); the same for material-quiescence (one
 * ply of capture-settled material); and the median time a move takes with and without them.
 *
 *   node bin/run-ts.js research/relation-terms.ts --db DB --load A.jsonl[,B.jsonl] --positions positions/move-scores.jsonl
 */
import { writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { PatternStore } from '../src/store/patternStore.ts';
import { loadConfig, evaluationSettings } from '../src/learn/config.ts';
import { MorphPlayer } from '../src/player/morphPlayer.ts';
import type { SearchSpec } from '../src/search/extensions.ts';
import { boardFromFen } from '../src/chess/board.ts';
import { GameHistory } from '../src/chess/history.ts';
import { forEachRelationFeature, relationLogOdds, storeRelationWeights, strongestRelationWeights, RELATION_TERM_FEATURES } from '../src/eval/relationTerms.ts';
import { readInputLines } from '../src/util/inputLines.ts';
import { parseLabelledPositions } from '../src/agree/positions.ts';
import { meanWithInterval, positionQuality, type MoveQuality } from '../src/agree/metrics.ts';
import { Random } from '../src/util/random.ts';
import { rootsWithFen, type TermSample } from './term-samples.ts';
import { chosenRidge, type SparseRow } from './ridge.ts';
import { AdagradRelationLearner, DEFAULT_ADAGRAD_RELATION } from './adagrad-relation-learner.ts';

const program = new Command()
  .requiredOption('--db <file>')
  .requiredOption('--load <files>', 'targets saved by treestrap-terms.ts --save (with FENs), comma-separated')
  .requiredOption('--positions <file>')
  .option('--clip <x>', 'the gap counts at most this many log-odds', Number, 0.5)
  .option('--scale <x>', 'the fitted weights multiplied by this in play', Number, 1)
  .option('--save <file>', 'write the fitted weights (JSON)')
  .option('--write-db <file>', 'store the fitted weights in this database (a copy of --db: players of it then read them), and stop')
  .option('--seed <n>', "the control's shuffle", Number, 1)
  .option('--online <rate>', 'instead of ridge: one pass of the training learner (AdagradRelationLearner, the training learner before ridge) over the first 90% of the games in their order, at this rate', Number)
  .option('--pull <x>', 'with --online: the learner\'s pull toward 0', Number, DEFAULT_ADAGRAD_RELATION.pull)
  .option('--fit-only', 'stop after the fit')
  .parse();
const opts = program.opts();

const samples = rootsWithFen((opts.load as string).split(','));
const clip = (x: number) => Math.max(-opts.clip, Math.min(opts.clip, x));
const rowOf = (s: TermSample & { fen: string }): SparseRow => {
  const row: SparseRow = new Map();
  forEachRelationFeature(boardFromFen(s.fen), (f) => row.set(`${f}`, (row.get(`${f}`) ?? 0) + 1));
  return row;
};
const gameCount = samples.reduce((most, s) => Math.max(most, s.game + 1), 0);
const part = (from: number, to: number) => {
  const chosen = samples.filter((s) => s.game >= from * gameCount && s.game < to * gameCount);
  return { rows: chosen.map(rowOf), y: chosen.map((s) => clip(s.target - s.settled)) };
};
const test = part(0.9, 1.01);
const testMean = test.y.reduce((a, b) => a + b, 0) / test.y.length;
const testTotal = test.y.reduce((sum, y) => sum + (y - testMean) ** 2, 0);
const weights = new Float64Array(RELATION_TERM_FEATURES);
let lambda: number | undefined;
if (opts.online === undefined) {
  const fitted = chosenRidge(part(0, 0.8), part(0.8, 0.9));
  lambda = fitted.lambda;
  for (const [key, k] of fitted.design.keys) if (key !== 'const') weights[Number(key)] = fitted.weights[k];
} else {
  // As training would learn them: each position once, in the order the games were played (the constant left out).
  const learner = new AdagradRelationLearner({ ...DEFAULT_ADAGRAD_RELATION, rate: opts.online, pull: opts.pull, clip: opts.clip });
  for (const s of samples) if (s.game < 0.9 * gameCount) learner.learn(boardFromFen(s.fen), s.settled, s.target);
  weights.set(learner.weights);
}
/** Held-out rms of the gap less the terms (without a constant, as play reads them). */
const testRows = samples.filter((s) => s.game >= 0.9 * gameCount);
const testRms = Math.sqrt(testRows.reduce((sum, s) => sum + (clip(s.target - s.settled) - relationLogOdds(boardFromFen(s.fen), weights)) ** 2, 0) / testRows.length);
for (let f = 0; f < weights.length; f++) weights[f] *= opts.scale;
const strongest = strongestRelationWeights(weights, 12).map(({ pattern, weight }) => `${pattern}: ${weight.toFixed(3)}`);
console.error(`${samples.length} roots of ${gameCount} games; ${opts.online === undefined ? `ridge, lambda ${lambda}` : `online, rate ${opts.online}`}; held-out rms ${testRms.toFixed(4)}, R2 ${(1 - (testRms ** 2 * test.y.length) / testTotal).toFixed(3)}; strongest: ${strongest.join('; ')}`);
if (opts.save) writeFileSync(opts.save, JSON.stringify({ lambda, online: opts.online, clip: opts.clip, weights: [...weights] }) + '\n');
if (opts.fitOnly) process.exit(0);

if (opts.writeDb) {
  const target = PatternStore.open(opts.writeDb);
  target.db.transaction(() => storeRelationWeights(target.db, weights))();
  target.close();
  process.exit(0);
}

// The control: the same weights given to other features at random.
const random = new Random(opts.seed);
const shuffled = Float64Array.from(weights);
for (let i = shuffled.length - 1; i > 0; i--) {
  const j = random.int(i + 1);
  [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
}

const store = PatternStore.open(opts.db, { readonly: true });
const config = loadConfig(store.db);
const evaluation = evaluationSettings(config);
const positions = parseLabelledPositions(readInputLines(opts.positions)).positions.filter((p) => p.scores);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
function qualities(search: SearchSpec, relationWeights?: Float64Array): { quality: MoveQuality[]; medianMs: number } {
  const player = new MorphPlayer(store, { maturity: config.maturity, evaluation, search, seed: 0, ...(relationWeights ? { relationWeights } : {}) });
  const times: number[] = [];
  const quality = positions.map((p) => {
    const started = performance.now();
    const ranked = player.rankMoves(new GameHistory(p.fen));
    times.push(performance.now() - started);
    return positionQuality(ranked.map((r) => ({ move: r.move, value: player.choiceScore(r) })), p.scores!);
  });
  return { quality, medianMs: median(times) };
}
const players: [string, { quality: MoveQuality[]; medianMs: number }][] = [];
for (const search of [config.playSearch, 'material-quiescence'] as SearchSpec[]) {
  players.push([`${search}, no terms`, qualities(search)]);
  players.push([`${search}, relation terms`, qualities(search, weights)]);
  // No weights given reads the database's: none, unless --db holds some (then the first row has them too).
  players.push([`${search}, shuffled`, qualities(search, shuffled)]);
}
store.close();
const f = (x: number) => x.toFixed(2);
const paired = (a: number, b: number) => {
  const d = meanWithInterval(players[a][1].quality.map((q, i) => q.meanLoss - players[b][1].quality[i].meanLoss));
  return `${players[a][0]} - ${players[b][0]}: ${f(d.mean)} [${d.interval.map(f).join(', ')}]`;
};
console.log(JSON.stringify({
  db: opts.db, roots: samples.length, games: gameCount, clip: opts.clip, scale: opts.scale, lambda, online: opts.online, testRms, strongest,
  players: players.map(([name, p]) => ({ name, meanLoss: f(meanWithInterval(p.quality.map((q) => q.meanLoss)).mean), blunder: (p.quality.reduce((s, q) => s + q.blunder, 0) / p.quality.length).toFixed(3), medianMs: p.medianMs.toFixed(1) })),
  paired: [paired(1, 0), paired(2, 0), paired(1, 2), paired(4, 3), paired(5, 3), paired(4, 5), paired(4, 0)],
}));
