/**
 * Checking, before anything is written, that a file a command will append to later (a PGN or JSON log named on
 * the command line) can be written: a run that would fail at its first game's log line is refused at the start
 * instead, with nothing written. The check creates nothing: it asks the file system, it does not try. The same for a
 * folder a command will create and fill later (train's checkpoints).
 */
import { accessSync, constants, lstatSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { badInput, fileProblem } from './errors.ts';

/** Refuses in one line (exit code 2) a path that cannot be appended to: `cannot write PATH: why`. */
export function checkAppendable(path: string): void {
  const problem = whyNotAppendable(path);
  if (problem !== undefined) throw badInput(`cannot write ${path}: ${problem}`);
}

/**
 * Refuses in one line (exit code 2) a folder that cannot be created (with any missing parents, as mkdir -p would)
 * or written into: `cannot write WHAT in DIR: why`.
 */
export function checkWritableFolder(dir: string, what: string): void {
  const problem = whyNoFolder(dir);
  if (problem !== undefined) throw badInput(`cannot write ${what} in ${dir}: ${problem}`);
}

function whyNoFolder(dir: string): string | undefined {
  // The nearest part of the path that exists decides: a folder to write into or to create the rest in.
  let existing = dir;
  for (;;) {
    try {
      statSync(existing);
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return problemOf(error);
      if (isSymbolicLink(existing)) return `${existing} is a symbolic link to nothing`;
      if (dirname(existing) === existing) return problemOf(error);
      existing = dirname(existing);
    }
  }
  return whyNoNewFile(existing);
}

function isSymbolicLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function whyNotAppendable(path: string): string | undefined {
  let stats;
  try {
    stats = statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return problemOf(error);
    return whyNoNewFile(dirname(path));
  }
  if (stats.isDirectory()) return 'it is a directory';
  try {
    accessSync(path, constants.W_OK);
  } catch (error) {
    return problemOf(error);
  }
  return undefined;
}

/** Why no file can be created in `dir`, or undefined when one can. */
function whyNoNewFile(dir: string): string | undefined {
  let stats;
  try {
    stats = statSync(dir);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? `no directory ${dir}` : problemOf(error);
  }
  if (!stats.isDirectory()) return `${dir} is not a directory`;
  try {
    accessSync(dir, constants.W_OK);
  } catch (error) {
    return `directory ${dir}: ${problemOf(error)}`;
  }
  return undefined;
}

function problemOf(error: unknown): string {
  return fileProblem(error) ?? (error as Error).message;
}
