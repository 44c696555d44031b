/**
 * `morph inspect`: a read-only look inside a database (summary, material table, pattern listing, one pattern).
 * Safe beside a running `morph train` on the same file: it opens read-only and reads one committed snapshot.
 */
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { withSnapshot } from '../../inspect/source.ts';
import { readSquareTables, squareTablesText } from '../../inspect/squares.ts';
import { readRelationTerms, relationTermsText } from '../../inspect/relations.ts';
import { readSummary, summaryText } from '../../inspect/summary.ts';
import { materialRowJson, materialTableText, pieceValuesText, readMaterialTable, tablePieceValues } from '../../inspect/material.ts';
import {
  IMPORTANCE_NOTE, PATTERN_SORT_KEYS, listPatterns, parsePatternId, patternDetailJson, patternDetailText, patternListText, readPatternDetail,
  type PatternSortKey,
} from '../../inspect/patterns.ts';
import { patternDiagramText } from '../../inspect/patternText.ts';
import { movePatternListingJson, movePatternListingSvg, movePatternListingText, readMovePatterns } from '../../inspect/movePatterns.ts';
import { patternSvg } from '../../inspect/patternSvg.ts';
import { databaseKind } from '../../store/databaseKind.ts';
import { badInput } from '../../util/errors.ts';
import { action, printLine } from '../run.ts';
import { parseIntegerOption } from '../options.ts';

/** The material rows `inspect material` shows unless asked for more: the piece values above sum up the rest. */
const MATERIAL_ROWS_SHOWN = 10;

interface CommonOptions {
  db?: string;
  json?: boolean;
}

interface PatternsOptions extends CommonOptions {
  sort: string;
  ascending?: boolean;
  kind?: string;
  size?: string;
  minUpdates?: string;
  limit: string;
}

/** Options given to `inspect` itself or after a subcommand (commander hands both to the parent). */
function common(command: Command): CommonOptions {
  return command.optsWithGlobals() as CommonOptions;
}

export function writeTextFile(path: string, text: string): void {
  try {
    writeFileSync(path, text);
  } catch (error) {
    throw badInput(`cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

export function registerInspectCommand(program: Command): void {
  const inspect = program
    .command('inspect')
    .description('look inside a database, read-only (safe while training writes to it): summary, material, squares, relations, patterns, move-patterns')
    .option('--db <file>', 'pattern database (default: data/morph.db in the checkout, or $MORPH_DB)')
    .option('--json', 'JSON output')
    .configureHelp({ showGlobalOptions: true })
    .addHelpText(
      'after',
      '\nSquares in patterns are normal-form squares: the side that just moved is drawn as White moving up the board.',
    )
    .action(
      action((_opts: CommonOptions, command: Command) => {
        const opts = common(command);
        const summary = withSnapshot(opts.db, ({ db, path }) => readSummary(db, path));
        printLine(opts.json ? JSON.stringify(summary) : summaryText(summary));
      }),
    );

  inspect
    .command('material')
    .description(
      `the piece values fitted to the material patterns, then the most updated of them as the paper's Table 1 (${MATERIAL_ROWS_SHOWN}; --all for every one), with the traditional value beside each`,
    )
    .option('--all', 'show every material pattern')
    .option('--limit <n>', `show at most this many rows, most updated first (default ${MATERIAL_ROWS_SHOWN}; with --json every row)`)
    .action(
      action((local: { all?: boolean; limit?: string }, command: Command) => {
        const opts = common(command);
        if (local.all && local.limit !== undefined) throw badInput('give --all or --limit, not both');
        const limit = local.limit === undefined ? undefined : parseIntegerOption('--limit', local.limit, 1);
        const table = withSnapshot(opts.db, ({ db }) => readMaterialTable(db));
        // JSON is for scripts: every row unless --limit says otherwise, as it always was.
        if (opts.json) return printLine(JSON.stringify((limit === undefined ? table : table.slice(0, limit)).map(materialRowJson)));
        const shown = local.all ? table : table.slice(0, limit ?? MATERIAL_ROWS_SHOWN);
        const more = shown.length < table.length ? `\n(${table.length - shown.length} more: --all shows every one)` : '';
        printLine(`${pieceValuesText(tablePieceValues(table))}\n\n${materialTableText(shown, table.length)}${more}`);
      }),
    );

  inspect
    .command('squares')
    .description("the square values Morph plays with: its policy's, fitted to its partner's choices, one board per piece type; of an opponent model given as --db, the model's own")
    .option('--policy <model>', "another policy model's (default: the database's own, DB.policy.db)")
    .action(
      action((local: { policy?: string }, command: Command) => {
        const opts = common(command);
        const tables = withSnapshot(opts.db, ({ db, path }) =>
          readSquareTables(path, local.policy ?? (databaseKind(db) === 'opponent-model' ? path : undefined)),
        );
        printLine(opts.json ? JSON.stringify(tables) : squareTablesText(tables));
      }),
    );

  inspect
    .command('relations')
    .description('the relation terms Morph plays with: the smallest graph patterns (a piece and its safety, one attack or defence), learned toward the play search\'s values, strongest first')
    .option('--limit <n>', 'show this many of each set, strongest first', '15')
    .action(
      action((local: { limit: string }, command: Command) => {
        const opts = common(command);
        const limit = parseIntegerOption('--limit', local.limit, 1);
        const terms = withSnapshot(opts.db, ({ db }) => readRelationTerms(db, limit));
        printLine(opts.json ? JSON.stringify(terms) : relationTermsText(terms));
      }),
    );

  inspect
    .command('patterns')
    .description('list patterns with their statistics, sorted and filtered: by default the ones that matter most (evidence times effect)')
    .option('--sort <key>', `${PATTERN_SORT_KEYS.join(' | ')} (largest first; ${IMPORTANCE_NOTE})`, 'importance')
    .option('--ascending', 'smallest first')
    .option('--kind <kind>', 'graph | material')
    .option('--size <n>', 'only graph patterns of this many nodes')
    .option('--min-updates <n>', 'only patterns updated at least this many times')
    .option('--limit <n>', 'show at most this many (0: all)', '20')
    .action(
      action((local: PatternsOptions, command: Command) => {
        const opts = common(command);
        if (!PATTERN_SORT_KEYS.includes(local.sort as PatternSortKey)) {
          throw badInput(`--sort must be one of ${PATTERN_SORT_KEYS.join(', ')}, got "${local.sort}"`);
        }
        if (local.kind !== undefined && local.kind !== 'graph' && local.kind !== 'material') {
          throw badInput(`--kind must be graph or material, got "${local.kind}"`);
        }
        const limit = parseIntegerOption('--limit', local.limit, 0);
        const query = {
          sort: local.sort as PatternSortKey,
          ascending: !!local.ascending,
          kind: local.kind as 'graph' | 'material' | undefined,
          size: local.size === undefined ? undefined : parseIntegerOption('--size', local.size, 0),
          minUpdates: local.minUpdates === undefined ? undefined : parseIntegerOption('--min-updates', local.minUpdates, 0),
          limit: limit === 0 ? undefined : limit,
        };
        const { total, rows } = withSnapshot(opts.db, ({ db }) => listPatterns(db, query));
        printLine(opts.json ? JSON.stringify(rows) : patternListText(rows, total, query.sort));
      }),
    );

  inspect
    .command('move-patterns')
    .description("a move-pattern database's strongest patterns (morph model --move-patterns; --db FILE): what most favours a move, with how often a move matching each was chosen, the first few drawn on a board")
    .option('--min-uses <n>', 'only patterns that matched at least this many legal moves while learning', '20')
    .option('--limit <n>', 'show at most this many', '15')
    .option('--draw <n>', 'draw this many of them on a board', '3')
    .option('--ascending', 'the patterns that most disfavour a move instead')
    .option('--svg <file>', 'also draw the first --draw of them on SVG boards, the move an arrow to its destination, all in this one file')
    .action(
      action((local: { minUses: string; limit: string; draw: string; ascending?: boolean; svg?: string }, command: Command) => {
        const opts = common(command);
        const minUses = parseIntegerOption('--min-uses', local.minUses, 0);
        const limit = parseIntegerOption('--limit', local.limit, 1);
        const drawn = parseIntegerOption('--draw', local.draw, 0);
        if (local.svg !== undefined && drawn === 0) throw badInput('--svg draws the first --draw patterns: give --draw 1 or more');
        const listing = withSnapshot(opts.db, ({ db, path }) => readMovePatterns(db, path, { minUses, limit, ascending: !!local.ascending }));
        if (local.svg !== undefined) writeTextFile(local.svg, movePatternListingSvg(listing, minUses, drawn, !!local.ascending) + '\n');
        if (opts.json) {
          printLine(JSON.stringify({ ...movePatternListingJson(listing), ...(local.svg !== undefined ? { svg: local.svg } : {}) }));
        } else {
          printLine(
            movePatternListingText(listing, minUses, drawn, (pattern) => patternDiagramText(pattern, true)) +
              (local.svg !== undefined ? `\nSVG written to ${local.svg}` : ''),
          );
        }
      }),
    );

  inspect
    .command('pattern')
    .description('one pattern: drawn on a board, its statistics, parents and children')
    .argument('<id>', 'pattern id (from `morph inspect patterns`)')
    .option('--svg <file>', 'also draw it on an SVG board into this file')
    .action(
      action((idText: string, local: { svg?: string }, command: Command) => {
        const opts = common(command);
        const id = parsePatternId(idText);
        const detail = withSnapshot(opts.db, ({ db, path }) => readPatternDetail(db, id, path));
        if (local.svg) {
          const title = `Pattern ${detail.id} · weight ${detail.weight.toFixed(3)} · ${detail.updates} updates`;
          writeTextFile(local.svg, patternSvg(detail.pattern, { title }) + '\n');
        }
        if (opts.json) {
          printLine(JSON.stringify({ ...patternDetailJson(detail), ...(local.svg ? { svg: local.svg } : {}) }));
        } else {
          printLine(patternDetailText(detail, patternDiagramText(detail.pattern)) + (local.svg ? `\nSVG written to ${local.svg}` : ''));
        }
      }),
    );
}
