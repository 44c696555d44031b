/**
 * Opening Morph's database file safely, and validating it.
 *
 * Opening never writes to a file that is not ours: the SQLite magic, application_id and user_version are first
 * read from the 100-byte header with plain fs reads, then confirmed (and PRAGMA quick_check run) on a read-only
 * SQLite connection, and only then is the file reopened read-write and migrated (migrations.ts). Every refusal
 * is a one-line MorphError with exit code 2.
 *
 * The rows live in their own modules: meta.ts, counters.ts, games.ts, runs.ts, patternRows.ts,
 * patternPositions.ts. The pattern hierarchy itself lives in memory (hierarchy.ts, patternStore.ts).
 */
import Database from 'better-sqlite3';
import { accessSync, closeSync, constants, existsSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyPendingMigrations, SCHEMA_VERSION, schemaAt } from './migrations.ts';
import { WriterLock } from './writerLock.ts';
import { pragmaNumber, stmt } from './statements.ts';
import { BAD_INPUT, MorphError } from '../util/errors.ts';

export type { MorphDatabase } from './morphDatabase.ts';
import type { MorphDatabase } from './morphDatabase.ts';

/** 'MORP': stored in the SQLite header so a Morph database is recognisable without parsing its schema. */
export const MORPH_APPLICATION_ID = 0x4d4f5250;

/** How long a connection waits for another connection's lock before failing with SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const SQLITE_HEADER_SIZE = 100;
// Offsets into the SQLite file header (https://www.sqlite.org/fileformat.html#the_database_header).
const HEADER_WRITE_VERSION_OFFSET = 18; // 1 rollback journal, 2 WAL
const HEADER_READ_VERSION_OFFSET = 19;
const HEADER_USER_VERSION_OFFSET = 60;
const HEADER_APPLICATION_ID_OFFSET = 68;

const PACKAGE_JSON = fileURLToPath(new URL('../../package.json', import.meta.url));

// ---------------------------------------------------------------------------------------------------------------
// Opening

export interface OpenOptions {
  /** Open without ever writing. Default false. */
  readonly?: boolean;
  /** Create the file if it is missing. Default true for writers; a read-only open never creates. */
  create?: boolean;
  /** Run PRAGMA quick_check before use (measured ~0.2-0.6 s for a 106 MB database, warm cache). Default true. */
  quickCheck?: boolean;
  /**
   * Take the one-writer lock (writerLock.ts) before writing anything, and refuse when another process holds it.
   * Released by closeMorphDatabase. Default false.
   */
  exclusiveWriter?: boolean;
  /**
   * A read-only open of a database at an older schema first brings it to this build's schema: a writer's open
   * under the one-writer lock, which applies the migrations and is refused in one line while a training run
   * holds the lock. Default true; false refuses the older schema instead.
   */
  upgrade?: boolean;
}

const writerLocks = new WeakMap<MorphDatabase, WriterLock>();

/** Closes a connection and releases the one-writer lock it was opened with, if any. */
export function closeMorphDatabase(db: MorphDatabase): void {
  if (db.open) db.close();
  writerLocks.get(db)?.release();
  writerLocks.delete(db);
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
    return openForWriting(path, true, false);
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
    return openForWriting(path, true, opts.exclusiveWriter ?? false);
  }

  checkHeader(path, file.header);
  const { db: reader, userVersion } = openValidated(path, quickCheck);
  if (!readonly) {
    reader.close();
    return openForWriting(path, false, opts.exclusiveWriter ?? false);
  }
  if (userVersion < SCHEMA_VERSION) {
    reader.close();
    const older = `${path} has an older schema (v${userVersion}; this build needs v${SCHEMA_VERSION})`;
    if (!(opts.upgrade ?? true)) throw refuse(`${older}: open it once for writing to upgrade it`);
    try {
      upgradeSchema(path);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw refuse(`${older} and cannot be upgraded: ${why}`);
    }
    return openMorphDatabase(path, { ...opts, upgrade: false, quickCheck: false });
  }
  return reader;
}

/**
 * Brings a database to this build's schema under the one-writer lock. Another reader may be upgrading it at the
 * same moment (two commands started together on an older file): the lock is then waited for, up to
 * BUSY_TIMEOUT_MS, and once that reader is done there is nothing left to do. A writer that keeps the lock (an
 * older build's training run) is refused.
 */
function upgradeSchema(path: string): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  let lock = WriterLock.tryAcquire(path);
  while (!lock) {
    if (storedSchemaVersion(path) >= SCHEMA_VERSION) return;
    if (Date.now() >= deadline) {
      lock = WriterLock.acquire(path); // refuses in its usual line while the lock is still held
    } else {
      Atomics.wait(pause, 0, 0, 50);
      lock = WriterLock.tryAcquire(path);
    }
  }
  try {
    closeMorphDatabase(openForWriting(path, false, false));
  } finally {
    lock.release();
  }
}

/** Something to wait on for a few milliseconds without a busy loop (nothing ever wakes it). */
const pause = new Int32Array(new SharedArrayBuffer(4));

/** The schema version a file records, read without any lock (0 when it cannot be read). */
function storedSchemaVersion(path: string): number {
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      return Number(db.pragma('user_version', { simple: true }));
    } finally {
      db.close();
    }
  } catch {
    return 0;
  }
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

/**
 * A read-only connection. A database in WAL mode needs its -shm side file, which SQLite cannot create in a
 * read-only directory or file system; there the file is read into memory instead (without its journal-mode
 * bytes, so SQLite reads it as a plain database). That copy is exact only when no WAL holds changes the main
 * file lacks, which a cleanly closed database never does.
 */
function openReadOnly(path: string): MorphDatabase {
  const db = openReader(path);
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('user_version'); // the first read is where WAL's side files are opened
    return db;
  } catch (error) {
    db.close();
    const code = (error as { code?: string }).code ?? '';
    if (!(code === 'SQLITE_CANTOPEN' || code.startsWith('SQLITE_READONLY')) || writable(dirname(path))) throw error;
    if (existsSync(`${path}-wal`) && statSync(`${path}-wal`).size > 0) {
      throw refuse(
        `${path} cannot be read here: its directory is read-only and ${path}-wal holds changes not yet in the ` +
          `database file (open it once where it can be written)`,
      );
    }
    const copy = readFileSync(path);
    copy[HEADER_WRITE_VERSION_OFFSET] = copy[HEADER_READ_VERSION_OFFSET] = 1;
    return new Database(copy, { readonly: true });
  }
}

/**
 * A connection that reads and never writes. SQLite removes a database's -wal and -shm when the last connection to
 * it closes, but only a connection that may write can (closing, it takes an exclusive lock on the file, folds the
 * log into it and deletes both; a read-only one cannot take that lock), so a plain read-only open of a database in
 * WAL mode that nothing else has open leaves the two files it created behind. Where that is the case (the header
 * says WAL and Morph's, no side file is there yet, and the place can be written) the reader is a read-write
 * connection with writes refused (query_only), and its close as the last connection removes them under SQLite's
 * own locks; while another connection (a trainer) still has the files open, that close leaves them, as it must.
 * Anywhere else, a read-only connection, leaving side files that were already there as they were.
 */
export function openReader(path: string): Database.Database {
  if (!leavesSideFilesWhenReadOnly(path)) return new Database(path, { readonly: true, fileMustExist: true });
  const db = new Database(path, { fileMustExist: true });
  db.pragma('query_only = ON');
  return db;
}

/** A database in WAL mode, Morph's, with no side file beside it, in a place where SQLite could remove them. */
function leavesSideFilesWhenReadOnly(path: string): boolean {
  let file: FileState;
  try {
    file = inspectFile(path);
  } catch {
    return false;
  }
  if (file.state !== 'present' || file.header.length < SQLITE_HEADER_SIZE) return false;
  const { header } = file;
  if (header[HEADER_WRITE_VERSION_OFFSET] !== 2 || header[HEADER_READ_VERSION_OFFSET] !== 2) return false;
  if (header.readInt32BE(HEADER_APPLICATION_ID_OFFSET) !== MORPH_APPLICATION_ID) return false;
  // A -journal beside it could be hot, which a connection that may write would roll back.
  if (['-wal', '-shm', '-journal'].some((suffix) => existsSync(path + suffix))) return false;
  return whyNotWritable(path) === undefined;
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Why Morph cannot write to `path` (or create it), or undefined when it can. */
function whyNotWritable(path: string): string | undefined {
  if (!writable(dirname(path))) return `its directory ${dirname(path)} is read-only`;
  if (existsSync(path) && !writable(path)) return 'the file is read-only';
  return undefined;
}

/** A read-only connection that has confirmed the file is a healthy Morph database this build can read. */
function openValidated(path: string, quickCheck: boolean): { db: MorphDatabase; userVersion: number } {
  let db: MorphDatabase | undefined;
  const sideFilesBefore = existingSideFiles(path);
  try {
    db = openReadOnly(path);
    const userVersion = pragmaNumber(db, 'user_version');
    checkIdentity(path, pragmaNumber(db, 'application_id'), userVersion);
    checkSchema(path, db, userVersion);
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
    removeSideFilesCreated(path, sideFilesBefore);
    throw toMorphError(path, error);
  }
}

/** SQLite's side files of a database in WAL mode: the log and its index. */
const WAL_SIDE_FILES = ['-wal', '-shm'];

/** The WAL side files beside `path` now, to compare with after an open that may create them. */
export function existingSideFiles(path: string): Set<string> {
  return new Set(WAL_SIDE_FILES.map((suffix) => path + suffix).filter((file) => existsSync(file)));
}

/**
 * A read-only connection to a file in WAL mode creates DB-wal and DB-shm beside it, and a read-only close leaves
 * them. A refused file (damaged, not Morph's) is to be left exactly as it was, so the side files this open made are
 * removed again; those that were there before are someone else's and stay. The log is removed only while empty
 * (a reader never writes to it).
 */
export function removeSideFilesCreated(path: string, before: Set<string>): void {
  for (const file of WAL_SIDE_FILES.map((suffix) => path + suffix)) {
    if (before.has(file)) continue;
    try {
      if (file.endsWith('-wal') && statSync(file).size > 0) continue;
      rmSync(file);
    } catch {
      // not created after all, or not ours to remove
    }
  }
}

/**
 * Refuses a file labelled as Morph whose tables, views, indexes and triggers are not exactly those its
 * user_version's migrations create (a dropped table, or unrelated tables under Morph's label), before anything
 * is written to it.
 */
function checkSchema(path: string, db: MorphDatabase, userVersion: number): void {
  const found = new Map(
    (
      db.prepare(`SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'`).raw().all() as [
        string,
        string,
        string | null,
      ][]
    ).map(([type, name, sql]) => [`${type} ${name}`, sql]),
  );
  const expected = schemaAt(userVersion);
  for (const [object, sql] of expected) {
    if (!found.has(object)) throw refuse(`${path} is damaged or not Morph's: ${object} is missing`);
    if (found.get(object) !== sql) throw refuse(`${path} is damaged or not Morph's: ${object} is not Morph's`);
  }
  const unknown = [...found.keys()].find((object) => !expected.has(object));
  if (unknown) throw refuse(`${path} is damaged or not Morph's: it has ${unknown}, which Morph does not know`);
}

/**
 * The read-write connection: on creation application_id is committed first, while the file is still in rollback
 * mode, so the main file's header says "Morph" from its very first write; then WAL, then pending migrations.
 * With `exclusiveWriter`, the one-writer lock is taken before the first write and refused if held elsewhere.
 */
function openForWriting(path: string, creating: boolean, exclusiveWriter: boolean): MorphDatabase {
  let db: MorphDatabase | undefined;
  const notWritable = path !== ':memory:' ? whyNotWritable(path) : undefined;
  if (notWritable) {
    throw refuse(`${path} cannot be written (${notWritable}): Morph cannot train or learn on it; read commands still work`);
  }
  const lock = exclusiveWriter ? WriterLock.acquire(path) : undefined;
  try {
    db = new Database(path, { fileMustExist: !creating });
    if (db.readonly) {
      throw refuse(`${path} is read-only, so Morph cannot train or learn on it (read commands still work)`);
    }
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
    if (lock) writerLocks.set(db, lock);
    return db;
  } catch (error) {
    db?.close();
    lock?.release();
    throw toMorphError(path, error);
  }
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
/**
 * Turns a copy (a checkpoint taken by SQLite's backup, which keeps the source's WAL mode) into a frozen file in
 * rollback-journal mode, so reading or judging it later leaves no -wal and -shm files beside it. A writer that
 * opens it later switches it back to WAL.
 */
export function freezeCopy(path: string): void {
  const copy = new Database(path, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

export function toMorphError(path: string, error: unknown): unknown {
  if (error instanceof MorphError || !(error instanceof Database.SqliteError)) return error;
  const message = oneLine(error.message);
  const code = error.code;
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return refuse(`${path} is corrupt: ${message}`);
  if (code === 'SQLITE_FULL') return refuse(`cannot write ${path}: the disk is full (${message})`);
  if (code.startsWith('SQLITE_READONLY')) return refuse(`cannot write ${path}: it is read-only (${message})`);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new MorphError(`${path} is locked by another process: ${message}`);
  }
  return refuse(`cannot use ${path}: ${message}`);
}

/**
 * Runs `read` inside one read transaction: SQLite gives it a single snapshot, so a game committed by a writer
 * half-way through cannot make, say, a link appear whose pattern was not read. Every multi-statement read uses it.
 */
export function inSnapshot<T>(db: MorphDatabase, read: () => T): T {
  return db.transaction(read)();
}
