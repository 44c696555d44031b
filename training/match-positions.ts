/**
 * The positions where the first player of a `morph match --json` had to choose (issue 12; measurement only), one
 * FEN a line, every Nth of them, skipping positions with a single legal move. Labelled by
 * training/label-move-scores.ts, they give a move-quality yardstick on the positions Morph's own games reach,
 * where the engine-game fixture (test/fixtures/move-scores.jsonl) is gentler: training/RESULTS.md, "Morph's own
 * positions". Diagnosis only: strength claims still come from matches and from positions of games Morph did not
 * play.
 *
 *   node bin/run-ts.js training/match-positions.ts MATCH.json [--every 13] > POSITIONS.fen
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { Chess } from 'chess.js';

const program = new Command()
  .argument('<match>', 'a morph match --json summary (with its games)')
  .option('--every <n>', "keep every Nth of the first player's choices", '13')
  .parse();
const every = Number(program.opts().every);
const match = JSON.parse(readFileSync(program.args[0], 'utf8')) as { first: string; pgn?: string[] };
if (!Array.isArray(match.pgn)) {
  console.error(`${program.args[0]} holds no games: make it with morph match --json and without --pgn`);
  process.exit(2);
}

let choice = 0;
for (const pgn of match.pgn) {
  const game = new Chess();
  game.loadPgn(pgn);
  const headers = game.getHeaders();
  const firstColor = headers.White === match.first ? 'w' : 'b';
  const board = new Chess(headers.FEN ?? undefined);
  for (const move of game.history()) {
    if (board.turn() === firstColor && board.moves().length > 1 && choice++ % every === 0) console.log(board.fen());
    board.move(move);
  }
}
