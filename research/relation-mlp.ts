/**
 * Experiment (issue 69, capacity that grows): does a small network over the relation terms' patterns (a hidden
 * layer, so that patterns can combine: a king en prise with a queen unattacked, say) explain more of the gap the
 * relation terms learn (the lesson search's value less capture-settled material, clipped) than their linear ridge
 * fit, and does it keep gaining with more lessons where the linear fit levels off?
 *
 * The same split as research/relation-capacity.ts: by game, the last 10% held out; fitted on the first 20%, 40% and
 * 80% (the last eighth of each for early stopping and the ridge penalty). The network: the pattern counts (and
 * with --squares each piece's label and safety on its square) into HIDDEN rectified units, plus a linear skip
 * from the inputs, trained by stochastic gradient with weight decay (seeded).
 *
 *   node bin/run-ts.js research/relation-mlp.ts --db RUN.db [--hidden 32] [--squares] [--seed 1]
 */
import { Command } from 'commander';
import { PatternStore } from '../src/store/patternStore.ts';
import { boardFromFen, WHITE } from '../src/chess/board.ts';
import { relationFeatures, relationGraph, MAX_RELATION_FEATURES, RELATION_TERM_FEATURES } from '../src/eval/relationTerms.ts';
import { storedRelationLessons } from '../src/learn/relationLearning.ts';
import { chosenRidge, rmsError, sparseDesign, type SparseRow } from './ridge.ts';
import { Random } from '../src/util/random.ts';

const opts = new Command()
  .requiredOption('--db <file>', 'a training database with kept relation lessons')
  .option('--clip <x>', 'the gap counts at most this many log-odds', Number, 0.5)
  .option('--hidden <n>', 'hidden units', Number, 32)
  .option('--squares', "add each piece's label and safety on its square (as the side that just moved sees it)")
  .option('--epochs <n>', 'at most this many passes', Number, 40)
  .option('--rate <x>', 'learning rate', Number, 0.003)
  .option('--decay <x>', 'weight decay per step', Number, 1e-6)
  .option('--seed <n>', 'seed', Number, 1)
  .parse()
  .opts<{ db: string; clip: number; hidden: number; squares?: boolean; epochs: number; rate: number; decay: number; seed: number }>();

const store = PatternStore.open(opts.db, { readonly: true });
const lessons = [...storedRelationLessons(store.db)];
store.close();
const INPUTS = RELATION_TERM_FEATURES + (opts.squares ? 12 * 3 * 64 : 0);
const scratch = new Uint16Array(MAX_RELATION_FEATURES);
const rowsOf = lessons.map((l) => {
  const board = boardFromFen(l.fen);
  const counts = new Map<number, number>();
  const n = relationFeatures(board, scratch);
  for (let i = 0; i < n; i++) counts.set(scratch[i], (counts.get(scratch[i]) ?? 0) + 1);
  if (opts.squares) {
    const g = relationGraph(board);
    const flip = board.turn === WHITE ? 56 : 0;
    for (let sq = 0; sq < 64; sq++) if (board.squares[sq] !== 0) counts.set(RELATION_TERM_FEATURES + (g.label[sq] * 3 + g.safety[sq]) * 64 + (sq ^ flip), 1);
  }
  return { index: Uint16Array.from(counts.keys()), count: Float64Array.from(counts.values()) };
});
const clip = (x: number) => Math.max(-opts.clip, Math.min(opts.clip, x));
const y = lessons.map((l) => clip(l.target - l.settled));
const gameOf = lessons.map((l) => l.game);
const games = [...new Set(gameOf)].sort((a, b) => a - b);
const cut = (share: number) => games[Math.min(games.length - 1, Math.floor(share * games.length))];
const split = (from: number, to: number) => lessons.map((_, i) => i).filter((i) => gameOf[i] >= cut(from) && (to >= 1 || gameOf[i] < cut(to)));
const held = split(0.9, 1);
const heldMean = held.reduce((s, i) => s + y[i], 0) / held.length;
const heldVariance = held.reduce((s, i) => s + (y[i] - heldMean) ** 2, 0) / held.length;
console.log(`${lessons.length} lessons of ${games.length} games; ${INPUTS} inputs, ${opts.hidden} hidden units`);

const H = opts.hidden;
class Network {
  readonly w1 = new Float64Array(INPUTS * H);
  readonly b1 = new Float64Array(H);
  readonly w2 = new Float64Array(H);
  readonly skip = new Float64Array(INPUTS);
  b2 = 0;
  private readonly h = new Float64Array(H);
  constructor(rng: Random) {
    for (let i = 0; i < this.w1.length; i++) this.w1[i] = (rng.next() - 0.5) * 0.1;
    for (let j = 0; j < H; j++) this.w2[j] = (rng.next() - 0.5) * 0.1;
  }
  predict(r: number): number {
    const { index, count } = rowsOf[r];
    let out = this.b2;
    this.h.set(this.b1);
    for (let k = 0; k < index.length; k++) {
      const base = index[k] * H;
      const c = count[k];
      out += c * this.skip[index[k]];
      for (let j = 0; j < H; j++) this.h[j] += c * this.w1[base + j];
    }
    for (let j = 0; j < H; j++) if (this.h[j] > 0) out += this.w2[j] * this.h[j];
    return out;
  }
  step(r: number, rate: number, decay: number): void {
    const error = this.predict(r) - y[r];
    const { index, count } = rowsOf[r];
    this.b2 -= rate * error;
    for (let j = 0; j < H; j++) {
      if (this.h[j] <= 0) continue;
      const back = error * this.w2[j];
      this.w2[j] -= rate * (error * this.h[j] + decay * this.w2[j]);
      this.b1[j] -= rate * back;
      for (let k = 0; k < index.length; k++) {
        const at = index[k] * H + j;
        this.w1[at] -= rate * (back * count[k] + decay * this.w1[at]);
      }
    }
    for (let k = 0; k < index.length; k++) this.skip[index[k]] -= rate * (error * count[k] + decay * this.skip[index[k]]);
  }
  mse(indices: number[]): number {
    return indices.reduce((s, i) => s + (this.predict(i) - y[i]) ** 2, 0) / indices.length;
  }
}

const sparseRow = (r: number): SparseRow => new Map(Array.from(rowsOf[r].index, (f, k) => [String(f), rowsOf[r].count[k]]));
for (const share of [0.2, 0.4, 0.8]) {
  const fit = split(0, share * 0.875);
  const stop = split(share * 0.875, share);
  const part = (indices: number[]) => ({ rows: indices.map(sparseRow), y: indices.map((i) => y[i]) });
  const ridge = chosenRidge(part(fit), part(stop), [3, 30, 300, 3000]);
  const test = part(held);
  const ridgeR2 = 1 - rmsError(sparseDesign(test.rows, ridge.design), ridge.weights, test.y) ** 2 / heldVariance;
  const rng = new Random(opts.seed);
  const net = new Network(rng);
  let best = Infinity;
  let bestHeld = 0;
  let bestEpoch = 0;
  const order = [...fit];
  for (let epoch = 1; epoch <= opts.epochs; epoch++) {
    rng.shuffle(order);
    for (const r of order) net.step(r, opts.rate, opts.decay);
    const stopMse = net.mse(stop);
    if (stopMse < best) {
      best = stopMse;
      bestHeld = 1 - net.mse(held) / heldVariance;
      bestEpoch = epoch;
    } else if (epoch - bestEpoch >= 4) break;
  }
  console.log(`${Math.round(share * 100)}% (${fit.length} lessons): ridge R2 ${ridgeR2.toFixed(3)} (lambda ${ridge.lambda}); network R2 ${bestHeld.toFixed(3)} (epoch ${bestEpoch})`);
}
