/**
 * The game workers of `morph train --jobs N`: child processes (trainWorker.ts) play games while this process,
 * the one learner, applies the finished games strictly in game-number order (a game that finishes early waits for
 * the ones before it). With `playHere`, this process is one of the N players too: it plays a game of its own on
 * the live weights, learns what has finished while no game of its own is under way, and forks N - 1 workers. N
 * processes then share N cores; a learner beside N workers made N + 1, and on 2 cores the workers' self-play
 * moves took about a fifth longer than alone (docs/lab/). A game whose worker reports a failure, or
 * whose worker dies (a crash, kill -9), is discarded and handed out again under the same number and seed; a dead
 * worker is replaced.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FinishedGame, GameTask } from './gameActor.ts';
import type { FromWorker, ToWorker, WorkerSetup } from './trainWorker.ts';
import { MorphError } from '../util/errors.ts';
import { EngineError } from '../engines/engineProcess.ts';

/** The `morph` command (bin/morph.js); this module sits two levels below the checkout, in src/ and in build/. */
const MORPH_BIN = fileURLToPath(new URL('../../bin/morph.js', import.meta.url));

/** How long stopped workers get to close their engines before they are killed. */
const STOP_GRACE_MS = 5_000;
/** How often the pool looks at the clock and the stop flag when nothing else happens. */
const TICK_MS = 200;

export interface PoolOptions {
  jobs: number;
  setup: WorkerSetup;
  /** The first game number to apply. */
  firstGame: number;
  /** The next new game to hand out, or null when no new game should start (enough games, time up, stopping). */
  nextTask: () => GameTask | null;
  /** Applies a finished game; called strictly in game-number order, one at a time. */
  apply: (game: FinishedGame) => Promise<void>;
  /**
   * A discarded game (null: a worker died between games), with its engine fault's kind if it was one; returns
   * false when the run should give up.
   */
  failed: (gameNumber: number | null, message: string, kind?: string) => boolean;
  /** No game is handed out before this time (ms since the epoch): the run's backoff after a failed game. */
  resumeAt?: () => number;
  /** True once the run is interrupted: games in flight are dropped. */
  interrupted: () => boolean;
  /**
   * Plays one game in this process on the live weights, which have learned `gamesLearned` games (null: stopped
   * early, once `shouldStop` said so). An EngineError discards the game as a worker's failure does; any other
   * error ends the run. Without it every one of the `jobs` players is a child process.
   */
  playHere?: (task: GameTask, gamesLearned: number, shouldStop: () => boolean) => Promise<FinishedGame | null>;
}

interface Worker {
  child: ChildProcess;
  ready: boolean;
  task: GameTask | null;
  exited: boolean;
}

/** Runs the pool until no game is left to hand out or apply; returns false when it gave up after failures. */
export async function runWorkerPool(options: PoolOptions): Promise<boolean> {
  const workers = new Set<Worker>();
  const retry: GameTask[] = [];
  const finished = new Map<number, FinishedGame>();
  let nextToApply = options.firstGame;
  let gaveUp = false;
  let stopping = false;
  let fatal: MorphError | null = null;
  /** An error of this process's own game that is not the engine's: thrown once the workers are stopped. */
  let broken: unknown = null;
  let wake: () => void = () => undefined;
  /** This process's own game while it is under way (playHere). */
  let playingHere: Promise<void> | null = null;
  const children = options.playHere ? options.jobs - 1 : options.jobs;

  const discard = (task: GameTask, message: string, kind?: string) => {
    retry.push(task);
    retry.sort((a, b) => a.gameNumber - b.gameNumber);
    // The run is ending anyway (Ctrl-C in a terminal also ends the workers' engines: that is the stop, not a failure).
    if (gaveUp || stopping || fatal || options.interrupted()) return;
    if (!options.failed(task.gameNumber, message, kind)) gaveUp = true;
  };

  const spawn = () => {
    const child = fork(MORPH_BIN, ['train-worker'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] });
    const worker: Worker = { child, ready: false, task: null, exited: false };
    workers.add(worker);
    child.on('message', (message: FromWorker) => {
      if (message.type === 'ready') worker.ready = true;
      else if (message.type === 'played') {
        finished.set(message.game.task.gameNumber, message.game);
        worker.task = null;
      } else if (message.type === 'failed' && worker.task) {
        const task = worker.task;
        worker.task = null;
        discard(task, message.message, message.kind);
      } else if (message.type === 'fatal') {
        fatal ??= new MorphError(message.message, message.exitCode);
      }
      wake();
    });
    child.on('error', () => undefined); // a failed send to a dying worker; its exit event follows
    child.on('exit', (code, signal) => {
      worker.exited = true;
      workers.delete(worker);
      const why = `game worker ${child.pid} died (${signal ?? `exit code ${code}`})`;
      if (worker.task) discard(worker.task, why);
      else if (!stopping && !gaveUp && !fatal && !options.interrupted() && !options.failed(null, why)) gaveUp = true;
      worker.task = null;
      wake();
    });
    send(worker, { type: 'setup', setup: options.setup });
  };

  const startHere = (task: GameTask) => {
    const shouldStop = () => stopping || gaveUp || fatal !== null || options.interrupted();
    playingHere = options.playHere!(task, nextToApply - 1, shouldStop)
      .then(
        (game) => {
          if (game) finished.set(task.gameNumber, game);
          else retry.unshift(task); // stopped early: the run is ending
        },
        (error: unknown) => {
          if (error instanceof EngineError) discard(task, error.message, error.kind);
          else broken ??= error;
        },
      )
      .finally(() => {
        playingHere = null;
        wake();
      });
  };

  try {
    while (true) {
      // The live weights change only between this process's own games.
      while (!playingHere && finished.has(nextToApply) && !options.interrupted()) {
        const game = finished.get(nextToApply)!;
        finished.delete(nextToApply);
        nextToApply++;
        await options.apply(game);
      }
      if (options.interrupted() || gaveUp || fatal || broken) break;
      const resting = Date.now() < (options.resumeAt?.() ?? 0);
      for (const worker of workers) {
        if (resting) break;
        if (!worker.ready || worker.task || worker.exited) continue;
        const task = retry.shift() ?? options.nextTask();
        if (!task) break;
        worker.task = task;
        send(worker, { type: 'play', task });
      }
      if (options.playHere && !playingHere && !resting) {
        const task = retry.shift() ?? options.nextTask();
        if (task) startHere(task);
      }
      const inFlight = playingHere !== null || [...workers].some((worker) => worker.task);
      if (!inFlight && retry.length === 0 && finished.size === 0 && !resting) {
        // Nothing in hand: done unless a new game would still start.
        const task = options.nextTask();
        if (!task) break;
        retry.push(task);
      }
      while (workers.size < children) spawn();
      await Promise.race([new Promise<void>((resolve) => (wake = resolve)), sleep(TICK_MS)]);
    }
  } finally {
    stopping = true;
    await Promise.all([stopAll(workers), playingHere]);
  }
  if (broken) throw broken;
  if (fatal) throw fatal;
  return !gaveUp;
}

function send(worker: Worker, message: ToWorker): void {
  if (worker.exited || !worker.child.connected) return;
  worker.child.send(message);
}

async function stopAll(workers: Set<Worker>): Promise<void> {
  const exits = [...workers].map(
    (worker) =>
      new Promise<void>((resolve) => {
        if (worker.exited) return resolve();
        worker.child.once('exit', () => resolve());
        send(worker, { type: 'stop' });
        setTimeout(() => worker.child.kill('SIGKILL'), STOP_GRACE_MS).unref();
      }),
  );
  await Promise.all(exits);
}
