/**
 * The textbook piece values (P 1, N 3, B 3, R 5, Q 9), in pawn units: for the baselines (greedy, alpha-beta)
 * and for displays such as a game's final material. Morph itself knows no piece values and never reads this
 * (test/importCycles.test.ts checks that its player and learner cannot reach this module).
 */
import type { Board } from './board.ts';

/** Pawn units by piece type (index 1..6 = P N B R Q K). */
export const PIECE_VALUE: readonly number[] = [0, 1, 3, 3, 5, 9, 0];

/** Material balance in pawn units from White's side. */
export function materialBalance(board: Board): number {
  let total = 0;
  for (const piece of board.squares) total += piece > 0 ? PIECE_VALUE[piece] : -PIECE_VALUE[-piece];
  return total;
}
