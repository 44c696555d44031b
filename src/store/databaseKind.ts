/**
 * Two kinds of Morph database share one file format: value databases (what positions are worth, learned by
 * `morph train` and `morph learn`) and opponent models (what one player tends to choose, built by
 * `morph model`). Their weights mean different things, so each file records its kind in its meta table and
 * every command checks it on open. A file without the record is a value database (all files written before
 * models existed are).
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { openMorphDatabase, type MorphDatabase } from './database.ts';
import { getMeta, setMeta } from './meta.ts';
import { badInput } from '../util/errors.ts';

export type DatabaseKind = 'value' | 'opponent-model';

const KIND_KEY = 'database_kind';

const KIND_NAMES: Record<DatabaseKind, string> = {
  value: 'a value database',
  'opponent-model': 'an opponent model',
};

/** How to use each kind, for the error that names the other. */
const KIND_USE: Record<DatabaseKind, string> = {
  value: 'use it with --db',
  'opponent-model': 'use it with --model, e.g. morph predict --model FILE',
};

export function databaseKind(db: MorphDatabase): DatabaseKind {
  const kind = getMeta(db, KIND_KEY);
  if (kind === undefined || kind === 'value') return 'value';
  if (kind === 'opponent-model') return kind;
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
 * Refuses a file of the other kind before it is opened, since opening may write to it (a writer's open, and a
 * reader's that upgrades an older schema). Read with a plain read-only connection; a file that cannot be read
 * that way is left to the open, which says why.
 */
export function checkFileKindBeforeOpening(path: string, expected: DatabaseKind): void {
  if (path === ':memory:' || !existsSync(path)) return;
  let probe: Database.Database | undefined;
  let recorded: DatabaseKind | undefined;
  try {
    probe = new Database(path, { readonly: true, fileMustExist: true });
    recorded = databaseKind(probe);
  } catch {
    return;
  } finally {
    probe?.close();
  }
  requireDatabaseKind({ kind: recorded }, path, expected);
}

/** Checks a file's kind without loading its patterns (commands that load it later refuse it up front). */
export function checkDatabaseFileKind(path: string, expected: DatabaseKind): void {
  checkFileKindBeforeOpening(path, expected);
  const db = openMorphDatabase(path, { readonly: true, quickCheck: false });
  try {
    requireDatabaseKind(db, path, expected);
  } finally {
    db.close();
  }
}
