/**
 * The effect of an opponent model in play (issue 14): Morph's value database with the model of its opponent
 * (ModelGuidedPlayer) and the same database without it (the 1-ply MorphPlayer), each against the modelled
 * opponent on the SAME varied openings (random plies, seeded), colours alternating. Reports both Elo
 * differences with 95% intervals, and ms per move of the guided player.
 *
 *   node bin/run-ts.js research/model-guided-match.ts --db tmp/value.db --model tmp/m/greedy.db \
 *     --opponent greedy --games 400 --seed 1
 */
import { Command } from 'commander';
import { createOpponent } from '../src/engines/opponentFactory.ts';
import { parseOpponentSpec } from '../src/engines/opponentSpec.ts';
import { AlphaBetaPlayer, parseAlphaBetaSpec } from '../src/engines/alphabeta.ts';
import type { GamePlayer } from '../src/engines/gamePlayer.ts';
import { playGame } from '../src/game/playGame.ts';
import { loadConfig } from '../src/learn/config.ts';
import { eloEstimate, type MatchScore } from '../src/match/elo.ts';
import { gameSeed } from '../src/match/match.ts';
import { randomOpening } from '../src/match/gameCollection.ts';
import { ModelGuidedPlayer } from '../src/model/modelGuidedPlayer.ts';
import { DEFAULT_REPLIES } from '../src/model/predictedReplies.ts';
import { OpponentModel } from '../src/model/opponentModel.ts';
import { MorphPlayer } from '../src/player/morphPlayer.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { Random } from '../src/util/random.ts';

const opts = new Command()
  .requiredOption('--db <file>', 'value database')
  .requiredOption('--model <file>', "model of the opponent")
  .requiredOption('--opponent <spec>', 'the modelled opponent')
  .option('--games <n>', 'games per arm', '100')
  .option('--replies <n>', 'replies looked at', String(DEFAULT_REPLIES))
  .option('--seed <n>', 'seed', '1')
  .option('--max-plies <n>', 'draw adjudicated after this many plies', '200')
  .parse()
  .opts();

const values = PatternStore.open(opts.db, { readonly: true });
const model = OpponentModel.open(opts.model);
const maturity = loadConfig(values.db).maturity;
const spec = parseOpponentSpec(opts.opponent);
const seed = Number(opts.seed);
const arms = ['guided', 'plain'] as const;
const score: Record<(typeof arms)[number], MatchScore> = { guided: { wins: 0, draws: 0, losses: 0 }, plain: { wins: 0, draws: 0, losses: 0 } };
let guidedMs = 0;
let guidedMoves = 0;
for (let index = 0; index < Number(opts.games); index++) {
  const startFen = randomOpening(new Random(gameSeed(seed, index, 2)));
  const morphWhite = index % 2 === 0;
  for (const arm of arms) {
    const morph: GamePlayer =
      arm === 'guided'
        ? new ModelGuidedPlayer(values, model, { maturity, seed: gameSeed(seed, index, 0), replies: Number(opts.replies) })
        : new MorphPlayer(values, { maturity, seed: gameSeed(seed, index, 0) });
    const opponent = await createOpponent(spec, {
      seed: gameSeed(seed, index, 1),
      alphaBetaFactory: (ab, context) => new AlphaBetaPlayer(parseAlphaBetaSpec(ab.body, context.seed)),
    });
    const [white, black] = morphWhite ? [morph, opponent] : [opponent, morph];
    const game = (await playGame({ white, black, startFen, maxPlies: Number(opts.maxPlies) }))!;
    await opponent.close();
    const points = game.result === '1/2-1/2' ? 0.5 : (game.result === '1-0') === morphWhite ? 1 : 0;
    const s = score[arm];
    if (points === 1) s.wins++;
    else if (points === 0) s.losses++;
    else s.draws++;
    if (arm === 'guided') {
      guidedMs += 1000 * (morphWhite ? game.thinkingSeconds.w : game.thinkingSeconds.b);
      guidedMoves += morphWhite ? Math.ceil(game.plies / 2) : Math.floor(game.plies / 2);
    }
  }
  if ((index + 1) % 10 === 0 || index + 1 === Number(opts.games)) {
    const line = arms.map((arm) => {
      const e = eloEstimate(score[arm]);
      const s = score[arm];
      return `${arm} ${s.wins}/${s.draws}/${s.losses} Elo ${e.elo.toFixed(0)} [${e.low.toFixed(0)}, ${e.high.toFixed(0)}]`;
    });
    console.log(`${index + 1} games per arm: ${line.join('; ')}; guided ${(guidedMs / Math.max(1, guidedMoves)).toFixed(1)} ms/move`);
  }
}
values.close();
model.close();
