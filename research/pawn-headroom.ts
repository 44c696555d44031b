/**
 * Would pawn structure help a model predict an engine? (issue 14; an experiment, 2026-12-02, as
 * mobility-headroom.ts asked of mobility.) A classical engine's evaluation scores passed, isolated and doubled pawns
 * and the pawns sheltering its king; a model's piece and square values cannot (a passed pawn is one with no enemy
 * pawn ahead of it, a relation between pawns, not a square). Before building that into a model, this asks whether
 * it would pay (research/headroom.ts): the pawn-structure counts of the position a move leads to, the mover's
 * less its opponent's.
 *
 *   node bin/run-ts.js research/pawn-headroom.ts MODEL.db TRAIN.pgn HELD_OUT.pgn PLAYER [TRAIN_DECISIONS]
 */
import { KING, PAWN, WHITE, type Board } from '../src/chess/board.ts';
import { runHeadroom } from './headroom.ts';

/** One side's pawn-structure counts: passed (each by its advance, 1/7 .. 6/7), isolated, doubled, king shelter. */
function pawnStructure(board: Board, white: boolean): number[] {
  const own = white ? PAWN : -PAWN;
  const ownFiles = new Array(8).fill(0);
  const ownPawns: number[] = [];
  let king = -1;
  for (let sq = 0; sq < 64; sq++) {
    if (board.squares[sq] === own) {
      ownFiles[sq & 7]++;
      ownPawns.push(sq);
    }
    if (board.squares[sq] === (white ? KING : -KING)) king = sq;
  }
  let passed = 0;
  let isolated = 0;
  for (const sq of ownPawns) {
    const file = sq & 7;
    const rank = white ? sq >> 3 : 7 - (sq >> 3);
    let blocked = false;
    for (let f = Math.max(0, file - 1); f <= Math.min(7, file + 1) && !blocked; f++) {
      for (let r = rank + 1; r < 7 && !blocked; r++) {
        const ahead = (white ? r : 7 - r) * 8 + f;
        if (board.squares[ahead] === -own) blocked = true;
      }
    }
    if (!blocked) passed += rank / 7;
    if ((file === 0 || ownFiles[file - 1] === 0) && (file === 7 || ownFiles[file + 1] === 0)) isolated++;
  }
  const doubled = ownFiles.reduce((sum, n) => sum + Math.max(0, n - 1), 0);
  // Own pawns on the king's file and the two beside it, one or two ranks in front of the king.
  let shelter = 0;
  if (king >= 0) {
    const kingFile = king & 7;
    const kingRank = white ? king >> 3 : 7 - (king >> 3);
    for (const sq of ownPawns) {
      const rank = white ? sq >> 3 : 7 - (sq >> 3);
      if (Math.abs((sq & 7) - kingFile) <= 1 && rank - kingRank >= 1 && rank - kingRank <= 2) shelter++;
    }
  }
  return [passed, isolated, doubled, shelter];
}

runHeadroom(
  'pawn-headroom.ts',
  {
    names: ['passed pawns, by rank / 7', 'isolated pawns', 'doubled pawns', 'pawns before the king'],
    features: (before, after) => {
      const moverIsWhite = before.turn === WHITE;
      const mine = pawnStructure(after, moverIsWhite);
      const theirs = pawnStructure(after, !moverIsWhite);
      return mine.map((v, k) => v - theirs[k]);
    },
    fits: [[1], [2], [3], [4], [1, 2, 3, 4]],
  },
  process.argv.slice(2),
);
