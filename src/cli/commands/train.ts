/** `morph train`: an unattended training run against a sparring opponent (src/train/harness.ts). */
import { MATERIAL_FIT_ALONE } from '../../eval/materialFit.ts';
import type { Command } from 'commander';
import {
  DEFAULT_RETRY_BACKOFF_MS, DEFAULT_SNAPSHOT_EVERY, MAX_RETRY_BACKOFF_MS, StoppedBeforeFirstGame, StoppedByFailures, defaultJobs,
  maxJobs, runTraining, type TrainingSummary,
} from '../../train/harness.ts';
import { DEFAULT_HANG_TIMEOUT_MS } from '../../engines/engineProcess.ts';
import { EXIT_FAILURES, signalExitCode } from '../exitCodes.ts';
import { AUTO_RELOAD_FACTOR, runTrainWorker } from '../../train/trainWorker.ts';
import type { ProgressMode } from '../../train/progress.ts';
import { badInput } from '../../util/errors.ts';
import { extensionsOf } from '../../search/extensions.ts';
import { action, printLine, reportError } from '../run.ts';
import { parseIntegerOption, parseNumberOption, parsePositiveNumberOption, parseSearchOption, parseSeedOption, TRAINING_SEARCH_HELP } from '../options.ts';
import { DEFAULT_CONFIG, NEVER_FEWER_LESSONS, type ConfigPatch, type LearningConfig } from '../../learn/config.ts';
import { OWN_SQUARE_EVERY, policyModelFor } from '../../model/ownPolicy.ts';
import { openingPositions, readOpenings } from '../../match/openings.ts';
import { defaultDatabasePath } from '../../store/location.ts';
import { readScoredPositions, SCORED_POSITIONS } from '../../train/checkpointJudge.ts';
import { learnedText, measureMoveQuality, readLearned, yardstick, yardstickSample, YARDSTICK_POSITIONS, type Learned } from '../../train/learned.ts';

interface TrainOptions {
  db?: string;
  games?: string;
  hours?: string;
  opponent: string;
  seed?: string;
  pgn?: string;
  jsonLog?: string;
  maxPlies: string;
  progress: string;
  maxFailures: string;
  engineTimeout?: string;
  engineHang?: string;
  retryBackoff?: string;
  maturity?: string;
  evaluation?: string;
  language?: string;
  search?: string;
  playSearch?: string;
  prior?: string;
  materialPrior?: string;
  checkpointEvery?: string;
  /** --judge FILE, or false from --no-judge. */
  judge?: string | false;
  jobs?: string;
  snapshotEvery?: string;
  openings?: string;
  lambda?: string;
  targetMaturity?: string;
  relationLessons?: string;
  learnFrom?: string;
  beta?: string;
  discount?: string;
  updatePer?: string;
  temperature?: string;
  subgraphsPerGame?: string;
  regressionsPerGame?: string;
  generalisationsPerGame?: string;
  specialisationsPerGame?: string;
  /** True from --policy, false from --no-policy; undefined: as the database has it (ownPolicyAsFound). */
  policy?: boolean;
  yardstick?: boolean;
  json?: boolean;
}

const DEFAULT_GAMES = 20;

/**
 * Whether a run keeps a move policy when neither --policy nor --no-policy is given: where the database has one, so
 * that what it plays with stays current. A new database trains without: at four plies the policy, fitted to the
 * partner's choices, measured worth nothing (-42 Elo [-106, +20] with it against without), and a run without it
 * plays 2.3 times the games per core, as strong at 3,000 games (docs/lab/2026-12.md, sessions 82 and 83).
 */
function ownPolicyAsFound(dbPath: string): boolean {
  return policyModelFor(dbPath, undefined) !== undefined;
}

export function trainingSummaryText(s: TrainingSummary): string {
  const score = s.games ? ((s.wins + s.draws / 2) / s.games).toFixed(3) : '-';
  const perHour = s.seconds > 0 ? Math.round((s.games / s.seconds) * 3600) : 0;
  const trained = s.games > 0 ? `trained games ${s.firstGame}-${s.lastGame} (${s.games} games, ` : `trained no games (`;
  return [
    `${trained}${s.stopReason}), seed ${s.seed}` +
      (s.openings ? `, from ${s.openings.count} openings of ${s.openings.source}` : ''),
    `W/D/L ${s.wins}/${s.draws}/${s.losses}, score ${score}, ${s.failures} discarded`,
    `patterns ${s.patterns}; ${s.seconds.toFixed(1)} s (${perHour} games/hour, ${s.jobs} job${s.jobs === 1 ? '' : 's'}): ` +
      `Morph ${s.time.morph.toFixed(1)} s, opponent ${s.time.opponent.toFixed(1)} s, learning ${s.time.learning.toFixed(1)} s`,
    ...(s.policy !== null
      ? [`move policy ${s.policy.file}: learned ${s.policy.games} games as they were played${s.policy.rebuilt ? ' (built whole first)' : ''}, ` +
          `up to game ${s.policy.lastGame}, ${s.policy.patterns} patterns, ${s.policy.squareFits} square-value refits, ${s.policy.seconds.toFixed(1)} s`]
      : []),
  ].join('\n');
}

export function registerTrainCommand(program: Command): void {
  program
    .command('train')
    .description('train against a sparring opponent; learns after every game; resumes where the last run stopped')
    .option('--db <file>', 'pattern database (default: data/morph.db in the checkout, or $MORPH_DB)')
    .option('--games <n>', `games to play (default ${DEFAULT_GAMES} unless --hours is given)`)
    .option('--hours <h>', 'train for this many hours instead')
    .option('--opponent <spec>', 'stockfish[:skill=N,depth=N,…] | uci:PATH[:opt=v,…] | gnuchess[:depth=N] | morph:FILE | random | greedy | ab:D[,q][,t=T] | noisy:P:SPEC | self (self-play) | mix:SPEC;SPEC;… (game n plays member (n-1) mod k) | ladder:SPEC@N;…;SPEC (the first plays games 1-N, the next up to its bound, the last every game after)', 'stockfish')
    .option('--jobs <n>', `games played at once: one in this process on the live weights, the others by workers on snapshots of them; at most twice the cores (here ${maxJobs()}) and never more than --games (default: the cores, here ${defaultJobs()})`)
    .option('--seed <n>', 'run seed (default: the database\'s, or a fresh one, recorded)')
    .option('--openings <file>', 'start each pair of games (Morph white, then black) from the position of the next opening of this EPD or PGN suite, in an order the run seed shuffles, e.g. openings/train-6ply.epd (default: every game from the start position)')
    .option('--max-plies <n>', 'adjudicate a draw after this many plies', '300')
    .optionsGroup('Learning (saved in the database):')
    .option('--maturity <n>', 'play with patterns of at least this many updates')
    .option('--lambda <x>', 'TD(lambda)')
    .option('--discount <g>', 'per-position discount of later results toward a draw, (0.5, 1]')
    .option('--update-per <when>', 'game | position: move each pattern once per game, or once per position it matched')
    .option('--beta <x>', 'exponent of the update function that evaluates TD targets')
    .option('--learn-from <whose>', "own | both: learn from Morph's positions only, or the opponent's too")
    .option('--target-maturity <n>', 'evaluate TD targets with patterns of at least this many updates')
    .option('--evaluation <fn>', 'paper | shrunk: how matched patterns combine, in play and learning')
    .option('--prior <n>', 'pseudo-counts of a draw shrinking each weight, for shrunk')
    .option('--material-prior <k>', 'pseudo-counts of the fitted piece values blended into each material weight by the material searches, 0 for none, 1000000 for the fitted values alone (a new database: 1000000)')
    .option('--relation-lessons <n>', "positions of each game whose relation terms (the smallest graph patterns, read at every position the play search values) learn toward the play search's value of them (tens of milliseconds each), every game of the run; 0 for none (default 6)")
    .optionsGroup('Pattern creation (saved in the database):')
    .option('--language <name>', "paper | safety: the paper's pattern language, or with en-prise pieces marked (a new database: safety)")
    .option('--subgraphs-per-game <n>', 'node-ordered subgraphs proposed per game (default 6)')
    .option('--regressions-per-game <n>', 'patterns proposed by goal regression per game (default 2)')
    .option('--generalisations-per-game <n>', 'patterns proposed by generalisation per game (default 2)')
    .option('--specialisations-per-game <n>', 'patterns proposed by specialisation per game (default 2)')
    .optionsGroup('Search (saved in the database):')
    .option('--search <search>', `${TRAINING_SEARCH_HELP}: how far Morph looks in its training games (a new database: captures-mates)`)
    .option('--play-search <search>', `${TRAINING_SEARCH_HELP}: how far Morph looks when it plays from the database outside training (a new database: ${DEFAULT_CONFIG.playSearch})`)
    .option('--temperature <schedule>', 'constant:K | linear:K0->K1@G | exp:K0,HALF,KMIN')
    .optionsGroup('Workers:')
    .option('--snapshot-every <n>', `with --jobs > 1, games a worker plays before loading fresh weights, or auto: once its games took ${AUTO_RELOAD_FACTOR} times as long as loading them (default ${DEFAULT_SNAPSHOT_EVERY})`)
    .optionsGroup('Output and monitoring:')
    .option('--progress <mode>', 'auto | bar | lines | none', 'auto')
    .option('--json', 'print the run summary as JSON (what it learned under "learned")')
    .option('--yardstick', `end with Morph's move quality on ${YARDSTICK_POSITIONS} of the scored positions (--judge's, default positions/move-scores.jsonl), beside the same measure at the run's start (seconds more)`)
    .option('--pgn <file>', 'append every game to this PGN file')
    .option('--json-log <file>', 'append one JSON line per game')
    .option('--checkpoint-every <n>', 'keep a copy of the database (and its move policy) every N games beside it, in NAME.checkpoints/ for NAME.db (SQLite backup), and judge it as it plays on scored positions (about a minute; `morph report` draws the curve)')
    .option('--judge <file>', 'with --checkpoint-every: the scored positions (JSON lines with every move scored) each checkpoint is judged on (default: the 400 shipped in positions/move-scores.jsonl)')
    .option('--no-judge', 'with --checkpoint-every: keep the copies without judging them')
    .option('--policy', `keep a move policy beside the database (DB.policy.db), imitating the partner: it learns each partner game as soon as it is played, and its square values are refitted every ${OWN_SQUARE_EVERY} games and at the end (default: only for a database that has one already; a new one trains without)`)
    .option('--no-policy', "do not keep the database's move policy current, where it has one")
    .optionsGroup('External engines:')
    .option('--engine-timeout <ms>', 'per-move timeout for external engines (doubled, up to 8 times, for an engine that keeps running out of it while still computing)')
    .option('--engine-hang <ms>', `give up on an external engine that owes an answer but sends nothing and uses no CPU for this long (Linux; default ${DEFAULT_HANG_TIMEOUT_MS})`)
    .option('--retry-backoff <ms>', `wait before the game after a failed one, doubled for each failure in a row up to ${MAX_RETRY_BACKOFF_MS / 1000} s; 0 for none (default ${DEFAULT_RETRY_BACKOFF_MS})`)
    .option('--max-failures <n>', 'stop after this many discarded games in a row (exit code 3)', '5')
    .action(
      action(async (opts: TrainOptions) => {
        if (opts.games !== undefined && opts.hours !== undefined) throw badInput('give --games or --hours, not both');
        if (!['auto', 'bar', 'lines', 'none'].includes(opts.progress)) throw badInput(`--progress must be auto, bar, lines or none`);
        const config: ConfigPatch = {};
        if (opts.maturity !== undefined) config.maturity = parseIntegerOption('--maturity', opts.maturity, 0);
        if (opts.lambda !== undefined) config.lambda = parseNumberOption('--lambda', opts.lambda, 0, 1);
        if (opts.discount !== undefined) config.discount = parseNumberOption('--discount', opts.discount, 0.5, 1);
        if (opts.beta !== undefined) config.beta = parseNumberOption('--beta', opts.beta, 0, 10);
        if (opts.updatePer !== undefined) {
          if (opts.updatePer !== 'game' && opts.updatePer !== 'position') throw badInput('--update-per must be game or position');
          config.updatePer = opts.updatePer;
        }
        if (opts.learnFrom !== undefined) config.learnFrom = opts.learnFrom as LearningConfig['learnFrom'];
        if (opts.targetMaturity !== undefined) {
          config.targetMaturity = parseIntegerOption('--target-maturity', opts.targetMaturity, 0);
        }
        if (opts.relationLessons !== undefined) {
          config.relationLessons = parseIntegerOption('--relation-lessons', opts.relationLessons, 0, 1000);
          // N a game, as asked, for the whole run: a database saved before session 80 fell to one a game from 4,000 kept.
          config.relationLessonsFullAt = NEVER_FEWER_LESSONS;
        }
        if (opts.temperature !== undefined) config.temperature = opts.temperature;
        if (opts.evaluation !== undefined) config.evaluation = opts.evaluation as LearningConfig['evaluation'];
        if (opts.prior !== undefined) config.prior = parseNumberOption('--prior', opts.prior, 0, 1e6);
        if (opts.materialPrior !== undefined) config.materialPrior = parseNumberOption('--material-prior', opts.materialPrior, 0, MATERIAL_FIT_ALONE);
        if (opts.language !== undefined) config.language = opts.language as LearningConfig['language'];
        if (opts.search !== undefined) config.search = parseSearchOption(opts.search);
        if (opts.playSearch !== undefined) config.playSearch = parseSearchOption(opts.playSearch, '--play-search')!;
        // The patterns look reads a move-pattern database, which training does not yet carry (issue 71).
        for (const [option, search] of [['--search', config.search], ['--play-search', config.playSearch]] as const) {
          if (search !== undefined && extensionsOf(search).patterns > 0) throw badInput(`${option}: patterns=K is not yet for training (it needs a move-pattern database: morph agree --move-patterns)`);
        }
        // Creation rates: how fast a database grows (training/recipes/grow-100k.sh raises them).
        if (opts.subgraphsPerGame !== undefined) {
          config.subgraphsPerGame = parseIntegerOption('--subgraphs-per-game', opts.subgraphsPerGame, 0, 1000);
        }
        if (opts.regressionsPerGame !== undefined) {
          config.regression = { perGame: parseIntegerOption('--regressions-per-game', opts.regressionsPerGame, 0, 1000) };
        }
        if (opts.generalisationsPerGame !== undefined) {
          config.generalisation = { perGame: parseIntegerOption('--generalisations-per-game', opts.generalisationsPerGame, 0, 1000) };
        }
        if (opts.specialisationsPerGame !== undefined) {
          config.specialisation = { perGame: parseIntegerOption('--specialisations-per-game', opts.specialisationsPerGame, 0, 1000) };
        }
        const openings = opts.openings === undefined ? undefined : { source: opts.openings, list: openingPositions(readOpenings(opts.openings)) };
        // The yardstick's first measure: the database as the run finds it (a bad positions file is refused first).
        const yardstickFile = typeof opts.judge === 'string' ? opts.judge : SCORED_POSITIONS;
        const sample = opts.yardstick ? yardstickSample(readScoredPositions(yardstickFile)) : undefined;
        const yardstickStarted = performance.now();
        const start = sample && measureMoveQuality(opts.db ?? defaultDatabasePath(), sample, config);
        const startSeconds = (performance.now() - yardstickStarted) / 1000;
        const training = runTraining({
          db: opts.db,
          games: opts.hours !== undefined ? undefined : opts.games ? parseIntegerOption('--games', opts.games, 1) : DEFAULT_GAMES,
          hours: opts.hours !== undefined ? parsePositiveNumberOption('--hours', opts.hours) : undefined,
          opponent: opts.opponent,
          seed: parseSeedOption(opts.seed),
          pgn: opts.pgn,
          jsonLog: opts.jsonLog,
          maxPlies: parseIntegerOption('--max-plies', opts.maxPlies, 1),
          config,
          progress: opts.json ? 'none' : (opts.progress as ProgressMode),
          maxFailures: parseIntegerOption('--max-failures', opts.maxFailures, 1),
          engineTimeoutMs: opts.engineTimeout ? parseIntegerOption('--engine-timeout', opts.engineTimeout, 1) : undefined,
          engineHangMs: opts.engineHang !== undefined ? parseIntegerOption('--engine-hang', opts.engineHang, 1) : undefined,
          retryBackoffMs: opts.retryBackoff !== undefined ? parseIntegerOption('--retry-backoff', opts.retryBackoff, 0, MAX_RETRY_BACKOFF_MS) : undefined,
          checkpointEvery: opts.checkpointEvery ? parseIntegerOption('--checkpoint-every', opts.checkpointEvery, 1) : undefined,
          judgePositions: opts.judge === false ? false : opts.judge,
          jobs: opts.jobs !== undefined ? parseJobs(opts.jobs) : defaultJobs(),
          snapshotEvery: parseSnapshotEvery(opts.snapshotEvery),
          ownPolicy: opts.policy ?? ownPolicyAsFound(opts.db ?? defaultDatabasePath()),
          openings,
        });
        let summary: TrainingSummary;
        try {
          summary = await training;
        } catch (error) {
          if (!(error instanceof StoppedBeforeFirstGame || error instanceof StoppedByFailures)) throw error;
          reportError(error); // its line; the exit code is the stop's
          process.exitCode = error instanceof StoppedBeforeFirstGame ? signalExitCode(error.signal) : EXIT_FAILURES;
          return;
        }
        // An interrupted run ends at once: the user asked it to.
        const measured = performance.now();
        const now = sample && !summary.signal ? measureMoveQuality(summary.database, sample) : undefined;
        const nowSeconds = (performance.now() - measured) / 1000;
        // Read last: it leaves the database as one file (readLearned).
        const learned: Learned = readLearned(summary.database);
        if (sample && start && now) learned.yardstick = yardstick(yardstickFile, sample, start, now, startSeconds + nowSeconds);
        printLine(opts.json ? JSON.stringify({ ...summary, learned }) : [trainingSummaryText(summary), ...learnedText(learned)].join('\n'));
        if (summary.signal) process.exitCode = signalExitCode(summary.signal);
      }),
    );
  // The game workers of `morph train --jobs N` (src/train/trainWorker.ts); started by the learner, not by users.
  program.command('train-worker', { hidden: true }).action(() => runTrainWorker());
}

/** --jobs: from 1 to twice the cores (maxJobs); more than --games is fine, the run then plays all its games at once. */
function parseJobs(text: string): number {
  const jobs = Number(text);
  if (!/^\s*\d+\s*$/.test(text) || jobs < 1 || jobs > maxJobs()) {
    throw badInput(`--jobs needs a whole number from 1 to ${maxJobs()} (twice the cores), got "${text}"`);
  }
  return jobs;
}

/** --snapshot-every: auto (the default) or a whole number of games. */
function parseSnapshotEvery(text: string | undefined): number | 'auto' | undefined {
  if (text === undefined || text === 'auto') return undefined;
  if (!/^\s*\d+\s*$/.test(text) || Number(text) < 1) throw badInput(`--snapshot-every must be auto or a whole number of games (1 or more), got "${text}"`);
  return Number(text);
}
