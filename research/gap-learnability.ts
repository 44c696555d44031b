/**
 * Experiment (issue 69, "the signal", after TreeStrap): is the gap between a position's capture-settled material and
 * the play search's value of it learnable from static features at all, and from which? Three signals (TD-Leaf, the
 * partner's choices, TreeStrap) gave graph-pattern terms learned by SGD that explain about 1% of it out of sample.
 * If a least-squares fit (ridge, solved exactly, its penalty chosen on held-out games) of the same features does no
 * better, the features and not the learner are the limit; richer features in the same graph language (each a one-
 * or two-node pattern) say whether the language can carry it when the right patterns exist; features that look one
 * ply ahead (outside a static evaluation) say how much of the gap any static evaluation could hope to carry.
 *
 * Input: the targets research/treestrap-terms.ts saves (--save; roots, with each position's FEN). The value learned:
 * the gap, target minus settled, in log-odds for the side that just moved, clipped at --clip (as there).
 * Feature sets (counts; each fit has a constant too):
 *   patterns: one per graph pattern of the database among the position's most-specific matches (every one, not the
 *     bounded read of 64);
 *   every (with --db): one per graph pattern that matches, the general ones under the most specific included;
 *   small (with --db): the same, patterns of at most two nodes only;
 *   census: one per (side, piece, safety), the one-node patterns of the safety language (36);
 *   relations: one per direct edge's (attacker's label, target's label, target's safety), two-node patterns (432);
 *   lookahead: the side to move's checks, captures of an en-prise piece, and quiet moves after which two or more of
 *     the other side's pieces are en prise, and the same for the side that moved as if it were to move again (6;
 *     not static: each needs the moves played).
 * Games split by order: the first 80% fit, the next 10% choose the penalty, then refit on 90% and report the last 10%.
 *
 *   node bin/run-ts.js research/gap-learnability.ts --load out/treestrap-terms/roots-fen-200.jsonl [--clip 0.5]
 */
import { Command } from 'commander';
import { applyMove, boardFromFen, cloneBoard, type Board } from '../src/chess/board.ts';
import { generateLegalMoves, isInCheck } from '../src/chess/movegen.ts';
import { buildPositionGraph, PositionGraph } from '../src/graph/positionGraph.ts';
import { SAFETY_EN_PRISE, labelSide } from '../src/graph/labels.ts';
import { CENSUS_FEATURES, forEachRelationFeature } from '../src/eval/relationTerms.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { rootsWithFen } from './term-samples.ts';
import { chosenRidge, rmsError, sparseDesign, type SparseRow } from './ridge.ts';

const program = new Command()
  .requiredOption('--load <file>', 'targets saved by treestrap-terms.ts --save (with FENs)')
  .option('--clip <x>', 'the gap counts at most this many log-odds', Number, 0.5)
  .option('--db <file>', 'the database the targets came from: adds the every-match feature sets')
  .parse();
const opts = program.opts();

const samples = rootsWithFen([opts.load]);
const clip = (x: number) => Math.max(-opts.clip, Math.min(opts.clip, x));
const gaps = samples.map((s) => clip(s.target - s.settled));

type Row = SparseRow;
const bump = (row: Row, key: string, by = 1) => row.set(key, (row.get(key) ?? 0) + by);

const graph = new PositionGraph();
/** The small patterns of src/eval/relationTerms.ts: one-node (census) or two-node (relations). */
function smallPatterns(board: Board, row: Row, twoNode: boolean): void {
  forEachRelationFeature(board, (feature) => {
    if ((feature >= CENSUS_FEATURES) === twoNode) bump(row, `f${feature}`);
  });
}
/** How many of the pieces of the side that did not make the last move on `after` are en prise. */
function enPriseOfMover(after: Board): number {
  buildPositionGraph(after, graph);
  let count = 0;
  // After the move, the side that just moved is normal-form "moved"; its opponent's pieces are "toMove".
  for (let v = 0; v < graph.nodeCount; v++) if (labelSide(graph.nodeLabel[v]) === 'toMove' && graph.nodeSafety[v] === SAFETY_EN_PRISE) count++;
  return count;
}
function lookahead(board: Board, row: Row): void {
  const sides: [string, Board][] = [['toMove', board]];
  // The side that just moved, as if it were to move again (its threats); not when that would leave a king in check.
  const again = cloneBoard(board);
  again.turn = board.turn === 0 ? 1 : 0;
  again.epSquare = -1;
  if (!isInCheck(board)) sides.push(['moved', again]);
  const after = cloneBoard(board);
  for (const [side, from] of sides) {
    for (const move of generateLegalMoves(from)) {
      const capture = from.squares[move.to] !== 0;
      applyMove(from, move, after);
      if (isInCheck(after)) bump(row, `l${side}:check`);
      const enPrise = enPriseOfMover(after);
      if (capture) bump(row, `l${side}:capture`);
      else if (enPrise >= 2) bump(row, `l${side}:fork`);
    }
  }
}

const started = performance.now();
const boards = samples.map((s) => boardFromFen(s.fen));
const featureSets: Record<string, (i: number, row: Row) => void> = {
  patterns: (i, row) => samples[i].ids.forEach((id) => bump(row, `p${id}`)),
  census: (i, row) => smallPatterns(boards[i], row, false),
  relations: (i, row) => smallPatterns(boards[i], row, true),
  lookahead: (i, row) => lookahead(boards[i], row),
};
if (opts.db) {
  const store = PatternStore.open(opts.db, { readonly: true });
  const every = boards.map((board) => store.everyGraphMatch(buildPositionGraph(board, graph)).filter((r) => r.kind === 'graph'));
  featureSets.every = (i, row) => every[i].forEach((r) => bump(row, `p${r.id}`));
  featureSets.small = (i, row) => every[i].forEach((r) => r.size <= 2 && bump(row, `p${r.id}`));
  store.close();
}
const rowsOf: Record<string, Row[]> = {};
for (const [name, add] of Object.entries(featureSets)) {
  rowsOf[name] = samples.map((_, i) => {
    const row: Row = new Map();
    add(i, row);
    return row;
  });
}
console.error(`${samples.length} roots, features in ${((performance.now() - started) / 1000).toFixed(0)} s`);

const gameCount = samples.reduce((most, s) => Math.max(most, s.game + 1), 0);
const byGames = (from: number, to: number) => samples.map((s, i) => [s, i] as const).filter(([s]) => s.game >= from * gameCount && s.game < to * gameCount).map(([, i]) => i);
const fitRows = byGames(0, 0.8);
const chooseRows = byGames(0.8, 0.9);
const refitRows = [...fitRows, ...chooseRows];
const testRows = byGames(0.9, 1.01);
const meanGap = refitRows.reduce((s, i) => s + gaps[i], 0) / refitRows.length;
const testTotal = testRows.reduce((s, i) => s + (gaps[i] - meanGap) ** 2, 0);
console.log(JSON.stringify({
  load: opts.load, clip: opts.clip, roots: samples.length, games: gameCount, test: testRows.length,
  changed: gaps.filter((g) => Math.abs(g) > 1e-6).length / gaps.length,
  testRmsSettledAlone: Math.sqrt(testRows.reduce((s, i) => s + gaps[i] ** 2, 0) / testRows.length),
  testRmsMean: Math.sqrt(testTotal / testRows.length),
}));
const combinations = [['patterns'], ...(opts.db ? [['every'], ['small'], ['every', 'census', 'relations']] : []), ['census'], ['relations'], ['census', 'relations'], ['patterns', 'census', 'relations'], ['lookahead'], ['census', 'relations', 'lookahead'], ['patterns', 'census', 'relations', 'lookahead']];
for (const sets of combinations) {
  const t0 = performance.now();
  /** Row i's features of the chosen sets, in one map (keys differ between sets). */
  const rowOf = (i: number): SparseRow => new Map(sets.flatMap((set) => [...rowsOf[set][i]]));
  const part = (rows: number[]) => ({ rows: rows.map(rowOf), y: rows.map((i) => gaps[i]) });
  const fitted = chosenRidge(part(fitRows), part(chooseRows));
  const test = part(testRows);
  const testRms = rmsError(sparseDesign(test.rows, fitted.design), fitted.weights, test.y);
  console.log(JSON.stringify({
    features: sets.join('+'), count: fitted.design.features, lambda: fitted.lambda, choices: fitted.choices.map((c) => `${c.lambda}:${c.rms.toFixed(4)}`).join(' '),
    testRms, testR2: 1 - (testRms * testRms * testRows.length) / testTotal,
    trainRms: rmsError(fitted.design, fitted.weights, part(refitRows).y), seconds: Math.round((performance.now() - t0) / 1000),
  }));
}
