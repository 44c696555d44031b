/**
 * `morph learn`: learns from recorded games in a PGN file, as if Morph had played them, from White's, Black's
 * or both sides' point of view. Each game is learned in its own transaction (learnFromGame) and counts as one
 * game of the database; a game that cannot be read is reported by its number and skipped.
 *
 * --side both is ONE learning pass per game with learnFrom "both" (both sides' positions, each judged by its
 * own result), not two passes: the game is one game of the database (one game number, one temperature step),
 * and pattern creation runs once over all its positions.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { gameSeed } from '../../train/harness.ts';
import { checkFen } from '../../chess/fen.ts';
import { loadConfig, saveConfig, type LearningConfig } from '../../learn/config.ts';
import { gameFromPgn, type LearningGame } from '../../learn/learningGame.ts';
import { gamesPlayed, learnFromGame, seedIfNew } from '../../learn/learner.ts';
import { getMeta, getMetaNumber } from '../../store/meta.ts';
import { openStoreForWriting } from '../../store/location.ts';
import type { PatternStore } from '../../store/patternStore.ts';
import { BAD_INPUT, MorphError, badInput } from '../../util/errors.ts';
import { Random } from '../../util/random.ts';
import { parseSeedOption } from '../options.ts';
import { action, printLine, reportError } from '../run.ts';
import { splitPgnGames, type PgnGameText } from '../../game/pgnFile.ts';

export type LearnSide = 'white' | 'black' | 'both';

export interface LearnFileOptions {
  pgn: string;
  db?: string;
  side: LearnSide;
  /** Seed of the per-game random choices (pattern creation); default: the database's training seed, else 1. */
  seed?: number;
  /** Called for each game that is refused (bad PGN, no result). */
  onRefused?: (game: PgnGameText, message: string) => void;
}

export interface LearnFileSummary {
  file: string;
  side: LearnSide;
  seed: number;
  /** Games found in the file. */
  found: number;
  learned: number;
  refused: { game: number; line: number; error: string }[];
  /** The database's numbers of the first and last game learned (lastGame < firstGame when none was). */
  firstGame: number;
  lastGame: number;
  positions: number;
  patternsBefore: number;
  patterns: number;
  created: Record<string, number>;
  deleted: number;
  seconds: number;
}

/** How a side choice maps onto the learner: whose moves, and whether the opponent's positions count too. */
function sideSettings(side: LearnSide): { learner: 'w' | 'b'; learnFrom: LearningConfig['learnFrom'] } {
  if (side === 'white') return { learner: 'w', learnFrom: 'own' };
  if (side === 'black') return { learner: 'b', learnFrom: 'own' };
  return { learner: 'w', learnFrom: 'both' };
}

function readPgnFile(path: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (error) {
    throw badInput(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

export function learnFromPgnFile(options: LearnFileOptions): LearnFileSummary {
  const started = performance.now();
  const games = splitPgnGames(readPgnFile(options.pgn));
  if (games.length === 0) throw badInput(`no games in ${options.pgn}`);
  const refused: LearnFileSummary['refused'] = [];
  // The database is opened (or created and seeded) at the first game that can be learned, so a file of bad
  // games writes nothing.
  let learning: { store: PatternStore; config: LearningConfig; summary: LearnFileSummary } | null = null;
  try {
    for (const game of games) {
      let learningGame: LearningGame;
      try {
        learningGame = gameFromPgn(game.text, sideSettings(options.side).learner);
        checkFen(learningGame.startFen); // our board must accept what chess.js did, before anything is written
      } catch (error) {
        if (!(error instanceof MorphError)) throw error;
        refused.push({ game: game.number, line: game.line, error: error.message });
        options.onRefused?.(game, error.message);
        continue;
      }
      learning ??= startLearning(options, games.length, refused);
      const { store, config, summary } = learning;
      // Any failure while learning stops the command: the transaction rolled back, but the in-memory
      // hierarchy may already hold its changes, so the store must not be used for another game.
      const gameNumber = gamesPlayed(store) + 1;
      const learned = learnFromGame(store, learningGame, config, new Random(gameSeed(summary.seed, gameNumber)));
      summary.learned++;
      summary.lastGame = learned.gameNumber;
      summary.positions += learned.positions;
      summary.deleted += learned.deleted;
      for (const [method, n] of Object.entries(learned.created)) summary.created[method] = (summary.created[method] ?? 0) + n;
    }
    if (!learning) {
      throw badInput(`no game in ${options.pgn} could be learned (${refused.length} refused); no database was written`);
    }
    learning.summary.patterns = learning.store.size;
    learning.summary.seconds = (performance.now() - started) / 1000;
    return learning.summary;
  } finally {
    learning?.store.close();
  }
}

/** Opens the database for learning: its own settings, seeded when new, with the side's learning settings. */
function startLearning(
  options: LearnFileOptions,
  found: number,
  refused: LearnFileSummary['refused'],
): { store: PatternStore; config: LearningConfig; summary: LearnFileSummary } {
  const store = openStoreForWriting(options.db);
  try {
    // The database's own settings, as `morph train` uses them; a new database records the defaults it started with.
    const stored = loadConfig(store.db);
    if (getMeta(store.db, 'config') === undefined) store.transaction(() => saveConfig(store.db, stored));
    seedIfNew(store, stored);
    const { learnFrom } = sideSettings(options.side);
    const seed = options.seed ?? getMetaNumber(store.db, 'seed') ?? 1;
    const summary: LearnFileSummary = {
      file: options.pgn, side: options.side, seed, found, learned: 0, refused,
      firstGame: gamesPlayed(store) + 1, lastGame: gamesPlayed(store), positions: 0, patternsBefore: store.size,
      patterns: store.size, created: {}, deleted: 0, seconds: 0,
    };
    return { store, config: { ...stored, learnFrom }, summary };
  } catch (error) {
    store.close();
    throw error;
  }
}

function summaryText(s: LearnFileSummary): string {
  const created = Object.entries(s.created).map(([method, n]) => `${method} ${n}`).join(', ') || 'none';
  const games = s.learned ? `database games ${s.firstGame}-${s.lastGame}` : 'nothing learned';
  return [
    `learned ${s.learned} of ${s.found} games from ${s.file} (side ${s.side}): ${games}, ${s.positions} positions`,
    `patterns ${s.patternsBefore} -> ${s.patterns} (created: ${created}; deleted ${s.deleted}); seed ${s.seed}; ` +
      `${s.seconds.toFixed(1)} s` + (s.refused.length ? `; ${s.refused.length} refused (see above)` : ''),
  ].join('\n');
}

export function registerLearnCommand(program: Command): void {
  program
    .command('learn')
    .description('learn from the games in a PGN file (each game in its own transaction); bad games are skipped')
    .requiredOption('--pgn <file>', 'PGN file with one or more finished games (- for stdin)')
    .option('--db <file>', 'pattern database (default: data/morph.db in the checkout, or $MORPH_DB)')
    .option('--side <side>', "white | black | both: whose positions to learn from (both: each judged by its own result)", 'both')
    .option('--seed <n>', "seed for pattern creation (default: the database's training seed, else 1)")
    .option('--json', 'print the summary as JSON')
    .action(
      action((opts: { pgn: string; db?: string; side: string; seed?: string; json?: boolean }) => {
        if (!['white', 'black', 'both'].includes(opts.side)) throw badInput(`--side must be white, black or both, got "${opts.side}"`);
        const summary = learnFromPgnFile({
          pgn: opts.pgn,
          db: opts.db,
          side: opts.side as LearnSide,
          seed: parseSeedOption(opts.seed),
          onRefused: (game, message) => reportError(new MorphError(`game ${game.number} (line ${game.line}): ${message}`, BAD_INPUT)),
        });
        printLine(opts.json ? JSON.stringify(summary) : summaryText(summary));
        if (summary.refused.length) process.exitCode = BAD_INPUT;
      }),
    );
}
