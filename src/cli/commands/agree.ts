/**
 * `morph agree`: how often a ranker's top moves contain a reference engine's best move, over a file of
 * labelled positions (one {"fen","best"} object per line; training/make-agreement-set.ts builds one).
 */
import type { Command } from 'commander';
import { parseLabelledPositions, type PositionProblem } from '../../agree/positions.ts';
import { createRanker, morphRanker, RANKER_FORMS, type MoveRanker } from '../../agree/rankers.ts';
import { measureAgreement, type AgreementReport } from '../../agree/metrics.ts';
import { BAD_INPUT, badInput, MorphError } from '../../util/errors.ts';
import { action, printLine, reportError } from '../run.ts';
import { readInputLines } from '../lines.ts';
import { parseIntegerOption } from '../options.ts';

interface AgreeOptions {
  positions?: string;
  db?: string;
  ranker?: string;
  maturity?: string;
  json?: boolean;
}

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

function reportText(r: AgreementReport): string {
  return [
    `${r.ranker} on ${r.positions} positions (${r.meanLegal.toFixed(1)} legal moves on average):`,
    `  top 1      ${percent(r.top1).padStart(6)}   (random ${percent(r.random.top1)})`,
    `  top 4      ${percent(r.top4).padStart(6)}   (random ${percent(r.random.top4)})`,
    `  top third  ${percent(r.topThird).padStart(6)}   (random ${percent(r.random.topThird)})`,
  ].join('\n');
}

export function registerAgreeCommand(program: Command): void {
  program
    .command('agree')
    .description("share of labelled positions where a ranker's top 1 / top 4 / top third of moves holds the best move")
    .option('--positions <file>', 'labelled positions: one {"fen":…,"best":"e2e4"} per line (- for stdin)')
    .option('--db <file>', 'rank with Morph over this database (opened read-only)')
    .option('--ranker <spec>', `rank with a built-in: ${RANKER_FORMS}`)
    .option('--maturity <n>', "with --db: use patterns of at least this many updates (default: the database's)")
    .option('--json', 'JSON output: {"positions":N,"top1":…,"top4":…,"topThird":…, …}')
    .action(
      action((opts: AgreeOptions) => {
        if (!opts.positions) throw badInput('give the labelled positions: --positions FILE');
        if (!opts.db === !opts.ranker) throw badInput('give exactly one of --db FILE or --ranker SPEC');
        const maturity = opts.maturity !== undefined ? parseIntegerOption('--maturity', opts.maturity, 0) : undefined;
        const lines = readInputLines(opts.positions);
        const ranker: MoveRanker = opts.db ? morphRanker(opts.db, maturity) : createRanker(opts.ranker!);
        let report: AgreementReport;
        let problems: PositionProblem[];
        try {
          const parsed = parseLabelledPositions(lines);
          problems = parsed.problems;
          for (const problem of problems) {
            reportError(new MorphError(`line ${problem.line}: ${problem.message}`, BAD_INPUT));
          }
          if (parsed.positions.length === 0) throw badInput(`no usable positions in ${opts.positions}`);
          report = measureAgreement(parsed.positions, ranker);
        } finally {
          ranker.close();
        }
        printLine(opts.json ? JSON.stringify({ ...report, skipped: problems.length }) : reportText(report));
        if (problems.length > 0) process.exitCode = BAD_INPUT;
      }),
    );
}
