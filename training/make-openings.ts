/**
 * Builds the default opening suite for `morph match` (openings/balanced-6ply.epd): short random openings, kept
 * only when the embedded Stockfish scores them near equal, so that neither colour starts with an edge and a game
 * pair's two games differ only in who plays which side.
 *
 * Each candidate is PLIES uniformly random legal moves from the start position (seeded). It is kept when the game
 * is not over, the position is new, and Stockfish at --depth scores it within --max-cp centipawns of 0 (its hash
 * cleared first, so a score depends on the position only). Lines are EPD with the score (`ce`, for the side to
 * move), the move counters, and an `id` naming the suite, the seed and the candidate number, so every line can be
 * rebuilt.
 *
 *   node bin/run-ts.js training/make-openings.ts --openings 300 --plies 6 --depth 12 --max-cp 50 --seed 1 \
 *     --out openings/balanced-6ply.epd
 *
 * The training suite (`morph train --openings`) is built the same way from another seed, leaving out the match
 * suite's positions so that matches never test an opening Morph trained from:
 *
 *   node bin/run-ts.js training/make-openings.ts --openings 1000 --plies 6 --depth 12 --max-cp 50 --seed 2 \
 *     --exclude openings/balanced-6ply.epd --out openings/train-6ply.epd
 */
import { writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { boardToFen, uciMove } from '../src/chess/board.ts';
import { START_FEN } from '../src/chess/fen.ts';
import { GameHistory } from '../src/chess/history.ts';
import { positionKey } from '../src/chess/positionKey.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { openingPositions, readOpenings } from '../src/match/openings.ts';
import { stockfishCommand } from '../src/engines/stockfish.ts';
import { UciClient } from '../src/engines/uciClient.ts';
import { Random } from '../src/util/random.ts';

const opts = new Command()
  .option('--openings <n>', 'openings to keep', '300')
  .option('--plies <n>', 'random plies from the start position', '6')
  .option('--depth <n>', "Stockfish's search depth for the balance check", '12')
  .option('--max-cp <n>', 'keep openings Stockfish scores within this many centipawns of 0', '50')
  .option('--seed <n>', 'seed for the random moves', '1')
  .option('--max-candidates <n>', 'give up after this many candidates', '5000')
  .option('--exclude <file>', 'an EPD or PGN suite whose positions (a PGN game: the position its moves reach) are not kept (e.g. the match suite)')
  .option('--out <file>', 'output EPD file', 'openings/balanced-6ply.epd')
  .parse()
  .opts();
const [target, plies, depth, maxCp, seed, maxCandidates] = [
  opts.openings, opts.plies, opts.depth, opts.maxCp, opts.seed, opts.maxCandidates,
].map(Number);
const suite = `balanced-${plies}ply`;
const rng = new Random(seed);

/** The last `score cp N` (or mate) Stockfish printed, for the side to move; mate counts as out of range. */
function lastScore(info: readonly string[]): number | null {
  for (let i = info.length - 1; i >= 0; i--) {
    const match = / score (cp|mate) (-?\d+)/.exec(info[i]);
    if (match) return match[1] === 'cp' ? Number(match[2]) : Infinity;
  }
  return null;
}

const stockfish = new UciClient({ ...stockfishCommand(), label: `stockfish:depth=${depth}` });
await stockfish.start();
const started = performance.now();
const lines: string[] = [];
const seen = new Set<number>();
// The excluded suite's positions count as seen (a PGN suite's: the positions its moves reach).
for (const opening of opts.exclude ? openingPositions(readOpenings(opts.exclude)) : []) seen.add(positionKey(new GameHistory(opening.fen).board));
let candidates = 0;
while (lines.length < target && candidates < maxCandidates) {
  candidates++;
  const history = new GameHistory(START_FEN);
  const moves: string[] = [];
  while (moves.length < plies && history.verdict() === null) {
    const move = uciMove(rng.pick(generateLegalMoves(history.board)));
    history.play(move);
    moves.push(move);
  }
  const key = positionKey(history.board);
  if (moves.length < plies || history.verdict() !== null || seen.has(key)) continue;
  seen.add(key);
  const fen = boardToFen(history.board);
  await stockfish.newGame();
  await stockfish.bestMove(fen, [], { depth });
  const cp = lastScore(stockfish.lastInfo);
  if (cp === null || Math.abs(cp) > maxCp) continue;
  const [placement, turn, castling, enPassant, halfmove, fullmove] = fen.split(' ');
  lines.push(
    `${placement} ${turn} ${castling} ${enPassant} hmvc ${halfmove}; fmvn ${fullmove}; ce ${cp}; ` +
      `id "${suite} seed ${seed} candidate ${candidates}"; c0 "${moves.join(' ')}";`,
  );
  if (lines.length % 25 === 0) {
    process.stderr.write(`${lines.length} openings from ${candidates} candidates, ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  }
}
await stockfish.close();
writeFileSync(opts.out, lines.join('\n') + '\n');
console.log(
  `wrote ${lines.length} openings (${candidates} candidates, |score| <= ${maxCp} cp at depth ${depth}, seed ${seed}) ` +
    `to ${opts.out} in ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
