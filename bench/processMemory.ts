/**
 * The resident memory of Morph's own process: `morph uci` (the built CLI, as a GUI or `morph match` runs it) on a
 * database, after it has chosen a move in each of some positions. The bench's in-process figures also count the
 * bench itself and the TypeScript loader it runs under (about 50 MB here), which no user's process carries.
 * Linux only (it reads /proc); undefined elsewhere.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SearchSpec } from '../src/search/extensions.ts';

/** The built CLI, as a user runs it. */
export const MORPH_BIN = resolve(new URL('.', import.meta.url).pathname, '..', 'bin', 'morph.js');

export interface ProcessMemory {
  /** VmRSS once the engine answered `isready` (the database loaded), and after the moves, in MB. */
  afterLoadMB: number;
  afterMovesMB: number;
  /** VmHWM: the most it was resident at any moment, in MB. */
  peakMB: number;
  msPerMove: number;
}

function statusMB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1000 : NaN;
}

export async function morphProcessMemory(database: string, fens: readonly string[], search: SearchSpec): Promise<ProcessMemory | undefined> {
  if (!existsSync('/proc/self/status')) return undefined;
  const engine = spawn(process.execPath, [MORPH_BIN, 'uci', '--db', database, '--search', search, '--no-policy'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const pid = engine.pid!;
  return await new Promise<ProcessMemory>((done, fail) => {
    let pending = '';
    let played = 0;
    let afterLoadMB = 0;
    let started = 0;
    const next = () => engine.stdin.write(`position fen ${fens[played]}\ngo depth 1\n`);
    engine.on('error', fail);
    engine.on('exit', (code) => {
      if (played < fens.length) fail(new Error(`morph uci exited (code ${code}) after ${played} moves`));
    });
    engine.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
        const line = pending.slice(0, end).trim();
        pending = pending.slice(end + 1);
        if (line === 'readyok') {
          afterLoadMB = statusMB(pid, 'VmRSS');
          started = performance.now();
          next();
        } else if (line.startsWith('bestmove')) {
          played++;
          if (played < fens.length) next();
          else {
            const figures = { afterLoadMB, afterMovesMB: statusMB(pid, 'VmRSS'), peakMB: statusMB(pid, 'VmHWM'), msPerMove: (performance.now() - started) / played };
            engine.stdin.write('quit\n');
            done(figures);
          }
        }
      }
    });
    engine.stdin.write('uci\nisready\n');
  });
}
