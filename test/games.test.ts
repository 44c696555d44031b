import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Chess } from 'chess.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMorphDatabase } from '../src/store/database.ts';
import { wrapTokens } from '../src/inspect/pgnExport.ts';
import { withSnapshot } from '../src/inspect/source.ts';
import { readTrainingGames, type GameFilter } from '../src/inspect/trainingGames.ts';
import { recordPlayedRun, type PlayedRun } from './helpers/playedGames.ts';
import { morph } from './helpers/sampleDatabase.ts';

const tempDir = mkdtempSync(join(tmpdir(), 'morph-games-'));
const dbPath = join(tempDir, 'games.db');
let runs: PlayedRun[];
/** Debian installs pgn-extract in /usr/games, which is not on every PATH. */
const PGN_EXTRACT = ['/usr/games/pgn-extract', '/usr/bin/pgn-extract'].find((path) => existsSync(path))
  ?? spawnSync('sh', ['-c', 'command -v pgn-extract'], { encoding: 'utf8' }).stdout.trim();

beforeAll(async () => {
  const db = openMorphDatabase(dbPath);
  try {
    runs = [
      await recordPlayedRun(db, { opponent: 'random', games: 4, seed: 11, startedAt: new Date('2026-01-02T10:00:00Z'), firstGame: 1 }),
      await recordPlayedRun(db, { opponent: 'ab:1', games: 4, seed: 12, startedAt: new Date('2026-01-02T11:00:00Z'), firstGame: 5 }),
      await recordPlayedRun(db, { opponent: 'random', morph: 'ab:1', games: 4, seed: 13, startedAt: new Date('2026-01-02T12:00:00Z'), firstGame: 9 }),
    ];
  } finally {
    db.close();
  }
});
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));

const allGames = () => runs.flatMap((run) => run.games.map((game) => ({ ...game, run })));
const morphScoreOf = (g: { morphColor: 'w' | 'b'; result: string }) =>
  g.result === '1/2-1/2' ? 0.5 : (g.result === '1-0') === (g.morphColor === 'w') ? 1 : 0;

/** The games of a PGN file, each read by chess.js. */
function readPgnGames(text: string): Chess[] {
  return text
    .split(/\n\n(?=\[Event )/)
    .filter((part) => part.trim())
    .map((part) => {
      const chess = new Chess();
      chess.loadPgn(part);
      return chess;
    });
}

describe('morph games', () => {
  it('lists the games with filters by run, opponent and result', () => {
    const list = (filter: GameFilter) => withSnapshot(dbPath, ({ db }) => readTrainingGames(db, filter));
    const cli = morph(['games', '--db', dbPath, '--json', '--opponent', 'ab:', '--result', 'loss']);
    expect(cli.stderr).toBe('');
    expect(cli.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { id: number }).id)).toEqual(
      runs[1].games.filter((g) => morphScoreOf(g) === 0).map((g) => g.id),
    );
    expect(list({}).map((g) => g.id)).toEqual(allGames().map((g) => g.id));
    expect(list({ run: runs[1].runId }).map((g) => g.id)).toEqual(runs[1].games.map((g) => g.id));
    expect(list({ opponent: 'ab:' }).map((g) => g.opponent)).toEqual(runs[1].games.map(() => 'ab:1'));
    for (const [filter, score] of [['win', 1], ['draw', 0.5], ['loss', 0]] as const) {
      expect(list({ result: filter }).map((g) => g.id)).toEqual(allGames().filter((g) => morphScoreOf(g) === score).map((g) => g.id));
    }
    expect(list({ result: '1-0' }).map((g) => g.id)).toEqual(allGames().filter((g) => g.result === '1-0').map((g) => g.id));
    expect(list({ last: 3, opponent: 'random' }).map((g) => g.id)).toEqual(runs[2].games.slice(-3).map((g) => g.id));
    // The sample has games Morph won, drew and lost, so each filter above was tested on something.
    expect(new Set(allGames().map(morphScoreOf)).size).toBe(3);

    const text = morph(['games', '--db', dbPath, '--run', String(runs[0].runId)]);
    expect(text.stdout.trim().split('\n')).toHaveLength(runs[0].games.length + 1);
    expect(list({ opponent: 'nobody' })).toEqual([]);
  });

  it('writes PGN that chess.js replays to the same moves, with standard Termination tags and wrapped movetext', () => {
    const file = join(tempDir, 'all.pgn');
    const result = morph(['games', '--db', dbPath, '--pgn', file]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(`wrote ${allGames().length} games to ${file}\n`);
    const text = readFileSync(file, 'utf8');
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(79);
    const games = readPgnGames(text);
    expect(games).toHaveLength(allGames().length);
    const reasons = new Set<string>();
    games.forEach((chess, i) => {
      const expected = allGames()[i];
      reasons.add(expected.reason);
      expect(chess.history({ verbose: true }).map((m) => m.lan)).toEqual(expected.moves);
      const headers = chess.getHeaders();
      expect(Object.keys(headers).slice(0, 7)).toEqual(['Event', 'Site', 'Date', 'Round', 'White', 'Black', 'Result']);
      expect(headers.Result).toBe(expected.result);
      expect(headers[expected.morphColor === 'w' ? 'White' : 'Black']).toBe('Morph');
      expect(headers[expected.morphColor === 'w' ? 'Black' : 'White']).toBe(expected.run.opponent);
      // The PGN standard's values: a game ended by the rules is "normal"; Morph's ply limit is an adjudication.
      expect(headers.Termination).toBe(expected.reason === 'ply-limit' ? 'adjudication' : 'normal');
      expect(headers.PlyCount).toBe(String(expected.plies));
      // chess.js agrees on how the game ended by the rules.
      if (expected.reason === 'checkmate') expect(chess.isCheckmate()).toBe(true);
      if (expected.reason === 'ply-limit') expect(chess.isGameOver()).toBe(false);
    });
    // Real games of random players: both kinds of ending occur.
    expect(reasons.has('ply-limit')).toBe(true);
    expect([...reasons].some((r) => r !== 'ply-limit')).toBe(true);
  });

  it.skipIf(!PGN_EXTRACT)('writes PGN that pgn-extract reads without complaint', () => {
    const file = join(tempDir, 'checked.pgn');
    expect(morph(['games', '--db', dbPath, '--pgn', file]).status).toBe(0);
    // -r: check the games (moves legal, tags well formed) and report problems, without writing them out.
    const checked = spawnSync(PGN_EXTRACT, ['-r', file], { encoding: 'utf8' });
    expect(checked.status).toBe(0);
    // It replays every move: a game it cannot read counts as not matched, with the failing move named.
    const said = checked.stdout + checked.stderr;
    expect(said).toContain(`${allGames().length} games matched out of ${allGames().length}.`);
    expect(said).not.toMatch(/Failed to make move|error/i);
    const counted = spawnSync(PGN_EXTRACT, ['-s', '--quiet', '-o', join(tempDir, 'copy.pgn'), file], { encoding: 'utf8' });
    expect(counted.status).toBe(0);
    expect(readFileSync(join(tempDir, 'copy.pgn'), 'utf8').match(/^\[Event /gm)).toHaveLength(allGames().length);
  });

  it('writes to stdout, and reports a damaged stored game in one line while writing the others', () => {
    const damaged = join(tempDir, 'damaged.db');
    // A plain read-only connection: Morph's readers refuse every write (query_only), VACUUM INTO included.
    const copy = new Database(dbPath, { readonly: true, fileMustExist: true });
    copy.exec(`VACUUM INTO '${damaged}'`);
    copy.close();
    const db = openMorphDatabase(damaged);
    const victim = runs[0].games[2].id;
    db.prepare("UPDATE games SET pgn = '1. e4 e5 2. Ke3 *' WHERE id = ?").run(victim);
    db.prepare('UPDATE games SET pgn = NULL WHERE id = ?').run(runs[0].games[3].id);
    db.close();
    const result = morph(['games', '--db', damaged, '--run', String(runs[0].runId), '--pgn', '-']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^morph: game ${victim}: the stored PGN is unreadable: .*\\nmorph: 1 of the games have no stored PGN and were left out\\n$`));
    expect(readPgnGames(result.stdout)).toHaveLength(runs[0].games.length - 2);
  });

  it('refuses bad filters in one line with exit code 2', () => {
    const bad = morph(['games', '--db', dbPath, '--result', 'won']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('morph: --result must be one of win, draw, loss, 1-0, 0-1, 1/2-1/2, got "won"\n');
  });
});

describe('wrapTokens', () => {
  it('fills lines up to the width without splitting a token', () => {
    expect(wrapTokens(['1.', 'e4', 'e5', '2.', 'Nf3'], 8)).toEqual(['1. e4 e5', '2. Nf3']);
    expect(wrapTokens(['{a-very-long-comment}', 'x'], 5)).toEqual(['{a-very-long-comment}', 'x']);
    expect(wrapTokens([], 5)).toEqual([]);
  });
});
