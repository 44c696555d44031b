/**
 * Would mobility help a model predict an engine? (issue 14; an experiment, 2026-11-29.) A classical engine's
 * evaluation counts how freely its pieces move; a model's does not. Before building that into a model, this
 * asks whether it would pay: each legal move gets the model's own score and two counts in the position it
 * leads to, the mover's legal moves (as if it moved again) and its opponent's, each over 10. A conditional
 * logit on those three features is fitted on an even sample of the training decisions and its top-1 (ties at
 * their expectation) measured on every held-out decision, beside the model's score alone.
 *
 *   node bin/run-ts.js training/mobility-headroom.ts MODEL.db TRAIN.pgn HELD_OUT.pgn PLAYER [TRAIN_DECISIONS]
 */
import { applyMove, BLACK, cloneBoard, parseUciMove, WHITE } from '../src/chess/board.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { conditionalLogit, sparseRow } from '../src/model/choiceEvaluation.ts';
import { decisionHistories, playerDecisions, readPgnText } from '../src/model/decisions.ts';
import { OpponentModel } from '../src/model/opponentModel.ts';

const [modelPath, trainPgn, heldOutPgn, player, trainDecisions = '1500'] = process.argv.slice(2);
if (player === undefined) throw new Error('usage: mobility-headroom.ts MODEL.db TRAIN.pgn HELD_OUT.pgn PLAYER [TRAIN_DECISIONS]');
const model = OpponentModel.open(modelPath);
const FEATURES = ['model score', 'own moves / 10', "opponent's moves / 10"];

interface Decided {
  features: Float64Array[];
  chosen: number;
}

function decided(pgn: string, limit: number): Decided[] {
  const all = playerDecisions(readPgnText(pgn), player, pgn).decisions;
  const step = Math.max(1, Math.floor(all.length / limit));
  const sample = all.filter((_, i) => i % step === 0).slice(0, limit);
  const out: Decided[] = [];
  for (const [decision, history] of decisionHistories(sample)) {
    const ranked = model.rank(history);
    if (ranked.length < 2) continue;
    const board = history.board;
    const next = cloneBoard(board);
    const features = ranked.map((scored) => {
      applyMove(board, parseUciMove(scored.move)!, next);
      const opponentMoves = generateLegalMoves(next).length;
      const again = cloneBoard(next);
      again.turn = next.turn === WHITE ? BLACK : WHITE;
      again.epSquare = -1;
      return Float64Array.of(scored.score, generateLegalMoves(again).length / 10, opponentMoves / 10);
    });
    out.push({ features, chosen: ranked.findIndex((m) => m.move === decision.chosen) });
  }
  return out;
}

const train = decided(trainPgn, Number(trainDecisions));
const heldOut = decided(heldOutPgn, Infinity);
const fit = (columns: number[]) =>
  conditionalLogit(
    train.map((d) => d.features.map((f) => sparseRow(Float64Array.from(columns, (c) => f[c])))),
    train.map((d) => d.chosen),
    columns.length,
    0.01,
  );
const top1 = (columns: number[], weights: Float64Array): number => {
  let hits = 0;
  for (const d of heldOut) {
    const scores = d.features.map((f) => columns.reduce((sum, c, k) => sum + weights[k] * f[c], 0));
    const best = Math.max(...scores);
    const tied = scores.flatMap((s, i) => (s >= best - 1e-9 ? [i] : []));
    if (tied.includes(d.chosen)) hits += 1 / tied.length;
  }
  return hits / heldOut.length;
};
console.log(`${train.length} training decisions, ${heldOut.length} held out`);
for (const columns of [[0], [0, 1], [0, 2], [0, 1, 2]]) {
  const weights = fit(columns);
  const named = columns.map((c, k) => `${FEATURES[c]} ${weights[k].toFixed(3)}`).join(', ');
  console.log(`top-1 ${(100 * top1(columns, weights)).toFixed(1)}%  (${named})`);
}
model.close();
