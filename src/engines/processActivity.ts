/**
 * Whether a process (with its children) is doing anything: the CPU time it has used so far, read from Linux's
 * /proc. An engine that owes an answer and uses no CPU is waiting for nothing (hung); one that computes is only
 * slow. Elsewhere there is no /proc, and activity is unknown (null): only an engine's output tells then.
 */
import { readFileSync, readdirSync } from 'node:fs';

/** A reading that changes whenever the process tree ran: its CPU clock ticks, or -1 while it waits on a disk. */
export function processTreeActivity(pid: number): number | null {
  let total = 0;
  const seen = new Set<number>();
  const visit = (id: number): boolean => {
    if (seen.has(id)) return true;
    seen.add(id);
    const stat = readProc(`/proc/${id}/stat`);
    if (stat === null) return false;
    // Fields after the command name, which is in parentheses and may hold spaces: state is the first,
    // utime and stime the 12th and 13th (proc(5) fields 3, 14 and 15).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'D') total = -Infinity; // uninterruptible I/O: busy, if not on the CPU
    total += Number(fields[11]) + Number(fields[12]);
    for (const child of childrenOf(id)) visit(child);
    return true;
  };
  if (!visit(pid)) return null;
  return Number.isFinite(total) ? total : -1 - Date.now(); // a disk wait reads as new activity every time
}

function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((task) =>
    (readProc(`/proc/${pid}/task/${task}/children`) ?? '')
      .split(' ')
      .filter((word) => word !== '')
      .map(Number),
  );
}

function readProc(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
