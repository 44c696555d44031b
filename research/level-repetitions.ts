/**
 * Draws by threefold repetition at level material in a `morph match --json` summary (issue 12, contempt;
 * measurement only): how many, and whose move completed each, the first player's (Morph's) or its opponent's.
 * Material is counted 1/3/3/5/9 for the count only (no player is given these values).
 *
 *   node bin/run-ts.js research/level-repetitions.ts MATCH.json [--list]
 */
import { Chess } from 'chess.js';
import { readMatchGames } from '../training/match-games.ts';

const POINTS: Record<string, number> = { p: 1, n: 3, b: 3, r: 5, q: 9, k: 0 };
const list = process.argv.includes('--list');
const counts = { firstCompleted: 0, opponentCompleted: 0 };
for (const { game, firstColor } of readMatchGames(process.argv[2])) {
  const headers = game.getHeaders();
  if (headers.Result !== '1/2-1/2') continue;
  const board = new Chess(headers.FEN ?? undefined);
  const moves = game.history({ verbose: true });
  for (const move of moves) board.move(move.san);
  if (!board.isThreefoldRepetition()) continue;
  let balance = 0;
  for (const row of board.board()) for (const piece of row) if (piece) balance += (piece.color === firstColor ? 1 : -1) * POINTS[piece.type];
  if (balance !== 0) continue;
  const byFirst = moves[moves.length - 1].color === firstColor;
  if (byFirst) counts.firstCompleted++;
  else counts.opponentCompleted++;
  if (list) console.log(`${byFirst ? 'first' : 'opponent'}\t${moves.length}\t${board.fen()}`);
}
console.log(JSON.stringify({ match: process.argv[2], ...counts }));
