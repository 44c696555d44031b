/**
 * `morph train --jobs N` as a user runs it: game workers playing on snapshots while one learner applies the games
 * in order. Checks the games table afterwards: numbers without gaps, each game's snapshot, games that replay
 * exactly when they were played on the same snapshot, a killed worker costing only its game, and kill -9 of the
 * learner costing only the games in flight.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Chess } from 'chess.js';
import { describe, expect, it } from 'vitest';
import { openMorphDatabase } from '../src/store/database.ts';
import { gameSeed } from '../src/train/harness.ts';
import { AUTO_RELOAD_FACTOR, snapshotIsDue } from '../src/train/trainWorker.ts';

import { killedAfterAll, startMorph, type FinishedProcess } from './helpers/cli.ts';
import { recordedGames } from './helpers/recordedGames.ts';
const FAKE_ENGINE = fileURLToPath(new URL('./fixtures/fake-engine.mjs', import.meta.url));
const FLAKY_ENGINE = fileURLToPath(new URL('./fixtures/flaky-engine.mjs', import.meta.url));
const tempDir = mkdtempSync(join(tmpdir(), 'morph-jobs-'));
let fileCount = 0;
const tempPath = (name: string) => join(tempDir, `${fileCount++}-${name}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const tracked = killedAfterAll(tempDir);

type Finished = FinishedProcess;

/** Starts `morph train ARGS`; `ownGroup` puts it in a process group of its own, as a terminal would. */
function startTrain(args: string[], ownGroup = false): { child: ChildProcess; done: Promise<Finished> } {
  return tracked(startMorph(['train', '--progress', 'none', ...args], ownGroup));
}

interface GameRow {
  id: number;
  seed: number;
  snapshot: number | null;
  pgn: string;
  plies: number;
}

function gameRows(path: string): GameRow[] {
  const db = openMorphDatabase(path); // read-write, as the next run would: recovers a killed run's WAL
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const rows = db.prepare('SELECT id, seed, snapshot, pgn, plies FROM games ORDER BY id').all() as GameRow[];
    const played = Number(db.prepare("SELECT value FROM meta WHERE key = 'games_played'").pluck().get());
    expect(played).toBe(rows.length);
    return rows;
  } finally {
    db.close();
  }
}

async function waitForGames(path: string, count: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (recordedGames(path) < count) {
    if (Date.now() > deadline) throw new Error(`no ${count} games within 60 s`);
    await sleep(100);
  }
}

/** The game workers of a run: its child processes running `morph train-worker`. */
function workerPids(parent: number): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(parent)], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes('train-worker')).map((line) => Number(line.trim().split(/\s+/)[0]));
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** An executable running a fake UCI engine script with `args` (`uci:PATH` starts engines without arguments). */
function fakeEngine(name: string, args: string[], script = FAKE_ENGINE): string {
  const path = tempPath(`${name}.sh`);
  const quoted = [process.execPath, script, ...args].map((word) => `'${word}'`).join(' ');
  writeFileSync(path, `#!/bin/sh\nexec ${quoted}\n`);
  chmodSync(path, 0o755);
  return path;
}

/**
 * For runs whose games, snapshots and failures a test checks: no own move policy. Morph does not play with it in
 * training, and its upkeep (a square-value fit at the end of a run of 100 or more partner decisions) took 5 of
 * 7.5 s of processor time of a 6-game run (2026-12). The other runs keep it, so its upkeep beside game workers,
 * killed and resumed, is still run.
 */
const NO_POLICY = ['--no-policy'];

/**
 * For runs that check only which process played a game or what a failure costs: no relation-term lessons either. Their
 * searches after each game were 40% of a short run's processor time (6 games against random: 5.3 s against 3.2 s,
 * 2026-12-07) and change neither the games nor the pattern weights; the runs whose games are replayed, killed or
 * resumed keep them.
 */
const NO_LESSONS = ['--relation-lessons', '0'];

const moveText = (pgn: string) => pgn.split('\n').filter((line) => !line.startsWith('[')).join('\n').trim();

/** Game numbers 1..n without gaps, each with its seed, a PGN that replays, and a snapshot before the game. */
function expectOrderedGames(rows: GameRow[], seed: number): void {
  rows.forEach((row, index) => {
    expect(row.id).toBe(index + 1);
    expect(row.seed).toBe(gameSeed(seed, row.id));
    const chess = new Chess();
    chess.loadPgn(row.pgn);
    expect(chess.history()).toHaveLength(row.plies);
    expect(row.snapshot).not.toBeNull();
    expect(row.snapshot!).toBeGreaterThanOrEqual(0);
    expect(row.snapshot!).toBeLessThan(row.id);
  });
}

describe('when a game worker loads a fresh snapshot', () => {
  it('counts games for a number, and time against the load time for auto', () => {
    expect(snapshotIsDue(4, { games: 3, seconds: 1000 }, 1)).toBe(false);
    expect(snapshotIsDue(4, { games: 4, seconds: 0.1 }, 1)).toBe(true);
    // auto: a snapshot that took 0.5 s to load is kept for AUTO_RELOAD_FACTOR * 0.5 s of play, however many games.
    expect(snapshotIsDue('auto', { games: 50, seconds: AUTO_RELOAD_FACTOR * 0.5 - 0.01 }, 0.5)).toBe(false);
    expect(snapshotIsDue('auto', { games: 1, seconds: AUTO_RELOAD_FACTOR * 0.5 }, 0.5)).toBe(true);
  });

  it('refuses a --snapshot-every that is neither auto nor a whole number, in one line', async () => {
    const db = tempPath('bad-snapshot-every.db');
    for (const bad of ['0', 'often', '2.5']) {
      const run = await startTrain(['--db', db, '--jobs', '2', '--games', '1', '--opponent', 'random', '--snapshot-every', bad]).done;
      expect(run.code).toBe(2);
      expect(run.stderr.trim().split('\n')).toEqual([`morph: --snapshot-every must be auto or a whole number of games (1 or more), got "${bad}"`]);
    }
  });
});

describe('morph train --jobs N', () => {
  it('applies games in order and records their snapshots; a game replays exactly on the same snapshot', async () => {
    const common = ['--games', '6', '--opponent', 'random', '--seed', '11', '--max-plies', '60', ...NO_POLICY];
    const serial = tempPath('serial.db');
    const parallel = tempPath('parallel.db');
    const [one, two] = await Promise.all([
      startTrain(['--db', serial, '--jobs', '1', ...common]).done,
      startTrain(['--db', parallel, '--jobs', '2', '--snapshot-every', '1', '--json', ...common]).done,
    ]);
    expect(one.code).toBe(0);
    expect(two.code).toBe(0);
    expect(two.stderr).toBe('');
    expect(JSON.parse(two.stdout)).toMatchObject({ games: 6, jobs: 2, failures: 0, firstGame: 1, lastGame: 6 });
    const serialRows = gameRows(serial);
    const parallelRows = gameRows(parallel);
    expectOrderedGames(serialRows, 11);
    expectOrderedGames(parallelRows, 11);
    // One job plays on the live database: every game sees all the games before it.
    expect(serialRows.map((row) => row.snapshot)).toEqual([0, 1, 2, 3, 4, 5]);
    // Same seed and same snapshot (the same weights): the same game, whichever process played it.
    const same = parallelRows.filter((row) => row.snapshot === serialRows[row.id - 1].snapshot);
    expect(same.length).toBeGreaterThan(0); // game 1 at least: both play it on the seeded database
    for (const row of same) expect(moveText(row.pgn)).toBe(moveText(serialRows[row.id - 1].pgn));
  });

  it('plays games in the learner too, on the live weights, beside one worker per further job', async () => {
    const db = tempPath('learner-plays.db');
    // The worker never reloads, so every game it plays records snapshot 0; a later snapshot is a game the learner
    // played after applying earlier ones.
    const run = await startTrain(['--db', db, '--jobs', '2', '--snapshot-every', '1000', '--games', '8', '--opponent', 'random',
      '--seed', '3', '--max-plies', '40', '--json', ...NO_POLICY, ...NO_LESSONS]).done;
    expect(run.code).toBe(0);
    const rows = gameRows(db);
    expectOrderedGames(rows, 3);
    expect(rows.filter((row) => row.snapshot! > 0).length).toBeGreaterThan(0);
  });

  it('discards only the game of a killed worker, and the run goes on', async () => {
    const db = tempPath('worker-killed.db');
    const run = startTrain(['--db', db, '--jobs', '2', '--games', '6', '--opponent', 'random', '--seed', '5', '--max-plies', '60', '--json', ...NO_POLICY, ...NO_LESSONS]);
    await waitForGames(db, 1);
    let victims: number[] = [];
    while (victims.length === 0) {
      victims = workerPids(run.child.pid!);
      await sleep(50);
    }
    process.kill(victims[0], 'SIGKILL');
    const finished = await run.done;
    expect(finished.code).toBe(0);
    const summary = JSON.parse(finished.stdout);
    expect(summary).toMatchObject({ games: 6, stopReason: 'games-done' });
    expect(summary.failures).toBeGreaterThanOrEqual(1);
    expect(finished.stderr).toMatch(/game worker \d+ died \(SIGKILL\)/);
    expectOrderedGames(gameRows(db), 5);
  });

  it('loses only the games in flight to kill -9 of the learner; its workers exit and the next run resumes', async () => {
    const db = tempPath('learner-killed.db');
    const run = startTrain(['--db', db, '--jobs', '3', '--games', '1000', '--opponent', 'random', '--seed', '9', '--max-plies', '60']);
    await waitForGames(db, 3);
    const workers = workerPids(run.child.pid!);
    expect(workers).toHaveLength(2); // the learner is the third player
    run.child.kill('SIGKILL');
    await run.done;
    const deadline = Date.now() + 10_000;
    while (workers.some(alive) && Date.now() < deadline) await sleep(100);
    expect(workers.filter(alive)).toEqual([]);
    const before = gameRows(db).length;
    expect(before).toBeGreaterThanOrEqual(3);

    const resumed = await startTrain(['--db', db, '--jobs', '2', '--games', '3', '--opponent', 'random', '--max-plies', '60', '--json']).done;
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ games: 3, firstGame: before + 1, lastGame: before + 3, seed: 9 });
    const rows = gameRows(db);
    expect(rows).toHaveLength(before + 3);
    expectOrderedGames(rows, 9);
  });

  it('discards the game of an engine that crashes, and the run goes on; a bad engine option ends it in one line', async () => {
    // Crashes at its third search, in the first game of the worker or of the learner (which plays too, with the
    // engine it started to check the spec), unless another engine has crashed before it started.
    const crashOnce = fakeEngine('crash-once', ['3', tempPath('crash.marker')], FLAKY_ENGINE);
    const good = fakeEngine('good', ['good']);
    const crashDb = tempPath('engine-crash.db');
    const badDb = tempPath('bad-option.db');
    const common = ['--jobs', '2', '--max-plies', '30', '--seed', '4'];
    const [crashed, bad] = await Promise.all([
      startTrain(['--db', crashDb, '--games', '4', '--opponent', `uci:${crashOnce}`, '--json', ...common]).done,
      startTrain(['--db', badDb, '--games', '2', '--opponent', `uci:${good}:Bogus=1`, ...common]).done,
    ]);
    expect(crashed.code).toBe(0);
    expect(crashed.stderr).toMatch(/^\[train\] game \d+ discarded: engine "uci:.*" exited with code 3/);
    const summary = JSON.parse(crashed.stdout);
    expect(summary).toMatchObject({ games: 4, stopReason: 'games-done' });
    // The learner's and the worker's first engines may crash (both start before either has crashed); the
    // restarted ones never do.
    expect(summary.failures).toBeGreaterThanOrEqual(1);
    expect(summary.failures).toBeLessThanOrEqual(2);
    expectOrderedGames(gameRows(crashDb), 4);

    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^morph: engine "uci:.*" has no option "Bogus" \(it has: Hash, Skill Level\)\n$/);
    expect(gameRows(badDb)).toEqual([]);
  });

  it('stops cleanly on Ctrl-C to the whole process group: workers and engines end, nothing is discarded', async () => {
    const db = tempPath('interrupted.db');
    const engine = fakeEngine('good', ['good']);
    const run = startTrain(['--db', db, '--jobs', '2', '--games', '1000', '--opponent', `uci:${engine}`, '--max-plies', '30'], true);
    await waitForGames(db, 2);
    const workers = workerPids(run.child.pid!);
    process.kill(-run.child.pid!, 'SIGINT');
    const stopped = await Promise.race([run.done, sleep(15_000).then(() => null)]);
    expect(stopped, 'the run should stop within 15 s of SIGINT').not.toBeNull();
    expect(stopped!.code).toBe(130); // as shells report a command ended by SIGINT
    expect(stopped!.stderr).toBe('');
    expect(stopped!.stdout).toMatch(/^trained games 1-(\d+) \(\1 games, interrupted\)/);
    expect(workers.filter(alive)).toEqual([]);
    expect(gameRows(db).length).toBeGreaterThanOrEqual(2);
  });
});
