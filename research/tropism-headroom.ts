/**
 * Would king tropism help a model predict an engine? (issue 14; an experiment, run 2026-12-03 evening, as
 * development-headroom.ts asked of castling and development.) Some evaluations (PyChess's among them) reward
 * knights, rooks and queens near the opponent's king. Square values cannot say this: the square that is near the
 * king moves with the king. This asks whether it would pay (research/headroom.ts): for the mover's knights, rooks
 * and queens, the closeness 7 - (Chebyshev distance) to the opponent's king, summed by piece type, and the same of
 * the opponent's pieces to the mover's king, as the change the move makes.
 *
 *   node bin/run-ts.js research/tropism-headroom.ts MODEL.db TRAIN.pgn HELD_OUT.pgn PLAYER [TRAIN_DECISIONS]
 */
import { KING, KNIGHT, QUEEN, ROOK, WHITE, type Board } from '../src/chess/board.ts';
import { runHeadroom } from './headroom.ts';

const TYPES: readonly number[] = [KNIGHT, ROOK, QUEEN];

/** For the side `sign` (1 white, -1 black): each type's summed closeness to the other side's king. */
function closeness(board: Board, sign: number): number[] {
  const king = board.squares.findIndex((p) => p === -sign * KING);
  const sums = TYPES.map(() => 0);
  if (king < 0) return sums;
  for (let sq = 0; sq < 64; sq++) {
    const t = TYPES.indexOf(board.squares[sq] * sign);
    if (t < 0) continue;
    const distance = Math.max(Math.abs((sq >> 3) - (king >> 3)), Math.abs((sq & 7) - (king & 7)));
    sums[t] += 7 - distance;
  }
  return sums;
}

runHeadroom(
  'tropism-headroom.ts',
  {
    names: ['own knights near its king', 'own rooks near its king', 'own queens near its king', "opponent's pieces near own king"],
    features: (before, after) => {
      const sign = before.turn === WHITE ? 1 : -1;
      const ownBefore = closeness(before, sign);
      const own = closeness(after, sign).map((v, k) => v - ownBefore[k]);
      const total = (board: Board) => closeness(board, -sign).reduce((a, b) => a + b, 0);
      return [...own, total(after) - total(before)];
    },
    fits: [[1], [2], [3], [1, 2, 3], [4], [1, 2, 3, 4]],
  },
  process.argv.slice(2),
);
