/**
 * Would mobility help a model predict an engine? (issue 14; an experiment, 2026-11-29.) A classical engine's
 * evaluation counts how freely its pieces move; a model's does not. Before building that into a model, this
 * asks whether it would pay (training/headroom.ts): two counts in the position a move leads to, the mover's legal
 * moves (as if it moved again) and its opponent's, each over 10.
 *
 *   node bin/run-ts.js training/mobility-headroom.ts MODEL.db TRAIN.pgn HELD_OUT.pgn PLAYER [TRAIN_DECISIONS]
 */
import { BLACK, cloneBoard, WHITE } from '../src/chess/board.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { runHeadroom } from './headroom.ts';

runHeadroom(
  'mobility-headroom.ts',
  {
    names: ['own moves / 10', "opponent's moves / 10"],
    features: (_before, after) => {
      const again = cloneBoard(after);
      again.turn = after.turn === WHITE ? BLACK : WHITE;
      again.epSquare = -1;
      return [generateLegalMoves(again).length / 10, generateLegalMoves(after).length / 10];
    },
    fits: [[1], [2], [1, 2]],
  },
  process.argv.slice(2),
);
