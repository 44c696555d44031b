/**
 * One opponent's game collection for opponent models (issue 14): the player against its partners in turn,
 * colours alternating, each game from a varied random opening (src/model/gameCollection.ts), split BY GAME into
 * a training file and a held-out file (every K-th game held out). Games are appended as they finish, so a long
 * run can be watched and stopped.
 *
 *   node bin/run-ts.js training/opponent-games.ts --player stockfish:skill=20,depth=1 \
 *     --partners 'stockfish:skill=5,depth=3;ab:2' --games 300 --held-out-every 5 --seed 1 --out tmp/opponents/sf20
 *   -> tmp/opponents/sf20.train.pgn and tmp/opponents/sf20.heldout.pgn
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Command } from 'commander';
import { isHeldOut, playCollection } from '../src/model/gameCollection.ts';

const opts = new Command()
  .requiredOption('--player <spec>', 'the player to collect')
  .requiredOption('--partners <specs>', 'partners separated by ";" (used in turn)')
  .option('--games <n>', 'games in all', '300')
  .option('--held-out-every <k>', 'every k-th game goes to the held-out file', '5')
  .option('--seed <n>', 'seed of the openings and the players', '1')
  .option('--max-plies <n>', 'draw adjudicated after this many plies', '200')
  .requiredOption('--out <prefix>', 'writes PREFIX.train.pgn and PREFIX.heldout.pgn')
  .parse()
  .opts();

const every = Number(opts.heldOutEvery);
const train = `${opts.out}.train.pgn`;
const heldOut = `${opts.out}.heldout.pgn`;
mkdirSync(dirname(train), { recursive: true });
writeFileSync(train, '');
writeFileSync(heldOut, '');
const started = performance.now();
await playCollection({
  player: opts.player,
  partners: String(opts.partners).split(';').map((s) => s.trim()).filter(Boolean),
  games: Number(opts.games),
  seed: Number(opts.seed),
  maxPlies: Number(opts.maxPlies),
  onGame: (pgn, index) => {
    appendFileSync(isHeldOut(index, every) ? heldOut : train, pgn + '\n\n');
    if ((index + 1) % 10 === 0) {
      process.stderr.write(`${opts.player}: ${index + 1} games, ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
    }
  },
});
process.stderr.write(`${opts.player}: done in ${((performance.now() - started) / 1000).toFixed(0)} s: ${train}, ${heldOut}\n`);
