/**
 * Games with varied openings and paired colours, for measuring a Morph database (with its evaluation settings
 * overridable) against baselines until `morph match --openings` is on main: each opening is a seeded random
 * sequence of PLIES legal moves, played twice with colours reversed. Prints one JSON line per opponent:
 * W/D/L from Morph's side, score, Elo with its 95% interval (match/elo.ts), distinct games.
 *
 *   node bin/run-ts.js research/varied-games.ts --db FILE --opponents 'ab:1;greedy' --pairs 50 --seed 7 \
 *     [--evaluation paper|shrunk] [--prior N] [--maturity N]
 */
import { Command } from 'commander';
import { createPlayer } from '../src/train/playerFromSpec.ts';
import { playGame } from '../src/game/playGame.ts';
import { loadConfig } from '../src/learn/config.ts';
import { getMetaNumber } from '../src/store/meta.ts';
import { eloEstimate } from '../src/match/elo.ts';
import { MorphPlayer } from '../src/player/morphPlayer.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { Random } from '../src/util/random.ts';
import { randomOpening } from '../src/match/gameCollection.ts';
import type { EvaluationFunction } from '../src/eval/evaluation.ts';

const opts = new Command()
  .requiredOption('--db <file>')
  .option('--opponents <specs>', 'semicolon-separated opponent specs', 'ab:1;greedy')
  .option('--pairs <n>', 'openings, each played with both colours', '50')
  .option('--plies <n>', 'random opening plies', '4')
  .option('--seed <n>', 'seed for openings and players', '7')
  .option('--max-plies <n>', 'draw after this many plies', '300')
  .option('--evaluation <fn>')
  .option('--prior <n>')
  .option('--maturity <n>')
  .option('--label <text>', 'name of the configuration in the output')
  .parse()
  .opts();

const rng = new Random(Number(opts.seed));
const plies = Number(opts.plies);
const openings = Array.from({ length: Number(opts.pairs) }, () => randomOpening(rng, { min: plies, max: plies }));

const store = PatternStore.open(opts.db, { readonly: true });
const config = loadConfig(store.db);
const evaluation = {
  function: (opts.evaluation ?? config.evaluation) as EvaluationFunction,
  prior: opts.prior !== undefined ? Number(opts.prior) : config.prior,
};
const maturity = opts.maturity !== undefined ? Number(opts.maturity) : config.maturity;
const started = performance.now();
for (const spec of String(opts.opponents).split(';')) {
  const score = { wins: 0, draws: 0, losses: 0 };
  const games = new Set<string>();
  let plies = 0;
  for (let pair = 0; pair < openings.length; pair++) {
    for (const morphWhite of [true, false]) {
      const seed = rng.int(2 ** 31);
      const morph = new MorphPlayer(store, { maturity, seed, evaluation }, 'Morph');
      const opponent = await createPlayer(spec, { seed: rng.int(2 ** 31) });
      const played = await playGame({
        white: morphWhite ? morph : opponent, black: morphWhite ? opponent : morph,
        startFen: openings[pair], maxPlies: Number(opts.maxPlies),
      });
      await opponent.close();
      if (!played) continue;
      games.add(openings[pair] + played.moves.join(' '));
      plies += played.plies;
      const points = played.result === '1/2-1/2' ? 0.5 : (played.result === '1-0') === morphWhite ? 1 : 0;
      if (points === 1) score.wins++;
      else if (points === 0) score.losses++;
      else score.draws++;
    }
  }
  const n = score.wins + score.draws + score.losses;
  const elo = eloEstimate(score);
  console.log(JSON.stringify({
    label: opts.label ?? opts.db, db: opts.db, trainedGames: getMetaNumber(store.db, 'games_played') ?? 0, evaluation, maturity, opponent: spec, seed: Number(opts.seed),
    games: n, ...score, score: (score.wins + score.draws / 2) / n, elo: Math.round(elo.elo),
    eloLow: Math.round(elo.low), eloHigh: Math.round(elo.high), distinct: games.size, meanPlies: plies / n,
    seconds: Math.round((performance.now() - started) / 1000),
  }));
}
store.close();
