/** A small move-pattern database file (morph model --move-patterns) for tests of the commands that read one. */
import { Chess } from 'chess.js';
import type { Decision } from '../../src/model/decisions.ts';
import { buildMovePatterns, partnerLessons } from '../../src/model/movePatterns.ts';
import { Random } from '../../src/util/random.ts';
import { verboseMoves } from './chessMoves.ts';

/**
 * Writes move patterns learned from `count` choices of a random teacher in seeded random playouts to `path`: what
 * they prefer does not matter to these tests, only that the file is a real move-pattern database.
 */
export function writeMovePatternFile(path: string, count = 40, seed = 1): void {
  const random = new Random(seed);
  const chess = new Chess();
  const decisions: Decision[] = [];
  // The playout's plies, counted here (chess.js's history() writes every move's SAN again at each call), and its
  // moves listed by verboseMoves (moves({ verbose: true }) without generating them again for each move's SAN).
  let plies = 0;
  while (decisions.length < count) {
    const moves = verboseMoves(chess);
    if (moves.length === 0 || plies > 60) {
      chess.reset();
      plies = 0;
      continue;
    }
    const move = moves[random.int(moves.length)];
    decisions.push({ game: decisions.length + 1, startFen: chess.fen(), before: [], chosen: move.lan });
    chess.move(move);
    plies++;
  }
  buildMovePatterns(path, partnerLessons(decisions), { source: 'test', games: count }, {}, seed);
}
