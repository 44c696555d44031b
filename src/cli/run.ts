/**
 * How every command reports failure: a MorphError becomes one line on stderr and its exit code; SQLite's and the
 * file system's reports of a full disk, a read-only or damaged file become one line and exit code 2; anything
 * else is a bug, reported as one line too (the stack only with MORPH_DEBUG=1). Every line is escaped and cut to
 * a bounded length, since messages may repeat outside input.
 */
import { MorphError, BAD_INPUT, fileProblem, oneLineMessage } from '../util/errors.ts';

export function reportError(error: unknown): number {
  const known = error instanceof MorphError ? error : environmentError(error);
  if (known) {
    process.stderr.write(`morph: ${oneLineMessage(known.message)}\n`);
    return known.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`morph: internal error: ${oneLineMessage(message.split('\n')[0])}\n`);
  if (process.env.MORPH_DEBUG) process.stderr.write(`${(error as Error)?.stack ?? ''}\n`);
  return 1;
}

/** What SQLite or the operating system said about the disk or a file, as a MorphError; undefined for a bug. */
function environmentError(error: unknown): MorphError | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, path } = error as NodeJS.ErrnoException;
  if (typeof code !== 'string') return undefined;
  if (code === 'SQLITE_FULL') return new MorphError(`the disk is full: ${error.message}`, BAD_INPUT);
  if (code.startsWith('SQLITE_READONLY')) return new MorphError(`the database is read-only: ${error.message}`, BAD_INPUT);
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    return new MorphError(`the database is corrupt: ${error.message}`, BAD_INPUT);
  }
  const problem = fileProblem(error);
  if (problem !== undefined && (error as NodeJS.ErrnoException).syscall !== undefined) {
    return new MorphError(`cannot use ${path ?? 'a file'}: ${problem}`, BAD_INPUT);
  }
  return undefined;
}

/** Wraps a command action so that errors exit cleanly with the right code. */
export function action<A extends unknown[]>(fn: (...args: A) => Promise<void> | void): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (error) {
      process.exitCode = reportError(error);
    }
  };
}

/** Writes one line to stdout. */
export function printLine(text: string): void {
  process.stdout.write(text + '\n');
}
