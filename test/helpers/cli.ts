/** Running the real `morph` command in a child process, as a user would. */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

export const MORPH_BIN = fileURLToPath(new URL('../../bin/morph.js', import.meta.url));

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runMorph(args: string[], env: Record<string, string> = {}): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MORPH_BIN, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface FinishedProcess extends CommandResult {
  signal: NodeJS.Signals | null;
}

/**
 * Starts `morph ARGS` without waiting, collecting its output; `detached` puts it in a process group of its own,
 * as a terminal would (so a test can signal the group).
 */
export function startMorph(args: string[], detached = false): { child: ChildProcess; done: Promise<FinishedProcess> } {
  const child = spawn(process.execPath, [MORPH_BIN, ...args], { detached });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const done = new Promise<FinishedProcess>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

/**
 * For a test file that starts long-running commands: after its tests, kills every process still running that was
 * passed through the returned function, and removes `tempDir`. Returns what it is given.
 */
export function killedAfterAll(tempDir: string): <T extends { child: ChildProcess; done: Promise<unknown> }>(started: T) => T {
  const running = new Set<ChildProcess>();
  afterAll(() => {
    for (const child of running) {
      try {
        process.kill(child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    rmSync(tempDir, { recursive: true, force: true });
  });
  return (started) => {
    running.add(started.child);
    void started.done.then(() => running.delete(started.child));
    return started;
  };
}
