/**
 * The losing moves `research/loss-depths.ts --list D` prints ("FEN<tab>move" lines), sorted by what they are
 * (issue 12; measurement only), each move rescored by 3-ply material alpha-beta with captures
 * (src/engines/alphabeta.ts):
 *   - still winning: the move keeps the mover 500 centipawns or more ahead (a slower win than the best);
 *   - already lost: the best move scores -300 or less;
 *   - real: the rest, counted by the kind of the best move (capture, check, a pawn to the seventh rank or a
 *     promotion, or a quiet move of a piece), and listed with --list.
 *
 *   node bin/run-ts.js research/loss-depths.ts MATCH.json --list 3 > LOSSES.txt
 *   node bin/run-ts.js research/real-losses.ts LOSSES.txt [--list]
 */
import { readFileSync } from 'node:fs';
import { Chess } from 'chess.js';
import { boardFromFen, uciMove } from '../src/chess/board.ts';
import { rankMoves } from '../src/engines/alphabeta.ts';

const list = process.argv.includes('--list');
const kinds: Record<string, number> = {};
const count = (key: string) => (kinds[key] = (kinds[key] ?? 0) + 1);

/** The kind of a move: capture, check, a pawn to the seventh (or second) rank or a promotion, or a quiet piece move. */
function moveKind(fen: string, uci: string): string {
  const chess = new Chess(fen);
  const move = chess.move({ from: uci.slice(0, 2), to: uci.slice(2, 4), promotion: uci[4] ?? 'q' });
  if (move.isCapture() || move.isEnPassant()) return 'capture';
  if (chess.inCheck()) return 'check';
  if (move.piece === 'p' && (move.isPromotion() || move.to[1] === '7' || move.to[1] === '2')) return 'pawn to the 7th';
  return `quiet ${move.piece}`;
}

for (const line of readFileSync(process.argv[2], 'utf8').split('\n')) {
  const [fen, played] = line.split('\t');
  if (played === undefined) continue;
  const ranked = rankMoves(boardFromFen(fen), { depth: 3, quiescence: true, tolerancePawns: 0, seed: 0 });
  const best = ranked[0];
  const mine = ranked.find((r) => uciMove(r.move) === played)!.score;
  if (mine >= 500) count('still winning');
  else if (best.score <= -300) count('already lost');
  else {
    count('real');
    count(`real, best move: ${moveKind(fen, uciMove(best.move))}`);
    if (list) console.log(`${fen}\t${played}\tbest ${uciMove(best.move)} ${best.score}\tplayed ${mine}`);
  }
}
console.log(JSON.stringify(kinds));
