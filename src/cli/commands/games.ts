/** `morph games`: the training games a database recorded, listed with filters or written out as PGN. Read-only. */
import type { Command } from 'commander';
import { trainingGamePgn } from '../../inspect/pgnExport.ts';
import { withSnapshot } from '../../inspect/source.ts';
import { gameListText, parseResultFilter, readTrainingGames, RESULT_FILTERS, type GameFilter } from '../../inspect/trainingGames.ts';
import { BAD_INPUT, MorphError } from '../../util/errors.ts';
import { action, printLine, reportError } from '../run.ts';
import { parseIntegerOption } from '../options.ts';
import { writeTextFile } from './inspect.ts';

interface GamesOptions {
  db?: string;
  run?: string;
  opponent?: string;
  result?: string;
  last?: string;
  pgn?: string;
  json?: boolean;
}

export function registerGamesCommand(program: Command): void {
  program
    .command('games')
    .description('list the training games a database recorded, or write them as PGN (--pgn FILE, or - for stdout)')
    .option('--db <file>', 'pattern database (default: data/morph.db in the checkout, or $MORPH_DB)')
    .option('--run <id>', 'games of this run only (run ids as in the report)')
    .option('--opponent <text>', 'games against an opponent whose spec contains this text, e.g. stockfish')
    .option('--result <result>', `Morph's result or the game's: ${RESULT_FILTERS.join(' | ')}`)
    .option('--last <n>', 'only the last N games that pass the filters')
    .option('--pgn <file>', 'write the games as PGN (standard Termination tags, movetext wrapped at 79 columns)')
    .option('--json', 'list as JSON lines: one {"id","runId","opponent","result","reason",…} per game')
    .action(
      action((opts: GamesOptions) => {
        const filter: GameFilter = {
          run: opts.run === undefined ? undefined : parseIntegerOption('--run', opts.run, 1),
          opponent: opts.opponent,
          result: opts.result === undefined ? undefined : parseResultFilter(opts.result),
          last: opts.last === undefined ? undefined : parseIntegerOption('--last', opts.last, 1),
        };
        const games = withSnapshot(opts.db, ({ db }) => readTrainingGames(db, filter));
        if (opts.pgn === undefined) {
          if (opts.json) for (const { pgn: _pgn, ...game } of games) printLine(JSON.stringify(game));
          else printLine(games.length ? gameListText(games) : 'no games match');
          return;
        }
        const texts: string[] = [];
        let failures = 0;
        let withoutPgn = 0;
        for (const game of games) {
          // Games recorded without their moves (none are, by morph train) are counted, not errors.
          if (!game.pgn) {
            withoutPgn++;
            continue;
          }
          const pgn = trainingGamePgn(game);
          if (pgn instanceof Error) {
            failures++;
            reportError(new MorphError(pgn.message, BAD_INPUT));
          } else texts.push(pgn);
        }
        // Games are separated by one empty line, as the PGN standard's export format has them.
        const text = texts.join('\n');
        if (opts.pgn === '-') process.stdout.write(text);
        else {
          writeTextFile(opts.pgn, text);
          printLine(`wrote ${texts.length} game${texts.length === 1 ? '' : 's'} to ${opts.pgn}`);
        }
        if (withoutPgn) process.stderr.write(`morph: ${withoutPgn} of the games have no stored PGN and were left out\n`);
        if (failures) process.exitCode = BAD_INPUT;
      }),
    );
}
