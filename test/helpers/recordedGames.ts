/** Watching a training run's database from outside while it writes. */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';

/** Games recorded so far, read through a read-only connection while the run writes; 0 before the schema exists. */
export function recordedGames(path: string): number {
  if (!existsSync(path)) return 0;
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 2000');
    return db.prepare('SELECT count(*) FROM games').pluck().get() as number;
  } catch {
    return 0;
  } finally {
    db?.close();
  }
}
