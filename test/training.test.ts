/**
 * `morph train` as a user runs it: a child process against the embedded Stockfish, fake engines that crash,
 * hang or cheat, Ctrl-C, kill -9 and a resumed run, and reproducibility from a seed. Each test checks the
 * database afterwards (the games and runs tables, meta, integrity), the way `morph inspect` would read it.
 */
import type { ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Chess } from 'chess.js';
import { afterAll, describe, expect, it } from 'vitest';
import { openMorphDatabase, type MorphDatabase } from '../src/store/database.ts';
import { gameSeed, type TrainingSummary } from '../src/train/harness.ts';
import { trainingSummaryText } from '../src/cli/commands/train.ts';

import { startMorph, type FinishedProcess } from './helpers/cli.ts';
import { recordedGames } from './helpers/recordedGames.ts';
const FAKE_ENGINE = fileURLToPath(new URL('./fixtures/fake-engine.mjs', import.meta.url));
const FLAKY_ENGINE = fileURLToPath(new URL('./fixtures/flaky-engine.mjs', import.meta.url));
const tempDir = mkdtempSync(join(tmpdir(), 'morph-train-'));
let fileCount = 0;

/** A fresh path in the test's folder. */
function tempPath(name: string): string {
  return join(tempDir, `${fileCount++}-${name}`);
}

/** Children still running when the file ends (a failed test) are killed, with their process group if they lead one. */
const running = new Map<ChildProcess, { ownGroup: boolean }>();
afterAll(() => {
  for (const [child, { ownGroup }] of running) {
    try {
      process.kill(ownGroup ? -child.pid! : child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(tempDir, { recursive: true, force: true });
});

type Finished = FinishedProcess;

/**
 * Starts `morph train ARGS` with one job (games on the live database; test/trainingJobs.test.ts covers game
 * workers); `ownGroup` puts it in a process group of its own, as a terminal would.
 */
function startTrain(args: string[], ownGroup = false): { child: ChildProcess; done: Promise<Finished> } {
  const { child, done } = startMorph(['train', '--jobs', '1', ...args], ownGroup);
  running.set(child, { ownGroup });
  void done.then(() => running.delete(child));
  return { child, done };
}

function train(args: string[]): Promise<Finished> {
  return startTrain(args).done;
}

/** An executable that runs `script` with `args` (`uci:PATH` starts engines without arguments), after `prelude`. */
function engineScript(name: string, script: string, args: string[], prelude = ''): string {
  const path = tempPath(`${name}.sh`);
  const quoted = [process.execPath, script, ...args].map((word) => `'${word}'`).join(' ');
  writeFileSync(path, `#!/bin/sh\n${prelude}exec ${quoted}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** Opens a database for checking (read-write, as the next run would, so a killed run's WAL is recovered). */
function withDatabase<T>(path: string, check: (db: MorphDatabase) => T): T {
  const db = openMorphDatabase(path);
  try {
    return check(db);
  } finally {
    db.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until at least `count` games are recorded; fails if the run ends first. */
async function waitForGames(path: string, count: number, run: { done: Promise<Finished> }, everyMs = 200): Promise<number> {
  let ended: Finished | null = null;
  void run.done.then((finished) => (ended = finished));
  const deadline = Date.now() + 40_000;
  for (;;) {
    const games = recordedGames(path);
    if (games >= count) return games;
    if (ended) throw new Error(`the run ended before ${count} games: ${JSON.stringify(ended)}`);
    if (Date.now() > deadline) throw new Error(`no ${count} games within 40 s (have ${games})`);
    await sleep(everyMs);
  }
}

interface GameRow {
  id: number;
  run_id: number;
  morph_color: string;
  opponent: string;
  result: string;
  morph_score: number;
  reason: string;
  plies: number;
  final_material: number | null;
  patterns: number | null;
  seconds: number | null;
  seed: number | null;
  pgn: string | null;
}

interface RunRow {
  id: number;
  finished_at: string | null;
  opponent: string;
  seed: number;
  first_game: number;
  games: number;
  stop_reason: string | null;
}

const games = (db: MorphDatabase) => db.prepare('SELECT * FROM games ORDER BY id').all() as GameRow[];
const runs = (db: MorphDatabase) => db.prepare('SELECT * FROM runs ORDER BY id').all() as RunRow[];
const meta = (db: MorphDatabase, key: string) =>
  db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined;
const integrity = (db: MorphDatabase) => db.pragma('integrity_check', { simple: true });

/** chess.js reads the PGN back; returns the number of moves it replayed. */
function replayedPlies(pgn: string): number {
  const chess = new Chess();
  chess.loadPgn(pgn);
  return chess.history().length;
}

/** The PGN without its headers (the Date header changes at midnight). */
const moveText = (pgn: string) => pgn.split('\n').filter((line) => !line.startsWith('[')).join('\n').trim();

/** Every recorded game is complete: the counter agrees, and each game has a PGN that replays to its plies. */
function expectCompleteGames(db: MorphDatabase): GameRow[] {
  const rows = games(db);
  expect(Number(meta(db, 'games_played'))).toBe(rows.length);
  rows.forEach((game, index) => {
    expect(game.id).toBe(index + 1); // game numbers have no gaps
    expect(game.pgn).toBeTruthy();
    expect(replayedPlies(game.pgn!)).toBe(game.plies);
  });
  return rows;
}

/**
 * A draw adjudicated after 60 plies, for runs against random whose games' length the test does not check: learning
 * from a game of the default 300 plies takes seconds (two games: 22 s against 4 s at 60 plies, 2026-12), and these
 * tests check what is recorded, resumed or refused, which shorter games record the same way.
 */
const SHORT_GAMES = ['--max-plies', '60'];

/**
 * No relation-term lessons, for runs that check what is recorded, resumed or where games start: the lessons' searches
 * after each game were 40% of such a run's processor time (6 games against random: 5.3 s against 3.2 s, 2026-12-07)
 * and change neither its games nor its pattern weights. The Stockfish run above, the reproducible runs and the
 * engine that crashes mid-run keep them.
 */
const NO_LESSONS = ['--relation-lessons', '0'];

const RESULTS = ['1-0', '0-1', '1/2-1/2'];
const REASONS = ['checkmate', 'stalemate', 'insufficient', 'threefold', 'fifty-move', 'ply-limit'];

describe('morph train', () => {
  it('records a short run against the embedded Stockfish: games, run, weights, PGN and JSON log', async () => {
    const db = tempPath('stockfish.db');
    const pgnFile = tempPath('stockfish.pgn');
    const logFile = tempPath('stockfish.jsonl');
    const opponent = 'stockfish:skill=0,depth=1';
    const run = await train([
      '--db', db, '--games', '4', '--opponent', opponent, '--progress', 'none', '--json',
      '--pgn', pgnFile, '--json-log', logFile, '--seed', '1',
      // What is recorded does not depend on the move policy, which test/ownPolicy.test.ts covers.
      '--no-policy',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({ games: 4, failures: 0, stopReason: 'games-done', firstGame: 1, lastGame: 4, seed: 1 });
    expect(summary.wins + summary.draws + summary.losses).toBe(4);
    expect(summary.time.opponent).toBeGreaterThan(0);

    const rows = withDatabase(db, (database) => {
      expect(integrity(database)).toBe('ok');
      const rows = expectCompleteGames(database);
      expect(rows).toHaveLength(4);
      for (const game of rows) {
        expect(game).toMatchObject({ run_id: 1, opponent, morph_color: game.id % 2 === 1 ? 'w' : 'b' });
        expect(RESULTS).toContain(game.result);
        expect(REASONS).toContain(game.reason);
        expect(game.reason === 'checkmate').toBe(game.result !== '1/2-1/2');
        expect(game.plies).toBeGreaterThan(0);
        expect(typeof game.final_material).toBe('number');
        expect(game.patterns).toBeGreaterThan(0);
        expect(game.seconds).toBeGreaterThan(0);
        expect(game.seed).toBe(gameSeed(1, game.id));
        expect(game.pgn).toContain(`[Result "${game.result}"]`);
        expect(game.pgn).toContain(`[Termination "${game.reason}"]`);
      }
      expect(runs(database)).toMatchObject([
        { id: 1, opponent, seed: 1, first_game: 1, games: 4, stop_reason: 'games-done', finished_at: expect.any(String) },
      ]);
      expect(meta(database, 'games_played')).toBe('4');
      expect(meta(database, 'seed')).toBe('1');
      // Learning moved weights away from the seeded 0.5.
      const learned = database.prepare('SELECT count(*) FROM pattern_stats WHERE updates > 0 AND weight != 0.5').pluck().get();
      expect(learned).toBeGreaterThan(0);
      const patternCount = database.prepare('SELECT count(*) FROM patterns').pluck().get();
      expect(rows[3].patterns).toBe(patternCount);
      expect(summary.patterns).toBe(patternCount);
      return rows;
    });

    // The PGN file holds exactly the stored games, each of which chess.js replays to its recorded length.
    const pgnText = readFileSync(pgnFile, 'utf8');
    expect(pgnText).toBe(rows.map((game) => `${game.pgn}\n\n`).join(''));
    const filed = pgnText.trim().split(/\n\n(?=\[Event )/);
    expect(filed.map(replayedPlies)).toEqual(rows.map((game) => game.plies));

    const log = readFileSync(logFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(log.map((entry) => [entry.game, entry.result, entry.reason, entry.plies, entry.seed])).toEqual(
      rows.map((game) => [game.id, game.result, game.reason, game.plies, game.seed]),
    );
  });

  it('loses at most the game in progress to kill -9, and the next run continues with the stored seed', async () => {
    const db = tempPath('killed.db');
    const pgnFile = tempPath('killed.pgn');
    const run = startTrain([
      '--db', db, '--games', '1000', '--opponent', 'random', '--progress', 'none', '--seed', '77', '--pgn', pgnFile, ...SHORT_GAMES,
      // What a kill loses and a resumed run continues is in the database; the policy's own recovery is
      // test/ownPolicy.test.ts's. Without its lessons between games, the kill lands in a game, as meant.
      '--no-policy', ...NO_LESSONS,
    ]);
    const seen = await waitForGames(db, 2, run);
    // Catch the moment the next game is recorded, then kill a little later: the game after it is under way.
    await waitForGames(db, seen + 1, run, 10);
    await sleep(50);
    run.child.kill('SIGKILL');
    const killed = await run.done;
    expect(killed.signal).toBe('SIGKILL');

    const before = withDatabase(db, (database) => {
      expect(integrity(database)).toBe('ok');
      const rows = expectCompleteGames(database);
      expect(rows.length).toBeGreaterThanOrEqual(seen + 1);
      expect(runs(database)).toMatchObject([{ id: 1, finished_at: null, stop_reason: null, games: rows.length }]);
      expect(meta(database, 'seed')).toBe('77');
      return rows.length;
    });
    // The PGN file is written after the game's transaction commits, so it may lack the last game, never more.
    const filed = readFileSync(pgnFile, 'utf8').trim().split(/\n\n(?=\[Event )/).length;
    expect([before - 1, before]).toContain(filed);

    const resumed = await train(['--db', db, '--games', '2', '--opponent', 'random', '--progress', 'none', '--json', ...SHORT_GAMES, '--no-policy', ...NO_LESSONS]);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ games: 2, firstGame: before + 1, lastGame: before + 2, seed: 77 });
    withDatabase(db, (database) => {
      expect(integrity(database)).toBe('ok');
      const rows = expectCompleteGames(database);
      expect(rows).toHaveLength(before + 2);
      expect(meta(database, 'games_played')).toBe(String(before + 2));
      expect(runs(database)).toMatchObject([
        { id: 1, stop_reason: null },
        { id: 2, seed: 77, first_game: before + 1, games: 2, stop_reason: 'games-done' },
      ]);
      for (const game of rows) expect(game.seed).toBe(gameSeed(77, game.id));
      expect(rows.slice(before).map((game) => game.run_id)).toEqual([2, 2]);
    });
  });

  const interruptions = [
    // Its own process group, signalled as a whole, as a terminal's Ctrl-C does: the Stockfish child dies too.
    { opponent: 'stockfish', canonical: 'stockfish:skill=0,depth=1', wholeGroup: true },
    // An in-process opponent never waits on I/O: the harness must still give the signal handler a chance.
    { opponent: 'random', canonical: 'random', wholeGroup: false },
  ];

  it.each(interruptions)('stops cleanly and promptly on SIGINT (opponent $opponent)', async (interruption) => {
    const { opponent, canonical, wholeGroup } = interruption;
    const db = tempPath(`interrupted-${opponent}.db`);
    const run = startTrain(
      ['--db', db, '--games', '1000', '--opponent', opponent, '--progress', 'none', '--max-failures', '1', ...SHORT_GAMES],
      wholeGroup,
    );
    await waitForGames(db, 1, run, 100);
    process.kill(wholeGroup ? -run.child.pid! : run.child.pid!, 'SIGINT');
    const stopped = await Promise.race([run.done, sleep(10_000).then(() => null)]);
    expect(stopped, 'the run should stop within 10 s of SIGINT').not.toBeNull();
    const finished = stopped!;
    expect(finished.stderr).toBe(''); // in particular, no "game N discarded"
    expect(finished.code).toBe(130); // as shells report a command ended by SIGINT
    expect(finished.stdout).toMatch(/^trained games 1-(\d+) \(\1 games, interrupted\), seed \d+\nW\/D\/L /);
    withDatabase(db, (database) => {
      expect(integrity(database)).toBe('ok');
      const rows = expectCompleteGames(database);
      expect(rows.length).toBeGreaterThanOrEqual(1);
      expect(runs(database)).toMatchObject([
        { id: 1, opponent: canonical, games: rows.length, stop_reason: 'interrupted', finished_at: expect.any(String) },
      ]);
    });
  });

  it('plays itself with --opponent self, on the live database', async () => {
    const db = tempPath('self.db');
    const finished = await train(['--db', db, '--games', '2', '--opponent', 'self', '--seed', '3', '--max-plies', '40', '--progress', 'none']);
    expect(finished.code).toBe(0);
    withDatabase(db, (database) => {
      const rows = expectCompleteGames(database);
      expect(rows).toHaveLength(2);
      expect(rows.map((row) => row.opponent)).toEqual(['self', 'self']);
      expect(rows[1].pgn).toContain('[White "self"]');
      expect(runs(database)).toMatchObject([{ opponent: 'self', games: 2 }]);
    });
  });

  it('saves learning settings given as options, and refuses a bad one in one line before touching the database', async () => {
    const db = tempPath('settings.db');
    const bad = await train(['--db', db, '--games', '1', '--opponent', 'random', '--update-per', 'move', '--progress', 'none']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('morph: --update-per must be game or position\n');
    expect(existsSync(db)).toBe(false);
    const badRate = await train(['--db', db, '--games', '1', '--opponent', 'random', '--regressions-per-game', '-1', '--progress', 'none']);
    expect(badRate.code).toBe(2);
    expect(badRate.stderr).toMatch(/^morph: --regressions-per-game .*\n$/);
    expect(existsSync(db)).toBe(false);
    const good = await train(['--db', db, '--games', '1', '--opponent', 'random', '--update-per', 'position', '--discount', '0.97',
      '--subgraphs-per-game', '20', '--regressions-per-game', '5', '--specialisations-per-game', '0', '--progress', 'none', ...SHORT_GAMES,
      '--no-policy']);
    expect(good.code).toBe(0);
    withDatabase(db, (database) => {
      // A creation rate changes only its own part of a nested setting.
      expect(JSON.parse(meta(database, 'config')!)).toEqual(expect.objectContaining({
        updatePer: 'position',
        discount: 0.97,
        subgraphsPerGame: 20,
        regression: { enabled: true, perGame: 5, extremeness: 0.3 },
        generalisation: { enabled: true, perGame: 2, weightTolerance: 0.05 },
        specialisation: { enabled: true, perGame: 0, minChange: 0.15 },
      }));
    });
  });

  it('starts each pair of games from the next opening of --openings, the same with game workers', async () => {
    // Three openings, one of them PGN moves: training starts from the position they reach (chess.js, independently).
    // Without the own move policy, which Morph does not play with in training (its upkeep was 6 of these runs' 8 s).
    const suite = tempPath('suite.pgn');
    const lines = ['1. e4 e5 2. Nf3 *', '1. d4 Nf6 *', '1. c4 c5 2. g3 g6 *'];
    writeFileSync(suite, lines.map((line) => `[Event "?"]\n\n${line}\n`).join('\n'));
    const positions = lines.map((line) => {
      const chess = new Chess();
      chess.loadPgn(line);
      return chess.fen();
    });
    const [one, two] = [tempPath('openings-1.db'), tempPath('openings-2.db')];
    const log = tempPath('openings.jsonl');
    const runs = await Promise.all([
      train(['--db', one, '--games', '6', '--opponent', 'random', '--seed', '9', '--openings', suite, '--json-log', log, '--progress', 'none', ...SHORT_GAMES, '--no-policy', ...NO_LESSONS]),
      startMorph(['train', '--jobs', '2', '--db', two, '--games', '6', '--opponent', 'random', '--seed', '9', '--openings', suite, '--progress', 'none', ...SHORT_GAMES, '--no-policy', ...NO_LESSONS]).done,
    ]);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    expect(runs[0].stdout).toContain(`from 3 openings of ${suite}`);
    const starts = [one, two].map((db) =>
      withDatabase(db, (database) =>
        expectCompleteGames(database).map((game) => {
          const tags = Object.fromEntries([...game.pgn!.matchAll(/^\[(\w+) "(.*)"\]$/gm)].map((m) => [m[1], m[2]]));
          // The game replays from its FEN tag, and the opening named is the one at that position.
          const chess = new Chess(tags.FEN);
          chess.loadPgn(game.pgn!);
          expect(chess.history().length).toBe(game.plies);
          expect(tags.Opening).toBe(`${suite} #${positions.indexOf(tags.FEN) + 1}`);
          return tags.FEN;
        }),
      ),
    );
    // Games 2k-1 and 2k share an opening (Morph white, then black); the three pairs play all three openings.
    for (const fens of starts) {
      expect([fens[1], fens[3], fens[5]]).toEqual([fens[0], fens[2], fens[4]]);
      expect(new Set(fens)).toEqual(new Set(positions));
    }
    // Which game plays which opening follows the seed and the game number only, not the number of jobs.
    expect(starts[1]).toEqual(starts[0]);
    const logged = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { opening: number });
    expect(logged.map((entry) => positions[entry.opening - 1])).toEqual(starts[0]);
  });

  it('refuses an --openings file it cannot read or parse, in one line, writing nothing', async () => {
    const db = tempPath('bad-openings.db');
    const bad = tempPath('bad.epd');
    writeFileSync(bad, 'not a position\n');
    const [missing, unparsable] = await Promise.all([
      train(['--db', db, '--games', '1', '--opponent', 'random', '--openings', tempPath('none.epd'), '--progress', 'none']),
      train(['--db', db, '--games', '1', '--opponent', 'random', '--openings', bad, '--progress', 'none']),
    ]);
    expect([missing.code, unparsable.code]).toEqual([2, 2]);
    expect(missing.stderr).toMatch(/^morph: cannot read openings .*none\.epd: ENOENT\n$/);
    expect(unparsable.stderr).toBe(`morph: ${bad} line 1: not an EPD position: "not a position"\n`);
    expect(existsSync(db)).toBe(false);
  });

  it('is reproducible from its seed: same games and same weights', async () => {
    const paths = [tempPath('seed5a.db'), tempPath('seed5b.db'), tempPath('seed6.db')];
    // The third run, with another seed, needs only one game to show that the seed matters. Without the own move
    // policy, which Morph does not play with in training and whose file is not compared.
    const settings = [{ seed: '5', games: '3' }, { seed: '5', games: '3' }, { seed: '6', games: '1' }];
    const finished = await Promise.all(
      paths.map((db, i) =>
        train(['--db', db, '--games', settings[i].games, '--opponent', 'random', '--seed', settings[i].seed, '--progress', 'none', ...SHORT_GAMES, '--no-policy']),
      ),
    );
    for (const run of finished) expect(run.code).toBe(0);
    const [a, b, other] = paths.map((db) =>
      withDatabase(db, (database) => ({
        games: games(database).map((game) => [
          moveText(game.pgn!), game.result, game.reason, game.plies, game.seed, game.final_material, game.patterns,
        ]),
        weights: database.prepare('SELECT id, key, weight, updates, variance FROM pattern_stats ORDER BY id').raw().all(),
      })),
    );
    expect(a.games).toHaveLength(3);
    expect(b.games).toEqual(a.games);
    expect(b.weights).toEqual(a.weights);
    // The comparison can tell runs apart: another seed plays other games.
    expect(other.games).toHaveLength(1);
    expect(other.games[0][0]).not.toEqual(a.games[0][0]);
  });
});

// Concurrent: these runs mostly wait (on engine timeouts and process starts), not compute.
describe.concurrent('morph train against engines that fail', () => {
  const cases = [
    { mode: 'crash', message: /exited with code 3 while waiting for bestmove: fake engine: segmentation fault/ },
    { mode: 'hang', message: /sent no bestmove within 1500 ms/ },
    { mode: 'illegal', message: /played the illegal move e2e5 in / },
  ];

  const title = 'survives an engine that fails once ($mode), and stops after --max-failures if it always fails';
  it.each(cases)(title, async ({ mode, message }) => {
    const onceEngine = engineScript(`${mode}-once`, FAKE_ENGINE, [mode, '--once', tempPath(`${mode}.marker`)]);
    const alwaysEngine = engineScript(mode, FAKE_ENGINE, [mode]);
    const onceDb = tempPath(`${mode}-once.db`);
    const alwaysDb = tempPath(`${mode}.db`);
    // A short timeout for the engine that hangs; the others keep the defaults, so a slow start cannot fail them.
    // No own policy: these runs check what a failed game costs; the flaky engine's run below keeps it, learning the
    // games around a discarded one.
    // No relation lessons: their searches are most of a short game's time, and an engine's failure is not about them.
    const common = [...(mode === 'hang' ? ['--engine-timeout', '1500'] : []), '--max-plies', '30', '--progress', 'none', '--no-policy', '--relation-lessons', '0'];
    const [once, always] = await Promise.all([
      train(['--db', onceDb, '--games', '2', '--opponent', `uci:${onceEngine}`, '--json', ...common]),
      train(['--db', alwaysDb, '--games', '3', '--opponent', `uci:${alwaysEngine}`, '--max-failures', '2', ...common]),
    ]);

    // Fails once: the game is discarded (and said so), the engine restarted, and the run completes.
    expect(once.code).toBe(0);
    const onceLines = once.stderr.trimEnd().split('\n');
    expect(onceLines).toHaveLength(1);
    expect(onceLines[0]).toMatch(/^\[train\] game 1 discarded: engine "uci:.*"/);
    expect(onceLines[0]).toMatch(message);
    expect(JSON.parse(once.stdout)).toMatchObject({ games: 2, failures: 1, stopReason: 'games-done' });
    withDatabase(onceDb, (database) => {
      const rows = expectCompleteGames(database);
      expect(rows).toHaveLength(2);
      const [run] = runs(database);
      expect(run).toMatchObject({ games: 2, stop_reason: 'games-done', opponent: `uci:${onceEngine}:depth=1` });
      expect(rows.every((game) => game.opponent === run.opponent)).toBe(true);
    });

    // Always fails: --max-failures 2 ends the run with exit code 3 and one line of error naming the options, no
    // stack trace; the second try waited the backoff (1 s by default).
    expect(always.code).toBe(3);
    const lines = always.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(message);
    expect(lines[0]).toMatch(/ \(next game in 1\.0 s\)$/);
    expect(lines[1]).toMatch(/^\[train\] game 1 discarded: /);
    expect(lines[2]).toMatch(/^\[train\] stopping: 2 games in a row failed \(last: /);
    expect(lines[3]).toMatch(
      /^morph: training stopped after 2 failed games in a row \(see the log above\); --max-failures N allows more failed games in a row/,
    );
    if (mode === 'hang') expect(lines[3]).toMatch(/; --engine-timeout MS gives a slow engine longer per move$/);
    expect(always.stdout).toBe('');
    withDatabase(alwaysDb, (database) => {
      expect(games(database)).toHaveLength(0);
      expect(runs(database)).toMatchObject([{ games: 0, stop_reason: 'too-many-failures', finished_at: expect.any(String) }]);
    });
  });

  it('keeps the good games of an engine that crashes in the middle of the run', async () => {
    const db = tempPath('flaky.db');
    // The engine's 16th search, in game 2 at the latest (it searches at most 15 times in a 30-ply game), crashes.
    const engine = engineScript('flaky', FLAKY_ENGINE, ['16', tempPath('flaky.marker')]);
    const run = await train([
      '--db', db, '--games', '3', '--opponent', `uci:${engine}`, '--max-plies', '30', '--seed', '3', '--progress', 'none',
      '--relation-lessons', '0', '--json',
    ]);
    expect(run.code).toBe(0);
    const discarded = /^\[train\] game (\d+) discarded: .*exited with code 3 .*crashed at go 16/.exec(run.stderr);
    expect(discarded).not.toBeNull();
    expect(Number(discarded![1])).toBeGreaterThanOrEqual(2);
    expect(JSON.parse(run.stdout)).toMatchObject({ games: 3, failures: 1, firstGame: 1, lastGame: 3 });
    withDatabase(db, (database) => {
      expect(expectCompleteGames(database)).toHaveLength(3);
      expect(runs(database)).toMatchObject([{ games: 3, stop_reason: 'games-done' }]);
    });
  });

  it('applies --engine-timeout to moves, not to an engine that is slow to start', async () => {
    const db = tempPath('slow-start.db');
    const engine = engineScript('slow-start', FAKE_ENGINE, ['good'], 'sleep 1.5\n');
    const run = await train([
      '--db', db, '--games', '1', '--opponent', `uci:${engine}`, '--engine-timeout', '1000', '--max-plies', '10',
      '--progress', 'none', '--json', '--no-policy',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ games: 1, failures: 0 });
  });

  it('refuses an engine that cannot be set up, in one line, before writing anything', async () => {
    const db = tempPath('bad-option.db');
    const engine = engineScript('good', FAKE_ENGINE, ['good']);
    const run = await train(['--db', db, '--games', '2', '--opponent', `uci:${engine}:Bogus=1`, '--progress', 'lines']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^morph: engine "uci:.*" has no option "Bogus" \(it has: Hash, Skill Level\)\n$/);
    expect(existsSync(db)).toBe(false);
  });
});

describe('morph train refuses what it cannot do, and stops when told', () => {
  it('refuses --hours 0 (and a negative one) in one line, creating nothing', async () => {
    const db = tempPath('zero-hours.db');
    const [zero, negative] = await Promise.all([
      train(['--db', db, '--hours', '0', '--opponent', 'random', '--progress', 'none']),
      train(['--db', db, '--hours', '-1', '--opponent', 'random', '--progress', 'none']),
    ]);
    expect([zero.code, negative.code]).toEqual([2, 2]);
    expect(zero.stderr).toBe('morph: --hours needs a number more than 0, got "0"\n');
    expect(negative.stderr).toBe('morph: --hours needs a number more than 0, got "-1"\n');
    expect(existsSync(db)).toBe(false);
  });

  it('refuses a second trainer on the same database at start, writing nothing', async () => {
    const db = tempPath('two-writers.db');
    const first = startTrain(['--db', db, '--games', '1000', '--opponent', 'random', '--progress', 'none', ...SHORT_GAMES]);
    await waitForGames(db, 1, first, 100);
    const second = await train(['--db', db, '--games', '5', '--opponent', 'random', '--progress', 'none']);
    process.kill(first.child.pid!, 'SIGTERM');
    const firstDone = await first.done;
    expect(second.code).toBe(2);
    expect(second.stderr).toBe(
      `morph: ${db} is being written by another process (morph train or learn): one writer at a time\n`,
    );
    expect(second.stdout).toBe('');
    expect(firstDone.code).toBe(143);
    withDatabase(db, (database) => {
      expect(integrity(database)).toBe('ok');
      const rows = expectCompleteGames(database);
      // One run only: the refused trainer left no run row and no game.
      expect(runs(database)).toMatchObject([{ id: 1, games: rows.length, stop_reason: 'interrupted' }]);
    });
  }, 60_000);

  it('stops on SIGTERM while the engine is frozen mid-search: the engine is killed and the game discarded', async () => {
    const db = tempPath('frozen.db');
    const marker = tempPath('frozen.searches');
    const engine = engineScript('freeze', FAKE_ENGINE, ['freeze', '--mark-search', marker]);
    // The engine timeout is far beyond the test's own: only a stop that does not wait for it can pass.
    const run = startTrain([
      '--db', db, '--games', '5', '--opponent', `uci:${engine}`, '--engine-timeout', '600000', '--progress', 'none',
      '--json',
    ]);
    while (!existsSync(marker)) await sleep(100);
    const enginePid = Number(readFileSync(marker, 'utf8').trim());
    process.kill(run.child.pid!, 'SIGTERM');
    const finished = await run.done;
    expect(finished.stderr).toBe('');
    expect(finished.code).toBe(143);
    expect(JSON.parse(finished.stdout)).toMatchObject({ games: 0, failures: 0, stopReason: 'interrupted', signal: 'SIGTERM' });
    expect(() => process.kill(enginePid, 0)).toThrow(/ESRCH/);
    withDatabase(db, (database) => {
      expect(games(database)).toHaveLength(0);
      expect(runs(database)).toMatchObject([{ games: 0, stop_reason: 'interrupted' }]);
    });
  }, 30_000);

  // The kernel's parent-death signal (setpriv, util-linux) is what makes this hold for an engine that is stuck.
  it.skipIf(!existsSync('/usr/bin/setpriv') && !existsSync('/bin/setpriv'))(
    'takes the engine down with it when killed with SIGKILL, even an engine frozen mid-search',
    async () => {
      const db = tempPath('killed-frozen.db');
      const marker = tempPath('killed-frozen.searches');
      const engine = engineScript('freeze', FAKE_ENGINE, ['freeze', '--mark-search', marker]);
      const run = startTrain([
        '--db', db, '--games', '5', '--opponent', `uci:${engine}`, '--engine-timeout', '600000', '--progress', 'none',
      ]);
      while (!existsSync(marker)) await sleep(100);
      const enginePid = Number(readFileSync(marker, 'utf8').trim());
      process.kill(run.child.pid!, 'SIGKILL');
      await run.done;
      // Dead: gone, or a zombie waiting for init to reap it. A frozen engine never reads its closed input.
      const running = () => {
        try {
          return !/^State:\s+Z/m.test(readFileSync(`/proc/${enginePid}/status`, 'utf8'));
        } catch {
          return false;
        }
      };
      try {
        for (let polls = 0; polls < 150 && running(); polls++) await sleep(100);
        expect(running(), 'the frozen engine should not outlive the killed trainer').toBe(false);
      } finally {
        if (running()) process.kill(enginePid, 'SIGKILL');
      }
    },
    40_000,
  );

  it('reports a full disk for --json-log in one line, keeping the game already recorded', async () => {
    const db = tempPath('json-log-full.db');
    const run = await train(['--db', db, '--games', '3', '--opponent', 'random', '--json-log', '/dev/full', '--progress', 'none', ...SHORT_GAMES]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('morph: cannot write /dev/full: the disk is full\n');
    withDatabase(db, (database) => {
      expect(expectCompleteGames(database)).toHaveLength(1);
      expect(runs(database)).toMatchObject([{ games: 1, stop_reason: 'error' }]);
    });
  });
});

describe('the training summary', () => {
  const summary: TrainingSummary = {
    games: 0, wins: 0, draws: 0, losses: 0, failures: 0, stopReason: 'interrupted', patterns: 1200, seconds: 0.5,
    time: { morph: 0, opponent: 0, learning: 0 }, firstGame: 88, lastGame: 87, seed: 42, checkpoints: [], jobs: 1,
    database: 'data/morph.db', policy: null, openings: null,
  };

  it('says no games were trained rather than "games 88-87"', () => {
    expect(trainingSummaryText(summary).split('\n')[0]).toBe('trained no games (interrupted), seed 42');
    expect(trainingSummaryText({ ...summary, games: 2, wins: 1, losses: 1, lastGame: 89 }).split('\n')[0]).toBe(
      'trained games 88-89 (2 games, interrupted), seed 42',
    );
  });
});

