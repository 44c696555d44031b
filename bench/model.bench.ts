/**
 * Opponent model speed (issue 14): ms to rank a position's legal moves with a model (prediction), and ms per
 * move of the model-guided player (each own move, the model's likeliest replies, each judged by the value
 * database). The model is the cached benchmark hierarchy of the given size (bench/hierarchy.bench.ts: seeds
 * and node-ordered subgraphs of real positions, weights spread over [0,1]) read as a model, scoring every
 * matching pattern as models built by `morph model` do; the value database is the same file. Timing depends on
 * the hierarchy's size and shape, not on what its weights mean. Run alone:
 *   node bin/run-ts.js bench/model.bench.ts --size 10000
 */
import { pathToFileURL } from 'node:url';
import { GameHistory } from '../src/chess/history.ts';
import { ModelGuidedPlayer } from '../src/model/modelGuidedPlayer.ts';
import { DEFAULT_REPLIES, modelReplies } from '../src/model/predictedReplies.ts';
import { OpponentModel } from '../src/model/opponentModel.ts';
import { LINE_CANDIDATES, PredictedLinePlayer } from '../src/model/predictedLine.ts';
import { SQUARE_VALUES } from '../src/eval/squareValues.ts';
import { modelPolicy } from '../src/model/policy.ts';
import { MorphPlayer } from '../src/player/morphPlayer.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { Random } from '../src/util/random.ts';
import type { Figure } from './figures.ts';
import { hierarchyDatabase } from './hierarchy.bench.ts';
import { splitFens } from './positions.ts';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export function benchModel(size: number): Figure[] {
  const path = hierarchyDatabase(size);
  const store = PatternStore.open(path, { readonly: true, quickCheck: false });
  try {
    const model = new OpponentModel(store, { checkmate: 5, draw: 0 }, 'all');
    const positions = splitFens().test.slice(0, 60).map((fen) => new GameHistory(fen));
    for (const history of positions.slice(0, 10)) model.rank(history); // compile patterns, warm the JIT
    const rankTimes = positions.map((history) => {
      const started = performance.now();
      model.rank(history);
      return performance.now() - started;
    });
    // Search "captures" also plays each opponent capture after each move (a model built with --search captures).
    const looking = new OpponentModel(store, { checkmate: 5, draw: 0 }, 'all', 'captures');
    for (const history of positions.slice(0, 5)) looking.rank(history);
    const captureTimes = positions.map((history) => {
      const started = performance.now();
      looking.rank(history);
      return performance.now() - started;
    });
    // Material "settled": each move's settled loss too, a quiescence over the opponent's captures and promotions;
    // "two-ply" (the default for a model of a player's games): also the balance after the opponent's best reply
    // and the mover's captures; with square values (the default), that search weighs where the pieces stand too.
    // The piece and square values are of the size a fit gives (log-odds).
    const materialTimes = (twoPlyWeight?: number, squareValues?: number[]) => {
      const settle = {
        values: [0.4, 0.7, 0.7, 1, 1.4],
        lossWeight: 3,
        ...(twoPlyWeight !== undefined ? { twoPlyWeight } : {}),
        ...(squareValues ? { squareValues } : {}),
      };
      const ranking = new OpponentModel(store, { checkmate: 5, draw: 0 }, 'all', 'one-ply', { surplus: [0, 0, 0, 0, 0], deficit: [0, 0, 0, 0, 0], settle });
      for (const history of positions.slice(0, 5)) ranking.rank(history);
      return positions.map((history) => {
        const started = performance.now();
        ranking.rank(history);
        return performance.now() - started;
      });
    };
    const settledTimes = materialTimes();
    const twoPlyTimes = materialTimes(10);
    const squareRng = new Random(1);
    const squareTimes = materialTimes(10, Array.from({ length: SQUARE_VALUES }, () => 0.2 * (squareRng.next() - 0.5)));
    const guided = new ModelGuidedPlayer(store, model, { maturity: 0, seed: 1, replies: DEFAULT_REPLIES });
    const moveTimes = positions.slice(0, 20).map((history) => {
      const started = performance.now();
      guided.rankMoves(history);
      return performance.now() - started;
    });
    // Morph with the model as its move policy (the same file read as the value database too), against the same
    // player without it: the policy's cost, as a ratio measured in the same run.
    const plain = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'captures' });
    const withPolicy = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'captures', policy: modelPolicy(model) });
    const bestMoveTimes = (player: MorphPlayer) =>
      positions.map((history) => {
        const started = performance.now();
        player.bestMove(history);
        return performance.now() - started;
      });
    // The default way to play with a model of the opponent: the policy player also looking along its replies.
    const lookingPlayer = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'captures', policy: modelPolicy(model), opponent: modelReplies(model) });
    // A first pass of each compiles the patterns its positions reach: measured, the first pass was 5-10x slower.
    for (const player of [plain, withPolicy, lookingPlayer]) bestMoveTimes(player);
    const plainTimes = bestMoveTimes(plain);
    const policyTimes = bestMoveTimes(withPolicy);
    const lookTimes = bestMoveTimes(lookingPlayer);
    // Model mode "line": the policy player following its best few moves along the likeliest reply (predictedLine.ts).
    const linePlayer = new PredictedLinePlayer(store, { maturity: 0, seed: 1, search: 'captures', policy: modelPolicy(model) }, model);
    const lineTimes = positions.slice(0, 20).map((history) => {
      const started = performance.now();
      linePlayer.bestMove(history);
      return performance.now() - started;
    });
    const label = `${size / 1000}k`;
    return [
      {
        name: `Morph's move with a move policy, ${label} model (median)`,
        value: Number(median(policyTimes).toFixed(1)),
        unit: 'ms',
        target: '< 2000',
        note: `${(median(policyTimes) / median(plainTimes)).toFixed(2)}x the same move without the policy (${median(plainTimes).toFixed(1)} ms)`,
      },
      { name: `opponent model: rank a position's moves, ${label} (median)`, value: Number(median(rankTimes).toFixed(2)), unit: 'ms', target: '< 100' },
      { name: `opponent model, search captures: rank a position's moves, ${label} (median)`, value: Number(median(captureTimes).toFixed(2)), unit: 'ms', target: '< 100' },
      {
        name: `opponent model, material settled: rank a position's moves, ${label} (median)`,
        value: Number(median(settledTimes).toFixed(2)),
        unit: 'ms',
        target: '< 100',
        note: `${(median(settledTimes) / median(rankTimes)).toFixed(2)}x one ply without it`,
      },
      {
        name: `opponent model, material two-ply: rank a position's moves, ${label} (median)`,
        value: Number(median(twoPlyTimes).toFixed(2)),
        unit: 'ms',
        target: '< 100',
        note: `${(median(twoPlyTimes) / median(rankTimes)).toFixed(2)}x one ply without it, ${(median(twoPlyTimes) / median(settledTimes)).toFixed(2)}x settled`,
      },
      {
        name: `opponent model, material two-ply with square values (the default): rank a position's moves, ${label} (median)`,
        value: Number(median(squareTimes).toFixed(2)),
        unit: 'ms',
        target: '< 100',
        note: `${(median(squareTimes) / median(twoPlyTimes)).toFixed(2)}x two-ply without square values`,
      },
      {
        name: `model-guided move (look along ${DEFAULT_REPLIES} predicted replies), ${label} (median)`,
        value: Number(median(lookTimes).toFixed(1)),
        unit: 'ms',
        target: '< 2000',
        note: `blitz: a few seconds a move; ${(median(lookTimes) / median(policyTimes)).toFixed(2)}x the policy move without the model`,
      },
      {
        name: `model-guided move (model mode line: the best ${LINE_CANDIDATES} moves along the likeliest reply), ${label} (median)`,
        value: Number(median(lineTimes).toFixed(1)),
        unit: 'ms',
        target: '< 2000',
        note: `blitz: a few seconds a move; ${(median(lineTimes) / median(policyTimes)).toFixed(2)}x the policy move without the model`,
      },
      { name: `model-guided move (IAM's coach, ${DEFAULT_REPLIES} replies), ${label} (median)`, value: Number(median(moveTimes).toFixed(1)), unit: 'ms', target: '< 2000', note: 'blitz: a few seconds a move' },
    ];
  } finally {
    store.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const sizeIndex = process.argv.indexOf('--size');
  const size = Number(process.argv[sizeIndex + 1] ?? 10_000);
  process.stdout.write(JSON.stringify(benchModel(size)) + '\n');
}
