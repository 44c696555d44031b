/** SQL plumbing shared by the row modules: prepared statements cached per connection, and numeric pragmas. */
import type Database from 'better-sqlite3';
import type { MorphDatabase } from './morphDatabase.ts';

const statementCache = new WeakMap<MorphDatabase, Map<string, Database.Statement>>();

/** The prepared statement for `sql` on `db`, prepared once per connection. */
export function stmt(db: MorphDatabase, sql: string): Database.Statement {
  let statements = statementCache.get(db);
  if (!statements) statementCache.set(db, (statements = new Map()));
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = db.prepare(sql)));
  return statement;
}

export function pragmaNumber(db: MorphDatabase, name: string): number {
  return Number(db.pragma(name, { simple: true }));
}
