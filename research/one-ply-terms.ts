/**
 * Experiment (issue 69, "the 1-ply player learns tactics from patterns"): can the relation terms stand in for the
 * capture search? Fitted to the gap between the play search's value of a position and its *static* material (not
 * its capture-settled material, as training fits them), they must learn what a piece en prise or a piece attacked
 * by a lesser one costs. A one-ply player then values each move's position by static material plus those terms,
 * with no search at all, and is compared on the scored positions, paired, with 2-ply material alpha-beta
 * (the issue's bar), with static material alone, and with the training terms (fitted over settled material).
 *
 * The lessons are the database's kept relation lessons (schema v7); the static material is recomputed with the
 * database's piece values as they are now. Ridge (research/ridge.ts): fitted on the first 80% of the games, the
 * penalty chosen on the next 10%, held-out R2 on the last 10%, then refitted on all for the move-quality test.
 *
 *   node bin/run-ts.js research/one-ply-terms.ts --db RUN.db --positions positions/move-scores.jsonl [--clip 3]
 */
import { Command } from 'commander';
import { PatternStore } from '../src/store/patternStore.ts';
import { evaluationSettings, loadConfig } from '../src/learn/config.ts';
import { applyMove, boardFromFen, cloneBoard, uciMove, type Board } from '../src/chess/board.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { gameEnd } from '../src/chess/gameEnd.ts';
import { databasePieceValues, materialEvaluation } from '../src/eval/evaluate.ts';
import { forEachRelationFeature, relationLogOdds, RELATION_TERM_FEATURES, storedRelationWeights, strongestRelationWeights } from '../src/eval/relationTerms.ts';
import { storedRelationLessons } from '../src/learn/relationLearning.ts';
import { scaledValue } from '../src/player/morphPlayer.ts';
import { createRanker } from '../src/agree/rankers.ts';
import { readInputLines } from '../src/util/inputLines.ts';
import { parseLabelledPositions } from '../src/agree/positions.ts';
import { meanWithInterval, positionQuality, type MoveQuality } from '../src/agree/metrics.ts';
import { chosenRidge, rmsError, sparseDesign, type SparseRow } from './ridge.ts';

const program = new Command()
  .requiredOption('--db <file>', 'a training database with kept relation lessons')
  .requiredOption('--positions <file>', 'scored positions')
  .option('--clip <x>', 'the gap counts at most this many log-odds', Number, 3)
  .parse();
const opts = program.opts();

const store = PatternStore.open(opts.db, { readonly: true });
const config = loadConfig(store.db);
const evaluation = evaluationSettings(config);
const pieceValues = databasePieceValues(store);
const staticLogOdds = (board: Board, weights?: ArrayLike<number>) =>
  scaledValue(materialEvaluation(store, board, config.maturity, evaluation, pieceValues, undefined, weights).value, 'log-odds');

// The fit.
const lessons = [...storedRelationLessons(store.db)];
const clip = (x: number) => Math.max(-opts.clip, Math.min(opts.clip, x));
const rows: SparseRow[] = [];
const gaps: number[] = [];
for (const lesson of lessons) {
  const board = boardFromFen(lesson.fen);
  const row: SparseRow = new Map();
  forEachRelationFeature(board, (f) => row.set(`${f}`, (row.get(`${f}`) ?? 0) + 1));
  rows.push(row);
  gaps.push(clip(lesson.target - staticLogOdds(board)));
}
const games = [...new Set(lessons.map((l) => l.game))].sort((a, b) => a - b);
const cut = (share: number) => games[Math.min(games.length - 1, Math.floor(share * games.length))];
const part = (from: number, to: number) => {
  const indices = lessons.map((_, i) => i).filter((i) => lessons[i].game >= cut(from) && (to >= 1 || lessons[i].game < cut(to)));
  return { rows: indices.map((i) => rows[i]), y: indices.map((i) => gaps[i]) };
};
const lambdas = [1, 10, 100, 1000];
const held = part(0.9, 1);
const checked = chosenRidge(part(0, 0.8), part(0.8, 0.9), lambdas);
const heldMean = held.y.reduce((a, b) => a + b, 0) / held.y.length;
const heldSpread = Math.sqrt(held.y.reduce((s, y) => s + (y - heldMean) ** 2, 0) / held.y.length);
const heldR2 = 1 - (rmsError(sparseDesign(held.rows, checked.design), checked.weights, held.y) / heldSpread) ** 2;
const fitted = chosenRidge(part(0, 0.9), part(0.9, 1), [checked.lambda]);
const staticWeights = new Float64Array(RELATION_TERM_FEATURES);
for (const [key, k] of fitted.design.keys) if (key !== 'const') staticWeights[Number(key)] = fitted.weights[k];
console.error(`${lessons.length} lessons of ${games.length} games; gap over static material, clip ${opts.clip}: held-out R2 ${heldR2.toFixed(3)}, lambda ${checked.lambda}`);
console.error(`strongest: ${strongestRelationWeights(staticWeights, 8).map((w) => `${w.pattern} ${w.weight.toFixed(2)}`).join('; ')}`);

// The one-ply players: each move's position valued statically; a move that mates first, one that draws .5.
function oneply(weights: ArrayLike<number> | undefined) {
  return (fen: string) => {
    const board = boardFromFen(fen);
    const next = cloneBoard(board);
    return generateLegalMoves(board).map((move) => {
      applyMove(board, move, next);
      const end = gameEnd(next, 1);
      const value = end ? (end === 'checkmate' ? 100 : 0) : staticLogOdds(next, weights);
      return { move: uciMove(move), value };
    });
  };
}
const positions = parseLabelledPositions(readInputLines(opts.positions)).positions.filter((p) => p.scores);
const alphaBeta = createRanker('ab:2');
const players: [string, (fen: string) => { move: string; value: number }[]][] = [
  ['ab:2 (material alpha-beta, two plies)', (fen) => alphaBeta.score(fen)],
  ['one ply, static material', oneply(undefined)],
  ['one ply, static material + the training terms', oneply(storedRelationWeights(store.db))],
  ['one ply, static material + terms fitted over static material', oneply(staticWeights)],
];
const qualities: MoveQuality[][] = players.map(([, rank]) => positions.map((p) => positionQuality(rank(p.fen), p.scores!)));
alphaBeta.close();
store.close();
const f = (x: number) => x.toFixed(2);
console.log(JSON.stringify({
  db: opts.db, lessons: lessons.length, clip: opts.clip, lambda: checked.lambda, heldR2,
  players: players.map(([name], i) => {
    const loss = meanWithInterval(qualities[i].map((q) => q.meanLoss));
    const paired = meanWithInterval(qualities[i].map((q, j) => q.meanLoss - qualities[0][j].meanLoss));
    return { name, meanLoss: f(loss.mean), blunder: (qualities[i].reduce((s, q) => s + q.blunder, 0) / positions.length).toFixed(3), vsAlphaBeta: `${f(paired.mean)} [${paired.interval.map(f).join(', ')}]` };
  }),
}, null, 1));
