/**
 * One writer per database. Two trainers on one file would both record games under the same numbers, so a
 * writer first takes an exclusive SQLite lock on a side file, `<db>-lock`, and holds it until it closes the
 * database. The lock is the operating system's (SQLite's own file locking), so it dies with the process: a
 * `kill -9` leaves the file behind but never a lock that blocks the next run. The file stays, empty, after every
 * run, killed or not: removing it on release would let a process that opened it just before lock a file no longer
 * in place while a third locks a new one. Readers never take it. Files
 * written whole (opponent models, src/store/wholeFile.ts) take the same lock for the same reason.
 */
import Database from 'better-sqlite3';
import { badInput } from '../util/errors.ts';

export class WriterLock {
  private constructor(private readonly connection: Database.Database) {}

  static lockFileOf(path: string): string {
    return `${path}-lock`;
  }

  /**
   * Takes the lock at once or refuses in one line (exit 2); never waits for another writer. `writers` names the
   * commands that write such a file, for that line.
   */
  static acquire(path: string, writers = 'morph train or learn'): WriterLock {
    const lock = WriterLock.tryAcquire(path);
    if (!lock) throw badInput(`${path} is being written by another process (${writers}): one writer at a time`);
    return lock;
  }

  /** Takes the lock at once, or undefined when another process holds it; other failures refuse in one line. */
  static tryAcquire(path: string): WriterLock | undefined {
    const file = WriterLock.lockFileOf(path);
    let connection: Database.Database;
    try {
      connection = new Database(file, { timeout: 0 });
    } catch (error) {
      throw badInput(`cannot write beside ${path}: ${(error as Error).message}`);
    }
    try {
      // The journal in memory: the lock file stays empty, and a killed writer leaves no FILE-lock-journal beside it.
      connection.pragma('journal_mode = MEMORY');
      // A transaction that is never committed: the exclusive lock lasts as long as the connection.
      connection.exec('BEGIN EXCLUSIVE');
    } catch (error) {
      connection.close();
      const code = (error as { code?: string }).code ?? '';
      if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return undefined;
      throw badInput(`cannot lock ${file}: ${(error as Error).message}`);
    }
    return new WriterLock(connection);
  }

  release(): void {
    if (this.connection.open) this.connection.close();
  }
}
