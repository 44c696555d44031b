/**
 * Three kinds of Morph database share one file format: value databases (what positions are worth, learned by
 * `morph train` and `morph learn`), opponent models (what one player tends to choose, built by `morph model`) and
 * move patterns (which moves a strong side chooses, as patterns of move graphs: `morph model --move-patterns`).
 * Their weights mean different things, so each file records its kind in its meta table and every command checks it
 * on open. A file without the record is a value database (all files written before
 * models existed are).
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import {
  closeMorphDatabase, existingSideFiles, openMorphDatabase, openReader, removeSideFilesCreated, type MorphDatabase,
  type OpenOptions,
} from './database.ts';
import { getMeta, setMeta } from './meta.ts';
import { badInput } from '../util/errors.ts';

export type DatabaseKind = 'value' | 'opponent-model' | 'move-patterns';

const KIND_KEY = 'database_kind';

const KIND_NAMES: Record<DatabaseKind, string> = {
  value: 'a value database',
  'opponent-model': 'an opponent model',
  'move-patterns': 'a move-pattern database',
};

/** How to use each kind, for the error that names the other. */
const KIND_USE: Record<DatabaseKind, string> = {
  value: 'use it with --db',
  'opponent-model': 'use it with --model, e.g. morph predict --model FILE',
  'move-patterns': 'use it as a ranker: morph agree --ranker move-patterns:FILE',
};

export function databaseKind(db: MorphDatabase): DatabaseKind {
  const kind = getMeta(db, KIND_KEY);
  if (kind === undefined || kind === 'value') return 'value';
  if (kind === 'opponent-model' || kind === 'move-patterns') return kind;
  throw badInput(`unknown database kind "${kind}"`);
}

export function recordDatabaseKind(db: MorphDatabase, kind: DatabaseKind): void {
  setMeta(db, KIND_KEY, kind);
}

/** Refuses a database of the other kind with a one-line error (exit code 2); `kind` when already read. */
export function requireDatabaseKind(db: MorphDatabase | { kind: DatabaseKind }, path: string, expected: DatabaseKind): void {
  const actual = 'kind' in db ? db.kind : databaseKind(db);
  if (actual !== expected) {
    throw badInput(`${path} is ${KIND_NAMES[actual]}, not ${KIND_NAMES[expected]} (${KIND_USE[actual]})`);
  }
}

/**
 * Opens the database at `path` (openMorphDatabase's options) only when it is of the `expected` kind; another kind
 * is refused in one line, and refused before the open, since opening may write to the file (a writer's open, and a
 * reader's that upgrades an older schema).
 */
export function openDatabaseOfKind(path: string, expected: DatabaseKind, options: OpenOptions): MorphDatabase {
  checkFileKindBeforeOpening(path, expected);
  const db = openMorphDatabase(path, options);
  try {
    // Also after the open: a file the probe could not read is checked once the open has said it is Morph's.
    requireDatabaseKind(db, path, expected);
  } catch (error) {
    closeMorphDatabase(db);
    throw error;
  }
  return db;
}

/**
 * Refuses a file of the other kind, read with a plain read-only connection before any open; a file that cannot
 * be read that way is left to the open, which says why.
 */
function checkFileKindBeforeOpening(path: string, expected: DatabaseKind): void {
  if (path === ':memory:' || !existsSync(path)) return;
  let probe: Database.Database | undefined;
  let recorded: DatabaseKind | undefined;
  const sideFilesBefore = existingSideFiles(path);
  try {
    probe = openReader(path);
    recorded = databaseKind(probe);
  } catch {
    // A damaged file is left as it was (the open then refuses it): without the side files this probe made.
    probe?.close();
    probe = undefined;
    removeSideFilesCreated(path, sideFilesBefore);
    return;
  } finally {
    probe?.close();
  }
  requireDatabaseKind({ kind: recorded }, path, expected);
}

/** Checks a file's kind without loading its patterns (commands that load it later refuse it up front). */
export function checkDatabaseFileKind(path: string, expected: DatabaseKind): void {
  closeMorphDatabase(openDatabaseOfKind(path, expected, { readonly: true, quickCheck: false }));
}
