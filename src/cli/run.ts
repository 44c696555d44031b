/**
 * How every command reports failure: a MorphError becomes one line on stderr and its exit code; anything else
 * is a bug, reported as one line too (the stack only with MORPH_DEBUG=1).
 */
import { MorphError } from '../util/errors.ts';

export function reportError(error: unknown): number {
  if (error instanceof MorphError) {
    process.stderr.write(`morph: ${error.message}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`morph: internal error: ${message.split('\n')[0]}\n`);
  if (process.env.MORPH_DEBUG) process.stderr.write(`${(error as Error)?.stack ?? ''}\n`);
  return 1;
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
