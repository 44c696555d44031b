/**
 * One opponent's game collection for opponent models (issue 14): the player against its partners in turn,
 * colours alternating, each game from a varied random opening (src/match/gameCollection.ts), split BY GAME into
 * a training file and a held-out file (every K-th game held out). Games are appended as they finish, so a long
 * run can be watched and stopped; run again with the same options, it keeps the complete games and plays on from
 * the first missing one (per-game seeds, so built-in players replay exactly what an uninterrupted run plays).
 *
 *   node bin/run-ts.js training/opponent-games.ts --player stockfish:skill=20,depth=1 \
 *     --partners 'stockfish:skill=5,depth=3;ab:2' --games 300 --held-out-every 5 --seed 1 --out tmp/opponents/sf20
 *   -> tmp/opponents/sf20.train.pgn and tmp/opponents/sf20.heldout.pgn
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Command } from 'commander';
import { isHeldOut, playCollection, resumeCollection } from '../src/match/gameCollection.ts';
import { formatOpponentSpec, parseOpponentSpec } from '../src/engines/opponentSpec.ts';

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
const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');
const resume = resumeCollection(read(train), read(heldOut), { player: formatOpponentSpec(parseOpponentSpec(opts.player)), seed: Number(opts.seed), every });
if (resume instanceof Error) {
  process.stderr.write(`opponent-games: ${opts.out}: ${resume.message}\n`);
  process.exit(2);
}
writeFileSync(train, resume.train);
writeFileSync(heldOut, resume.heldOut);
if (resume.next > 0) process.stderr.write(`${opts.player}: ${resume.next} games already recorded, going on from game ${resume.next + 1}\n`);
const started = performance.now();
await playCollection({
  player: opts.player,
  partners: String(opts.partners).split(';').map((s) => s.trim()).filter(Boolean),
  games: Number(opts.games),
  seed: Number(opts.seed),
  maxPlies: Number(opts.maxPlies),
  firstGame: resume.next,
  onGame: (pgn, index) => {
    appendFileSync(isHeldOut(index, every) ? heldOut : train, pgn + '\n\n');
    if ((index + 1) % 10 === 0) {
      process.stderr.write(`${opts.player}: ${index + 1} games, ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
    }
  },
});
process.stderr.write(`${opts.player}: done in ${((performance.now() - started) / 1000).toFixed(0)} s: ${train}, ${heldOut}\n`);
