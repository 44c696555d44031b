/**
 * How long a GUI waits for `morph uci` (the command README's "Morph in a chess GUI" documents: node running
 * bin/morph.js, the compiled CLI): from the process's start to `uciok`, to `readyok` (the database opened) and to
 * the first `bestmove` of a `go movetime 500` from the start position. The median of several starts, since one
 * start on a shared machine says little; the load average is noted beside it.
 *   node bin/run-ts.js bench/uciStartup.bench.ts --db PATH [--runs N] [--json]
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { type Figure, percentile } from './figures.ts';
import { MORPH_BIN } from './processMemory.ts';

export interface StartupTimes {
  uciokMs: number;
  /** The processor time the process had used by `uciok` (user and system; Linux only, NaN elsewhere): what the wall time would be on an idle core. */
  uciokCpuMs: number;
  readyokMs: number;
  firstMoveMs: number;
}

/** The processor time (user and system) a process has used so far, from /proc; NaN where there is none. */
function processorMs(pid: number): number {
  try {
    // Fields 14 and 15 after the command name (which may hold spaces, so counted from its closing parenthesis).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** Linux's USER_HZ, the unit of /proc/PID/stat's times (100 on every common configuration). */
const CLOCK_TICKS_PER_SECOND = 100;

/** One start of `node bin/morph.js uci --db database`: milliseconds from spawn to each answer. */
export function timeOneStart(database: string, extraArgs: readonly string[] = []): Promise<StartupTimes> {
  const started = performance.now();
  const engine = spawn(process.execPath, [MORPH_BIN, 'uci', '--db', database, ...extraArgs], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise<StartupTimes>((done, fail) => {
    const times: Partial<StartupTimes> = {};
    let pending = '';
    engine.on('error', fail);
    engine.on('exit', (code) => {
      if (times.firstMoveMs === undefined) fail(new Error(`morph uci exited (code ${code}) before its first move`));
    });
    engine.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
        const line = pending.slice(0, end).trim();
        pending = pending.slice(end + 1);
        const now = performance.now() - started;
        if (line === 'uciok') {
          times.uciokMs = now;
          times.uciokCpuMs = processorMs(engine.pid!);
          engine.stdin.write('isready\n');
        } else if (line === 'readyok') {
          times.readyokMs = now;
          engine.stdin.write('position startpos\ngo movetime 500\n');
        } else if (line.startsWith('bestmove')) {
          times.firstMoveMs = now;
          engine.stdin.write('quit\n');
          done(times as StartupTimes);
        }
      }
    });
    engine.stdin.write('uci\n');
  });
}

/** The medians of `runs` starts, one after another (after one untimed start that warms the file cache). */
export async function benchUciStartup(database: string, runs = 9): Promise<Figure[]> {
  await timeOneStart(database);
  const load = loadavg()[0];
  const samples: StartupTimes[] = [];
  for (let i = 0; i < runs; i++) samples.push(await timeOneStart(database));
  const median = (pick: (times: StartupTimes) => number) => Math.round(percentile(samples.map(pick).sort((a, b) => a - b), 0.5));
  const note = `median of ${runs} starts; load average ${load.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after`;
  return [
    { name: 'morph uci: start to uciok', value: median((t) => t.uciokMs), unit: 'ms', note },
    { name: 'morph uci: processor time to uciok', value: median((t) => t.uciokCpuMs), unit: 'ms', note },
    { name: 'morph uci: start to readyok', value: median((t) => t.readyokMs), unit: 'ms', note },
    { name: 'morph uci: start to the first bestmove (go movetime 500)', value: median((t) => t.firstMoveMs), unit: 'ms', note },
    { name: 'morph uci: the first go (readyok to bestmove)', value: median((t) => t.firstMoveMs - t.readyokMs), unit: 'ms', note },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argument = (name: string) => {
    const at = process.argv.indexOf(name);
    return at > 0 ? process.argv[at + 1] : undefined;
  };
  const database = argument('--db');
  const runs = Number(argument('--runs') ?? 9);
  if (database === undefined || !(Number.isInteger(runs) && runs > 0)) {
    console.error('usage: node bin/run-ts.js bench/uciStartup.bench.ts --db PATH [--runs N] [--json]');
    process.exit(2);
  }
  const figures = await benchUciStartup(database, runs);
  if (process.argv.includes('--json')) console.log(JSON.stringify(figures));
  else for (const figure of figures) console.log(`${figure.name}: ${figure.value} ${figure.unit} (${figure.note})`);
}
