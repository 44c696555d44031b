import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MORPH_APPLICATION_ID,
  closeMorphDatabase,
  openMorphDatabase,
  type MorphDatabase,
} from '../src/store/database.ts';
import { SCHEMA_VERSION, listMigrations } from '../src/store/migrations.ts';
import { addPatternPosition, getPatternPositions } from '../src/store/patternPositions.ts';
import {
  countPatterns,
  deletePatternRow,
  insertPatternRow,
  loadAllLinks,
  loadAllPatternRows,
  updatePatternStats,
  writePatternParents,
  type NewPatternRow,
} from '../src/store/patternRows.ts';
import { finishRun, startRun } from '../src/store/runs.ts';
import { WriterLock } from '../src/store/writerLock.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { checkDatabaseFileKind } from '../src/store/databaseKind.ts';
import { storedConfig } from '../src/learn/config.ts';
import { getCounters, incrementCounter } from '../src/store/counters.ts';
import { getMeta, getMetaJson, getMetaNumber, setMeta } from '../src/store/meta.ts';
import { recordGame } from '../src/store/games.ts';
import { MorphError } from '../src/util/errors.ts';

const RUN_TS = fileURLToPath(new URL('../bin/run-ts.js', import.meta.url));

let dir: string;
const open: MorphDatabase[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'morph-db-test-'));
});

afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

function track<T extends MorphDatabase>(db: T): T {
  open.push(db);
  return db;
}

function pattern(key: string, extra: Partial<NewPatternRow> = {}): NewPatternRow {
  return { kind: 'graph', key, body: JSON.stringify({ key }), size: 2, origin: 'seed', createdGame: 0, ...extra };
}

/** Everything that must not change when a file is refused: its bytes, its mtime, and the directory's entries. */
function snapshot(path: string) {
  return {
    sha256: createHash('sha256').update(readFileSync(path)).digest('hex'),
    mtimeMs: statSync(path).mtimeMs,
    entries: readdirSync(dir).sort(),
  };
}

/** A database at schema v4 with no patterns, as an older build left it. */
function v4Database(path: string): void {
  const raw = new Database(path);
  raw.pragma(`application_id = ${MORPH_APPLICATION_ID}`);
  for (const migration of listMigrations().slice(0, 4)) raw.exec(migration.sql);
  raw.pragma('user_version = 4');
  raw.close();
}

/**
 * Runs `whileHeld` while another process holds the one-writer lock of `path` (its writer's open, which also
 * upgrades an older schema), then kills that process with SIGKILL and waits for it to end.
 */
async function withLockHolder(path: string, whileHeld: () => void): Promise<void> {
  const fixture = fileURLToPath(new URL('./fixtures/hold-writer-lock.ts', import.meta.url));
  const holder = spawn(process.execPath, [RUN_TS, fixture, path], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => holder.on('exit', resolve));
  try {
    // The holder prints "locked" once it holds the lock, then waits to be killed.
    await new Promise<void>((resolve, reject) => {
      holder.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve());
      holder.on('exit', (code) => reject(new Error(`lock holder exited early (${code})`)));
    });
    whileHeld();
  } finally {
    holder.kill('SIGKILL');
  }
  await exited;
}

function refusal(action: () => unknown): MorphError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(MorphError);
    const morphError = error as MorphError;
    expect(morphError.exitCode).toBe(2);
    expect(morphError.message).not.toContain('\n');
    return morphError;
  }
  throw new Error('expected the open to be refused');
}

/** A closed Morph database holding `count` patterns with ~300-byte bodies (enough pages to damage). */
function populatedDatabase(path: string, count: number): void {
  const db = openMorphDatabase(path);
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      insertPatternRow(db, pattern(`p${i}`, { body: `{"pad":"${'x'.repeat(280)}${i}"}` }));
    }
  })();
  db.close();
}

describe('migrations', () => {
  it('are numbered from 1 without gaps and SCHEMA_VERSION is the newest', () => {
    const migrations = listMigrations();
    expect(migrations[0].name).toBe('001_initial.sql');
    migrations.forEach((migration, index) => expect(migration.version).toBe(index + 1));
    expect(SCHEMA_VERSION).toBe(migrations.length);
  });
});

describe('openMorphDatabase', () => {
  it('gives a new file the schema, WAL mode, Morph application_id and starting meta', () => {
    const path = join(dir, 'new.db');
    const db = track(openMorphDatabase(path));
    const names = db.prepare("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").pluck().all() as string[];
    names.sort();
    expect(names).toEqual(
      [
        'games', 'games_by_run', 'learning_counters', 'links', 'pattern_parents', 'meta', 'pattern_positions',
        'pattern_positions_by_pattern', 'pattern_stats', 'patterns', 'pattern_learning', 'runs', 'checkpoint_results', 'relation_lessons',
      ].sort(),
    );
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('application_id', { simple: true })).toBe(MORPH_APPLICATION_ID);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    expect(getMetaNumber(db, 'games_played')).toBe(0);
    expect(getMeta(db, 'created_at')).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(getMeta(db, 'morph_version')).toMatch(/^\d+\.\d+\.\d+/);
    // The header says "Morph" in the main file itself, not only in the WAL.
    expect(readFileSync(path).readInt32BE(68)).toBe(MORPH_APPLICATION_ID);
  });

  it('keeps meta, counters, patterns, links, games and runs across a reopen', () => {
    const path = join(dir, 'keep.db');
    let db = openMorphDatabase(path);
    setMeta(db, 'temperature', 0.75);
    setMeta(db, 'config', { beta: 2, names: ['a'] });
    setMeta(db, 'seed', '12345');
    setMeta(db, 'games_played', 3);
    incrementCounter(db, 'created.forward', 2);
    incrementCounter(db, 'created.forward');
    incrementCounter(db, 'deleted', 4);
    const a = insertPatternRow(db, pattern('a'));
    const b = insertPatternRow(db, pattern('b', { kind: 'material', size: 0, origin: 'material', createdGame: 1 }));
    const c = insertPatternRow(db, pattern('c', { id: 100, weight: 0.9 }));
    expect(c).toBe(100);
    const stats = { weight: 0.25, updates: 3, variance: 0.4, uses: 7, lastUsedGame: 2 };
    expect(updatePatternStats(db, a, stats)).toBe(true);
    expect(updatePatternStats(db, 999, stats)).toBe(false);
    writePatternParents(db, b, [c]);
    writePatternParents(db, b, [a]); // replaces the list
    writePatternParents(db, c, [a]);
    const runId = startRun(db, { opponent: 'random', seed: 42, config: { games: 2 }, firstGame: 1 });
    const gameId = recordGame(db, {
      runId, morphColor: 'b', opponent: 'random', result: '0-1', reason: 'checkmate', plies: 40,
      finalMaterial: 9, patterns: 3, seconds: 1.5, seed: 7, pgn: '1. e4 e5 *',
    });
    recordGame(db, { runId, morphColor: 'w', opponent: 'random', result: '1/2-1/2', reason: 'threefold', plies: 60 });
    finishRun(db, runId, { stopReason: 'games-done' });
    db.close();

    db = track(openMorphDatabase(path));
    expect(getMetaNumber(db, 'temperature')).toBe(0.75);
    expect(getMetaJson(db, 'config')).toEqual({ beta: 2, names: ['a'] });
    expect(getMeta(db, 'seed')).toBe('12345');
    expect(getMetaNumber(db, 'seed')).toBe(12345);
    expect(getMeta(db, 'missing')).toBeUndefined();
    expect(getCounters(db)).toEqual({ 'created.forward': 3, deleted: 4 });
    const rows = loadAllPatternRows(db);
    expect(rows.map((row) => row.key)).toEqual(['a', 'b', 'c']);
    expect(rows[0]).toEqual({
      id: a, kind: 'graph', key: 'a', body: '{"key":"a"}', size: 2, weight: 0.25, updates: 3, variance: 0.4,
      uses: 7, origin: 'seed', createdGame: 0, lastUsedGame: 2,
    });
    expect(rows[1]).toMatchObject({ kind: 'material', size: 0, weight: 0.5, updates: 0, uses: 0, lastUsedGame: null });
    expect(rows[2]).toMatchObject({ id: 100, weight: 0.9 });
    expect(loadAllLinks(db)).toEqual([[a, b], [a, c]]);
    const ages = db.prepare('SELECT key, age FROM pattern_stats ORDER BY id').raw().all();
    expect(ages).toEqual([['a', 3], ['b', 2], ['c', 3]]);
    const game = db.prepare('SELECT * FROM games WHERE id = ?').get(gameId);
    expect(game).toMatchObject({
      run_id: runId, morph_color: 'b', result: '0-1', morph_score: 1, reason: 'checkmate', plies: 40,
      final_material: 9, patterns: 3, seconds: 1.5, seed: 7, pgn: '1. e4 e5 *',
    });
    const scores = db.prepare('SELECT morph_score FROM games ORDER BY id').pluck().all();
    expect(scores).toEqual([1, 0.5]);
    const run = db.prepare('SELECT * FROM runs WHERE id = ?').get(runId);
    expect(run).toMatchObject({
      opponent: 'random', seed: 42, config: '{"games":2}', first_game: 1, games: 2, stop_reason: 'games-done',
    });
    expect((run as { finished_at: string | null }).finished_at).not.toBeNull();
  });

  it('enforces the row constraints', () => {
    const db = track(openMorphDatabase(join(dir, 'constraints.db')));
    const a = insertPatternRow(db, pattern('a'));
    expect(() => insertPatternRow(db, pattern('a'))).toThrow(/UNIQUE/);
    expect(() => insertPatternRow(db, pattern('w', { weight: 1.5 }))).toThrow(/CHECK/);
    expect(() => insertPatternRow(db, pattern('k', { kind: 'other' as 'graph' }))).toThrow(/CHECK/);
    expect(() => writePatternParents(db, 12345, [a])).toThrow(/FOREIGN KEY/);
    setMeta(db, 'temperature', 'warm');
    expect(() => getMetaNumber(db, 'temperature')).toThrow(MorphError);
  });

  it('deleting a pattern cascades to its statistics, its parent list and its positions', () => {
    const db = track(openMorphDatabase(join(dir, 'cascade.db')));
    const [a, b, c] = ['a', 'b', 'c'].map((key) => insertPatternRow(db, pattern(key)));
    writePatternParents(db, b, [a]);
    writePatternParents(db, c, [b, a]);
    addPatternPosition(db, b, 1, 'fen-1');
    addPatternPosition(db, b, 2, 'fen-2', 1);
    expect(getPatternPositions(db, b)).toEqual([{ gameId: 2, fen: 'fen-2' }]);
    expect(deletePatternRow(db, b)).toBe(true);
    expect(deletePatternRow(db, b)).toBe(false);
    expect(db.prepare('SELECT id FROM pattern_parents').pluck().all()).toEqual([c]);
    expect(db.prepare('SELECT count(*) FROM pattern_positions').pluck().get()).toBe(0);
    expect(db.prepare('SELECT id FROM pattern_learning ORDER BY id').pluck().all()).toEqual([a, c]);
    // The lists that name a deleted pattern are the caller's to rewrite (the store writes them from memory).
    expect(loadAllLinks(db)).toEqual([[a, c], [b, c]]);
    writePatternParents(db, c, [a]);
    expect(loadAllLinks(db)).toEqual([[a, c]]);
    expect(countPatterns(db)).toBe(2);
  });

  it("writes a pattern's parents as one ascending list, replacing the last; none removes its row", () => {
    const db = track(openMorphDatabase(join(dir, 'parents.db')));
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((key) => insertPatternRow(db, pattern(key)));
    const stored = () => db.prepare('SELECT id, parents FROM pattern_parents ORDER BY id').raw().all();
    writePatternParents(db, d, [c, a, b]);
    writePatternParents(db, c, [a]);
    writePatternParents(db, b, []);
    expect(stored()).toEqual([[c, `[${a}]`], [d, `[${a},${b},${c}]`]]);
    expect(loadAllLinks(db)).toEqual([[a, c], [a, d], [b, d], [c, d]]);
    writePatternParents(db, d, [b]);
    writePatternParents(db, c, []);
    expect(stored()).toEqual([[d, `[${b}]`]]);
    expect(loadAllLinks(db)).toEqual([[b, d]]);
  });

  it('refuses a database written by a newer Morph and leaves it byte-for-byte unchanged', () => {
    const path = join(dir, 'newer.db');
    openMorphDatabase(path).close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 6}`);
    raw.close();
    const before = snapshot(path);
    const expected =
      `${path} was written by a newer Morph (schema v${SCHEMA_VERSION + 6}; ` +
      `this build knows up to v${SCHEMA_VERSION})`;
    expect(refusal(() => openMorphDatabase(path)).message).toBe(expected);
    expect(refusal(() => openMorphDatabase(path, { readonly: true })).message).toBe(expected);
    expect(snapshot(path)).toEqual(before);
  });

  it('refuses a newer schema that is still only in the WAL (checked by SQLite, not just the header)', () => {
    const path = join(dir, 'newer-wal.db');
    openMorphDatabase(path).close();
    const raw = track(new Database(path)); // stays open, so the change is not checkpointed into the main file
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    const mainBefore = createHash('sha256').update(readFileSync(path)).digest('hex');
    expect(refusal(() => openMorphDatabase(path)).message).toMatch(/was written by a newer Morph/);
    expect(createHash('sha256').update(readFileSync(path)).digest('hex')).toBe(mainBefore);
  });

  it.each([
    ['a text file', () => Buffer.from('games,result\n1,1-0\n')],
    ['random bytes', () => randomBytes(8192)],
  ])('refuses %s untouched', (_label, contents) => {
    const path = join(dir, 'notdb.db');
    writeFileSync(path, contents());
    const before = snapshot(path);
    expect(refusal(() => openMorphDatabase(path)).message).toBe(`${path} is not a SQLite database`);
    expect(refusal(() => openMorphDatabase(path, { readonly: true })).message).toBe(`${path} is not a SQLite database`);
    expect(snapshot(path)).toEqual(before);
  });

  it.each(['delete', 'wal'])("refuses another program's SQLite database (journal_mode %s) untouched", (mode) => {
    const path = join(dir, 'foreign.db');
    const raw = new Database(path);
    raw.pragma(`journal_mode = ${mode}`);
    raw.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('hello')");
    raw.close();
    const before = snapshot(path);
    expect(refusal(() => openMorphDatabase(path)).message).toBe(`${path} is not a Morph database`);
    expect(refusal(() => openMorphDatabase(path, { readonly: true })).message).toBe(`${path} is not a Morph database`);
    expect(snapshot(path)).toEqual(before);
  });

  it('reports a truncated Morph database as corrupt in one line', () => {
    const path = join(dir, 'truncated.db');
    populatedDatabase(path, 2000);
    truncateSync(path, Math.floor(statSync(path).size / 2));
    expect(refusal(() => openMorphDatabase(path)).message).toMatch(new RegExp(`^${path} is corrupt: .+`));
  });

  it('reports a Morph database with a damaged page as corrupt in one line', () => {
    const path = join(dir, 'damaged.db');
    populatedDatabase(path, 2000);
    const pageSize = readFileSync(path).readUInt16BE(16);
    const fd = openSync(path, 'r+');
    // Overwrite the cells (second half) of a page in the middle: a leaf of the patterns table. Its b-tree page
    // header stays valid, so the file opens and only a full scan finds the damage.
    const middlePage = Math.floor(statSync(path).size / pageSize / 2);
    writeSync(fd, Buffer.alloc(pageSize / 2, 0xab), 0, pageSize / 2, middlePage * pageSize + pageSize / 2);
    closeSync(fd);
    expect(refusal(() => openMorphDatabase(path, { readonly: true })).message).toMatch(
      new RegExp(`^${path} is corrupt: Tree \\d+ page \\d+ cell \\d+: `),
    );
    expect(() => openMorphDatabase(path, { readonly: true, quickCheck: false }).close()).not.toThrow();
  });

  it('refuses a missing path in read-only mode (or with create: false) and creates nothing', () => {
    const path = join(dir, 'missing.db');
    expect(refusal(() => openMorphDatabase(path, { readonly: true })).message).toBe(`no Morph database at ${path}`);
    expect(refusal(() => openMorphDatabase(path, { readonly: true, create: true })).message).toBe(
      `no Morph database at ${path}`,
    );
    expect(refusal(() => openMorphDatabase(path, { create: false })).message).toBe(`no Morph database at ${path}`);
    const orphan = join(dir, 'nodir', 'x.db');
    expect(refusal(() => openMorphDatabase(orphan)).message).toMatch(/^cannot create .*no directory/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('adopts an empty file only when it may create, and refuses a directory', () => {
    const path = join(dir, 'empty.db');
    writeFileSync(path, '');
    expect(refusal(() => openMorphDatabase(path, { readonly: true })).message).toBe(
      `no Morph database at ${path} (the file is empty)`,
    );
    expect(statSync(path).size).toBe(0);
    const db = track(openMorphDatabase(path));
    expect(db.pragma('application_id', { simple: true })).toBe(MORPH_APPLICATION_ID);
    mkdirSync(join(dir, 'sub.db'));
    expect(refusal(() => openMorphDatabase(join(dir, 'sub.db'))).message).toMatch(/is a directory/);
  });

  it("opens ':memory:' with the full schema for throwaway use", () => {
    const db = track(openMorphDatabase(':memory:'));
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(countPatterns(db)).toBe(0);
  });

  it('upgrades a database whose schema is behind on a read-only open, under the one-writer lock, or refuses when asked to', () => {
    // A file that got its application_id but crashed before the first migration: user_version 0.
    const crashed = join(dir, 'behind.db');
    const raw = new Database(crashed);
    raw.pragma(`application_id = ${MORPH_APPLICATION_ID}`);
    raw.close();
    expect(refusal(() => openMorphDatabase(crashed, { readonly: true, upgrade: false })).message).toMatch(
      /has an older schema \(v0; this build needs v\d+\): open it once for writing to upgrade it/,
    );
    const db = track(openMorphDatabase(crashed, { readonly: true }));
    expect(() => db.exec(`DELETE FROM meta`)).toThrow(/readonly/); // refused, though not a read-only connection (openReader)
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(countPatterns(db)).toBe(0);

    // A v4 database while another process writes it (an older build's training run): refused, and left as it was.
    const v4 = join(dir, 'v4-locked.db');
    v4Database(v4);
    const lock = WriterLock.acquire(v4);
    expect(refusal(() => openMorphDatabase(v4, { readonly: true })).message).toMatch(
      /has an older schema \(v4; this build needs v\d+\) and cannot be upgraded: .*one writer at a time/,
    );
    const versionOf = (file: string) => {
      const reader = new Database(file, { readonly: true });
      try {
        return reader.pragma('user_version', { simple: true });
      } finally {
        reader.close();
      }
    };
    expect(versionOf(v4)).toBe(4);
    lock.release();
    // Opened as the other kind of database: refused before the upgrade writes anything, by the store and by the
    // readers that only look at a file's settings or kind.
    expect(() => PatternStore.open(v4, { readonly: true, kind: 'opponent-model' })).toThrow(/is a value database, not an opponent model/);
    expect(() => checkDatabaseFileKind(v4, 'opponent-model')).toThrow(/is a value database, not an opponent model/);
    const model = join(dir, 'v4-model.db');
    v4Database(model);
    const asModel = new Database(model);
    asModel.prepare("INSERT INTO meta (key, value) VALUES ('database_kind', 'opponent-model')").run();
    asModel.close();
    expect(() => storedConfig(model)).toThrow(/is an opponent model, not a value database/);
    expect(versionOf(v4)).toBe(4);
    expect(versionOf(model)).toBe(4);
    expect(track(openMorphDatabase(v4, { readonly: true })).pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
  });

  it("moves every pattern's statistics to pattern_learning at v5, keeping pattern_stats, and writes them there from then on", () => {
    // A v4 database, its statistics still in the patterns table.
    const path = join(dir, 'v4.db');
    v4Database(path);
    const raw = new Database(path);
    const insert = raw.prepare(
      `INSERT INTO patterns (kind, key, body, size, weight, updates, variance, uses, origin, created_game, last_used_game)
       VALUES ('graph', ?, '{}', 2, ?, ?, ?, ?, 'forward', 3, ?)`,
    );
    insert.run('a', 0.75, 4, 0.5, 6, 7);
    insert.run('b', 0.125, 1, 0.375, 1, null);
    raw.close();
    const db = track(openMorphDatabase(path));
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const stats = 'SELECT key, weight, updates, variance, uses, origin, created_game, last_used_game FROM pattern_stats ORDER BY id';
    expect(db.prepare(stats).raw().all()).toEqual([
      ['a', 0.75, 4, 0.5, 6, 'forward', 3, 7],
      ['b', 0.125, 1, 0.375, 1, 'forward', 3, null],
    ]);
    const columns = db.prepare("SELECT name FROM pragma_table_info('patterns')").pluck().all();
    expect(columns).toEqual(['id', 'kind', 'key', 'body', 'size', 'origin', 'created_game']);
    const [a] = db.prepare('SELECT id FROM patterns ORDER BY id').pluck().all() as number[];
    expect(updatePatternStats(db, a, { weight: 0.25, updates: 5, variance: 1, uses: 7, lastUsedGame: 8 })).toBe(true);
    expect(db.prepare('SELECT weight, updates, variance, uses, last_used_game FROM pattern_learning WHERE id = ?').raw().get(a)).toEqual([0.25, 5, 1, 7, 8]);
  });

  it("turns the links into one ascending parent list per pattern at v6, and the links view reads them back", () => {
    // A v4 database: one row per link, inserted out of order.
    const path = join(dir, 'links-v4.db');
    v4Database(path);
    const raw = new Database(path);
    const insert = raw.prepare(
      "INSERT INTO patterns (id, kind, key, body, size, origin, created_game) VALUES (?, 'graph', ?, '{}', 2, 'forward', 0)",
    );
    for (const id of [1, 2, 3, 4, 10]) insert.run(id, `k${id}`);
    const link = raw.prepare('INSERT INTO links (parent, child) VALUES (?, ?)');
    for (const [parent, child] of [[10, 4], [2, 3], [1, 3], [3, 4], [1, 10]]) link.run(parent, child);
    raw.close();
    const db = track(openMorphDatabase(path));
    expect(db.prepare('SELECT id, parents FROM pattern_parents ORDER BY id').raw().all()).toEqual([
      [3, '[1,2]'],
      [4, '[3,10]'],
      [10, '[1]'],
    ]);
    expect(loadAllLinks(db)).toEqual([[1, 3], [1, 10], [2, 3], [3, 4], [10, 4]]);
    const objects = db.prepare("SELECT type || ' ' || name FROM sqlite_master WHERE name LIKE 'links%'").pluck().all();
    expect(objects).toEqual(['view links']);
  });

  it('lets a read-only connection read while a writer holds an open write transaction', () => {
    const path = join(dir, 'shared.db');
    const writer = track(openMorphDatabase(path));
    insertPatternRow(writer, pattern('committed'));
    writer.exec('BEGIN IMMEDIATE');
    insertPatternRow(writer, pattern('pending'));
    const reader = track(openMorphDatabase(path, { readonly: true }));
    expect(loadAllPatternRows(reader).map((row) => row.key)).toEqual(['committed']);
    // Opening a second writer needs no write lock when there is nothing to migrate, so it does not wait either.
    const start = performance.now();
    track(openMorphDatabase(path));
    expect(performance.now() - start).toBeLessThan(1000);
    expect(() => setMeta(reader, 'seed', 1)).toThrow(/readonly/);
    writer.exec('COMMIT');
    expect(countPatterns(reader)).toBe(2);
  });

  it('never writes the main file when opened read-only', () => {
    const path = join(dir, 'ro.db');
    populatedDatabase(path, 10);
    const before = snapshot(path);
    const reader = openMorphDatabase(path, { readonly: true });
    expect(countPatterns(reader)).toBe(10);
    reader.close();
    const after = snapshot(path);
    expect([after.sha256, after.mtimeMs]).toEqual([before.sha256, before.mtimeMs]);
  });

  it.each([
    ['a Morph database with a dropped table', `DROP TABLE learning_counters`, /table learning_counters is missing/],
    ['unrelated tables under the Morph label', `DROP TABLE pattern_parents; CREATE TABLE pattern_parents (a, b)`, /table pattern_parents is not Morph's/],
    ['a Morph database with a table Morph does not know', `CREATE TABLE notes (text)`, /it has table notes/],
  ])('refuses %s untouched, in one line, before switching it to WAL', (_label, change, message) => {
    const path = join(dir, 'altered.db');
    const raw = new Database(path);
    raw.pragma(`application_id = ${MORPH_APPLICATION_ID}`);
    for (const migration of listMigrations()) raw.exec(migration.sql);
    raw.pragma(`user_version = ${SCHEMA_VERSION}`);
    raw.exec(change);
    raw.close();
    const before = snapshot(path);
    expect(refusal(() => openMorphDatabase(path)).message).toMatch(message);
    expect(refusal(() => openMorphDatabase(path, { readonly: true })).message).toMatch(message);
    expect(snapshot(path)).toEqual(before);
    // Still in rollback-journal mode (header bytes 18-19 are 1 for rollback, 2 for WAL).
    expect(readFileSync(path).readUInt8(18)).toBe(1);
  });

  it('refuses a file labelled Morph at schema v0 that already holds tables, before switching it to WAL', () => {
    const path = join(dir, 'v0-foreign.db');
    const raw = new Database(path);
    raw.pragma(`application_id = ${MORPH_APPLICATION_ID}`);
    raw.exec("CREATE TABLE meta (k, v); INSERT INTO meta VALUES ('a', 'b')");
    raw.close();
    const before = snapshot(path);
    expect(refusal(() => openMorphDatabase(path)).message).toMatch(/it has table meta, which Morph does not know/);
    expect(snapshot(path)).toEqual(before);
    expect(readFileSync(path).readUInt8(18)).toBe(1);
  });
});

describe('one writer at a time', () => {
  it('refuses a second exclusive writer in one line, writing nothing, and lets one in once the first closes', () => {
    const path = join(dir, 'one-writer.db');
    const first = openMorphDatabase(path, { exclusiveWriter: true });
    setMeta(first, 'seed', 7);
    const before = snapshot(path);
    expect(refusal(() => openMorphDatabase(path, { exclusiveWriter: true })).message).toBe(
      `${path} is being written by another process (morph train or learn): one writer at a time`,
    );
    expect(snapshot(path)).toEqual(before);
    // Readers are never refused.
    const reader = track(openMorphDatabase(path, { readonly: true }));
    expect(getMetaNumber(reader, 'seed')).toBe(7);
    closeMorphDatabase(first);
    const second = openMorphDatabase(path, { exclusiveWriter: true });
    expect(getMetaNumber(second, 'seed')).toBe(7);
    closeMorphDatabase(second);
  });

  it('opens an older database that another process upgraded while holding the lock, without waiting for the lock', async () => {
    const path = join(dir, 'upgraded-elsewhere.db');
    v4Database(path);
    // The holder's own open upgrades the file, and it keeps the lock until killed (another reader still upgrading,
    // as far as this one can tell).
    await withLockHolder(path, () => {
      const reader = track(openMorphDatabase(path, { readonly: true }));
      expect(reader.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    });
  }, 30_000);

  it('is not blocked by a writer that was killed with SIGKILL', async () => {
    const path = join(dir, 'killed-writer.db');
    await withLockHolder(path, () => {
      expect(refusal(() => openMorphDatabase(path, { exclusiveWriter: true })).message).toMatch(/one writer at a time/);
    });
    const db = openMorphDatabase(path, { exclusiveWriter: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    closeMorphDatabase(db);
  }, 30_000);
});

