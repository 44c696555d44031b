/**
 * `morph agree`: how often a ranker's top moves contain a reference engine's best move, and, on positions that
 * carry every move's score, how much win chance its chosen move loses (lichess's scale), over a file of
 * labelled positions (JSON lines or EPD; training/make-agreement-set.ts and label-move-scores.ts build them).
 */
import type { Command } from 'commander';
import { parseLabelledPositions, type PositionProblem } from '../../agree/positions.ts';
import { BUILT_IN_RANKERS, createRanker, morphRanker, RANKER_FORMS, type MoveRanker } from '../../agree/rankers.ts';
import { measureAgreement, type AgreementReport, type Interval } from '../../agree/metrics.ts';
import { EVALUATION_FUNCTIONS, type EvaluationFunction } from '../../eval/evaluation.ts';
import { BAD_INPUT, badInput, MorphError } from '../../util/errors.ts';
import { action, printLine, reportError } from '../run.ts';
import { readInputLines } from '../../util/inputLines.ts';
import { MATERIAL_PRIOR_HELP, parseIntegerOption, parseMaterialPriorOption, parseNumberOption, parseSearchOption, parsePolicyWeightOption, POLICY_WEIGHT_HELP, SEARCH_HELP } from '../options.ts';
import { checkDatabaseFileKind } from '../../store/databaseKind.ts';

interface AgreeOptions {
  positions?: string;
  db?: string;
  ranker: string[];
  maturity?: string;
  evaluation?: string;
  prior?: string;
  materialPrior?: string;
  search?: string;
  policy?: string | false;
  /** False from --no-graph-patterns. */
  graphPatterns?: boolean;
  policyWeight?: string;
  movePatterns?: string;
  json?: boolean;
}

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
const percentInterval = ([low, high]: Interval) => `[${percent(low)}, ${percent(high)}]`;

function reportText(r: AgreementReport): string {
  const share = (name: string, key: 'top1' | 'top4' | 'topThird') =>
    `  ${name.padEnd(10)} ${percent(r[key]).padStart(6)} ${percentInterval(r.intervals[key]).padEnd(17)} (random ${percent(r.random[key])})`;
  const lines = [
    `${r.ranker} on ${r.positions} positions (${r.meanLegal.toFixed(1)} legal moves on average; 95% intervals):`,
    share('top 1', 'top1'),
    share('top 4', 'top4'),
    share('top third', 'topThird'),
  ];
  const q = r.quality;
  if (q) {
    const [low, high] = q.intervals.meanLoss;
    lines.push(
      `  move quality on ${q.positions} scored positions (win-chance points lost by the chosen move):`,
      `  mean loss  ${q.meanLoss.toFixed(1).padStart(6)} [${low.toFixed(1)}, ${high.toFixed(1)}]`,
      `  loss >= 10 ${percent(q.inaccuracy).padStart(6)} ${percentInterval(q.intervals.inaccuracy)}  (inaccuracy or worse)`,
      `  loss >= 20 ${percent(q.mistake).padStart(6)} ${percentInterval(q.intervals.mistake)}  (mistake or worse)`,
      `  loss >= 30 ${percent(q.blunder).padStart(6)} ${percentInterval(q.intervals.blunder)}  (blunder)`,
    );
  }
  return lines.join('\n');
}

const collect = (value: string, previous: string[]) => [...previous, value];

export function registerAgreeCommand(program: Command): void {
  program
    .command('agree')
    .description("agreement with a reference engine's best move (top 1 / 4 / third) and the chosen move's win-chance loss")
    .option('--positions <file>', 'labelled positions: JSON lines {"fen":…,"best":"e2e4","scores":{…}} or EPD with bm (- for stdin)')
    .option('--db <file>', 'rank with Morph over this database (opened read-only)')
    .option('--ranker <spec>', `rank with a built-in (repeatable): ${RANKER_FORMS}`, collect, [])
    .option('--json', 'JSON output, one object per ranker a line: {"positions":N,"top1":…,"quality":{…}, …}')
    .optionsGroup("Morph's search and evaluation (with --db):")
    .option('--search <search>', `with --db: ${SEARCH_HELP} (default: the database's)`)
    .option('--maturity <n>', "with --db: use patterns of at least this many updates (default: the database's)")
    .option('--evaluation <fn>', `with --db: ${EVALUATION_FUNCTIONS.join(' | ')} (default: the database's)`)
    .option('--prior <n>', "with --db: pseudo-counts shrinking weights for shrunk (default: the database's)")
    .option('--material-prior <k>', `with --db: ${MATERIAL_PRIOR_HELP}`)
    .option('--no-graph-patterns', 'with --db: without what the graph patterns add (their terms and the policy\'s term): material and square values only')
    .option('--move-patterns <file>', 'with --db: the move-pattern database (morph model --move-patterns) whose highest-ranked quiet moves a search with patterns=K follows')
    .optionsGroup("Morph's move policy (with --db):")
    .option('--policy <file>', "with --db: a model of a strong player (morph model) as the move policy (default: the database's own, DB.policy.db, if built)")
    .option('--no-policy', 'with --db: no move policy')
    .option('--policy-weight <x>', POLICY_WEIGHT_HELP)
    .action(
      action((opts: AgreeOptions) => {
        if (!opts.positions) throw badInput('give the labelled positions: --positions FILE');
        if (!opts.db && opts.ranker.length === 0) throw badInput('give --db FILE or --ranker SPEC (or both)');
        const maturity = opts.maturity !== undefined ? parseIntegerOption('--maturity', opts.maturity, 0) : undefined;
        const prior = opts.prior !== undefined ? parseNumberOption('--prior', opts.prior, 0, 1e6) : undefined;
        const materialPrior = parseMaterialPriorOption(opts.materialPrior);
        const search = parseSearchOption(opts.search);
        if (typeof opts.policy === 'string') checkDatabaseFileKind(opts.policy, 'opponent-model');
        if (opts.movePatterns !== undefined) checkDatabaseFileKind(opts.movePatterns, 'move-patterns');
        const policyWeight = parsePolicyWeightOption(opts.policyWeight);
        if (opts.evaluation !== undefined && !(EVALUATION_FUNCTIONS as readonly string[]).includes(opts.evaluation)) {
          throw badInput(`--evaluation must be one of ${EVALUATION_FUNCTIONS.join(', ')}`);
        }
        const specs = opts.ranker.flatMap((spec) => (spec.trim() === 'all' ? BUILT_IN_RANKERS : [spec]));
        // Every spec is checked before any work starts.
        for (const spec of specs) createRanker(spec).close();
        const lines = readInputLines(opts.positions);
        const parsed = parseLabelledPositions(lines);
        const problems: PositionProblem[] = parsed.problems;
        for (const problem of problems) reportError(new MorphError(`line ${problem.line}: ${problem.message}`, BAD_INPUT));
        if (parsed.positions.length === 0) throw badInput(`no usable positions in ${opts.positions}`);
        const makers: (() => MoveRanker)[] = [
          ...(opts.db
            ? [() => morphRanker(opts.db!, {
                maturity, evaluation: opts.evaluation as EvaluationFunction | undefined, prior, materialPrior, search, policy: opts.policy, policyWeight,
                graphPatterns: opts.graphPatterns === false ? false : undefined, movePatterns: opts.movePatterns,
              })]
            : []),
          ...specs.map((spec) => () => createRanker(spec)),
        ];
        const reports: string[] = [];
        for (const make of makers) {
          const ranker = make();
          try {
            const report = measureAgreement(parsed.positions, ranker);
            reports.push(opts.json ? JSON.stringify({ ...report, skipped: problems.length }) : reportText(report));
          } finally {
            ranker.close();
          }
        }
        printLine(reports.join(opts.json ? '\n' : '\n\n'));
        if (problems.length > 0) process.exitCode = BAD_INPUT;
      }),
    );
}
