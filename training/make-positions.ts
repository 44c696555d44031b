/**
 * Builds a file of real game positions (one FEN per line) from games the embedded Stockfish plays against
 * itself at mixed strengths, with a few random opening moves for variety. Used as fixtures by tests and the
 * benchmarks ("hierarchies grown from subgraphs of real game positions").
 *
 *   node bin/run-ts.js training/make-positions.ts --games 60 --out test/fixtures/positions.fen --seed 7
 */
import { writeFileSync } from 'node:fs';
import { Chess } from 'chess.js';
import { Command } from 'commander';
import { createStockfishPlayer } from '../src/engines/stockfish.ts';
import { Random } from '../src/util/random.ts';
import { START_FEN } from '../src/chess/fen.ts';

const program = new Command()
  .option('--games <n>', 'games to play', '60')
  .option('--out <file>', 'output file', 'test/fixtures/positions.fen')
  .option('--seed <n>', 'seed for the random opening moves', '7')
  .option('--every <n>', 'keep every n-th position', '3')
  .parse();
const opts = program.opts();
const rng = new Random(Number(opts.seed));
const engines = [
  createStockfishPlayer('stockfish:skill=3,depth=4', { skill: '3', depth: '4' }),
  createStockfishPlayer('stockfish:skill=10,depth=6', { skill: '10', depth: '6' }),
];
const fens: string[] = [];
for (let game = 0; game < Number(opts.games); game++) {
  const chess = new Chess();
  const moves: string[] = [];
  for (const engine of engines) await engine.newGame();
  while (!chess.isGameOver() && moves.length < 200) {
    let uci: string;
    if (moves.length < 4 + (game % 4)) {
      const move = rng.pick(chess.moves({ verbose: true }));
      uci = move.from + move.to + (move.promotion ?? '');
    } else {
      uci = await engines[(moves.length + game) % 2].chooseMove({ startFen: START_FEN, moves, fen: chess.fen() });
    }
    chess.move(uci);
    moves.push(uci);
    if (moves.length >= 8 && moves.length % Number(opts.every) === 0) fens.push(chess.fen());
  }
  process.stderr.write(`game ${game + 1}: ${moves.length} plies, ${fens.length} positions\n`);
}
for (const engine of engines) await engine.close();
writeFileSync(opts.out, fens.join('\n') + '\n');
console.log(`wrote ${fens.length} positions to ${opts.out}`);
