/**
 * Morph's numbered schema migrations (db/migrations/NNN_name.sql). Each is applied in its own transaction,
 * which also bumps user_version, so a database is always at exactly one known version.
 */
import Database from 'better-sqlite3';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MorphDatabase } from './morphDatabase.ts';
import { pragmaNumber } from './statements.ts';
import { MorphError } from '../util/errors.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('../../db/migrations/', import.meta.url));

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

/** Applies each missing migration in its own transaction, which also bumps user_version. */
export function applyPendingMigrations(db: MorphDatabase): void {
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

const schemas = new Map<number, ReadonlyMap<string, string | null>>();

/**
 * The schema objects the first `version` migrations create, as "type name" -> SQL text (as sqlite_master keeps
 * it), found by applying them to a scratch in-memory database.
 */
export function schemaAt(version: number): ReadonlyMap<string, string | null> {
  let schema = schemas.get(version);
  if (schema) return schema;
  const scratch = new Database(':memory:');
  try {
    for (const migration of listMigrations().slice(0, version)) scratch.exec(migration.sql);
    const rows = scratch
      .prepare(`SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'`)
      .raw()
      .all() as [string, string, string | null][];
    schema = new Map(rows.map(([type, name, sql]) => [`${type} ${name}`, sql]));
  } finally {
    scratch.close();
  }
  schemas.set(version, schema);
  return schema;
}
