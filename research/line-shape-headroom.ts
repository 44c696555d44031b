/**
 * Would a line of another shape help a model predict an engine? (issue 14; an experiment, 2026-12-03 night.) A
 * model's two-ply line (opponentModel.ts twoPlyLine) ends in the mover's captures, each side free to stop: the
 * quiescence of a classical search. js-chess-engine at level 2 searches two plies and stops, with no quiescence
 * (one ply more after a check). This asks whether that shape would pay (research/headroom.ts): beside the model's
 * score, the balance of the same two plies at the model's own piece and square values with no captures after the
 * reply, and that balance with a third ply (the mover's best move, any) after a move that checks; and, for players
 * that search one ply, the balance after the opponent's captures alone (a quiescence after the move).
 *
 *   node bin/run-ts.js research/line-shape-headroom.ts MODEL.db TRAIN.pgn HELD_OUT.pgn PLAYER [TRAIN_DECISIONS]
 */
import { applyMove, cloneBoard, type Board } from '../src/chess/board.ts';
import { generateLegalMoves, isInCheck } from '../src/chess/movegen.ts';
import { learnedLogOdds, OpponentModel, scoreOfWeight, weightOfScore } from '../src/model/opponentModel.ts';
import { bestReplyLine, QUIESCENCE, worstCaptureReply } from '../src/search/search.ts';
import { runHeadroom } from './headroom.ts';

const [modelPath] = process.argv.slice(2);
const settle = OpponentModel.open(modelPath ?? '').material?.settle;
if (!settle) throw new Error(`${modelPath}: not a model with material settled or two-ply`);
const valueForMover = (after: Board) => weightOfScore(learnedLogOdds(after, settle.values, settle.squareValues));
const NO_CAPTURES = { depth: 0, promotions: false };

/** The mover's value of a two-ply line with no quiescence: the worst static value the opponent's replies leave. */
const plainLine = (after: Board): number => bestReplyLine(after, valueForMover, NO_CAPTURES).value;

/** The side to move's best one-ply value (0 when it is mated, .5 when stalemated). */
function bestMove(position: Board): number {
  const next = cloneBoard(position);
  let best = -Infinity;
  for (const move of generateLegalMoves(position)) {
    applyMove(position, move, next);
    best = Math.max(best, valueForMover(next));
  }
  return best === -Infinity ? (isInCheck(position) ? 0 : 0.5) : best;
}

/** After a move that checks, one ply more: each reply answered by the mover's best move, valued statically. */
function checkExtended(after: Board): number {
  if (!isInCheck(after)) return plainLine(after);
  const replied = cloneBoard(after);
  let worst = Infinity;
  for (const reply of generateLegalMoves(after)) {
    applyMove(after, reply, replied);
    worst = Math.min(worst, bestMove(replied));
  }
  return worst === Infinity ? 1 : worst;
}

/** One ply and the opponent's captures, each side free to stop: the line of a player searching one ply with a quiescence. */
function settledLine(after: Board): number {
  const standing = valueForMover(after);
  return worstCaptureReply(after, standing, valueForMover, QUIESCENCE)?.value ?? standing;
}

runHeadroom(
  'line-shape-headroom.ts',
  {
    names: ['two plies, no quiescence', 'the same, a ply more after a check', 'one ply and a quiescence'],
    features: (_before, after) => [scoreOfWeight(plainLine(after)), scoreOfWeight(checkExtended(after)), scoreOfWeight(settledLine(after))],
    fits: [[1], [2], [3]],
  },
  process.argv.slice(2),
);
