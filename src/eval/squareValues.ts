/**
 * Square values: a value per piece type (P N B R Q K) and square, as the piece's own side sees the board, added to
 * a position's material log-odds, as an engine's piece-square tables are. Morph's are learned, never given: from
 * the choices of a player it has watched (src/model/choiceEvaluation.ts), its sparring partner by default.
 */
import { BLACK, KING, type Board } from '../chess/board.ts';

/** One per piece type and square. */
export const SQUARE_VALUES = 6 * 64;
/**
 * Tapered square values: a table for the opening and middlegame, then one for the endgame (SQUARE_VALUES each), a
 * piece counting their blend by the share of officers still on the board (officerShare), as engines taper their
 * piece-square tables by game phase.
 */
export const TAPERED_SQUARE_VALUES = 2 * SQUARE_VALUES;

/** Whether a table of square values has an endgame half (TAPERED_SQUARE_VALUES) or is one table for every phase. */
export const isTapered = (squareValues: ArrayLike<number>): boolean => squareValues.length === TAPERED_SQUARE_VALUES;

/** Knights, bishops, rooks and queens of both sides at the start. */
const OFFICERS_AT_START = 14;

/**
 * The game's phase as the share of officers (pieces other than pawns and kings) still on the board, 1 at the
 * start, 0 with none: a count of pieces, not of their worth, which Morph does not know. A promotion past the
 * start's number counts as 1.
 */
export function officerShare(board: Pick<Board, 'squares'>): number {
  let officers = 0;
  for (let sq = 0; sq < 64; sq++) if (isOfficer(board.squares[sq])) officers++;
  return shareOfOfficers(officers);
}

const shareOfOfficers = (officers: number): number => Math.min(1, officers / OFFICERS_AT_START);

/** A knight, bishop, rook or queen of either side. */
const isOfficer = (piece: number): boolean => piece !== 0 && Math.abs(piece) >= 2 && Math.abs(piece) <= 5;

/** A piece's index into square values: its type, and its square as its own side sees the board (Black mirrored). */
export const squareValueIndex = (piece: number, square: number): number =>
  piece > 0 ? (piece - 1) * 64 + square : (-piece - 1) * 64 + (square ^ 56);

/** 1 for a knight, bishop, rook or queen of either side, by signed piece code offset by KING. */
const IS_OFFICER = Uint8Array.from({ length: 2 * KING + 1 }, (_, code) => (isOfficer(code - KING) ? 1 : 0));

/** The square values of the pieces of the side that just moved into `board`, less its opponent's (tapered when the table is). */
export function squareLogOdds(board: Pick<Board, 'squares' | 'turn'>, squareValues: ArrayLike<number>): number {
  const squares = board.squares;
  const tapered = isTapered(squareValues);
  // White's pieces count for the side that just moved when Black is to move; Black's when White is.
  const whiteSign = board.turn === BLACK ? 1 : -1;
  // One pass: both tables' sums and the officers, blended at the end (the searches value many positions).
  let middlegame = 0;
  let endgame = 0;
  let officers = 0;
  for (let sq = 0; sq < 64; sq++) {
    const piece = squares[sq];
    if (piece === 0) continue;
    const k = squareValueIndex(piece, sq);
    const sign = piece > 0 ? whiteSign : -whiteSign;
    middlegame += sign * squareValues[k];
    if (!tapered) continue;
    endgame += sign * squareValues[SQUARE_VALUES + k];
    officers += IS_OFFICER[piece + KING];
  }
  if (!tapered) return middlegame;
  const share = shareOfOfficers(officers);
  return share * middlegame + (1 - share) * endgame;
}

/**
 * Square values with the piece values (P N B R Q) learned beside them, in the same units: a player's values are
 * read in another's units through the ratio of their piece values' sums.
 */
export interface LearnedSquares {
  values: number[];
  squareValues: number[];
}
