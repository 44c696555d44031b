/**
 * Whether a board describes a position that can arise in chess, checked as chessops' `Chess.fromSetup` does and
 * answered as a value (a sanitised board or the problem found), so each caller decides how to report it.
 *
 * Refused: a side without exactly one king, the side not to move in check (adjacent kings included), more than
 * 16 pieces or 8 pawns on a side, more promoted pieces than missing pawns, pawns on the first or last rank.
 * Dropped, as chessops does: castling rights whose king or rook is not on its home square, and an en-passant
 * square with no pawn that could just have made the double step (so the FEN says what the position allows).
 */
import {
  BISHOP, BLACK, CASTLE_BK, CASTLE_BQ, CASTLE_WK, CASTLE_WQ, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE, cloneBoard,
  rankOf, type Board,
} from './board.ts';
import { isSquareAttacked } from './movegen.ts';

export type PositionError =
  | 'kings'
  | 'opposite-check'
  | 'too-many-pieces'
  | 'too-many-pawns'
  | 'too-many-promoted'
  | 'pawns-on-back-rank';

export const POSITION_ERROR_TEXT: Record<PositionError, string> = {
  kings: 'each side needs exactly one king',
  'opposite-check': 'the side not to move is in check',
  'too-many-pieces': 'a side has more than 16 pieces',
  'too-many-pawns': 'a side has more than 8 pawns',
  'too-many-promoted': 'a side has more promoted pieces than missing pawns',
  'pawns-on-back-rank': 'a pawn stands on the first or last rank',
};

export type SetupResult = { ok: true; board: Board } | { ok: false; error: PositionError };

/** Pieces of each kind a side starts with: any beyond these must have been promoted pawns. */
const START_COUNT = [0, 8, 2, 2, 2, 1, 1];

/** Checks `board`; on success returns a copy with impossible castling rights and en-passant square dropped. */
export function validateSetup(board: Board): SetupResult {
  const squares = board.squares;
  for (const side of [1, -1]) {
    const count = [0, 0, 0, 0, 0, 0, 0];
    let total = 0;
    for (let sq = 0; sq < 64; sq++) {
      const piece = squares[sq] * side;
      if (piece <= 0) continue;
      count[piece]++;
      total++;
      if (piece === PAWN && (rankOf(sq) === 0 || rankOf(sq) === 7)) return { ok: false, error: 'pawns-on-back-rank' };
    }
    if (count[KING] !== 1) return { ok: false, error: 'kings' };
    if (total > 16) return { ok: false, error: 'too-many-pieces' };
    if (count[PAWN] > 8) return { ok: false, error: 'too-many-pawns' };
    let promoted = 0;
    for (const type of [KNIGHT, BISHOP, ROOK, QUEEN]) promoted += Math.max(0, count[type] - START_COUNT[type]);
    if (promoted > 8 - count[PAWN]) return { ok: false, error: 'too-many-promoted' };
  }
  const notToMove = board.turn === WHITE ? -KING : KING;
  const king = squares.indexOf(notToMove);
  if (isSquareAttacked(squares, king, board.turn === WHITE)) return { ok: false, error: 'opposite-check' };

  const sanitised = cloneBoard(board);
  sanitised.castling = board.castling & possibleCastling(squares);
  if (board.epSquare >= 0 && !possibleEpSquare(board)) sanitised.epSquare = -1;
  return { ok: true, board: sanitised };
}

/** Castling rights whose king and rook still stand on their home squares. */
function possibleCastling(squares: Int8Array): number {
  let rights = 0;
  if (squares[4] === KING) {
    if (squares[7] === ROOK) rights |= CASTLE_WK;
    if (squares[0] === ROOK) rights |= CASTLE_WQ;
  }
  if (squares[60] === -KING) {
    if (squares[63] === -ROOK) rights |= CASTLE_BK;
    if (squares[56] === -ROOK) rights |= CASTLE_BQ;
  }
  return rights;
}

/**
 * An en-passant square makes sense only on the right rank for the side to move, empty, with the square the pawn
 * came from empty and the pawn of the side that just moved standing just beyond it.
 */
function possibleEpSquare(board: Board): boolean {
  const ep = board.epSquare;
  const toMoveIsWhite = board.turn === WHITE;
  if (rankOf(ep) !== (toMoveIsWhite ? 5 : 2)) return false;
  const pawnAt = toMoveIsWhite ? ep - 8 : ep + 8;
  const cameFrom = toMoveIsWhite ? ep + 8 : ep - 8;
  const theirPawn = board.turn === BLACK ? PAWN : -PAWN;
  return board.squares[ep] === 0 && board.squares[cameFrom] === 0 && board.squares[pawnAt] === theirPawn;
}
