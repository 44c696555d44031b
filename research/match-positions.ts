/**
 * The positions where the first player of a `morph match --json` had to choose (issue 12; measurement only), one
 * FEN a line, every Nth of them, skipping positions with a single legal move. Labelled by
 * training/label-move-scores.ts, they give a move-quality yardstick on the positions Morph's own games reach,
 * where the engine-game fixture (positions/move-scores.jsonl) is gentler: docs/lab/, "Morph's own
 * positions". Diagnosis only: strength claims still come from matches and from positions of games Morph did not
 * play.
 *
 *   node bin/run-ts.js research/match-positions.ts MATCH.json [--every 13] > POSITIONS.fen
 */
import { Command } from 'commander';
import { Chess } from 'chess.js';
import { readMatchGames } from '../training/match-games.ts';

const program = new Command()
  .argument('<match>', 'a morph match --json summary (with its games)')
  .option('--every <n>', "keep every Nth of the first player's choices", '13')
  .parse();
const every = Number(program.opts().every);

let choice = 0;
for (const { game, firstColor } of readMatchGames(program.args[0])) {
  for (const move of game.history({ verbose: true })) {
    if (move.color === firstColor && new Chess(move.before).moves().length > 1 && choice++ % every === 0) console.log(move.before);
  }
}
