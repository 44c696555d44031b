/** Running the real `morph` command in a child process, as a user would. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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
