/**
 * `morph predict`: how well an opponent model predicts a player's moves in held-out games, beside random (exact
 * expectation), greedy, a Morph value database (--db) and a model of another player (--other-model), on the
 * same moves. Top-1, top-4 and top-third shares with 95% intervals, overall and by game phase.
 */
import type { Command } from 'commander';
import { createRanker, morphRanker, type MoveRanker } from '../../agree/rankers.ts';
import type { GameHistory } from '../../chess/history.ts';
import { playerDecisions, readPgnText } from '../../model/decisions.ts';
import { OpponentModel } from '../../model/opponentModel.ts';
import { measurePrediction, PHASES, type PredictionRanker, type PredictionReport, type Share } from '../../agree/prediction.ts';
import { action, printLine } from '../run.ts';
import { parseModelSearchOption } from '../options.ts';
import { MODEL_SEARCH_MODES } from '../../search/search.ts';
import { signed } from '../../util/format.ts';

interface PredictOptions {
  model: string;
  pgn: string;
  player: string;
  db?: string;
  otherModel?: string;
  labels?: string;
  search?: string;
  json?: boolean;
}

export function modelRanker(model: OpponentModel, name: string): PredictionRanker {
  return {
    name: model.search === 'one-ply' ? name : `${name} (${model.search})`,
    score: (history: GameHistory) => model.rank(history).map((m) => ({ move: m.move, value: m.score })),
    close: () => model.close(),
  };
}

/** A fen-only ranker (src/agree) as a prediction ranker. */
function fenRanker(ranker: MoveRanker): PredictionRanker {
  return { name: ranker.name, score: (_history, fen) => ranker.score(fen), close: () => ranker.close() };
}

/** A value database for --db (PatternStore refuses a model database in one line). */
function valueRanker(path: string): PredictionRanker {
  return fenRanker(morphRanker(path));
}

const percent = (s: Share) => `${(100 * s.value).toFixed(1)}% [${(100 * s.low).toFixed(1)}, ${(100 * s.high).toFixed(1)}]`;

function reportText(r: PredictionReport): string {
  const lines = [
    `${r.player}: ${r.moves} moves in ${r.games} games, ${r.meanLegal.toFixed(1)} legal moves on average` +
      (r.labels ? `; right when among ${r.labels}'s equally best moves` : ''),
    `${'ranker'.padEnd(44)} ${'top-1'.padEnd(22)} ${'top-4'.padEnd(22)} ${'top-third'.padEnd(22)} ms/move`,
  ];
  for (const k of r.rankers) {
    lines.push(`${k.ranker.slice(0, 44).padEnd(44)} ${percent(k.top1).padEnd(22)} ${percent(k.top4).padEnd(22)} ${percent(k.topThird).padEnd(22)} ${k.msPerMove.toFixed(1)}`);
  }
  const points = (s: Share) => {
    return `${signed(100 * s.value, 1)} [${signed(100 * s.low, 1)}, ${signed(100 * s.high, 1)}]`;
  };
  lines.push(`paired, the model less each ranker on the same moves (points):`);
  for (const k of r.rankers.slice(1)) {
    if (k.firstLess) lines.push(`  ${k.ranker.slice(0, 42).padEnd(42)} top-1 ${points(k.firstLess.top1).padEnd(22)} top-4 ${points(k.firstLess.top4)}`);
  }
  lines.push('top-1 by phase:');
  for (const k of r.rankers) {
    const parts = PHASES.filter((p) => k.byPhase[p]).map((p) => `${p} ${percent(k.byPhase[p]!.top1)} (${k.byPhase[p]!.moves})`);
    lines.push(`  ${k.ranker.slice(0, 42).padEnd(42)} ${parts.join('; ')}`);
  }
  return lines.join('\n');
}

export function registerPredictCommand(program: Command): void {
  program
    .command('predict')
    .description("how well an opponent model predicts a player's moves in held-out games, beside baselines")
    .requiredOption('--model <file>', 'the opponent model (built by morph model)')
    .requiredOption('--pgn <file>', 'held-out games of the player')
    .requiredOption('--player <name>', 'the player, as written in the White or Black tag')
    .option('--db <file>', 'also rank with this Morph value database')
    .option('--other-model <file>', 'also rank with a model of another player')
    .option('--labels <ranker>', 'for players that break ties at random (greedy, ab:D): count any of its equally best moves')
    .option('--search <mode>', `${MODEL_SEARCH_MODES.join(' | ')}: how far the models look (default: each model's own setting)`)
    .option('--json', 'print the report as JSON')
    .action(
      action((opts: PredictOptions) => {
        const search = parseModelSearchOption(opts.search);
        const { played, decisions } = playerDecisions(readPgnText(opts.pgn), opts.player, opts.pgn);
        const rankers: PredictionRanker[] = [];
        try {
          rankers.push(modelRanker(OpponentModel.open(opts.model, search), `model ${opts.model}`));
          rankers.push(fenRanker(createRanker('random')), fenRanker(createRanker('greedy')));
          if (opts.db) rankers.push(valueRanker(opts.db));
          if (opts.otherModel) rankers.push(modelRanker(OpponentModel.open(opts.otherModel, search), `other model ${opts.otherModel}`));
          const labels = opts.labels ? fenRanker(createRanker(opts.labels)) : null;
          const report = measurePrediction(opts.player, played, decisions, rankers, labels);
          printLine(opts.json ? JSON.stringify(report) : reportText(report));
        } finally {
          for (const ranker of rankers) ranker.close();
        }
      }),
    );
}
