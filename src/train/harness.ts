/**
 * The training harness behind `morph train`: plays games against a sparring opponent, learns from each in one
 * transaction together with the game's record, and keeps going for a number of games or hours. Built to be
 * left alone for days: engine crashes, hangs and illegal moves discard the game and restart the engine,
 * Ctrl-C stops cleanly, and `kill -9` loses at most the game in progress (the next run resumes).
 *
 * Playing and learning are separate steps: an actor plays a game (gameActor.ts), the learner applies it. With
 * `jobs` 1 both happen here, on the live database. With `jobs` N, this process plays one game at a time on the
 * live database and N - 1 game workers play on read-only snapshots (workerPool.ts, trainWorker.ts), while this
 * process learns, strictly in game-number order, between its own games.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { availableParallelism } from 'node:os';
import {
  ADAPTIVE_START_PROBABILITY, formatOpponentSpec, opponentMembers, parseOpponentSpec, type OpponentSpec,
} from '../engines/opponentSpec.ts';
import { EngineError } from '../engines/engineProcess.ts';
import type { EngineTimeouts } from '../engines/uciClient.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { createPlayer } from './playerFromSpec.ts';
import type { GamePlayer } from '../engines/gamePlayer.ts';
import { gamePgn } from '../game/playGame.ts';
import { materialBalance } from '../chess/pieceValues.ts';
import { boardFromFen } from '../chess/board.ts';
import { loadConfig, mergeConfig, saveConfig, type ConfigPatch, type LearningConfig } from '../learn/config.ts';
import { gamesPlayed, learnFromGame, seedIfNew, type LearningSummary } from '../learn/learner.ts';
import { loadRelationLearner, recordRelationLessons, saveRelationLearner, type RelationLearner } from '../learn/relationLearning.ts';
import { adaptedProbability } from '../engines/noisyPlayer.ts';
import { finishRun, startRun } from '../store/runs.ts';
import { getMetaNumber, setMeta } from '../store/meta.ts';
import { morphScore, recordGame } from '../store/games.ts';
import { defaultDatabasePath, openStoreForWriting } from '../store/location.ts';
import { MorphError, badInput, fileProblem } from '../util/errors.ts';
import { freezeCopy, toMorphError } from '../store/database.ts';
import type { PatternStore } from '../store/patternStore.ts';
import { Random, freshSeed } from '../util/random.ts';
import { TrainingProgress, type ProgressMode } from './progress.ts';
import { BUILT_IN_OPPONENTS, GameActor, type FinishedGame, type GameTask } from './gameActor.ts';
import { runWorkerPool } from './workerPool.ts';
import { checkRunInput } from './preflight.ts';
import { OwnPolicyKeeper, ownPolicyPath, policyModelFor, type PolicyUpkeep } from '../model/ownPolicy.ts';
import { judgeCheckpoint, readScoredPositions, SCORED_POSITIONS } from './checkpointJudge.ts';
import { recordCheckpointResult } from './checkpointResults.ts';
import { removeLeftoverTemporaries } from '../store/wholeFile.ts';
import { openingOfGame, shuffleOpenings, type Opening } from '../match/openings.ts';

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
  config?: ConfigPatch;
  progress: ProgressMode;
  /** Consecutive failed games (engine trouble) before the run gives up. */
  maxFailures: number;
  /** Per-move engine timeout in milliseconds. */
  engineTimeoutMs?: number;
  /** How long an engine that owes an answer may stay silent and idle before it is taken for hung (engineProcess.ts). */
  engineHangMs?: number;
  /**
   * The wait before the game after a failed one, doubled for each failure in a row up to MAX_RETRY_BACKOFF_MS
   * (default DEFAULT_RETRY_BACKOFF_MS; 0: none), so a run rides out an engine's bad minute instead of stopping.
   */
  retryBackoffMs?: number;
  /** Keep a consistent copy of the database after every game number divisible by this (checkpointPath). */
  checkpointEvery?: number;
  /**
   * With checkpointEvery: the scored positions each checkpoint is judged on as it plays (checkpointJudge.ts), its
   * move quality recorded in checkpoint_results; false: not judged. Default SCORED_POSITIONS.
   */
  judgePositions?: string | false;
  /**
   * Games played at once (default 1; `morph train` defaults to defaultJobs()): one in this process on the live
   * database, the others by jobs - 1 game workers on snapshots.
   */
  jobs?: number;
  /** With jobs > 1: games a worker plays on one snapshot of the weights before it loads a fresh one. */
  snapshotEvery?: number | 'auto';
  /**
   * Keep the database's own move policy (src/model/ownPolicy.ts) current: every partner game learned as soon as it
   * is recorded, the square values refitted as games accumulate and at the end. `morph train` does (unless --no-policy).
   */
  ownPolicy?: boolean;
  /**
   * Start games from this suite's openings instead of the start position: games 2k-1 and 2k play the suite's k-th
   * opening in the order the run seed shuffles it (Morph white, then black), as a match does; the suite repeats.
   */
  openings?: { source: string; list: readonly Opening[] };
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
  /** With --openings: the opening's line (EPD) or game (PGN) number in its suite. */
  opening?: number;
  /** Seconds spent by Morph choosing moves, by the opponent, and learning. */
  time: { morph: number; opponent: number; learning: number };
  /** Games learned in the weights Morph played with (gameNumber - 1 on the live database). */
  snapshot: number;
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
  /** Game workers (1: games played in the training process itself). */
  jobs: number;
  /** The database trained. */
  database: string;
  /** The opening suite games started from (--openings), or null: the start position. */
  openings: { source: string; count: number } | null;
  /** The signal that interrupted the run, if one did. */
  signal?: StopSignal;
  /** What keeping the own move policy current did and cost, or null when it was not asked for. */
  policy: PolicyUpkeep | null;
}

export type StopSignal = 'SIGINT' | 'SIGTERM';

/** A run stopped by SIGINT or SIGTERM before its first game: nothing was written. */
export class StoppedBeforeFirstGame extends MorphError {
  constructor(readonly signal: StopSignal) {
    super('training stopped before its first game; nothing was written');
  }
}

/** A run given up after --max-failures failed games in a row (engine faults, mostly); the games before are saved. */
export class StoppedByFailures extends MorphError {}

export const DEFAULT_RETRY_BACKOFF_MS = 1_000;
/** The longest wait between failed games: a run with a high --max-failures retries at least once a minute. */
export const MAX_RETRY_BACKOFF_MS = 60_000;

/** The wait after the `failuresInARow`-th failed game in a row. */
export function retryBackoffMs(base: number, failuresInARow: number): number {
  return Math.min(MAX_RETRY_BACKOFF_MS, base * 2 ** Math.max(0, failuresInARow - 1));
}

/** What to change when a run stops on failures, by the kind of the last one (EngineError.kind). */
function failureHint(kind: string | undefined): string {
  const more = '--max-failures N allows more failed games in a row';
  if (kind === 'timeout') return `${more}; --engine-timeout MS gives a slow engine longer per move`;
  if (kind === 'hung') return `${more}; --engine-hang MS waits longer for an engine that is silent and idle`;
  return more;
}

/**
 * Games a worker plays on one snapshot before loading a fresh one, unless --snapshot-every says otherwise:
 * 'auto' reloads by time, once loading is a small share of the worker's time (trainWorker.ts).
 */
export const DEFAULT_SNAPSHOT_EVERY = 'auto';

/** The cores this process may use: one game worker each (the learner's share is small; see docs/scaling.md). */
export function defaultJobs(): number {
  return Math.max(1, availableParallelism());
}

/**
 * The most games a run plays at once: two per core. More workers than cores only share them (each game worker is
 * a Node process with its own copy of the weights), and a thousand of them exhaust the machine's processes.
 */
export function maxJobs(): number {
  return 2 * defaultJobs();
}

/**
 * Where the checkpoint after `gameNumber` games of database `dbPath` goes: a folder beside it named after it,
 * e.g. data/morph.db -> data/morph.checkpoints/games-001000.db (zero-padded, so names sort by games).
 */
export function checkpointPath(dbPath: string, gameNumber: number): string {
  return join(checkpointFolder(dbPath), `games-${String(gameNumber).padStart(6, '0')}.db`);
}

/** The folder of a database's checkpoints (checkpointPath). */
export function checkpointFolder(dbPath: string): string {
  return join(dirname(dbPath), `${basename(dbPath).replace(/\.db$/, '')}.checkpoints`);
}

/** Meta key of an adaptive handicap's current probability (noisy:auto=T), so a resumed run continues it. */
export const HANDICAP_META = 'handicap_probability';

/** A game's seed from the run seed and the game number, so any game can be replayed on its own. */
export function gameSeed(runSeed: number, gameNumber: number): number {
  let h = (runSeed ^ Math.imul(gameNumber, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  return (h ^ (h >>> 13)) >>> 0;
}

/**
 * --engine-timeout limits each move. Starting an engine (the WASM Stockfish, a script) can take longer than a
 * sensible per-move limit on a busy machine, so the handshake keeps at least the UCI client's default.
 */
const HANDSHAKE_TIMEOUT_FLOOR_MS = 10_000;

function usesMorphDatabase(spec: OpponentSpec): boolean {
  if (spec.kind === 'mix' || spec.kind === 'ladder') return opponentMembers(spec).some(usesMorphDatabase);
  return spec.kind === 'morph' || (spec.kind === 'noisy' && usesMorphDatabase(spec.inner));
}

/** Appends to a file the user named (--pgn, --json-log); a full disk or a bad path is a one-line error naming it. */
function appendToLog(path: string, text: string): void {
  try {
    appendFileSync(path, text);
  } catch (error) {
    throw badInput(`cannot write ${path}: ${fileProblem(error) ?? (error as Error).message}`);
  }
}

export async function runTraining(options: TrainingOptions): Promise<TrainingSummary> {
  const summary = await playTrainingGames(options);
  // A policy build killed mid-write (kill -9) leaves its temporary beside the policy; a model can be large.
  removeLeftoverTemporaries(ownPolicyPath(summary.database));
  return summary;
}

async function playTrainingGames(options: TrainingOptions): Promise<TrainingSummary> {
  const spec = parseOpponentSpec(options.opponent);
  if (options.hours !== undefined && !(options.hours > 0)) throw badInput(`--hours must be more than 0`);
  const timeouts: EngineTimeouts = {
    ...(options.engineTimeoutMs
      ? {
          searchTimeoutMs: options.engineTimeoutMs,
          handshakeTimeoutMs: Math.max(options.engineTimeoutMs, HANDSHAKE_TIMEOUT_FLOOR_MS),
        }
      : {}),
    ...(options.engineHangMs ? { hangTimeoutMs: options.engineHangMs } : {}),
  };
  let stopRequested = false;
  let stopSignal: StopSignal = 'SIGINT';
  /** Opponents started by the check below, by canonical spec text, until the actor takes them over. */
  const startedOpponents = new Map<string, GamePlayer>();
  const closeStarted = async (name: string) => {
    const opponent = startedOpponents.get(name);
    startedOpponents.delete(name);
    await opponent?.close();
  };
  const closeAllStarted = () => Promise.all([...startedOpponents.keys()].map(closeStarted));
  let actor: GameActor | null = null;
  // A stop ends the opponent at once: a search in progress fails (the game is discarded) instead of running on
  // to the engine timeout, so Ctrl-C or SIGTERM stops the run within a second even while the engine hangs.
  const onSignal = (signal: StopSignal) => {
    if (!stopRequested) stopSignal = signal;
    stopRequested = true;
    closeAllStarted().catch(() => {});
    actor?.restartOpponents().catch(() => {});
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // The positions checkpoints are judged on, read (and refused if bad) before anything is written.
  const judgeFile = options.checkpointEvery ? (options.judgePositions ?? SCORED_POSITIONS) : false;
  const judged = judgeFile === false ? undefined : { file: judgeFile, positions: readScoredPositions(judgeFile) };
  let openedStore: PatternStore | null = null;
  let policyKeeper: OwnPolicyKeeper | null = null;
  let progress: TrainingProgress | null = null;
  let runId: number | null = null;
  try {
    await checkRunInput(
      { ...options, checkpointFolder: options.checkpointEvery ? checkpointFolder(options.db ?? defaultDatabasePath()) : undefined },
      spec,
    );
    // An opponent that lives for the whole run (an engine process, a morph: database; each such member of a mix) is
    // started once before the training database is touched, so a bad engine path, engine option or database is
    // refused with nothing written. A morph: opponent is made again with the run's seed; game workers (--jobs N)
    // start their own. An engine that merely fails to start in time (a busy machine) is not bad input: it is
    // kept, restarts itself for the first game (given longer if it was slow), and the game loop counts a failure
    // as it does for any engine fault.
    for (const member of opponentMembers(spec)) {
      const name = formatOpponentSpec(member);
      if (BUILT_IN_OPPONENTS.has(member.kind) || startedOpponents.has(name)) continue;
      const opponent = await createPlayer(name, { seed: 0, engineTimeouts: timeouts });
      startedOpponents.set(name, opponent);
      try {
        await opponent.newGame();
      } catch (error) {
        if (stopRequested) throw new StoppedBeforeFirstGame(stopSignal);
        if (!(error instanceof EngineError)) throw error;
        continue; // the engine restarts itself for the first game, with what it learned of its pace
      }
      if (usesMorphDatabase(member)) await closeStarted(name);
    }
    if (stopRequested) throw new StoppedBeforeFirstGame(stopSignal);
    const store = openStoreForWriting(options.db);
    openedStore = store;
    const config = mergeConfig(loadConfig(store.db), options.config ?? {});
    const runSeed = options.seed ?? getMetaNumber(store.db, 'seed') ?? freshSeed();
    store.transaction(() => {
      saveConfig(store.db, config);
      setMeta(store.db, 'seed', runSeed);
    });
    seedIfNew(store, config);
    const firstGame = gamesPlayed(store) + 1;
    // Loaded with the first lessons: rebuilding it reads every kept lesson, which a run that takes none never needs.
    let relationLearner: RelationLearner | undefined;
    if (options.ownPolicy) {
      policyKeeper = new OwnPolicyKeeper(store.db, store.path, (message) => options.progress !== 'none' && process.stderr.write(`morph: ${message}\n`));
    }
    // Never more players than games: a worker started for no game costs a process and a load of the weights.
    const jobs = Math.min(options.jobs ?? 1, options.games ?? Infinity);
    // The canonical spec (defaults filled in), as the games record it, so the run can be replayed exactly.
    runId = startRun(store.db, { opponent: formatOpponentSpec(spec), seed: runSeed, config, firstGame });
    const summary: TrainingSummary = {
      games: 0, wins: 0, draws: 0, losses: 0, failures: 0, stopReason: 'games-done', patterns: store.size, seconds: 0,
      time: { morph: 0, opponent: 0, learning: 0 }, firstGame, lastGame: firstGame - 1, seed: runSeed, checkpoints: [],
      jobs, database: store.path, policy: null,
      openings: options.openings ? { source: options.openings.source, count: options.openings.list.length } : null,
    };
    const openingOrder = options.openings ? shuffleOpenings(options.openings.list, runSeed) : null;
    progress = new TrainingProgress(options.progress, { games: options.games, hours: options.hours, opponent: formatOpponentSpec(spec) });
    const started = Date.now();
    const deadline = options.hours ? started + options.hours * 3600_000 : Infinity;
    let consecutiveFailures = 0;
    let lastFailureKind: string | undefined;
    /** No game starts before this time (a backoff after a failed game). */
    let resumeAt = 0;
    const backoffBase = options.retryBackoffMs ?? DEFAULT_RETRY_BACKOFF_MS;
    let cumulativeMaterial = 0;
    const adaptive = adaptiveHandicap(spec);
    const currentRunId = runId;

    /** The next game to play, or null when the run should start no new game (and why, in summary.stopReason). */
    let handedOut = firstGame - 1;
    const nextTask = (): GameTask | null => {
      if (stopRequested) {
        summary.stopReason = 'interrupted';
        return null;
      }
      if (options.games !== undefined && handedOut - firstGame + 1 >= options.games) return null;
      if (Date.now() >= deadline) {
        summary.stopReason = 'time-limit';
        return null;
      }
      const gameNumber = ++handedOut;
      const seed = gameSeed(runSeed, gameNumber);
      // An adaptive handicap continues from the probability the database recorded after the last game learned.
      const handicap = adaptive ? (getMetaNumber(store.db, HANDICAP_META) ?? adaptive.start) : undefined;
      const opening = openingOrder ? openingOfGame(openingOrder, gameNumber - 1) : undefined;
      return {
        gameNumber, seed, morphColor: gameNumber % 2 === 1 ? 'w' : 'b',
        ...(handicap !== undefined ? { handicap } : {}), ...(opening ? { opening } : {}),
      };
    };

    /** A discarded game: counted, logged; false once too many in a row failed. */
    const failed = (gameNumber: number | null, message: string, kind?: string): boolean => {
      summary.failures++;
      consecutiveFailures++;
      lastFailureKind = kind;
      const line = gameNumber === null ? message : `game ${gameNumber} discarded: ${message}`;
      if (consecutiveFailures >= options.maxFailures) {
        progress!.log(line);
        summary.stopReason = 'too-many-failures';
        progress!.log(`stopping: ${consecutiveFailures} games in a row failed (last: ${message})`);
        return false;
      }
      const wait = retryBackoffMs(backoffBase, consecutiveFailures);
      resumeAt = Date.now() + wait;
      progress!.log(wait > 0 ? `${line} (next game in ${(wait / 1000).toFixed(1)} s)` : line);
      return true;
    };

    /** The learner: one finished game, learned from and recorded in one transaction. */
    const applyGame = async (finished: FinishedGame): Promise<void> => {
      const { task, played, opponentName, snapshot } = finished;
      const { gameNumber, seed, morphColor } = task;
      consecutiveFailures = 0;
      const morphSeconds = played.thinkingSeconds[morphColor];
      const opponentSeconds = played.thinkingSeconds[morphColor === 'w' ? 'b' : 'w'];
      const score = morphScore(played.result, morphColor);
      const balance = materialBalance(boardFromFen(played.finalFen));
      const finalMaterial = morphColor === 'w' ? balance : -balance;
      const pgn = gamePgn(played, {
        event: 'Morph training',
        white: morphColor === 'w' ? 'Morph' : opponentName,
        black: morphColor === 'w' ? opponentName : 'Morph',
        round: gameNumber,
        extra: { MorphSeed: String(seed), ...(task.opening ? { Opening: `${options.openings!.source} #${task.opening.index}` } : {}) },
      });
      const learnStarted = performance.now();
      // The relation terms' lessons (searched by the actor that played the game) are written in the game's transaction.
      const lessons = finished.lessons;
      const relationFit = lessons.length > 0 ? (relationLearner ??= loadRelationLearner(store.db)) : undefined;
      let relationWeightsChanged = false;
      if (relationFit) {
        for (const lesson of lessons) relationFit.add(boardFromFen(lesson.fen), lesson.settled, lesson.target, lesson.static);
        relationWeightsChanged = relationFit.solveWhenDue();
      }
      let learned!: LearningSummary;
      let recordedId = 0;
      learnFromGame(
        store,
        { startFen: played.startFen, moves: played.moves, learner: morphColor, result: score },
        config,
        new Random(seed),
        (learning) => {
          learned = learning;
          // The learner moves the handicap in game order, from what it holds now (with --jobs N, later games may
          // already be under way at the older probability their tasks carry).
          if (adaptive) {
            const current = getMetaNumber(store.db, HANDICAP_META) ?? adaptive.start;
            setMeta(store.db, HANDICAP_META, adaptedProbability(current, adaptive.target, score));
          }
          if (relationFit) {
            recordRelationLessons(store.db, gameNumber, lessons);
            saveRelationLearner(store.db, relationFit, relationWeightsChanged);
          }
          recordedId = recordGame(store.db, {
            runId: currentRunId, morphColor, opponent: opponentName, result: played.result, reason: played.reason,
            plies: played.plies, finalMaterial, patterns: learning.patterns, seed, pgn, snapshot,
            seconds: finished.seconds, startedAt: finished.startedAt, finishedAt: new Date().toISOString(),
          });
        },
      );
      // The policy learns the partner's moves of the game just recorded (a separate file: a run killed between the
      // two is caught up when the next one starts).
      if (opponentName !== 'self') {
        const partner = morphColor === 'w' ? 'b' : 'w';
        policyKeeper?.learnGame(recordedId, { startFen: played.startFen, moves: played.moves, result: played.result, partner });
      }
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
        game: gameNumber, morphColor, opponent: opponentName, ...(task.handicap !== undefined ? { handicap: task.handicap } : {}),
        ...(task.opening ? { opening: task.opening.index } : {}),
        result: played.result, score, reason: played.reason,
        plies: played.plies, finalMaterial, patterns: learned.patterns, seconds: finished.seconds,
        seed, created: learned.created, deleted: learned.deleted, temperature: learned.temperature,
        time: { morph: morphSeconds, opponent: opponentSeconds, learning: learningSeconds }, snapshot,
      };
      if (options.checkpointEvery && gameNumber % options.checkpointEvery === 0) {
        // SQLite's online backup: a consistent copy even of a database in WAL mode, taken between games.
        const path = checkpointPath(store.path, gameNumber);
        mkdirSync(dirname(path), { recursive: true });
        await store.db.backup(path);
        freezeCopy(path);
        // The policy as it stands goes beside the copy, so that `morph:CHECKPOINT` plays as the database played then.
        const policyCopy = ownPolicyPath(path);
        if (policyKeeper && (await policyKeeper.copyTo(policyCopy))) freezeCopy(policyCopy);
        summary.checkpoints.push(path);
        progress!.log(`checkpoint after game ${gameNumber}: ${path}`);
        if (judged !== undefined) {
          const result = judgeCheckpoint(path, gameNumber, judged.positions, judged.file, policyModelFor(path, undefined) ?? false);
          recordCheckpointResult(store.db, result);
          progress!.log(
            `checkpoint after game ${gameNumber} judged on ${result.samples} scored positions: mean win-chance loss ` +
              `${result.meanLoss!.toFixed(2)} [${result.lossLow!.toFixed(2)}, ${result.lossHigh!.toFixed(2)}], blunders ${result.blunder!.toFixed(3)}`,
          );
        }
      }
      if (options.pgn) appendToLog(options.pgn, pgn + '\n\n');
      if (options.jsonLog) appendToLog(options.jsonLog, JSON.stringify(entry) + '\n');
      progress!.update(summary, cumulativeMaterial / summary.games, started);
    };

    if (jobs > 1) {
      // This process plays too, against the opponents started above; its jobs - 1 workers start their own.
      actor = new GameActor({ opponent: options.opponent, maxPlies: options.maxPlies, engineTimeouts: timeouts }, startedOpponents);
      startedOpponents.clear(); // the actor's now
      const actorHere = actor;
      await runWorkerPool({
        jobs,
        setup: {
          db: store.path, opponent: options.opponent, maxPlies: options.maxPlies, engineTimeouts: timeouts,
          reloadEvery: options.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY,
        },
        firstGame,
        nextTask,
        apply: applyGame,
        failed,
        interrupted: () => stopRequested,
        resumeAt: () => resumeAt,
        playHere: (task, gamesLearned, shouldStop) => actorHere.play(store, gamesLearned, task, shouldStop),
      });
      if (stopRequested && summary.stopReason !== 'too-many-failures') summary.stopReason = 'interrupted';
    } else {
      actor = new GameActor({ opponent: options.opponent, maxPlies: options.maxPlies, engineTimeouts: timeouts }, startedOpponents);
      startedOpponents.clear(); // the actor's now
      let retry: GameTask | null = null;
      while (true) {
        const task: GameTask | null = retry ?? nextTask();
        retry = null;
        if (!task) break;
        let finished: FinishedGame | null;
        try {
          finished = await actor.play(store, task.gameNumber - 1, task, () => stopRequested);
        } catch (error) {
          if (!(error instanceof EngineError)) throw error;
          // Ctrl-C in a terminal signals the engine too (same process group): its death is the stop, not a failure.
          if (stopRequested) {
            summary.stopReason = 'interrupted';
            break;
          }
          if (!failed(task.gameNumber, error.message, error.kind)) break;
          retry = task; // the same game again, with a fresh engine
          while (Date.now() < resumeAt && !stopRequested) await sleep(Math.min(100, resumeAt - Date.now()));
          continue;
        }
        if (!finished) {
          summary.stopReason = 'interrupted';
          break;
        }
        await applyGame(finished);
      }
    }
    // The relation terms solved over every lesson of the run, so that what plays from the database next is current.
    if (relationLearner && relationLearner.unsolved > 0) {
      const learner = relationLearner;
      learner.solve();
      store.transaction(() => saveRelationLearner(store.db, learner));
    }
    if (policyKeeper) summary.policy = summary.stopReason === 'games-done' || summary.stopReason === 'time-limit' ? policyKeeper.finish() : policyKeeper.summary;
    summary.seconds = (Date.now() - started) / 1000;
    finishRun(store.db, runId, { stopReason: summary.stopReason, games: summary.games });
    runId = null;
    if (stopRequested) summary.signal = stopSignal;
    if (summary.stopReason === 'too-many-failures') {
      throw new StoppedByFailures(
        `training stopped after ${options.maxFailures} failed games in a row (see the log above); ${failureHint(lastFailureKind)}`,
      );
    }
    return summary;
  } catch (error) {
    // Mark the run as ended, so it does not look like one still going (or killed) in `morph inspect`.
    if (runId !== null && openedStore !== null) {
      try {
        finishRun(openedStore.db, runId, { stopReason: 'error' });
      } catch {
        // the database itself may be what failed; the original error matters more
      }
    }
    throw openedStore ? toMorphError(openedStore.path, error) : error;
  } finally {
    // A bar left running keeps its redraw timer alive, and the process would never exit after an error.
    progress?.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await closeAllStarted();
    await actor?.close();
    policyKeeper?.close();
    openedStore?.close();
  }
}

/** An adaptive handicap (noisy:auto=T) of the opponent spec: its target and starting probability. */
function adaptiveHandicap(spec: OpponentSpec): { target: number; start: number } | null {
  if (spec.kind !== 'noisy' || spec.target === undefined) return null;
  return { target: spec.target, start: spec.probability ?? ADAPTIVE_START_PROBABILITY };
}
