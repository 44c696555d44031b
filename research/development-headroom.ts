/**
 * Would castling and development help a model predict an engine? (issue 14; an experiment, run 2026-12-03, as
 * mobility-headroom.ts and pawn-headroom.ts asked of their features.) Many classical evaluations score the castling
 * rights a side keeps, whether it castled, an early queen while the minor pieces stay home, rooks on files without
 * their own pawns, and bishops hemmed in by their own pawns. Piece and square values cannot say these: a right lost
 * is not a square, and an early queen is one only beside the pieces still at home. This asks whether they would pay
 * (research/headroom.ts), for the mover's own pieces, as the change its move makes.
 *
 *   node bin/run-ts.js research/development-headroom.ts MODEL.db TRAIN.pgn HELD_OUT.pgn PLAYER [TRAIN_DECISIONS]
 */
import { BISHOP, CASTLE_BK, CASTLE_BQ, CASTLE_WK, CASTLE_WQ, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE, type Board } from '../src/chess/board.ts';
import { runHeadroom } from './headroom.ts';

/** One side's development terms: rights kept (both, one), castled, early queen, rooks on open files, bishops' own-colour pawns. */
function developmentTerms(board: Board, white: boolean, castledNow: boolean): number[] {
  const sign = white ? 1 : -1;
  const home = white ? 0 : 56;
  const rights = white ? [board.castling & CASTLE_WK, board.castling & CASTLE_WQ] : [board.castling & CASTLE_BK, board.castling & CASTLE_BQ];
  const kept = rights.filter((r) => r !== 0).length;
  const ownFiles = new Array(8).fill(0);
  const pawnsOnColour = [0, 0];
  for (let sq = 0; sq < 64; sq++) {
    if (board.squares[sq] !== sign * PAWN) continue;
    ownFiles[sq & 7]++;
    pawnsOnColour[((sq >> 3) + (sq & 7)) & 1]++;
  }
  let undeveloped = 0;
  for (const [piece, files] of [[KNIGHT, [1, 6]], [BISHOP, [2, 5]]] as const) {
    for (const f of files) if (board.squares[home + f] === sign * piece) undeveloped++;
  }
  const queenAway = board.squares[home + 3] !== sign * QUEEN && board.squares.some((p) => p === sign * QUEEN) ? 1 : 0;
  let openRooks = 0;
  let hemmed = 0;
  for (let sq = 0; sq < 64; sq++) {
    if (board.squares[sq] === sign * ROOK && ownFiles[sq & 7] === 0) openRooks++;
    if (board.squares[sq] === sign * BISHOP) hemmed += pawnsOnColour[((sq >> 3) + (sq & 7)) & 1] / 8;
  }
  return [kept === 2 ? 1 : 0, kept === 1 ? 1 : 0, castledNow ? 1 : 0, queenAway * undeveloped, openRooks, hemmed];
}

runHeadroom(
  'development-headroom.ts',
  {
    names: ['both rights kept', 'one right kept', 'castles', 'queen out x minors home', 'rooks on files without own pawns', 'bishops own-colour pawns / 8'],
    features: (before, after) => {
      const white = before.turn === WHITE;
      const kingFrom = before.squares.findIndex((p) => p === (white ? KING : -KING));
      const castledNow = after.squares[kingFrom] === 0 && Math.abs(after.squares.findIndex((p) => p === (white ? KING : -KING)) - kingFrom) === 2;
      const now = developmentTerms(after, white, castledNow);
      const was = developmentTerms(before, white, false);
      return now.map((v, k) => v - was[k]);
    },
    fits: [[1, 2], [3], [1, 2, 3], [4], [5], [6], [1, 2, 3, 4, 5, 6]],
  },
  process.argv.slice(2),
);
