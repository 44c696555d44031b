import { boardFromFen } from '../../src/chess/board.ts';
import { evaluateBoard } from '../../src/engines/alphabeta.ts';
import { PIECE_VALUE } from '../../src/chess/pieceValues.ts';
import { SQUARE_VALUES, squareValueIndex } from '../../src/eval/squareValues.ts';

/**
 * Square values read off ab:2,q's own static evaluation (engines/alphabeta.ts), in pawns: a lone White piece on
 * each square, less the textbook value of the piece (a king's constant cancels, each side having one).
 */
export function alphaBetaSquareValues(): number[] {
  const values = new Array<number>(SQUARE_VALUES).fill(0);
  for (let type = 1; type <= 6; type++) {
    for (let sq = 0; sq < 64; sq++) {
      const board = boardFromFen('8/8/8/8/8/8/8/8 w - - 0 1');
      board.squares[sq] = type;
      values[squareValueIndex(type, sq)] = evaluateBoard(board) / 100 - PIECE_VALUE[type];
    }
  }
  return values;
}
