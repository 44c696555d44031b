/** The `morph` command line: one program, one module per command. */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { reportError } from './run.ts';

// Output piped into `head` and the like: a closed stdout ends the command quietly, not with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const program = new Command();
program
  .name('morph')
  .description('Morph: a chess player that learns patterns from experience alone')
  .version(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version)
  .showHelpAfterError('(run with --help for usage)')
  .exitOverride();

type Register = (program: Command) => void;

/**
 * Every command, in the order --help lists them: the order a new user needs them (train, then play against what
 * it learned, use it in a GUI, look inside, report, measure), then the rest. Each command's module is loaded only
 * when it is registered, and a command given by name registers alone: `morph uci` answers a GUI without loading
 * training, reports and exports first (start-up to uciok, README "Morph in a chess GUI").
 */
const COMMANDS: [names: string[], load: () => Promise<Register>][] = [
  [['train', 'train-worker'], async () => (await import('./commands/train.ts')).registerTrainCommand],
  [['play'], async () => (await import('./commands/play.ts')).registerPlayCommand],
  [['uci'], async () => (await import('./commands/uci.ts')).registerUciCommand],
  [['inspect'], async () => (await import('./commands/inspect.ts')).registerInspectCommand],
  [['report'], async () => (await import('./commands/report.ts')).registerReportCommand],
  [['match'], async () => (await import('./commands/match.ts')).registerMatchCommand],
  [['move'], async () => (await import('./commands/move.ts')).registerMoveCommand],
  [['learn'], async () => (await import('./commands/learn.ts')).registerLearnCommand],
  [['games'], async () => (await import('./commands/games.ts')).registerGamesCommand],
  [['export'], async () => (await import('./commands/export.ts')).registerExportCommand],
  [['agree'], async () => (await import('./commands/agree.ts')).registerAgreeCommand],
  [['model'], async () => (await import('./commands/model.ts')).registerModelCommand],
  [['predict'], async () => (await import('./commands/predict.ts')).registerPredictCommand],
  [['graph'], async () => (await import('./commands/graph.ts')).registerGraphCommand],
];

try {
  // The command named first on the line (there are no options before it); --version needs none; anything else
  // (--help, help, an unknown name) needs them all, for the full list or commander's suggestion. Loaded together,
  // registered in order.
  const first = process.argv[2];
  const named = COMMANDS.find(([names]) => names.includes(first));
  const needed = named ? [named] : first === '--version' || first === '-V' ? [] : COMMANDS;
  for (const register of await Promise.all(needed.map(([, load]) => load()))) register(program);
  await program.parseAsync(process.argv);
} catch (error) {
  const code = (error as { code?: string; exitCode?: number }).code;
  if (code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help') {
    process.exitCode = 0;
  } else if (typeof code === 'string' && code.startsWith('commander.')) {
    process.exitCode = 2; // commander has already printed its one-line message
  } else {
    process.exitCode = reportError(error);
  }
}
