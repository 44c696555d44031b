/** `morph uci`: Morph as a UCI engine on stdin/stdout, for chess GUIs and engine matches. */
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { defaultDatabasePath, openStoreForReading } from '../../store/location.ts';
import type { PatternStore } from '../../store/patternStore.ts';
import { MAX_MATURITY, MAX_SEED, UciEngine, type UciEngineConfig } from '../../uci/engine.ts';
import { checkDatabaseFileKind } from '../../store/databaseKind.ts';
import { isCoached, morphPlayerWithModels, type ModelMode } from '../../model/predictedReplies.ts';
import { MovePatterns } from '../../model/movePatterns.ts';
import { OpponentModel } from '../../model/opponentModel.ts';
import { action } from '../run.ts';
import { parseIntegerOption, parsePolicyWeightOption, parseSearchOption, POLICY_WEIGHT_HELP, MODEL_MODE_HELP, parseModelModeOption, SEARCH_HELP } from '../options.ts';
import { policyModelFor } from '../../model/ownPolicy.ts';
import { badInput } from '../../util/errors.ts';
import { extensionsOf, movePatternsNeeded, type SearchSpec } from '../../search/extensions.ts';
import { storedConfig } from '../../learn/config.ts';

interface UciOptions {
  db?: string;
  maturity?: string;
  search?: string;
  seed: string;
  model?: string;
  modelMode?: string;
  policy?: string | false;
  policyWeight?: string;
  movePatterns?: string;
}

export function registerUciCommand(program: Command): void {
  program
    .command('uci')
    .description('run Morph as a UCI engine (for chess GUIs): reads commands on stdin, answers on stdout')
    .option('--db <file>', 'pattern database (default: data/morph.db in the checkout, or $MORPH_DB)')
    .option('--seed <n>', 'seed for the random tie-break (UCI option Seed)', '1')
    .optionsGroup('Search and evaluation:')
    .option('--search <search>', `${SEARCH_HELP}: how far Morph looks (UCI option Search; default: the database's)`)
    .option('--maturity <n>', "ignore patterns with fewer updates than this (UCI option Maturity; default: the database's)")
    .option('--move-patterns <file>', 'the move-pattern database (morph model --move-patterns) whose highest-ranked quiet moves a search with patterns=K follows (loaded at isready)')
    .optionsGroup('Move policy:')
    .option('--policy <file>', "a model of a strong player (morph model) as Morph's move policy (default: the database's own, DB.policy.db, if built)")
    .option('--no-policy', 'play without a move policy')
    .option('--policy-weight <x>', POLICY_WEIGHT_HELP)
    .optionsGroup('Opponent model:')
    .option('--model <file>', "an opponent model of the engine's opponent: Morph looks along its predicted replies (UCI option OpponentModel)")
    .option('--model-mode <mode>', MODEL_MODE_HELP)
    .action(
      action(async (opts: UciOptions) => {
        const maturity = opts.maturity === undefined ? undefined : parseIntegerOption('--maturity', opts.maturity, 0, MAX_MATURITY);
        const search = parseSearchOption(opts.search);
        const seed = parseIntegerOption('--seed', opts.seed, 0, MAX_SEED);
        // A bad --db fails here, as a one-line error, before any protocol is spoken: the file is checked (header
        // and schema, quickly), while the patterns are loaded only at `isready`, so `uci` is answered at once.
        const fresh = opts.db === undefined && !existsSync(defaultDatabasePath());
        let databaseMaturity: number | undefined;
        let databaseSearch: SearchSpec | undefined;
        let databaseMaterialPrior: number | undefined;
        if (!fresh) {
          ({ maturity: databaseMaturity, playSearch: databaseSearch, materialPrior: databaseMaterialPrior } = storedConfig(
            opts.db ?? defaultDatabasePath(),
          ));
        }
        if (opts.model !== undefined) checkDatabaseFileKind(opts.model, 'opponent-model');
        if (typeof opts.policy === 'string') checkDatabaseFileKind(opts.policy, 'opponent-model');
        const modelMode = parseModelModeOption(opts.modelMode);
        if (isCoached(opts.model !== undefined, modelMode) && typeof opts.policy === 'string') {
          throw badInput('--model-mode coach plays without a policy: leave out --policy');
        }
        const policyWeight = parsePolicyWeightOption(opts.policyWeight);
        if (opts.movePatterns !== undefined) checkDatabaseFileKind(opts.movePatterns, 'move-patterns');
        else if (search !== undefined && extensionsOf(search).patterns > 0) {
          throw badInput(`--search ${movePatternsNeeded(search, 'give a move-pattern database (--move-patterns FILE)')}`);
        }
        await runUciEngine({
          store: () => openStoreForReading(opts.db).store,
          fresh,
          dbOption: opts.db,
          maturity,
          databaseMaturity,
          search,
          databaseSearch,
          databaseMaterialPrior,
          seed,
          movePatterns: opts.movePatterns !== undefined,
          ...playerFactory({ policy: opts.policy, policyWeight, opponentModel: opts.model, modelMode, movePatterns: opts.movePatterns }),
        });
      }),
    );
}

async function runUciEngine(setup: {
  store: () => PatternStore;
  fresh: boolean;
  dbOption: string | undefined;
  maturity: number | undefined;
  databaseMaturity: number | undefined;
  search: SearchSpec | undefined;
  databaseSearch: SearchSpec | undefined;
  databaseMaterialPrior: number | undefined;
  seed: number;
  movePatterns: boolean;
  createPlayer?: UciEngineConfig['createPlayer'];
  opponentModel?: UciEngineConfig['opponentModel'];
}): Promise<void> {
  // A GUI that goes away closes our stdout; that must end the engine quietly, not with an EPIPE stack trace.
  let outputOpen = true;
  process.stdout.on('error', () => {
    outputOpen = false;
  });
  const write = (line: string) => {
    if (outputOpen) process.stdout.write(line + '\n');
  };
  const input = createInterface({ input: process.stdin, terminal: false });
  const finished = new Promise<void>((resolve) => {
    const engine = new UciEngine({
      store: setup.store,
      databasePath: setup.dbOption ?? defaultDatabasePath(),
      // An empty value means the database the engine was started with (or the default one).
      openDatabase: (path) => openStoreForReading(path === '' ? setup.dbOption : path).store,
      maturity: setup.maturity,
      databaseMaturity: setup.databaseMaturity,
      search: setup.search,
      databaseSearch: setup.databaseSearch,
      databaseMaterialPrior: setup.databaseMaterialPrior,
      seed: setup.seed,
      movePatterns: setup.movePatterns,
      createPlayer: setup.createPlayer,
      opponentModel: setup.opponentModel,
      write,
      notice: setup.fresh ? `no database at ${defaultDatabasePath()} yet: every move values 0.5` : undefined,
      onQuit: () => {
        input.close();
        process.stdin.destroy(); // an open stdin would keep the process alive after quit
        resolve();
      },
    });
    input.on('line', (line) => engine.handleLine(line));
    input.on('close', () => engine.end()); // end of input is quit
  });
  await finished;
}

/**
 * Morph over whatever value database the engine plays from, with its models: the opponent model (given with
 * --model or by the UCI option OpponentModel), and the move policy given, else that database's own if built
 * (none after --no-policy, or for IAM's coach), and the move patterns given with --move-patterns. Each model is
 * loaded once, when the first player is built.
 */
function playerFactory(setup: {
  policy: string | false | undefined;
  policyWeight: number | undefined;
  opponentModel: string | undefined;
  modelMode: ModelMode | undefined;
  movePatterns: string | undefined;
}): Pick<UciEngineConfig, 'createPlayer' | 'opponentModel'> {
  let movePatterns: MovePatterns | undefined;
  const policies = new Map<string, OpponentModel | null>();
  let opponentPath = setup.opponentModel;
  let opponent: OpponentModel | null = null;
  const select = (path: string) => {
    if (path !== '') {
      checkDatabaseFileKind(path, 'opponent-model');
      if (isCoached(true, setup.modelMode) && typeof setup.policy === 'string') {
        throw badInput('--model-mode coach plays without a policy, and a policy was given');
      }
    }
    const opened = path === '' ? null : OpponentModel.open(path);
    opponent?.close();
    opponent = opened;
    opponentPath = path === '' ? undefined : path;
  };
  const createPlayer: UciEngineConfig['createPlayer'] = (store, options, name) => {
    if (opponentPath !== undefined) opponent ??= OpponentModel.open(opponentPath);
    const coached = isCoached(opponentPath !== undefined, setup.modelMode);
    const path = coached ? undefined : policyModelFor(store.path, setup.policy);
    let policy: OpponentModel | null = null;
    if (path !== undefined) {
      if (!policies.has(path)) policies.set(path, openPolicyOrWarn(path));
      policy = policies.get(path)!;
    }
    if (setup.movePatterns !== undefined) movePatterns ??= MovePatterns.open(setup.movePatterns);
    return morphPlayerWithModels(store, { ...options, movePatterns }, { opponent, policy, policyWeight: setup.policyWeight, mode: setup.modelMode }, name);
  };
  return { createPlayer, opponentModel: { path: setup.opponentModel ?? '', select } };
}

/**
 * A GUI waits for a bestmove: a database's own policy that cannot be read is left out, not fatal (a policy the
 * user named was checked before the engine started).
 */
function openPolicyOrWarn(path: string): OpponentModel | null {
  try {
    return OpponentModel.open(path);
  } catch (error) {
    process.stderr.write(`morph: playing without the move policy ${path}: ${(error as Error).message.split('\n')[0]}\n`);
    return null;
  }
}
