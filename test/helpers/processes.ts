/** Process ids for tests of what a killed writer leaves behind: one whose process has ended, one still running. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { expect } from 'vitest';

/** The id of a process that has run and ended (checked: signalling it fails with ESRCH). */
export function endedProcessId(): number {
  const pid = spawnSync(process.execPath, ['-e', '']).pid!;
  let code: string | undefined;
  try {
    process.kill(pid, 0);
  } catch (error) {
    code = (error as NodeJS.ErrnoException).code;
  }
  expect(code, `process ${pid} should have ended`).toBe('ESRCH');
  return pid;
}

/** A process that runs until killed; the caller kills it. */
export function runningProcess(): ChildProcess {
  return spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
}
