/**
 * Morph's database file: opening it safely, numbered schema migrations, and thin row-level helpers.
 *
 * Opening never writes to a file that is not ours: the SQLite magic, application_id and user_version are first
 * read from the 100-byte header with plain fs reads, then confirmed (and PRAGMA quick_check run) on a read-only
 * SQLite connection, and only then is the file reopened read-write and migrated. Every refusal is a one-line
 * MorphError with exit code 2.
 *
 * The pattern hierarchy itself lives in memory (src/pattern, src/learn); these helpers only move rows, and the
 * caller wraps them in its own transactions.
 */
import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, readFileSync, readSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BAD_INPUT, MorphError } from '../util/errors.ts';

export type MorphDatabase = Database.Database;

/** 'MORP': stored in the SQLite header so a Morph database is recognisable without parsing its schema. */
export const MORPH_APPLICATION_ID = 0x4d4f5250;

/** How long a connection waits for another connection's lock before failing with SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const SQLITE_HEADER_SIZE = 100;
// Offsets into the SQLite file header (https://www.sqlite.org/fileformat.html#the_database_header).
const HEADER_USER_VERSION_OFFSET = 60;
const HEADER_APPLICATION_ID_OFFSET = 68;

const MIGRATIONS_DIR = fileURLToPath(new URL('../../db/migrations/', import.meta.url));
const PACKAGE_JSON = fileURLToPath(new URL('../../package.json', import.meta.url));

// ---------------------------------------------------------------------------------------------------------------
// Migrations

export interface Migration {
  /** The number in the file name (001_initial.sql is version 1); user_version after it has been applied. */
  readonly version: number;
  readonly name: string;
  readonly file: string;
  readonly sql: string;
}

let cachedMigrations: readonly Migration[] | undefined;

/** The migrations in db/migrations, in order. They must be numbered 1, 2, 3, ... without gaps. */
export function listMigrations(): readonly Migration[] {
  if (cachedMigrations) return cachedMigrations;
  const found: Migration[] = [];
  for (const name of readdirSync(MIGRATIONS_DIR).sort()) {
    const match = /^(\d+)_[\w-]+\.sql$/.exec(name);
    if (!match) continue;
    const file = join(MIGRATIONS_DIR, name);
    found.push({ version: Number(match[1]), name, file, sql: readFileSync(file, 'utf8') });
  }
  found.sort((a, b) => a.version - b.version);
  found.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new MorphError(`broken Morph install: migration ${migration.name} should be number ${index + 1}`);
    }
  });
  if (found.length === 0) throw new MorphError(`broken Morph install: no migrations in ${MIGRATIONS_DIR}`);
  cachedMigrations = found;
  return found;
}

/** The newest schema version this build knows (the number of the last migration). */
export const SCHEMA_VERSION: number = listMigrations().at(-1)!.version;

// ---------------------------------------------------------------------------------------------------------------
// Opening

export interface OpenOptions {
  /** Open without ever writing. Default false. */
  readonly?: boolean;
  /** Create the file if it is missing. Default true for writers; a read-only open never creates. */
  create?: boolean;
  /** Run PRAGMA quick_check before use (measured ~0.2-0.6 s for a 106 MB database, warm cache). Default true. */
  quickCheck?: boolean;
}

/**
 * Opens (or creates) a Morph database. Writers get WAL mode, foreign keys, synchronous=NORMAL, a busy timeout and
 * every pending migration applied. Pass ':memory:' for a throwaway database (tests).
 */
export function openMorphDatabase(path: string, opts: OpenOptions = {}): MorphDatabase {
  const readonly = opts.readonly ?? false;
  const create = !readonly && (opts.create ?? true);
  const quickCheck = opts.quickCheck ?? true;

  if (path === ':memory:') {
    if (readonly) throw refuse(`a read-only database cannot be in memory`);
    return openForWriting(path, true);
  }

  const file = inspectFile(path);
  if (file.state === 'missing' || file.state === 'empty') {
    if (!create) {
      throw refuse(`no Morph database at ${path}${file.state === 'empty' ? ' (the file is empty)' : ''}`);
    }
    // SQLite treats an empty file as an empty database, so a `touch`ed file is adopted; but an empty file beside a
    // leftover WAL belongs to something we know nothing about.
    if (file.state === 'empty' && existsSync(`${path}-wal`)) {
      throw refuse(`${path} is empty but has a ${path}-wal file beside it; not touching it`);
    }
    if (!existsSync(dirname(path))) throw refuse(`cannot create ${path}: no directory ${dirname(path)}`);
    return openForWriting(path, true);
  }

  checkHeader(path, file.header);
  const { db: reader, userVersion } = openValidated(path, quickCheck);
  if (!readonly) {
    reader.close();
    return openForWriting(path, false);
  }
  if (userVersion < SCHEMA_VERSION) {
    reader.close();
    throw refuse(
      `${path} has an older schema (v${userVersion}; this build needs v${SCHEMA_VERSION}): ` +
        `open it once for writing to upgrade it`,
    );
  }
  return reader;
}

type FileState = { state: 'missing' } | { state: 'empty' } | { state: 'present'; header: Buffer };

function inspectFile(path: string): FileState {
  let stats;
  try {
    stats = statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { state: 'missing' };
    throw refuse(`cannot read ${path}: ${oneLine((error as Error).message)}`);
  }
  if (stats.isDirectory()) throw refuse(`${path} is a directory, not a Morph database`);
  if (!stats.isFile()) throw refuse(`${path} is not a regular file, so not a Morph database`);
  if (stats.size === 0) return { state: 'empty' };

  const header = Buffer.alloc(SQLITE_HEADER_SIZE);
  let length: number;
  try {
    const fd = openSync(path, 'r');
    try {
      length = readSync(fd, header, 0, SQLITE_HEADER_SIZE, 0);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw refuse(`cannot read ${path}: ${oneLine((error as Error).message)}`);
  }
  return { state: 'present', header: header.subarray(0, length) };
}

/**
 * Refuses, from the header bytes alone, anything that is not a Morph database this build can read, so such files
 * never reach SQLite (which could create -wal/-shm files or roll back a hot journal beside them). The header can
 * lag behind a WAL, but only in the safe direction: Morph sets application_id before switching to WAL, and
 * user_version only grows.
 */
function checkHeader(path: string, header: Buffer): void {
  if (header.length < SQLITE_MAGIC.length || !header.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) {
    throw refuse(`${path} is not a SQLite database`);
  }
  if (header.length < SQLITE_HEADER_SIZE) {
    throw refuse(`${path} is corrupt: the file is truncated (${header.length} bytes)`);
  }
  checkIdentity(path, header.readInt32BE(HEADER_APPLICATION_ID_OFFSET), header.readInt32BE(HEADER_USER_VERSION_OFFSET));
}

function checkIdentity(path: string, applicationId: number, userVersion: number): void {
  if (applicationId !== MORPH_APPLICATION_ID) throw refuse(`${path} is not a Morph database`);
  if (userVersion > SCHEMA_VERSION) {
    throw refuse(
      `${path} was written by a newer Morph (schema v${userVersion}; this build knows up to v${SCHEMA_VERSION})`,
    );
  }
}

/** A read-only connection that has confirmed the file is a healthy Morph database this build can read. */
function openValidated(path: string, quickCheck: boolean): { db: MorphDatabase; userVersion: number } {
  let db: MorphDatabase | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    const userVersion = pragmaNumber(db, 'user_version');
    checkIdentity(path, pragmaNumber(db, 'application_id'), userVersion);
    if (quickCheck) {
      const problems = (db.pragma('quick_check') as { quick_check: string }[])
        .flatMap((row) => row.quick_check.split('\n'))
        .filter((line) => line !== 'ok' && !line.startsWith('***'));
      if (problems.length > 0) {
        const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
        throw refuse(`${path} is corrupt: ${oneLine(problems[0])}${more}`);
      }
    }
    db.pragma('foreign_keys = ON'); // a per-connection setting, not a write
    return { db, userVersion };
  } catch (error) {
    db?.close();
    throw toMorphError(path, error);
  }
}

/**
 * The read-write connection: on creation application_id is committed first, while the file is still in rollback
 * mode, so the main file's header says "Morph" from its very first write; then WAL, then pending migrations.
 */
function openForWriting(path: string, creating: boolean): MorphDatabase {
  let db: MorphDatabase | undefined;
  try {
    db = new Database(path, { fileMustExist: !creating });
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (creating && pragmaNumber(db, 'application_id') !== MORPH_APPLICATION_ID) {
      db.pragma(`application_id = ${MORPH_APPLICATION_ID}`);
    }
    if (!db.memory) {
      const mode = db.pragma('journal_mode = WAL', { simple: true });
      if (mode !== 'wal') throw refuse(`${path}: cannot switch to WAL journal mode (got ${String(mode)})`);
    }
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    applyPendingMigrations(db);
    if (creating) {
      stmt(db, `INSERT INTO meta (key, value) VALUES ('morph_version', ?) ON CONFLICT (key) DO NOTHING`).run(
        morphVersion(),
      );
    }
    return db;
  } catch (error) {
    db?.close();
    throw toMorphError(path, error);
  }
}

/** Applies each missing migration in its own transaction, which also bumps user_version. */
function applyPendingMigrations(db: MorphDatabase): void {
  for (const migration of listMigrations()) {
    if (pragmaNumber(db, 'user_version') >= migration.version) continue;
    // IMMEDIATE takes the write lock before re-reading, so two processes opening at once migrate only once.
    db.transaction(() => {
      if (pragmaNumber(db, 'user_version') >= migration.version) return;
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
}

function pragmaNumber(db: MorphDatabase, name: string): number {
  return Number(db.pragma(name, { simple: true }));
}

let cachedVersion: string | undefined;

function morphVersion(): string {
  cachedVersion ??= String((JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version?: unknown }).version);
  return cachedVersion;
}

function refuse(message: string): MorphError {
  return new MorphError(message, BAD_INPUT);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Turns an error from opening or using the database at `path` into a one-line MorphError. Errors that are not
 * SQLite's (programming errors) are returned unchanged, so they keep their stack.
 */
export function toMorphError(path: string, error: unknown): unknown {
  if (error instanceof MorphError || !(error instanceof Database.SqliteError)) return error;
  const message = oneLine(error.message);
  const code = error.code;
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return refuse(`${path} is corrupt: ${message}`);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new MorphError(`${path} is locked by another process: ${message}`);
  }
  return refuse(`cannot use ${path}: ${message}`);
}

// ---------------------------------------------------------------------------------------------------------------
// Prepared statements, cached per connection and keyed by their SQL.

const statementCache = new WeakMap<MorphDatabase, Map<string, Database.Statement>>();

function stmt(db: MorphDatabase, sql: string): Database.Statement {
  let statements = statementCache.get(db);
  if (!statements) statementCache.set(db, (statements = new Map()));
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = db.prepare(sql)));
  return statement;
}

// ---------------------------------------------------------------------------------------------------------------
// Run metadata (table meta: text values) and learning counters

/** Well-known meta keys; any other key may be used too. */
export type MetaKey =
  | 'games_played'
  | 'temperature'
  | 'seed'
  | 'rng_state'
  | 'config'
  | 'created_at'
  | 'morph_version'
  | (string & {});

export function getMeta(db: MorphDatabase, key: MetaKey): string | undefined {
  const row = stmt(db, 'SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}

/** Strings are stored as they are, numbers as their shortest round-tripping text, anything else as JSON. */
export function setMeta(db: MorphDatabase, key: MetaKey, value: unknown): void {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`meta ${key}: ${value} is not a finite number`);
    text = String(value);
  } else {
    const json = JSON.stringify(value);
    if (json === undefined) throw new TypeError(`meta ${key}: ${typeof value} cannot be stored`);
    text = json;
  }
  stmt(db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(
    key,
    text,
  );
}

export function getMetaNumber(db: MorphDatabase, key: MetaKey): number | undefined {
  const text = getMeta(db, key);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) throw new MorphError(`meta ${key} is not a number: ${text}`);
  return value;
}

export function getMetaJson<T = unknown>(db: MorphDatabase, key: MetaKey): T | undefined {
  const text = getMeta(db, key);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new MorphError(`meta ${key} is not valid JSON`);
  }
}

export function deleteMeta(db: MorphDatabase, key: MetaKey): boolean {
  return stmt(db, 'DELETE FROM meta WHERE key = ?').run(key).changes > 0;
}

/** Adds `by` (an integer, may be negative) to a learning counter, creating it at 0; returns the new value. */
export function incrementCounter(db: MorphDatabase, name: string, by = 1): number {
  if (!Number.isInteger(by)) throw new RangeError(`counter ${name}: increment ${by} is not an integer`);
  const row = stmt(
    db,
    `INSERT INTO learning_counters (name, value) VALUES (?, ?)
     ON CONFLICT (name) DO UPDATE SET value = value + excluded.value RETURNING value`,
  ).get(name, by) as { value: number };
  return row.value;
}

export function getCounters(db: MorphDatabase): Record<string, number> {
  const counters: Record<string, number> = {};
  const rows = stmt(db, 'SELECT name, value FROM learning_counters ORDER BY name').raw().all() as [string, number][];
  for (const [name, value] of rows) counters[name] = value;
  return counters;
}

// ---------------------------------------------------------------------------------------------------------------
// Games and runs

export type Color = 'w' | 'b';
export type GameResult = '1-0' | '0-1' | '1/2-1/2';

export interface GameRecord {
  runId?: number | null;
  startedAt?: string | null;
  finishedAt?: string | null;
  morphColor: Color;
  opponent: string;
  result: GameResult;
  /** checkmate, stalemate, insufficient, threefold, fifty-move, ply-limit, ... */
  reason: string;
  plies: number;
  /** Material balance in pawn units from Morph's side (P1 N3 B3 R5 Q9). */
  finalMaterial?: number | null;
  /** Pattern count after learning from the game. */
  patterns?: number | null;
  seconds?: number | null;
  seed?: number | null;
  pgn?: string | null;
}

/** Morph's score for a result: 1 win, 0.5 draw, 0 loss. */
export function morphScore(result: GameResult, morphColor: Color): number {
  if (result === '1/2-1/2') return 0.5;
  return (result === '1-0') === (morphColor === 'w') ? 1 : 0;
}

/**
 * Inserts a games row (morph_score is derived from result and colour so the two cannot disagree) and, when the game
 * belongs to a run, counts it in runs.games. Returns the game's id.
 */
export function recordGame(db: MorphDatabase, game: GameRecord): number {
  return db.transaction(() => {
    const info = stmt(
      db,
      `INSERT INTO games (run_id, started_at, finished_at, morph_color, opponent, result, morph_score, reason, plies,
                          final_material, patterns, seconds, seed, pgn)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      game.runId ?? null,
      game.startedAt ?? null,
      game.finishedAt ?? new Date().toISOString(),
      game.morphColor,
      game.opponent,
      game.result,
      morphScore(game.result, game.morphColor),
      game.reason,
      game.plies,
      game.finalMaterial ?? null,
      game.patterns ?? null,
      game.seconds ?? null,
      game.seed ?? null,
      game.pgn ?? null,
    );
    if (game.runId != null) stmt(db, 'UPDATE runs SET games = games + 1 WHERE id = ?').run(game.runId);
    return Number(info.lastInsertRowid);
  })();
}

export interface RunStart {
  opponent: string;
  seed?: number | null;
  /** Stored as JSON (a string is stored as it is). */
  config?: unknown;
  /** The number of the run's first game (games_played + 1 when it starts). */
  firstGame: number;
  startedAt?: string;
}

/** Inserts a runs row and returns its id; recordGame with this runId counts games into it. */
export function startRun(db: MorphDatabase, run: RunStart): number {
  const config = run.config === undefined || typeof run.config === 'string' ? run.config : JSON.stringify(run.config);
  const info = stmt(
    db,
    'INSERT INTO runs (started_at, opponent, seed, config, first_game, games) VALUES (?, ?, ?, ?, ?, 0)',
  ).run(run.startedAt ?? new Date().toISOString(), run.opponent, run.seed ?? null, config ?? null, run.firstGame);
  return Number(info.lastInsertRowid);
}

export interface RunFinish {
  /** e.g. games-done, interrupted, time-limit. */
  stopReason: string;
  finishedAt?: string;
  /** Overrides the count recordGame kept. */
  games?: number;
}

export function finishRun(db: MorphDatabase, runId: number, finish: RunFinish): void {
  const info = stmt(
    db,
    'UPDATE runs SET finished_at = ?, stop_reason = ?, games = coalesce(?, games) WHERE id = ?',
  ).run(finish.finishedAt ?? new Date().toISOString(), finish.stopReason, finish.games ?? null, runId);
  if (info.changes === 0) throw new RangeError(`no run ${runId}`);
}

// ---------------------------------------------------------------------------------------------------------------
// Pattern and link rows. Thin on purpose: the hierarchy lives in memory and calls these inside its transactions.

export type PatternKind = 'graph' | 'material';
export type PatternOrigin =
  | 'seed'
  | 'forward'
  | 'reverse'
  | 'regression'
  | 'generalisation'
  | 'specialisation'
  | 'material'
  | 'manual';

/** The statistics learning changes (the paper's Table 1; age is derived, see the pattern_stats view). */
export interface PatternStats {
  weight: number;
  updates: number;
  /** Sum of absolute weight changes. */
  variance: number;
  uses: number;
  lastUsedGame: number | null;
}

export interface PatternRow extends PatternStats {
  id: number;
  kind: PatternKind;
  /** Canonical key, unique. */
  key: string;
  /** The pattern as JSON (its format belongs to the pattern module). */
  body: string;
  /** Node count; 0 for material patterns. */
  size: number;
  origin: PatternOrigin;
  createdGame: number;
}

/** A pattern to insert: id is assigned by SQLite unless given; stats default to weight 0.5 and zero counts. */
export type NewPatternRow = Omit<PatternRow, 'id' | keyof PatternStats> & Partial<PatternStats> & { id?: number };

export interface LinkRow {
  /** The more general pattern. */
  parent: number;
  /** The more specific pattern. */
  child: number;
  /** For each parent node, the index of the child node it maps to; null if not recorded. */
  mapping: number[] | null;
}

const PATTERN_COLUMNS =
  'id, kind, key, body, size, weight, updates, variance, uses, origin, created_game, last_used_game';

/** Returns the new pattern's id. Throws SQLite's constraint error if the key is already present. */
export function insertPatternRow(db: MorphDatabase, row: NewPatternRow): number {
  const info = stmt(db, `INSERT INTO patterns (${PATTERN_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
    row.id ?? null,
    row.kind,
    row.key,
    row.body,
    row.size,
    row.weight ?? 0.5,
    row.updates ?? 0,
    row.variance ?? 0,
    row.uses ?? 0,
    row.origin,
    row.createdGame,
    row.lastUsedGame ?? null,
  );
  return Number(info.lastInsertRowid);
}

/** Writes a pattern's learning statistics; false if there is no such pattern. */
export function updatePatternStats(db: MorphDatabase, id: number, stats: PatternStats): boolean {
  return (
    stmt(
      db,
      'UPDATE patterns SET weight = ?, updates = ?, variance = ?, uses = ?, last_used_game = ? WHERE id = ?',
    ).run(stats.weight, stats.updates, stats.variance, stats.uses, stats.lastUsedGame, id).changes > 0
  );
}

/** Deletes a pattern; its links and recorded positions go with it (ON DELETE CASCADE). Re-linking is the caller's. */
export function deletePatternRow(db: MorphDatabase, id: number): boolean {
  return stmt(db, 'DELETE FROM patterns WHERE id = ?').run(id).changes > 0;
}

/** Adds parent -> child, or replaces the mapping of an existing link. */
export function insertLink(
  db: MorphDatabase,
  parent: number,
  child: number,
  mapping: readonly number[] | null = null,
): void {
  stmt(
    db,
    `INSERT INTO links (parent, child, mapping) VALUES (?, ?, ?)
     ON CONFLICT (parent, child) DO UPDATE SET mapping = excluded.mapping`,
  ).run(parent, child, mapping === null ? null : JSON.stringify(mapping));
}

export function deleteLink(db: MorphDatabase, parent: number, child: number): boolean {
  return stmt(db, 'DELETE FROM links WHERE parent = ? AND child = ?').run(parent, child).changes > 0;
}

/** The columns every pattern loader reads, in the order `statsRow` decodes them. */
const STATS_COLUMNS = 'id, kind, key, weight, updates, variance, uses, origin, created_game, last_used_game';

type PatternKeyAndStats = Omit<PatternRow, 'body' | 'size'>;

function statsRow(r: unknown[]): PatternKeyAndStats {
  return {
    id: r[0] as number,
    kind: r[1] as PatternKind,
    key: r[2] as string,
    weight: r[3] as number,
    updates: r[4] as number,
    variance: r[5] as number,
    uses: r[6] as number,
    origin: r[7] as PatternOrigin,
    createdGame: r[8] as number,
    lastUsedGame: r[9] as number | null,
  };
}

/** Every pattern row, by id. Uses raw arrays to keep a 100k-row load fast. */
export function loadAllPatternRows(db: MorphDatabase): PatternRow[] {
  const rows = stmt(db, `SELECT ${STATS_COLUMNS}, body, size FROM patterns ORDER BY id`).raw().all() as unknown[][];
  return rows.map((r) => ({ ...statsRow(r), body: r[10] as string, size: r[11] as number }));
}

/** Every pattern's id, kind, key and statistics, without the JSON body: what loading the hierarchy needs. */
export function loadPatternKeysAndStats(db: MorphDatabase): PatternKeyAndStats[] {
  const rows = stmt(db, `SELECT ${STATS_COLUMNS} FROM patterns ORDER BY id`).raw().all() as unknown[][];
  return rows.map(statsRow);
}

/** Every link as a flat array [parent, child, parent, child, ...], without mappings. */
export function loadLinkPairs(db: MorphDatabase): Int32Array {
  const rows = stmt(db, 'SELECT parent, child FROM links').raw().all() as [number, number][];
  const pairs = new Int32Array(rows.length * 2);
  rows.forEach(([parent, child], i) => {
    pairs[2 * i] = parent;
    pairs[2 * i + 1] = child;
  });
  return pairs;
}

/** Every link, by parent then child, with its mapping parsed. */
export function loadAllLinks(db: MorphDatabase): LinkRow[] {
  const rows = stmt(db, 'SELECT parent, child, mapping FROM links ORDER BY parent, child').raw().all() as [
    number,
    number,
    string | null,
  ][];
  return rows.map(([parent, child, mapping]) => ({
    parent,
    child,
    mapping: mapping === null ? null : (JSON.parse(mapping) as number[]),
  }));
}

export function countPatterns(db: MorphDatabase): number {
  return (stmt(db, 'SELECT count(*) FROM patterns').pluck().get() as number) ?? 0;
}

/** Records a position a pattern matched, keeping only its `keep` most recent ones. */
export function addPatternPosition(db: MorphDatabase, patternId: number, gameId: number, fen: string, keep = 5): void {
  db.transaction(() => {
    stmt(db, 'INSERT INTO pattern_positions (pattern_id, game_id, fen) VALUES (?, ?, ?)').run(patternId, gameId, fen);
    stmt(
      db,
      `DELETE FROM pattern_positions WHERE pattern_id = ? AND rowid NOT IN
         (SELECT rowid FROM pattern_positions WHERE pattern_id = ? ORDER BY rowid DESC LIMIT ?)`,
    ).run(patternId, patternId, keep);
  })();
}

/** A pattern's recorded positions, newest first. */
export function getPatternPositions(db: MorphDatabase, patternId: number): { gameId: number; fen: string }[] {
  return (
    stmt(db, 'SELECT game_id, fen FROM pattern_positions WHERE pattern_id = ? ORDER BY rowid DESC')
      .raw()
      .all(patternId) as [number, string][]
  ).map(([gameId, fen]) => ({ gameId, fen }));
}
