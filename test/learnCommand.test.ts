/** `morph learn --pgn FILE`: PGN splitting, and the command itself run as a user would run it. */
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { LearnFileSummary } from '../src/cli/commands/learn.ts';
import { splitPgnGames } from '../src/game/pgnFile.ts';
import { GreedyPlayer, RandomPlayer } from '../src/engines/simplePlayers.ts';
import { gamePgn, playGame, type PlayedGame } from '../src/game/playGame.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');

/** Runs `morph ARGS` as a user would; resolves with its exit status and output. */
function morph(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    execFile(process.execPath, [join(ROOT, 'bin', 'morph.js'), ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      const status = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      if (error && status === null) fail(error);
      else done({ status, stdout, stderr });
    });
  });
}

function gamesPlayedIn(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return Number((db.prepare("SELECT value FROM meta WHERE key = 'games_played'").get() as { value: string }).value);
  } finally {
    db.close();
  }
}

describe('splitPgnGames', () => {
  it('splits at termination markers and at tags after movetext, not inside comments or variations', () => {
    const text = [
      '\uFEFF[Event "one"]',
      '[Result "1-0"]',
      '',
      '1. e4 g5 2. d4 f6 3. Qh5# 1-0',
      '[Event "two, no blank line before it"]',
      '[Result "0-1"]',
      '1. f3 { a comment that spans lines',
      '[looks like a tag] and ends the game? 1-0 }',
      'e5 (1... e6 2. g4 *) 2. g4 ; rest-of-line comment 1-0',
      'Qh4# 0-1',
      '% an escape line',
      '1. d4 d5 1/2-1/2',
      '1. c4 c5 *',
      '',
      '[Event "four: marker missing"]',
      '1. e4',
      '[Event "five"]',
      '1. d4',
    ].join('\r\n');
    const games = splitPgnGames(text);
    expect(games.map((g) => [g.number, g.line])).toEqual([[1, 1], [2, 5], [3, 12], [4, 13], [5, 15], [6, 17]]);
    expect(games[0].text).toBe('[Event "one"]\n[Result "1-0"]\n\n1. e4 g5 2. d4 f6 3. Qh5# 1-0\n');
    expect(games[1].text).toContain('[looks like a tag]');
    expect(games[1].text.trim().endsWith('Qh4# 0-1')).toBe(true);
    expect(games[2].text).toBe('1. d4 d5 1/2-1/2\n');
    expect(games[4].text).toBe('[Event "four: marker missing"]\n1. e4\n');
  });

  it('finds nothing in an empty or blank file', () => {
    expect(splitPgnGames('')).toEqual([]);
    expect(splitPgnGames('\n\n  \n')).toEqual([]);
  });
});

describe('morph learn', () => {
  let dir: string;
  let games: PlayedGame[];
  let cleanPgn: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'morph-learn-'));
    games = [];
    for (let i = 0; i < 3; i++) {
      const random = new RandomPlayer(21 + i);
      const greedy = new GreedyPlayer(41 + i);
      games.push((await playGame({ white: i === 1 ? random : greedy, black: i === 1 ? greedy : random, maxPlies: 50 }))!);
    }
    cleanPgn = join(dir, 'clean.pgn');
    writeFileSync(cleanPgn, games.map((g, i) => gamePgn(g, { white: 'w', black: 'b', round: i + 1 })).join('\n\n') + '\n');
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('learns every game once per side choice, counting each game in the database', async () => {
    const db = join(dir, 'sides.db');
    const white = await morph('learn', '--pgn', cleanPgn, '--db', db, '--side', 'white', '--json');
    expect(white.stderr).toBe('');
    expect(white.status).toBe(0);
    const w = JSON.parse(white.stdout) as LearnFileSummary;
    expect(w).toMatchObject({ side: 'white', found: 3, learned: 3, refused: [], firstGame: 1, lastGame: 3 });
    // White's positions are the ones after White's moves: ceil(plies / 2) per game.
    expect(w.positions).toBe(games.reduce((n, g) => n + Math.ceil(g.plies / 2), 0));
    expect(w.patterns).toBeGreaterThan(w.patternsBefore);
    expect(w.patternsBefore).toBeGreaterThan(0); // a new database was seeded first

    const black = await morph('learn', '--pgn', cleanPgn, '--db', db, '--side', 'black', '--json');
    expect(black.status).toBe(0);
    const b = JSON.parse(black.stdout) as LearnFileSummary;
    expect(b).toMatchObject({ learned: 3, firstGame: 4, lastGame: 6, patternsBefore: w.patterns });
    expect(b.positions).toBe(games.reduce((n, g) => n + Math.floor(g.plies / 2), 0));

    // both: one pass per game over both sides' positions, one database game each.
    const both = await morph('learn', '--pgn', cleanPgn, '--db', db);
    expect(both.status).toBe(0);
    const total = games.reduce((n, g) => n + g.plies, 0);
    expect(both.stdout).toContain(`learned 3 of 3 games from ${cleanPgn} (side both): database games 7-9, ${total} positions`);
    expect(gamesPlayedIn(db)).toBe(9);
  });

  it('reports bad games by number, skips them, learns the rest and exits with 2', async () => {
    const pgn = join(dir, 'mixed.pgn');
    const texts = games.map((g, i) => gamePgn(g, { white: 'w', black: 'b', round: i + 1 }));
    const illegal = '[Event "illegal"]\n[Result "1-0"]\n\n1. e4 e4 1-0';
    const unfinished = '[Event "unfinished"]\n[Result "*"]\n\n1. e4 e5 *';
    const content = [texts[0], illegal, texts[1], unfinished, texts[2]].join('\n\n') + '\n';
    writeFileSync(pgn, content);
    const lineOf = (needle: string) => content.slice(0, content.indexOf(needle)).split('\n').length;

    const db = join(dir, 'mixed.db');
    const run = await morph('learn', '--pgn', pgn, '--db', db, '--json');
    expect(run.status).toBe(2);
    const errors = run.stderr.trim().split('\n');
    expect(errors).toHaveLength(2);
    expect(errors[0]).toBe(`morph: game 2 (line ${lineOf('[Event "illegal"]')}): bad PGN: Invalid move in PGN: e4`);
    expect(errors[1]).toMatch(new RegExp(`^morph: game 4 \\(line ${lineOf('[Event "unfinished"]')}\\): PGN has no result`));
    const summary = JSON.parse(run.stdout) as LearnFileSummary;
    expect(summary).toMatchObject({ found: 5, learned: 3, firstGame: 1, lastGame: 3 });
    expect(summary.refused.map((r) => r.game)).toEqual([2, 4]);
    expect(summary.positions).toBe(games.reduce((n, g) => n + g.plies, 0));
    expect(gamesPlayedIn(db)).toBe(3);
  });

  it('refuses an empty file, a missing file and a bad --side with exit code 2, touching no database', async () => {
    const empty = join(dir, 'empty.pgn');
    writeFileSync(empty, '\n');
    const db = join(dir, 'untouched.db');
    const runs = await Promise.all([
      morph('learn', '--pgn', empty, '--db', db),
      morph('learn', '--pgn', join(dir, 'missing.pgn'), '--db', db),
      morph('learn', '--pgn', cleanPgn, '--db', db, '--side', 'red'),
    ]);
    expect(runs.map((r) => r.status)).toEqual([2, 2, 2]);
    expect(runs[0].stderr).toContain('no games in');
    expect(runs[1].stderr).toContain('cannot read');
    expect(runs[2].stderr).toContain('--side must be white, black or both');
    expect(existsSync(db)).toBe(false);
  });

  it('writes no database when no game in the file can be learned, and refuses an endless game clearly', async () => {
    // 200k plies of knights going back and forth: past chess.js's parser, which recursed until the stack overflowed.
    const shuffle = ['Nf3', 'Nf6', 'Ng1', 'Ng8'];
    const endless = Array.from({ length: 200_000 }, (_, i) => (i % 2 === 0 ? `${i / 2 + 1}. ` : '') + shuffle[i % 4]);
    const pgn = join(dir, 'only-bad.pgn');
    writeFileSync(
      pgn,
      `[Event "illegal"]\n[Result "1-0"]\n\n1. e4 e4 1-0\n\n[Event "endless"]\n[Result "1/2-1/2"]\n\n${endless.join(' ')} 1/2-1/2\n`,
    );
    const db = join(dir, 'never-made.db');
    const run = await morph('learn', '--pgn', pgn, '--db', db);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      'morph: game 1 (line 1): bad PGN: Invalid move in PGN: e4',
      'morph: game 2 (line 6): the game has 200000 moves (plies), more than a legal game can last (17697)',
      `morph: no game in ${pgn} could be learned (2 refused); no database was written`,
    ]);
    expect(existsSync(db)).toBe(false);
  });
});

