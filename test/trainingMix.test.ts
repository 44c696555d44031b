/**
 * `morph train --opponent mix:A;B;...` as a user runs it: the members take turns by game number (game n plays
 * member (n - 1) mod k), with one job and with game workers alike; the games table, the PGN headers and the JSON
 * log name the member that played; a bad engine member is refused before the database is touched; an engine
 * member that crashes is restarted alone. `morph match` refuses a mix in one line.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Chess } from 'chess.js';
import { describe, expect, it } from 'vitest';
import { openMorphDatabase } from '../src/store/database.ts';
import { killedAfterAll, runMorph, startMorph, type FinishedProcess } from './helpers/cli.ts';

const FAKE_ENGINE = fileURLToPath(new URL('./fixtures/fake-engine.mjs', import.meta.url));
const FLAKY_ENGINE = fileURLToPath(new URL('./fixtures/flaky-engine.mjs', import.meta.url));
const tempDir = mkdtempSync(join(tmpdir(), 'morph-mix-'));
let fileCount = 0;
const tempPath = (name: string) => join(tempDir, `${fileCount++}-${name}`);

const tracked = killedAfterAll(tempDir);

/**
 * Without the own move policy: Morph does not play with it in training, these tests check which opponent plays
 * which game, and its upkeep (built whole after a run's first game, then a lesson a game) is not their concern.
 */
function train(args: string[]): Promise<FinishedProcess> {
  // No relation lessons either: a play search each (most of a short game's time), and not what these tests check.
  return tracked(startMorph(['train', '--progress', 'none', '--no-policy', '--relation-lessons', '0', ...args])).done;
}

/** An executable running `script` with `args` that first appends a line to `startLog` (one line per start). */
function loggedEngine(name: string, script: string, args: string[], startLog: string): string {
  const path = tempPath(`${name}.sh`);
  const quoted = [process.execPath, script, ...args].map((word) => `'${word}'`).join(' ');
  writeFileSync(path, `#!/bin/sh\necho started >> '${startLog}'\nexec ${quoted}\n`);
  chmodSync(path, 0o755);
  return path;
}

const starts = (log: string) => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').length : 0);

interface GameRow {
  id: number;
  opponent: string;
  morph_color: string;
  plies: number;
  pgn: string;
}

function recorded(path: string): { games: GameRow[]; runOpponents: string[] } {
  const db = openMorphDatabase(path);
  try {
    return {
      games: db.prepare('SELECT id, opponent, morph_color, plies, pgn FROM games ORDER BY id').all() as GameRow[],
      runOpponents: db.prepare('SELECT opponent FROM runs ORDER BY id').pluck().all() as string[],
    };
  } finally {
    db.close();
  }
}

/** The PGN's White and Black headers. */
function players(pgn: string): [string, string] {
  const header = (tag: string) => new RegExp(`^\\[${tag} "([^"]*)"\\]$`, 'm').exec(pgn)![1];
  return [header('White'), header('Black')];
}

const moveText = (pgn: string) => pgn.split('\n').filter((line) => !line.startsWith('[')).join('\n').trim();

describe('morph train --opponent mix:...', () => {
  const common = ['--games', '4', '--opponent', 'mix:random;greedy', '--seed', '21', '--max-plies', '40'];

  it('plays the members in turn by game number, with one job and with two game workers alike', async () => {
    const runs = [1, 2].map((jobs) => ({ jobs, db: tempPath(`mix-${jobs}.db`), log: tempPath(`mix-${jobs}.jsonl`) }));
    const finished = await Promise.all(
      runs.map(({ jobs, db, log }) => train(['--db', db, '--jobs', String(jobs), '--json-log', log, ...common])),
    );
    for (const [index, { db, log }] of runs.entries()) {
      expect(finished[index].stderr).toBe('');
      expect(finished[index].code).toBe(0);
      const { games, runOpponents } = recorded(db);
      expect(runOpponents).toEqual(['mix:random;greedy']);
      expect(games.map((game) => game.id)).toEqual([1, 2, 3, 4]);
      expect(games.map((game) => game.opponent)).toEqual(['random', 'greedy', 'random', 'greedy']);
      // Morph is White in odd games: the member's name is in the other header.
      expect(games.map((game) => players(game.pgn))).toEqual([
        ['Morph', 'random'], ['greedy', 'Morph'], ['Morph', 'random'], ['greedy', 'Morph'],
      ]);
      for (const game of games) {
        const chess = new Chess();
        chess.loadPgn(game.pgn);
        expect(chess.history()).toHaveLength(game.plies);
      }
      const logged = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { game: number; opponent: string });
      expect(logged.map((entry) => [entry.game, entry.opponent])).toEqual([[1, 'random'], [2, 'greedy'], [3, 'random'], [4, 'greedy']]);
    }
    // Game 1 is played on the same (empty) weights either way: the same game.
    const [one, two] = runs.map(({ db }) => recorded(db).games[0].pgn);
    expect(moveText(two)).toBe(moveText(one));
  });

  it('keeps each engine member for the run and restarts only the one that crashed; self-play is a member too', async () => {
    const flakyLog = tempPath('flaky-starts.log');
    const goodLog = tempPath('good-starts.log');
    // The flaky engine crashes once, at its 3rd move (in game 2, its first game), and never again after a restart.
    const flaky = loggedEngine('flaky', FLAKY_ENGINE, ['3', tempPath('crashed.marker')], flakyLog);
    const good = loggedEngine('good', FAKE_ENGINE, ['good'], goodLog);
    const db = tempPath('engines.db');
    const spec = `mix:self;uci:${flaky};uci:${good}`;
    const finished = await train(['--db', db, '--jobs', '1', '--games', '6', '--opponent', spec, '--seed', '4', '--max-plies', '30']);
    expect(finished.code).toBe(0);
    expect(finished.stderr).toMatch(/game 2 discarded/);
    const { games, runOpponents } = recorded(db);
    expect(runOpponents).toEqual([`mix:self;uci:${flaky}:depth=1;uci:${good}:depth=1`]);
    expect(games.map((game) => game.opponent)).toEqual(
      ['self', `uci:${flaky}:depth=1`, `uci:${good}:depth=1`, 'self', `uci:${flaky}:depth=1`, `uci:${good}:depth=1`],
    );
    // Started once each by the check before training (and kept); the flaky one once more after its crash.
    expect(starts(flakyLog)).toBe(2);
    expect(starts(goodLog)).toBe(1);
  });

  it('refuses a bad engine member in one line before creating the database', async () => {
    const db = tempPath('bad.db');
    const finished = await train(['--db', db, '--jobs', '1', '--games', '2', '--opponent', 'mix:random;uci:/nonexistent/engine']);
    expect(finished.code).toBe(2);
    expect(finished.stderr.trimEnd()).toBe('morph: UCI engine not found or not executable: /nonexistent/engine');
    expect(existsSync(db)).toBe(false);
  });
});

describe('morph match with a mix', () => {
  it('refuses it in one line with exit code 2: a mix is for training only', async () => {
    const { code, stdout, stderr } = await runMorph(['match', '--white', 'mix:random;greedy', '--black', 'random', '--games', '2']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/a mix of opponents\) is for training only: morph train --opponent mix:/);
  });
});

describe('morph train --opponent ladder:...', () => {
  it('plays each rung up to its last game, by the database game number, so a resumed run climbs on', async () => {
    for (const jobs of [1, 2]) {
      const db = tempPath(`ladder-${jobs}.db`);
      const ladder = ['--opponent', 'ladder:random@2;greedy@4;self', '--seed', '5', '--max-plies', '30', '--jobs', String(jobs)];
      const first = await train(['--db', db, '--games', '3', ...ladder]);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(recorded(db).games.map((game) => game.opponent)).toEqual(['random', 'random', 'greedy']);
      const second = await train(['--db', db, '--games', '3', ...ladder]);
      expect(second.code).toBe(0);
      const { games, runOpponents } = recorded(db);
      expect(games.map((game) => [game.id, game.opponent])).toEqual([
        [1, 'random'], [2, 'random'], [3, 'greedy'], [4, 'greedy'], [5, 'self'], [6, 'self'],
      ]);
      expect(runOpponents).toEqual(['ladder:random@2;greedy@4;self', 'ladder:random@2;greedy@4;self']);
    }
  });
});
