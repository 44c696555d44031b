/**
 * GNU Chess (Debian package `gnuchess`) in UCI mode: the opponent Morph's original papers trained against.
 * It is optional, so a missing binary is a one-line user error rather than a failed spawn mid-run.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { badInput } from '../util/errors.ts';
import type { EngineTimeouts } from './uciClient.ts';
import { UciEnginePlayer } from './uciEnginePlayer.ts';

/** Debian installs games in /usr/games, which is often missing from PATH. */
export const GAME_DIRS = ['/usr/games', '/usr/local/games'];

/** An executable named `command` (a path, or a name looked up in PATH), or null. */
export function findExecutable(command: string, extraDirs: readonly string[] = []): string | null {
  const candidates = command.includes('/')
    ? [command]
    : [...(process.env.PATH ?? '').split(delimiter).filter((dir) => dir !== ''), ...extraDirs].map((dir) =>
        join(dir, command),
      );
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here; try the next one
    }
  }
  return null;
}

export function gnuchessPath(): string | null {
  return findExecutable('gnuchess', GAME_DIRS);
}

export function createGnuchessPlayer(
  name: string,
  depth: number,
  timeouts: EngineTimeouts = {},
): UciEnginePlayer {
  const command = gnuchessPath();
  if (command === null) throw badInput('gnuchess is not installed: run `apt-get install -y gnuchess`');
  return new UciEnginePlayer({ name, command, args: ['--uci'], go: { depth }, ...timeouts });
}
