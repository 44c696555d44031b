/**
 * Square values: a value per piece type (P N B R Q K) and square, as the piece's own side sees the board, added to
 * a position's material log-odds, as an engine's piece-square tables are. Morph's are learned, never given: from
 * the choices of a player it has watched (src/model/choiceEvaluation.ts), its sparring partner by default.
 */
import { BLACK, type Board } from '../chess/board.ts';

/** One per piece type and square. */
export const SQUARE_VALUES = 6 * 64;

/** A piece's index into square values: its type, and its square as its own side sees the board (Black mirrored). */
export const squareValueIndex = (piece: number, square: number): number =>
  piece > 0 ? (piece - 1) * 64 + square : (-piece - 1) * 64 + (square ^ 56);

/** The square values of the pieces of the side that just moved into `board`, less its opponent's. */
export function squareLogOdds(board: Pick<Board, 'squares' | 'turn'>, squareValues: ArrayLike<number>): number {
  const whiteJustMoved = board.turn === BLACK;
  let score = 0;
  for (let sq = 0; sq < 64; sq++) {
    const piece = board.squares[sq];
    if (piece !== 0) score += piece > 0 === whiteJustMoved ? squareValues[squareValueIndex(piece, sq)] : -squareValues[squareValueIndex(piece, sq)];
  }
  return score;
}

/**
 * Square values with the piece values (P N B R Q) learned beside them, in the same units: a player's values are
 * read in another's units through the ratio of their piece values' sums.
 */
export interface LearnedSquares {
  values: number[];
  squareValues: number[];
}
