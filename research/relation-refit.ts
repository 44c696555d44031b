/**
 * Refits a database's relation terms by ridge from the lessons it keeps (table relation_lessons) and writes them
 * in its meta: to compare, on the same lessons, the weights a run's learner left (for example the AdaGrad learner
 * before ridge, research/adagrad-relation-learner.ts) with the exact fit, in move quality and in games.
 *
 * With --fill-static, lessons kept before schema v8 (no static material) first get it, computed from their FEN with
 * the database's piece values as they are now, so that the static terms (the one-ply material player's) are fitted too.
 *
 *   node bin/run-ts.js research/relation-refit.ts --db COPY.db [--penalty 300] [--fill-static] [--dry-run]
 */
import { Command } from 'commander';
import { PatternStore } from '../src/store/patternStore.ts';
import { DEFAULT_RELATION_LEARNING, loadRelationLearner, saveRelationLearner } from '../src/learn/relationLearning.ts';
import { storedRelationWeights, strongestRelationWeights } from '../src/eval/relationTerms.ts';
import { databasePieceValues, materialEvaluation } from '../src/eval/evaluate.ts';
import { evaluationSettings, loadConfig } from '../src/learn/config.ts';
import { scaledValue } from '../src/player/morphPlayer.ts';
import { boardFromFen } from '../src/chess/board.ts';
import { stmt } from '../src/store/statements.ts';

const opts = new Command()
  .requiredOption('--db <file>', 'the database (changed in place unless --dry-run: use a copy)')
  .option('--penalty <x>', 'the ridge penalty', Number, DEFAULT_RELATION_LEARNING.penalty)
  .option('--fill-static', "first give lessons without static material theirs, by the database's piece values now")
  .option('--dry-run', 'print the comparison, write nothing')
  .parse()
  .opts<{ db: string; penalty: number; fillStatic?: boolean; dryRun?: boolean }>();

const store = PatternStore.open(opts.db, { readonly: !!opts.dryRun });
if (opts.fillStatic && !opts.dryRun) {
  const config = loadConfig(store.db);
  const evaluation = evaluationSettings(config);
  const pieceValues = databasePieceValues(store);
  const missing = stmt(store.db, 'SELECT id, fen FROM relation_lessons WHERE static IS NULL').all() as { id: number; fen: string }[];
  const update = stmt(store.db, 'UPDATE relation_lessons SET static = ? WHERE id = ?');
  store.db.transaction(() => {
    for (const { id, fen } of missing) {
      update.run(scaledValue(materialEvaluation(store, boardFromFen(fen), config.maturity, evaluation, pieceValues).value, 'log-odds'), id);
    }
  })();
  console.error(`static material given to ${missing.length} lessons`);
}
const before = storedRelationWeights(store.db);
const learner = loadRelationLearner(store.db, { ...DEFAULT_RELATION_LEARNING, penalty: opts.penalty });
const norm = (w: ArrayLike<number>) => Math.hypot(...Array.from(w));
const correlation = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let ab = 0, aa = 0, bb = 0;
  for (let i = 0; i < a.length; i++) (ab += a[i] * b[i]), (aa += a[i] ** 2), (bb += b[i] ** 2);
  return ab / Math.sqrt(aa * bb);
};
console.log(JSON.stringify({
  lessons: learner.lessons, staticLessons: learner.staticLessons, penalty: opts.penalty, bias: Number(learner.bias.toFixed(4)),
  staticBias: Number(learner.staticBias.toFixed(4)), staticNorm: Number(norm(learner.staticWeights).toFixed(4)),
  refitNorm: Number(norm(learner.weights).toFixed(4)),
  storedNorm: before ? Number(norm(before).toFixed(4)) : null,
  correlation: before ? Number(correlation(before, learner.weights).toFixed(3)) : null,
  strongest: strongestRelationWeights(learner.weights, 6).map(({ pattern, weight }) => `${pattern} ${weight.toFixed(3)}`),
}));
if (!opts.dryRun) store.db.transaction(() => saveRelationLearner(store.db, learner))();
store.close();
