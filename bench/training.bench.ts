/**
 * Issue-6 figure: training games per hour against stockfish:skill=0,depth=1 with a database of about 10k
 * patterns, and where the time goes (Morph's moves, the engine, learning). With databases grown by training,
 * issue 13's: the rate at 100k patterns as a share of the rate at 10k (benchTrainingAtScale).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { DEFAULT_CONFIG, type ConfigPatch } from '../src/learn/config.ts';
import { openMorphDatabase } from '../src/store/database.ts';
import { countPatterns } from '../src/store/patternRows.ts';
import { runTraining, type TrainingOptions, type TrainingSummary } from '../src/train/harness.ts';
import type { Figure } from './figures.ts';
import { hierarchyDatabase } from './hierarchy.bench.ts';
import { MORPH_BIN } from './processMemory.ts';

/** `games` of training against the embedded Stockfish on a throwaway copy of `db` (the original is never changed). */
async function trainOnCopy(db: string, games: number, options: Partial<TrainingOptions> = {}): Promise<TrainingSummary> {
  const dir = mkdtempSync(join(tmpdir(), 'morph-bench-train-'));
  try {
    const copy = join(dir, 'train.db');
    copyFileSync(db, copy);
    return await runTraining({
      db: copy,
      games,
      opponent: 'stockfish:skill=0,depth=1',
      seed: 1,
      maxPlies: 300,
      progress: 'none',
      maxFailures: 3,
      ...options,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchTraining(games = 40): Promise<Figure[]> {
  const summary = await trainOnCopy(hierarchyDatabase(10_000), games);
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
}

/** The creation rates of a new database, for runs on a database grown at raised ones (grow-100k.sh saves those). */
const DEFAULT_CREATION_RATES: ConfigPatch = {
  subgraphsPerGame: DEFAULT_CONFIG.subgraphsPerGame,
  regression: { perGame: DEFAULT_CONFIG.regression.perGame },
  generalisation: { perGame: DEFAULT_CONFIG.generalisation.perGame },
  specialisation: { perGame: DEFAULT_CONFIG.specialisation.perGame },
};

/** Training on a copy of `db` as training/recipes/rate-at-scale.sh runs it: games/hour and where the time went. */
async function trainingRate(db: string, games: number): Promise<{ gamesPerHour: number; patterns: number; note: string }> {
  const summary = await trainOnCopy(db, games, { seed: 7, jobs: 1, config: DEFAULT_CREATION_RATES });
  const seconds = (s: number) => `${(s / summary.games).toFixed(2)}`;
  return {
    gamesPerHour: Math.round((summary.games / summary.seconds) * 3600),
    patterns: summary.patterns,
    note: `s a game: Morph ${seconds(summary.time.morph)}, engine ${seconds(summary.time.opponent)}, learning ${seconds(summary.time.learning)}; ${summary.patterns} patterns after`,
  };
}

/**
 * Issue 13's training target: games/hour on a 100k-pattern database grown by training, as a share of the rate
 * on a 10k one, both trained in this run the same way (one job, the default partner, seed 7, the default
 * creation rates, the databases' own training search, no policy rebuild).
 */
export async function benchTrainingAtScale(large: string, small: string, games = 100): Promise<Figure[]> {
  const atSmall = await trainingRate(small, games);
  const atLarge = await trainingRate(large, games);
  return [
    { name: 'training games/hour, trained 10k database', value: atSmall.gamesPerHour, unit: 'games/h', note: atSmall.note },
    { name: 'training games/hour, trained 100k database', value: atLarge.gamesPerHour, unit: 'games/h', note: atLarge.note },
    {
      name: 'training games/hour at 100k as a share of 10k',
      value: Number((atLarge.gamesPerHour / atSmall.gamesPerHour).toFixed(3)),
      unit: 'x',
      target: '>= 0.70',
      note: `${games} games each, this run`,
    },
  ];
}

/** The 10k-pattern database benchTrainingAtScale compares with, grown once and cached (about 2,000 games). */
export const TRAINED_10K_DB = resolve(new URL('.', import.meta.url).pathname, '.cache', 'trained-10k.db');

function patternCount(path: string): number {
  if (!existsSync(path)) return 0;
  const db = openMorphDatabase(path, { readonly: true, quickCheck: false });
  try {
    return countPatterns(db);
  } finally {
    db.close();
  }
}

/**
 * Grows TRAINED_10K_DB with the defaults (`morph train --seed 48 --no-policy --jobs 1`, 250 games at a time) until
 * it holds 10,000 patterns: about four minutes of one core (2026-12-04: 10,027 patterns after 2,000 games).
 * Resumable, as training is.
 */
export function trained10kDatabase(): string {
  mkdirSync(dirname(TRAINED_10K_DB), { recursive: true });
  while (patternCount(TRAINED_10K_DB) < 10_000) {
    execFileSync(process.execPath, [MORPH_BIN, 'train', '--db', TRAINED_10K_DB, '--games', '250', '--seed', '48', '--no-policy',
      '--jobs', '1', '--progress', 'none', '--engine-timeout', '60000'], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return TRAINED_10K_DB;
}
