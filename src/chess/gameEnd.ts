/**
 * The one verdict on whether a game is over, used by the player (judging the position a move leads to), by
 * playGame and by the terminal game. The order matters only where two rules meet: a mate stands even on the
 * hundredth half-move.
 */
import type { Board } from './board.ts';
import { hasLegalMove, isInCheck, isInsufficientMaterial } from './movegen.ts';

export type GameEnd = 'checkmate' | 'stalemate' | 'insufficient' | 'threefold' | 'fifty-move';

/** Why the game is over in `board`, which has now occurred `occurrences` times (this time included), or null. */
export function gameEnd(board: Board, occurrences: number): GameEnd | null {
  if (!hasLegalMove(board)) return isInCheck(board) ? 'checkmate' : 'stalemate';
  if (isInsufficientMaterial(board.squares)) return 'insufficient';
  if (occurrences >= 3) return 'threefold';
  if (board.halfmoveClock >= 100) return 'fifty-move';
  return null;
}
