/**
 * How far Morph looks before judging a move.
 *
 * - one-ply:  the paper's player. Every legal move's position is valued by its patterns, nothing more.
 * - captures: one ply, then the opponent's captures. A move is worth the least of its own position's value
 *             and the value, for the mover, of each position an opponent capture leads to. The opponent may
 *             also decline to capture, so the position's own value bounds it from above (a "stand pat", as in
 *             a quiescence search one capture deep).
 *
 * - captures-mates: captures, and then every other reply too, for one that mates at once: a move that allows
 *             a mate in one is worth 0, as a move that mates is worth 1.
 *
 * Why captures: nine in ten of the one-ply player's blunders left a piece to be taken (training/RESULTS.md).
 * The one-ply player sees the position before the capture, where material is still level and only patterns
 * such as "queen en prise" hint at the loss. After the capture its material patterns see the loss itself.
 * A capture is a rule of the game, not chess knowledge: the values are still all learned.
 */
import { applyMove, cloneBoard, PAWN, uciMove, type Board, type CompactMove } from '../chess/board.ts';
import { gameEnd, type GameEnd } from '../chess/gameEnd.ts';
import { generateLegalMoves, hasLegalMove, isInCheck } from '../chess/movegen.ts';

export const SEARCH_MODES = ['one-ply', 'captures', 'captures-mates'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** How far an opponent model looks (src/model): its look is fitted to captures, so no mates look. */
export const MODEL_SEARCH_MODES = ['one-ply', 'captures'] as const;
export type ModelSearchMode = (typeof MODEL_SEARCH_MODES)[number];

/** Whether a search mode looks at the opponent's captures. */
export const looksAtCaptures = (search: SearchMode): boolean => search !== 'one-ply';

/** True when the move takes a piece (en passant included). */
export function isCapture(board: Board, move: CompactMove): boolean {
  if (board.squares[move.to] !== 0) return true;
  return move.to === board.epSquare && Math.abs(board.squares[move.from]) === PAWN;
}

/** The opponent's capture that sets a move's value. */
export interface Refutation {
  move: string;
  /** The value for the side that made the move being judged. */
  value: number;
  source: GameEnd | 'patterns';
}

/**
 * The opponent capture that leaves the side that just moved worse off than `standPat`, the worst of them, or
 * undefined when no capture does. `valueForMover(board)` values a position after a capture for the side that
 * made the capture (the side that just moved there), as the one-ply player values its own successors.
 */
export function worstCaptureReply(
  position: Board,
  standPat: number,
  valueForMover: (after: Board) => number,
): Refutation | undefined {
  let worst: Refutation | undefined;
  let bound = standPat;
  const after = cloneBoard(position);
  for (const reply of generateLegalMoves(position)) {
    if (!isCapture(position, reply)) continue;
    applyMove(position, reply, after);
    // A capture changes the material, so the position after it cannot repeat an earlier one.
    const end = gameEnd(after, 1);
    const value = end === 'checkmate' ? 0 : end !== null ? 0.5 : 1 - valueForMover(after);
    if (value < bound) {
      bound = value;
      worst = { move: uciMove(reply), value, source: end ?? 'patterns' };
    }
  }
  return worst;
}

/** An opponent reply that mates at once (the first found), or undefined. */
export function matingReply(position: Board): string | undefined {
  const after = cloneBoard(position);
  for (const reply of generateLegalMoves(position)) {
    applyMove(position, reply, after);
    if (isInCheck(after) && !hasLegalMove(after)) return uciMove(reply);
  }
  return undefined;
}
