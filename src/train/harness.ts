/**
 * The training harness behind `morph train`: plays games against a sparring opponent, learns from each in one
 * transaction together with the game's record, and keeps going for a number of games or hours. Built to be
 * left alone for days: engine crashes, hangs and illegal moves discard the game and restart the engine,
 * Ctrl-C stops cleanly, and `kill -9` loses at most the game in progress (the next run resumes).
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { setImmediate as eventLoopTurn } from 'node:timers/promises';
import { createPlayer } from '../engines/playerFromSpec.ts';
import { formatOpponentSpec, parseOpponentSpec } from '../engines/opponentSpec.ts';
import type { GamePlayer } from '../engines/gamePlayer.ts';
import { EngineError } from '../engines/uciClient.ts';
import { gamePgn, materialBalance, playGame, type PlayedGame } from '../game/playGame.ts';
import { boardFromFen } from '../chess/board.ts';
import { evaluationSettings, loadConfig, mergeConfig, saveConfig, type LearningConfig } from '../learn/config.ts';
import { gamesPlayed, learnFromGame, seedIfNew, type LearningSummary } from '../learn/learner.ts';
import { MorphPlayer } from '../player/morphPlayer.ts';
import { NoisyPlayer } from '../engines/noisyPlayer.ts';
import { finishRun, startRun } from '../store/runs.ts';
import { getMetaNumber, setMeta } from '../store/meta.ts';
import { morphScore, recordGame } from '../store/games.ts';
import { openStoreForWriting } from '../store/location.ts';
import { MorphError } from '../util/errors.ts';
import { Random, freshSeed } from '../util/random.ts';
import { TrainingProgress, type ProgressMode } from './progress.ts';

export interface TrainingOptions {
  db?: string;
  games?: number;
  hours?: number;
  opponent: string;
  seed?: number;
  pgn?: string;
  jsonLog?: string;
  maxPlies: number;
  /** Learning settings to change for this and later runs (saved in the database). */
  config?: Partial<LearningConfig>;
  progress: ProgressMode;
  /** Consecutive failed games (engine trouble) before the run gives up. */
  maxFailures: number;
  /** Per-move engine timeout in milliseconds. */
  engineTimeoutMs?: number;
  /** Keep a consistent copy of the database after every game number divisible by this (checkpointPath). */
  checkpointEvery?: number;
}

export interface GameLogEntry {
  game: number;
  morphColor: 'w' | 'b';
  opponent: string;
  result: string;
  score: number;
  reason: string;
  plies: number;
  finalMaterial: number;
  patterns: number;
  seconds: number;
  seed: number;
  created: Record<string, number>;
  deleted: number;
  temperature: number;
  /** An adaptive handicap's random-move probability in this game. */
  handicap?: number;
  /** Seconds spent by Morph choosing moves, by the opponent, and learning. */
  time: { morph: number; opponent: number; learning: number };
}

export interface TrainingSummary {
  games: number;
  wins: number;
  draws: number;
  losses: number;
  failures: number;
  stopReason: 'games-done' | 'time-limit' | 'interrupted' | 'too-many-failures';
  patterns: number;
  seconds: number;
  time: { morph: number; opponent: number; learning: number };
  firstGame: number;
  lastGame: number;
  seed: number;
  /** Checkpoint files written by this run. */
  checkpoints: string[];
}

/**
 * Where the checkpoint after `gameNumber` games of database `dbPath` goes: a folder beside it named after it,
 * e.g. data/morph.db -> data/morph.checkpoints/games-001000.db (zero-padded, so names sort by games).
 */
export function checkpointPath(dbPath: string, gameNumber: number): string {
  const dir = join(dirname(dbPath), `${basename(dbPath).replace(/\.db$/, '')}.checkpoints`);
  return join(dir, `games-${String(gameNumber).padStart(6, '0')}.db`);
}

/** Meta key of an adaptive handicap's current probability (noisy:auto=T), so a resumed run continues it. */
export const HANDICAP_META = 'handicap_probability';

/** A game's seed from the run seed and the game number, so any game can be replayed on its own. */
export function gameSeed(runSeed: number, gameNumber: number): number {
  let h = (runSeed ^ Math.imul(gameNumber, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  return (h ^ (h >>> 13)) >>> 0;
}

const BUILT_IN = new Set(['random', 'greedy', 'ab', 'self']);

/**
 * --engine-timeout limits each move. Starting an engine (the WASM Stockfish, a script) can take longer than a
 * sensible per-move limit on a busy machine, so the handshake keeps at least the UCI client's default.
 */
const HANDSHAKE_TIMEOUT_FLOOR_MS = 10_000;

/**
 * The player with a turn of the event loop before each of its moves. In-process players never wait on I/O, so
 * without it a run against random, greedy, ab:D or morph:FILE would never let the SIGINT handler run, and
 * Ctrl-C would be noticed only when the whole run was over. (A turn costs microseconds; a move, milliseconds.)
 */
function yieldingBeforeMoves(player: GamePlayer): GamePlayer {
  return {
    name: player.name,
    newGame: () => player.newGame(),
    chooseMove: async (position) => {
      await eventLoopTurn();
      return player.chooseMove(position);
    },
    close: () => player.close(),
  };
}

export async function runTraining(options: TrainingOptions): Promise<TrainingSummary> {
  const spec = parseOpponentSpec(options.opponent);
  const store = openStoreForWriting(options.db);
  let stopRequested = false;
  const onSignal = () => {
    stopRequested = true;
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let opponent: GamePlayer | null = null;
  let progress: TrainingProgress | null = null;
  let runId: number | null = null;
  try {
    const config = mergeConfig(loadConfig(store.db), options.config ?? {});
    const runSeed = options.seed ?? getMetaNumber(store.db, 'seed') ?? freshSeed();
    store.transaction(() => {
      saveConfig(store.db, config);
      setMeta(store.db, 'seed', runSeed);
    });
    seedIfNew(store, config);
    const firstGame = gamesPlayed(store) + 1;
    // The canonical spec (defaults filled in), as the games record it, so the run can be replayed exactly.
    runId = startRun(store.db, { opponent: formatOpponentSpec(spec), seed: runSeed, config, firstGame });
    const perGameOpponent = BUILT_IN.has(spec.kind);
    const timeouts = options.engineTimeoutMs
      ? {
          searchTimeoutMs: options.engineTimeoutMs,
          handshakeTimeoutMs: Math.max(options.engineTimeoutMs, HANDSHAKE_TIMEOUT_FLOOR_MS),
        }
      : undefined;
    const summary: TrainingSummary = {
      games: 0, wins: 0, draws: 0, losses: 0, failures: 0, stopReason: 'games-done', patterns: store.size, seconds: 0,
      time: { morph: 0, opponent: 0, learning: 0 }, firstGame, lastGame: firstGame - 1, seed: runSeed, checkpoints: [],
    };
    progress = new TrainingProgress(options.progress, { games: options.games, hours: options.hours });
    const started = Date.now();
    const deadline = options.hours ? started + options.hours * 3600_000 : Infinity;
    let consecutiveFailures = 0;
    let cumulativeMaterial = 0;

    while (true) {
      if (stopRequested) {
        summary.stopReason = 'interrupted';
        break;
      }
      if (options.games !== undefined && summary.games >= options.games) break;
      if (Date.now() >= deadline) {
        summary.stopReason = 'time-limit';
        break;
      }
      const gameNumber = gamesPlayed(store) + 1;
      const seed = gameSeed(runSeed, gameNumber);
      const morphColor = gameNumber % 2 === 1 ? 'w' : 'b';
      const morph = yieldingBeforeMoves(new MorphPlayer(store, { maturity: config.maturity, seed, evaluation: evaluationSettings(config) }, 'Morph'));
      const opponentSeed = seed ^ 0x5bd1e995;
      const gameStarted = performance.now();
      let played: PlayedGame | null;
      try {
        if (!opponent || perGameOpponent) {
          await opponent?.close();
          opponent = spec.kind === 'self'
            ? yieldingBeforeMoves(new MorphPlayer(store, { maturity: config.maturity, seed: opponentSeed, evaluation: evaluationSettings(config) }, 'self'))
            : await createPlayer(options.opponent, { seed: opponentSeed, engineTimeouts: timeouts });
        }
        // A noisy opponent's random moves follow the game's seed, so a resumed run replays the same games.
        if (opponent instanceof NoisyPlayer) opponent.reseed(opponentSeed);
        // An adaptive handicap continues from the probability the database recorded after the last game.
        if (opponent instanceof NoisyPlayer && opponent.target !== undefined) {
          opponent.probability = getMetaNumber(store.db, HANDICAP_META) ?? opponent.probability;
        }
        played = await playGame({
          white: morphColor === 'w' ? morph : opponent,
          black: morphColor === 'w' ? opponent : morph,
          maxPlies: options.maxPlies,
          shouldStop: () => stopRequested,
        });
      } catch (error) {
        if (!(error instanceof EngineError)) throw error;
        // Ctrl-C in a terminal signals the engine too (same process group): its death is the stop, not a failure.
        if (stopRequested) {
          summary.stopReason = 'interrupted';
          break;
        }
        summary.failures++;
        consecutiveFailures++;
        progress.log(`game ${gameNumber} discarded: ${error.message}`);
        await opponent?.close();
        opponent = null; // restarted before the next game
        if (consecutiveFailures >= options.maxFailures) {
          summary.stopReason = 'too-many-failures';
          progress.log(`stopping: ${consecutiveFailures} games in a row failed (last: ${error.message})`);
          break;
        }
        continue;
      }
      if (!played) {
        summary.stopReason = 'interrupted';
        break;
      }
      consecutiveFailures = 0;
      const morphSeconds = played.thinkingSeconds[morphColor];
      const opponentSeconds = played.thinkingSeconds[morphColor === 'w' ? 'b' : 'w'];
      const score = morphScore(played.result, morphColor);
      const balance = materialBalance(boardFromFen(played.finalFen));
      const finalMaterial = morphColor === 'w' ? balance : -balance;
      const adaptive = opponent instanceof NoisyPlayer && opponent.target !== undefined ? opponent : null;
      // An adaptive opponent is recorded with the probability it played this game at, e.g. noisy:0.420:stockfish….
      const opponentName = adaptive ? adaptive.currentName() : opponent.name;
      const handicap = adaptive?.probability;
      const pgn = gamePgn(played, {
        event: 'Morph training',
        white: morphColor === 'w' ? 'Morph' : opponentName,
        black: morphColor === 'w' ? opponentName : 'Morph',
        round: gameNumber,
        extra: { MorphSeed: String(seed) },
      });
      const learnStarted = performance.now();
      let learned!: LearningSummary;
      learnFromGame(
        store,
        { startFen: played.startFen, moves: played.moves, learner: morphColor, result: score },
        config,
        new Random(seed),
        (learning) => {
          learned = learning;
          if (adaptive) {
            adaptive.adapt(score);
            setMeta(store.db, HANDICAP_META, adaptive.probability);
          }
          recordGame(store.db, {
            runId: runId!, morphColor, opponent: opponentName, result: played!.result, reason: played!.reason,
            plies: played!.plies, finalMaterial, patterns: learning.patterns, seed, pgn,
            seconds: (performance.now() - gameStarted) / 1000,
            startedAt: new Date(Date.now() - (performance.now() - gameStarted)).toISOString(),
            finishedAt: new Date().toISOString(),
          });
        },
      );
      const learningSeconds = (performance.now() - learnStarted) / 1000;
      summary.games++;
      summary.lastGame = gameNumber;
      if (score === 1) summary.wins++;
      else if (score === 0) summary.losses++;
      else summary.draws++;
      summary.patterns = learned.patterns;
      summary.time.morph += morphSeconds;
      summary.time.opponent += opponentSeconds;
      summary.time.learning += learningSeconds;
      cumulativeMaterial += finalMaterial;
      const entry: GameLogEntry = {
        game: gameNumber, morphColor, opponent: opponentName, ...(handicap !== undefined ? { handicap } : {}), result: played.result, score, reason: played.reason,
        plies: played.plies, finalMaterial, patterns: learned.patterns, seconds: (performance.now() - gameStarted) / 1000,
        seed, created: learned.created, deleted: learned.deleted, temperature: learned.temperature,
        time: { morph: morphSeconds, opponent: opponentSeconds, learning: learningSeconds },
      };
      if (options.checkpointEvery && gameNumber % options.checkpointEvery === 0) {
        // SQLite's online backup: a consistent copy even of a database in WAL mode, taken between games.
        const path = checkpointPath(store.path, gameNumber);
        mkdirSync(dirname(path), { recursive: true });
        await store.db.backup(path);
        summary.checkpoints.push(path);
        progress.log(`checkpoint after game ${gameNumber}: ${path}`);
      }
      if (options.pgn) appendFileSync(options.pgn, pgn + '\n\n');
      if (options.jsonLog) appendFileSync(options.jsonLog, JSON.stringify(entry) + '\n');
      progress.update(summary, cumulativeMaterial / summary.games, started);
    }
    summary.seconds = (Date.now() - started) / 1000;
    finishRun(store.db, runId, { stopReason: summary.stopReason, games: summary.games });
    runId = null;
    if (summary.stopReason === 'too-many-failures') {
      throw new MorphError(`training stopped after ${options.maxFailures} failed games in a row; see the log above`);
    }
    return summary;
  } catch (error) {
    // Mark the run as ended, so it does not look like one still going (or killed) in `morph inspect`.
    if (runId !== null) {
      try {
        finishRun(store.db, runId, { stopReason: 'error' });
      } catch {
        // the database itself may be what failed; the original error matters more
      }
    }
    throw error;
  } finally {
    // A bar left running keeps its redraw timer alive, and the process would never exit after an error.
    progress?.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await opponent?.close();
    store.close();
  }
}
