/**
 * How failures reach the user: SQLite's and the file system's reports of a full disk, a read-only or damaged
 * file are one line with exit code 2 (not "internal error", exit 1), and every line is escaped and bounded.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reportError } from '../src/cli/run.ts';
import { MorphError, oneLineMessage, quoteInput } from '../src/util/errors.ts';

let dir: string;
let written: string[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'morph-errors-'));
  written = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

/** The error `action` throws. */
function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('reportError', () => {
  it('reports a full database (SQLITE_FULL) in one line with exit code 2', () => {
    const db = new Database(':memory:');
    db.pragma('max_page_count = 8');
    db.exec('CREATE TABLE t (x BLOB)');
    const error = thrown(() => {
      for (;;) db.prepare('INSERT INTO t VALUES (zeroblob(4096))').run();
    });
    expect((error as { code: string }).code).toBe('SQLITE_FULL');
    expect(reportError(error)).toBe(2);
    expect(written).toEqual(['morph: the disk is full: database or disk is full\n']);
  });

  it('reports a write to a read-only database (SQLITE_READONLY) in one line with exit code 2', () => {
    const path = join(dir, 'ro.db');
    new Database(path).exec('CREATE TABLE t (x)');
    const db = new Database(path, { readonly: true });
    const error = thrown(() => db.exec('INSERT INTO t VALUES (1)'));
    db.close();
    expect(reportError(error)).toBe(2);
    expect(written).toEqual(['morph: the database is read-only: attempt to write a readonly database\n']);
  });

  it('reports a damaged database (SQLITE_CORRUPT) in one line with exit code 2', () => {
    expect(reportError(new Database.SqliteError('database disk image is malformed', 'SQLITE_CORRUPT'))).toBe(2);
    expect(written).toEqual(['morph: the database is corrupt: database disk image is malformed\n']);
  });

  it('keeps a bug an internal error (exit 1), in one line', () => {
    expect(reportError(new TypeError('x is undefined\n    at somewhere'))).toBe(1);
    expect(written).toEqual(['morph: internal error: x is undefined\n']);
  });

  it('escapes and bounds what a message repeats', () => {
    const echoed = `bad FEN "${'Q'.repeat(10_000)}\x1b[2J\nsecond line"`;
    expect(reportError(new MorphError(echoed, 2))).toBe(2);
    expect(written).toHaveLength(1);
    const line = written[0];
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toMatch(/[\n\x1b]/);
    expect(line.length).toBeLessThan(600);
    expect(line).toMatch(/… \(\d+ more characters\)\n$/);
  });
});

describe('quoteInput', () => {
  it('escapes control, format and separator characters and keeps printable text', () => {
    expect(quoteInput('e4\te5\r\n\x00\x07\u202e\u2028 é ♞')).toBe('e4\\te5\\r\\n\\x00\\x07\\u202e\\u2028 é ♞');
  });

  it('cuts long input and says how much was left out', () => {
    expect(quoteInput('a'.repeat(100), 10)).toBe('aaaaaaaaaa… (90 more characters)');
    expect(quoteInput('a'.repeat(10), 10)).toBe('aaaaaaaaaa');
    expect(oneLineMessage('one\ntwo')).toBe('one two');
  });
});
