/** `morph play`: a game against Morph in the terminal (the logic is in src/play/terminalGame.ts). */
import type { Command } from 'commander';
import { createInterface } from 'node:readline';
import { checkFen } from '../../chess/fen.ts';
import { playingMaturity } from '../../player/morphPlayer.ts';
import { isCoached, morphPlayerWithModels } from '../../model/predictedReplies.ts';
import { MovePatterns } from '../../model/movePatterns.ts';
import { OpponentModel } from '../../model/opponentModel.ts';
import { TerminalGame, type Side } from '../../play/terminalGame.ts';
import { openStoreForReading } from '../../store/location.ts';
import { badInput } from '../../util/errors.ts';
import { freshSeed } from '../../util/random.ts';
import { action, printLine, reportError } from '../run.ts';
import { evaluationWithMaterialPrior } from '../../learn/config.ts';
import { CONTEMPT_HELP, MATERIAL_PRIOR_HELP, parseContemptOption, parseIntegerOption, parseMaterialPriorOption, parsePolicyWeightOption, parseSearchOption, parseSeedOption, POLICY_WEIGHT_HELP, MODEL_MODE_HELP, parseModelModeOption, SEARCH_HELP } from '../options.ts';
import { openPolicyModel } from '../../model/ownPolicy.ts';
import { checkDatabaseFileKind } from '../../store/databaseKind.ts';

interface PlayOptions {
  db?: string;
  color: string;
  fen?: string;
  seed?: string;
  maturity?: string;
  search?: string;
  pgn?: string;
  model?: string;
  modelMode?: string;
  policy?: string | false;
  policyWeight?: string;
  movePatterns?: string;
  materialPrior?: string;
  contempt?: string;
}

export function registerPlayCommand(program: Command): void {
  program
    .command('play')
    .description('play a game against Morph in the terminal (moves in SAN or UCI; type help during the game)')
    .option('--db <file>', 'pattern database (default: data/morph.db in the checkout, or $MORPH_DB)')
    .option('--color <side>', 'your side: white or black', 'white')
    .option('--fen <fen>', 'start from this position instead of the initial one')
    .option('--seed <n>', "seed for Morph's random tie-break (default: a fresh one, shown at the start)")
    .option('--pgn <file>', 'save the game as PGN to this file when it ends')
    .optionsGroup('Search and evaluation:')
    .option('--search <search>', `${SEARCH_HELP}: how far Morph looks (default: the database's)`)
    .option('--maturity <n>', "Morph ignores patterns with fewer updates than this (default: the database's)")
    .option('--material-prior <k>', MATERIAL_PRIOR_HELP)
    .option('--contempt <c>', CONTEMPT_HELP)
    .option('--move-patterns <file>', 'the move-pattern database (morph model --move-patterns) whose highest-ranked quiet moves a search with patterns=K follows')
    .optionsGroup('Move policy:')
    .option('--policy <file>', 'a model of a strong player (morph model) as Morph\'s move policy (default: the database\'s own, DB.policy.db, if built)')
    .option('--no-policy', 'play without a move policy')
    .option('--policy-weight <x>', POLICY_WEIGHT_HELP)
    .optionsGroup('Opponent model:')
    .option('--model <file>', 'an opponent model of you (morph model): Morph looks along the replies it predicts')
    .option('--model-mode <mode>', MODEL_MODE_HELP)
    .action(
      action(async (opts: PlayOptions) => {
        const color = opts.color.toLowerCase();
        if (color !== 'white' && color !== 'black') throw badInput(`--color needs white or black, got "${opts.color}"`);
        const startFen = opts.fen === undefined ? undefined : checkFen(opts.fen);
        const chosenMaturity = opts.maturity === undefined ? undefined : parseIntegerOption('--maturity', opts.maturity, 0);
        const seed = parseSeedOption(opts.seed) ?? freshSeed();
        const chosenSearch = parseSearchOption(opts.search);
        const modelMode = parseModelModeOption(opts.modelMode);
        const coached = isCoached(opts.model !== undefined, modelMode);
        if (coached && typeof opts.policy === 'string') throw badInput('--model-mode coach plays without a policy: leave out --policy');
        const policyWeight = parsePolicyWeightOption(opts.policyWeight);
        const materialPrior = parseMaterialPriorOption(opts.materialPrior);
        const contempt = parseContemptOption(opts.contempt);
        if (typeof opts.policy === 'string') checkDatabaseFileKind(opts.policy, 'opponent-model');
        if (opts.movePatterns !== undefined) checkDatabaseFileKind(opts.movePatterns, 'move-patterns');
        const model = opts.model === undefined ? null : OpponentModel.open(opts.model);
        let opened: ReturnType<typeof openStoreForReading> | null = null;
        let policyModel: OpponentModel | null = null;
        let movePatterns: MovePatterns | undefined;
        try {
          opened = openStoreForReading(opts.db);
          // IAM's coach plays without a policy.
          if (!coached) policyModel = openPolicyModel(opened.store.path, opts.policy);
          if (opts.movePatterns !== undefined) movePatterns = MovePatterns.open(opts.movePatterns);
        } catch (error) {
          model?.close();
          policyModel?.close();
          opened?.store.close();
          throw error;
        }
        const { store, fresh } = opened;
        try {
          const maturity = playingMaturity(store, chosenMaturity);
          const models = { opponent: model, policy: policyModel, policyWeight, mode: modelMode };
          const evaluation = evaluationWithMaterialPrior(store.db, materialPrior);
          const player = morphPlayerWithModels(store, { maturity, seed, search: chosenSearch, evaluation, contempt, movePatterns }, models, 'Morph');
          printLine(
            fresh
              ? `Morph has no database yet (train first): every move values 0.5, so it plays at random. Seed ${seed}.`
              : `Morph plays from ${store.path} (${store.size} patterns, maturity ${maturity}, search ${player.search}, seed ${seed}).`,
          );
          if (opts.model !== undefined) {
            printLine(coached ? `Morph averages over the replies ${opts.model} predicts for you (IAM's coach).` : `Morph looks along the replies ${opts.model} predicts for you.`);
          }
          if (policyModel !== null) printLine(`Morph's move policy: ${policyModel.store.path}, weight ${player.policyWeight}.`);
          await playInTerminal(
            new TerminalGame({ player, humanColor: color as Side, startFen, autoPgnPath: opts.pgn, write: printLine }),
          );
        } finally {
          store.close();
          model?.close();
          policyModel?.close();
          movePatterns?.close();
        }
      }),
    );
}

/** Feeds stdin to the game line by line, with a prompt; the end of input ends the session like `quit`. */
function playInTerminal(game: TerminalGame): Promise<void> {
  const input = createInterface({ input: process.stdin, output: process.stdout, terminal: !!process.stdin.isTTY });
  return new Promise((resolve) => {
    input.on('close', () => {
      process.stdin.destroy(); // after quit, an open stdin would keep the process alive
      game.end();
      resolve();
    });
    input.on('line', (line) => {
      try {
        game.handleLine(line);
      } catch (error) {
        // Bad input never gets here (the game explains it); this is a bug, reported as one line.
        process.exitCode = reportError(error);
        input.close();
        return;
      }
      if (game.isClosed) {
        input.close();
        return;
      }
      input.setPrompt(game.prompt);
      input.prompt();
    });
    game.start();
    input.setPrompt(game.prompt);
    input.prompt();
  });
}
