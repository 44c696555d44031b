/**
 * The square-value fit's speed (src/model/choiceEvaluation.ts fitChoiceSquares, a policy build's largest part) on
 * one player's recorded decisions, with a digest of the fit so that two builds can be checked to fit the same
 * values. Measurement only.
 *
 *   node bin/run-ts.js research/square-fit-speed.ts --pgn GAMES.pgn --player NAME [--decisions 3000] [--rounds 3]
 *
 * --every-move: the fit on every legal move, one round (as the square-value tests fit), instead of the defaults.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { fitChoiceSquares } from '../src/model/choiceEvaluation.ts';
import { playerDecisions } from '../src/model/decisions.ts';

const options = new Command()
  .requiredOption('--pgn <file>', 'recorded games')
  .requiredOption('--player <name>', 'the player, as written in the White or Black tag')
  .option('--decisions <n>', 'the first N of its decisions', '3000')
  .option('--rounds <n>', 'timed fits, one after another', '3')
  .option('--every-move', 'every legal move, one round')
  .parse()
  .opts();

const { decisions } = playerDecisions(readFileSync(options.pgn, 'utf8'), options.player, options.pgn);
const sample = decisions.slice(0, Number(options.decisions));
const settings = options.everyMove ? { rounds: 1, alternatives: Infinity } : {};
for (let run = 0; run < Number(options.rounds); run++) {
  const start = performance.now();
  const fit = fitChoiceSquares(sample, settings);
  const ms = performance.now() - start;
  const digest = createHash('sha1').update(JSON.stringify(fit)).digest('hex').slice(0, 12);
  console.log(`${sample.length} decisions: ${(ms / sample.length).toFixed(2)} ms a decision; fit digest ${digest}`);
}
