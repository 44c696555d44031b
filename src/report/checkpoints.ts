/**
 * LEARNING-CURVE CHECKPOINTS (read only when present). `morph train --checkpoint-every N` keeps copies of the
 * database in DB.checkpoints/ beside it, and training/recipes/curve.sh measures each copy into
 * DB.checkpoints/curve.jsonl: one JSON line per checkpoint and opponent (a match over varied openings: W/D/L,
 * score, Elo with its 95% interval) and one per move-agreement run (top-1 and top-4 shares). The report shows
 * those lines; without the file it says how to make one.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface CheckpointMatch {
  trainedGames: number;
  opponent: string;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  score: number;
  elo: number;
  eloLow: number;
  eloHigh: number;
}

export interface CheckpointAgreement {
  trainedGames: number;
  top1: number;
  top4: number;
  top1Interval: [number, number] | null;
  top4Interval: [number, number] | null;
}

export interface Checkpoints {
  /** The curve file read (null when there is none). */
  file: string | null;
  matches: CheckpointMatch[];
  agreement: CheckpointAgreement[];
  /** Lines that were not valid JSON or had neither form. */
  skipped: number;
}

/** Where training/recipes/curve.sh writes the curve of database `dbPath`. */
export function curveFile(dbPath: string): string {
  return join(dirname(dbPath), `${basename(dbPath).replace(/\.db$/, '')}.checkpoints`, 'curve.jsonl');
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const interval = (value: unknown): [number, number] | null =>
  Array.isArray(value) && value.length === 2 && value.every(isNumber) ? [value[0], value[1]] : null;

export function readCheckpoints(dbPath: string): Checkpoints {
  const file = curveFile(dbPath);
  const result: Checkpoints = { file: null, matches: [], agreement: [], skipped: 0 };
  if (!existsSync(file)) return result;
  result.file = file;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let row: Record<string, unknown>;
    try {
      row = JSON.parse(line) as Record<string, unknown>;
    } catch {
      result.skipped++;
      continue;
    }
    const trainedGames = row.trainedGames;
    if (!isNumber(trainedGames)) result.skipped++;
    else if (row.ranker === 'agree' && isNumber(row.top1) && isNumber(row.top4)) {
      const intervals = (row.intervals ?? {}) as Record<string, unknown>;
      result.agreement.push({ trainedGames, top1: row.top1, top4: row.top4, top1Interval: interval(intervals.top1), top4Interval: interval(intervals.top4) });
    } else if (typeof row.opponent === 'string' && [row.games, row.wins, row.draws, row.losses, row.score, row.elo, row.eloLow, row.eloHigh].every(isNumber)) {
      const n = (key: string) => row[key] as number;
      result.matches.push({
        trainedGames, opponent: row.opponent, games: n('games'), wins: n('wins'), draws: n('draws'), losses: n('losses'),
        score: n('score'), elo: n('elo'), eloLow: n('eloLow'), eloHigh: n('eloHigh'),
      });
    } else result.skipped++;
  }
  const byGames = (a: { trainedGames: number }, b: { trainedGames: number }) => a.trainedGames - b.trainedGames;
  result.matches.sort((a, b) => byGames(a, b) || a.opponent.localeCompare(b.opponent));
  result.agreement.sort(byGames);
  return result;
}
