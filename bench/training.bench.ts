/**
 * Issue-6 figure: training games per hour against stockfish:skill=0,depth=1 with a database of about 10k
 * patterns, and where the time goes (Morph's moves, the engine, learning).
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTraining } from '../src/train/harness.ts';
import type { Figure } from './figures.ts';
import { hierarchyDatabase } from './hierarchy.bench.ts';

export async function benchTraining(games = 40): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'morph-bench-train-'));
  try {
    const db = join(dir, 'train.db');
    copyFileSync(hierarchyDatabase(10_000), db);
    const summary = await runTraining({
      db,
      games,
      opponent: 'stockfish:skill=0,depth=1',
      seed: 1,
      maxPlies: 300,
      progress: 'none',
      maxFailures: 3,
    });
    const total = summary.seconds;
    const share = (part: number) => `${Math.round((100 * part) / total)}%`;
    return [
      {
        name: 'training games/hour vs stockfish:skill=0,depth=1 (10k patterns)',
        value: Math.round((summary.games / total) * 3600),
        unit: 'games/h',
        target: '>= 3600',
        note: `time: Morph ${share(summary.time.morph)}, engine ${share(summary.time.opponent)}, learning ${share(summary.time.learning)}`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
