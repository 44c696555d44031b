/** The `morph` command line: one program, one module per command. */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { registerGraphCommand } from './commands/graph.ts';
import { registerMoveCommand } from './commands/move.ts';
import { registerTrainCommand } from './commands/train.ts';
import { registerLearnCommand } from './commands/learn.ts';
import { registerPlayCommand } from './commands/play.ts';
import { registerUciCommand } from './commands/uci.ts';
import { registerInspectCommand } from './commands/inspect.ts';
import { registerReportCommand } from './commands/report.ts';
import { registerExportCommand } from './commands/export.ts';
import { registerMatchCommand } from './commands/match.ts';
import { registerAgreeCommand } from './commands/agree.ts';
import { registerGamesCommand } from './commands/games.ts';
import { registerModelCommand } from './commands/model.ts';
import { registerPredictCommand } from './commands/predict.ts';
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

// Registered in the order --help lists them: the order a new user needs them (train, then play against what it
// learned, use it in a GUI, look inside, report, measure), then the rest.
registerTrainCommand(program);
registerPlayCommand(program);
registerUciCommand(program);
registerInspectCommand(program);
registerReportCommand(program);
registerMatchCommand(program);
registerMoveCommand(program);
registerLearnCommand(program);
registerGamesCommand(program);
registerExportCommand(program);
registerAgreeCommand(program);
registerModelCommand(program);
registerPredictCommand(program);
registerGraphCommand(program);

try {
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
