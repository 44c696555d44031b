/** `morph report`: a static HTML report with SVG charts and pattern boards (src/report). Read-only. */
import type { Command } from 'commander';
import { action, printLine } from '../run.ts';
import { parseIntegerOption } from '../options.ts';

interface ReportOptions {
  db?: string;
  out: string;
  top: string;
  minUpdates: string;
  games: string;
  json?: boolean;
}

export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description('write a static HTML report: runs, score and Elo per opponent, results, growth, material, patterns, last games')
    .option('--db <file>', 'pattern database (default: data/morph.db in the checkout, or $MORPH_DB)')
    .option('--out <dir>', 'directory to write index.html into (morph-report/ is git-ignored)', 'morph-report')
    .option('--top <n>', 'strongest and weakest graph patterns to draw, one per idea', '8')
    .option('--min-updates <n>', 'draw only patterns updated at least this many times', '10')
    .option('--games <n>', 'the last games to list with their PGN', '10')
    .option('--json', 'print what was written as JSON: {"file","games","patterns","charts":[{"id","points"}],…}')
    .action(
      action(async (opts: ReportOptions) => {
        // Loaded here, not at start-up: Vega takes most of a second to import and no other command needs it.
        const { writeReport } = await import('../../report/report.ts');
        const result = await writeReport(opts.db, opts.out, {
          top: parseIntegerOption('--top', opts.top, 0),
          minUpdates: parseIntegerOption('--min-updates', opts.minUpdates, 0),
          lastGames: parseIntegerOption('--games', opts.games, 0),
        });
        if (opts.json) printLine(JSON.stringify(result));
        else {
          printLine(`wrote ${result.file}`);
          printLine(
            `  ${result.games} games, ${result.patterns} patterns; ${result.runs} runs; ${result.charts.length} charts, ` +
              `${result.strongestPatterns.length + result.weakestPatterns.length} patterns drawn, ${result.lastGames.length} games listed`,
          );
        }
      }),
    );
}
