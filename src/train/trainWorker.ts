/**
 * A game worker of `morph train --jobs N` (a child process the learner forks: `morph train-worker`). It plays the
 * games the learner sends, with Morph's weights from a read-only snapshot of the live database, reloaded after
 * every `reloadEvery` games, and sends each finished game back over the IPC channel. It never writes the
 * database. It ignores Ctrl-C (the learner decides when the run stops) and exits when told to or when the learner
 * is gone.
 */
import { EngineError } from '../engines/engineProcess.ts';
import { MorphError } from '../util/errors.ts';
import { PatternStore } from '../store/patternStore.ts';
import { GameActor, type ActorOptions, type FinishedGame, type GameTask } from './gameActor.ts';

export interface WorkerSetup extends ActorOptions {
  db: string;
  /** Games played on one snapshot before the next is loaded; 'auto': see `snapshotIsDue`. */
  reloadEvery: number | 'auto';
}

/**
 * With 'auto', a worker plays on a snapshot until its games there took this many times as long as loading the
 * snapshot did, so loading costs it at most about 1/(1+F) of its time however large the database grows. Loading
 * is a full read of the hierarchy, growing with it (on an idle 2-core machine 0.2 s at 11k patterns, 0.4 s at
 * 22k, about 2.6 s at 100k): every 4 games that is 4-5% of a worker's time at 11k-22k, but a quarter at 100k.
 * At F = 20 a worker reloads about every 4 games at 11k-22k, and its weights stay some tens of games old at most.
 */
export const AUTO_RELOAD_FACTOR = 20;

/** Has a worker used its snapshot long enough to load a fresh one? */
export function snapshotIsDue(
  reloadEvery: number | 'auto',
  played: { games: number; seconds: number },
  loadSeconds: number,
): boolean {
  return reloadEvery === 'auto' ? played.seconds >= AUTO_RELOAD_FACTOR * loadSeconds : played.games >= reloadEvery;
}

export type ToWorker = { type: 'setup'; setup: WorkerSetup } | { type: 'play'; task: GameTask } | { type: 'stop' };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'played'; game: FinishedGame }
  /** kind: the EngineError's, when an engine failed. */
  | { type: 'failed'; gameNumber: number; message: string; kind?: string }
  /** A problem no retry can fix (a bad engine option): the run ends with this one-line error. */
  | { type: 'fatal'; message: string; exitCode: number };

export async function runTrainWorker(): Promise<void> {
  if (!process.send) throw new Error('train-worker runs only as a child of `morph train --jobs N`');
  // Once the learner is gone (killed, even by kill -9) the channel is closed: what is left to say is dropped, and a
  // failed send is not an 'error' event, which would end this process with a stack trace.
  const send = (message: FromWorker) => {
    if (process.connected) process.send!(message, undefined, undefined, () => undefined);
  };
  let setup: WorkerSetup | null = null;
  let actor: GameActor | null = null;
  let snapshot: { store: PatternStore; gamesLearned: number } | null = null;
  /** Games and seconds played on the current snapshot, and the seconds it took to load. */
  const playedOnSnapshot = { games: 0, seconds: 0 };
  let loadSeconds = 0;
  let stopping = false;
  const queue: GameTask[] = [];
  let busy = false;

  // Ctrl-C in a terminal reaches the whole process group: the learner stops the run, and this worker's engine
  // dies of the same signal, which is then the stop, not a failed game to report.
  let interrupted = false;
  process.on('SIGINT', () => {
    interrupted = true;
  });
  const finish = async () => {
    if (stopping) return;
    stopping = true;
    await actor?.close();
    snapshot?.store.close();
    // Disconnecting a channel that is already closed (the learner died, or closed it first) emits an 'error'.
    if (process.connected) process.disconnect!();
    process.exit(0);
  };
  process.on('disconnect', () => void finish());

  const playNext = async () => {
    if (busy || stopping || !setup || !actor) return;
    const task = queue.shift();
    if (!task) return;
    busy = true;
    try {
      if (!snapshot || snapshotIsDue(setup.reloadEvery, playedOnSnapshot, loadSeconds)) {
        snapshot?.store.close();
        snapshot = null;
        const loadStarted = performance.now();
        snapshot = PatternStore.openSnapshot(setup.db);
        loadSeconds = (performance.now() - loadStarted) / 1000;
        playedOnSnapshot.games = 0;
        playedOnSnapshot.seconds = 0;
      }
      const playStarted = performance.now();
      const game = await actor.play(snapshot.store, snapshot.gamesLearned, task, () => stopping);
      playedOnSnapshot.games++;
      playedOnSnapshot.seconds += (performance.now() - playStarted) / 1000;
      if (game) send({ type: 'played', game });
    } catch (error) {
      if (error instanceof MorphError && !(error instanceof EngineError)) {
        send({ type: 'fatal', message: error.message, exitCode: error.exitCode });
        return;
      }
      if (interrupted) return;
      // An engine failure, or anything else (the snapshot unreadable, a bug): the learner discards this game.
      if (!(error instanceof EngineError)) {
        snapshot?.store.close();
        snapshot = null;
      }
      send({
        type: 'failed', gameNumber: task.gameNumber, message: (error as Error).message.split('\n')[0],
        ...(error instanceof EngineError ? { kind: error.kind } : {}),
      });
    } finally {
      busy = false;
    }
    void playNext();
  };

  process.on('message', (message: ToWorker) => {
    if (message.type === 'setup') {
      setup = message.setup;
      actor = new GameActor(setup);
      send({ type: 'ready' });
    } else if (message.type === 'play') {
      queue.push(message.task);
      void playNext();
    } else if (message.type === 'stop') {
      void finish();
    }
  });
}
