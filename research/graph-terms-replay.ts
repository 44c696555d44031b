/**
 * Experiment (issue 69): do graph-pattern terms learned by TD-Leaf(lambda) from a database's own recorded games
 * make its play better? Replays every game of DB (oldest first) through learnGraphTerms, with the database's final
 * patterns, piece values and its policy's square values, then measures move quality on scored positions, paired:
 * the database as it plays, against the same with the learned terms.
 *
 *   node bin/run-ts.js research/graph-terms-replay.ts --db DB --positions positions/move-scores.jsonl \
 *     [--games N] [--rate R] [--lambda L] [--annealing K] [--epochs E] [--no-policy]
 */
import { Command } from 'commander';
import { PatternStore } from '../src/store/patternStore.ts';
import { loadConfig, evaluationSettings } from '../src/learn/config.ts';
import { openPolicyModel } from '../src/model/ownPolicy.ts';
import { modelPolicy } from '../src/model/policy.ts';
import { databasePieceValues, materialEvaluation } from '../src/eval/evaluate.ts';
import { MorphPlayer, SQUARE_WEIGHT, squareUnit } from '../src/player/morphPlayer.ts';
import { GraphTerms } from '../src/eval/graphTerms.ts';
import { learnGraphTerms, DEFAULT_TERM_LEARNING } from '../src/learn/graphTermLearning.ts';
import { gameFromPgn, learnedPositions } from '../src/learn/learningGame.ts';
import { readInputLines } from '../src/util/inputLines.ts';
import { parseLabelledPositions } from '../src/agree/positions.ts';
import { meanWithInterval, positionQuality } from '../src/agree/metrics.ts';
import { GameHistory } from '../src/chess/history.ts';
import type { Board } from '../src/chess/board.ts';
import { shuffledTerms } from './shuffled-terms.ts';

const program = new Command()
  .requiredOption('--db <file>')
  .requiredOption('--positions <file>')
  .option('--games <n>', 'replay at most this many games', Number)
  .option('--rate <x>', 'TD-Leaf rate', Number, DEFAULT_TERM_LEARNING.rate)
  .option('--lambda <x>', 'TD-Leaf lambda', Number, DEFAULT_TERM_LEARNING.lambda)
  .option('--annealing <k>', 'annealing k', Number, DEFAULT_TERM_LEARNING.annealing)
  .option('--epochs <n>', 'passes over the games', Number, 1)
  .option('--no-policy', 'play and learn without the policy (and its square values)')
  .option('--shuffle', 'control: give the learned terms to other patterns, at random (seed 1)')
  .option('--both', "learn from the opponent's positions too (its result the complement)")
  .parse();
const opts = program.opts();

const store = PatternStore.open(opts.db, { readonly: true });
const config = loadConfig(store.db);
const evaluation = evaluationSettings(config);
const model = opts.policy ? openPolicyModel(opts.db, undefined) : null;
const policy = model ? modelPolicy(model) : undefined;
const pieceValues = databasePieceValues(store);
const squares = policy?.squares ? { squareValues: policy.squares.squareValues, scale: SQUARE_WEIGHT * squareUnit(pieceValues, policy.squares) } : undefined;
const valueForMover = (board: Board) => materialEvaluation(store, board, 0, evaluation, pieceValues, squares).value;

const rows = store.db.prepare('SELECT pgn, morph_color AS color FROM games WHERE pgn IS NOT NULL ORDER BY id').all() as { pgn: string; color: 'w' | 'b' }[];
const games = rows.slice(0, opts.games ?? rows.length);
const terms = new GraphTerms();
const settings = { rate: opts.rate, lambda: opts.lambda, annealing: opts.annealing };
const started = performance.now();
for (let epoch = 0; epoch < opts.epochs; epoch++) {
  let errors = 0;
  games.forEach(({ pgn, color }, g) => {
    const game = gameFromPgn(pgn, color);
    const sides = opts.both ? [game, { ...game, learner: color === 'w' ? 'b' : 'w', result: 1 - game.result } as const] : [game];
    for (const side of sides) {
      const positions = learnedPositions(side);
      const retrievals = store.retrieveTogether(positions.map((p) => p.graph));
      errors += learnGraphTerms(terms, positions.map((p, t) => ({ board: p.board, matches: retrievals[t].matches })), side.result, valueForMover, settings);
    }
    if ((g + 1) % 500 === 0) {
      console.error(`epoch ${epoch + 1} game ${g + 1}: mean |error| ${(errors / 500).toFixed(4)}, terms ${terms.size}, ${((performance.now() - started) / 1000).toFixed(0)} s`);
      errors = 0;
    }
  });
}
const played = opts.shuffle ? shuffledTerms(terms, 1) : terms;
const magnitudes = [...played.entries()].map(([, t]) => Math.abs(t.term)).sort((a, b) => a - b);
console.error(`terms ${played.size}, median |term| ${magnitudes[magnitudes.length >> 1]?.toFixed(3)}, max ${magnitudes.at(-1)?.toFixed(3)}`);

const positions = parseLabelledPositions(readInputLines(opts.positions)).positions.filter((p) => p.scores);
function qualities(withTerms: boolean) {
  const player = new MorphPlayer(store, { maturity: config.maturity, evaluation, search: config.playSearch, policy, seed: 0, ...(withTerms ? { graphTerms: played } : {}) });
  return positions.map((p) => {
    const ranked = player.rankMoves(new GameHistory(p.fen));
    return positionQuality(ranked.map((r) => ({ move: r.move, value: player.choiceScore(r) })), p.scores!);
  });
}
const base = qualities(false);
const learned = qualities(true);
const f = (x: number) => x.toFixed(2);
const summary = (q: ReturnType<typeof qualities>) => meanWithInterval(q.map((x) => x.meanLoss));
const diff = meanWithInterval(learned.map((q, i) => q.meanLoss - base[i].meanLoss));
const blunderDiff = meanWithInterval(learned.map((q, i) => q.blunder - base[i].blunder));
console.log(JSON.stringify({
  db: opts.db, games: games.length, both: !!opts.both, shuffle: !!opts.shuffle, settings, epochs: opts.epochs, policy: !!policy,
  base: f(summary(base).mean), learned: f(summary(learned).mean),
  difference: f(diff.mean), interval: diff.interval.map(f),
  blunderDifference: blunderDiff.mean.toFixed(3), blunderInterval: blunderDiff.interval.map((x) => x.toFixed(3)),
}));
model?.close();
store.close();
