/**
 * Files written whole: opponent models and Morph's own move policy. Such a file is made under a temporary name
 * beside its target and renamed into place only when complete, so the previous file stays intact (and readers
 * that have it open keep reading it) until the new one is whole, and a failed or killed writer leaves it as it
 * was.
 *
 * One writer at a time: a writer holds the target's WriterLock (`<file>-lock`, the value databases' mechanism)
 * from before it looks at the target until the rename. A second writer of the same file is refused in one line
 * instead of silently replacing the first one's result (or writing over a file it was told must not exist).
 *
 * A writer killed mid-write (kill -9) leaves its temporary file behind, and a model can be a gigabyte. The
 * temporary's name carries the writer's process id, so the next writer of the same file removes the ones whose
 * process has ended, and never one whose process is alive.
 */
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { badInput } from '../util/errors.ts';
import { WriterLock } from './writerLock.ts';

/** The temporary a process writes `path` under. */
export function temporaryFileOf(path: string, pid = process.pid): string {
  return `${path}.building-${pid}`;
}

/**
 * What may stand after a target's name in a leftover: `.building-PID`, `.partial-PID` (the name used before
 * 2026-11-23, also nested as `.building-PID.partial-PID`), and SQLite's side files of either, should a temporary
 * ever be written through SQLite rather than whole.
 */
const LEFTOVER_SUFFIX = /^\.(?:building|partial)-(\d+)(?:\.partial-\d+)?(?:-wal|-shm|-journal)?$/;

/** Whether process `pid` exists. EPERM means it does (another user's); only ESRCH says it has ended. */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Removes the temporaries of `path` left by writers whose process has ended; returns the files removed. Best
 * effort: a directory that cannot be listed or a file that cannot be removed is left as it is.
 */
export function removeLeftoverTemporaries(path: string): string[] {
  const directory = dirname(path);
  const target = basename(path);
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(target)) continue;
    const pid = LEFTOVER_SUFFIX.exec(name.slice(target.length))?.[1];
    if (pid === undefined || Number(pid) === process.pid || processIsAlive(Number(pid))) continue;
    const file = join(directory, name);
    try {
      rmSync(file, { force: true });
      removed.push(file);
    } catch {
      // Not ours to remove (permissions): left for its owner.
    }
  }
  return removed;
}

/** Refuses, in one line (exit 2), a path that exists or cannot be created. */
export function checkNewFilePath(path: string): void {
  if (existsSync(path)) throw badInput(`${path} already exists: choose a new file (or remove it)`);
  if (!existsSync(dirname(path))) throw badInput(`cannot create ${path}: no directory ${dirname(path)}`);
}

export interface WholeFileOptions {
  /** Whether an existing file is replaced; otherwise it is refused (exit 2). */
  replace: boolean;
  /** The commands that write such files, named when a second writer is refused. */
  writers: string;
}

/**
 * Makes `path` whole: `write(temporary)` writes the complete file under a temporary name, which then replaces
 * `path`. Holds the one-writer lock throughout, removes leftovers of ended writers first, and its own temporary
 * whatever happens. Returns what `write` returned.
 */
export function writeWholeFile<T>(path: string, options: WholeFileOptions, write: (temporary: string) => T): T {
  if (!existsSync(dirname(path))) throw badInput(`cannot create ${path}: no directory ${dirname(path)}`);
  const lock = WriterLock.acquire(path, options.writers);
  const temporary = temporaryFileOf(path);
  try {
    if (!options.replace) checkNewFilePath(path);
    removeLeftoverTemporaries(path);
    rmSync(temporary, { force: true });
    const result = write(temporary);
    renameSync(temporary, path);
    return result;
  } finally {
    rmSync(temporary, { force: true });
    lock.release();
  }
}
