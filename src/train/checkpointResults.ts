/**
 * Strength measured at training checkpoints (the learning curve): one row per checkpoint and measurement, kept in
 * the trained database's table `checkpoint_results`, which `morph report` shows. Written by the curve recipe
 * (training/record-checkpoint.ts) from `morph match --json` and `morph agree --json`.
 */
import type { MorphDatabase } from '../store/database.ts';

export interface CheckpointResult {
  /** Games the checkpoint had learned from. */
  trainedGames: number;
  /** 'match' against an opponent, or 'quality' on a labelled position set. */
  measure: 'match' | 'quality';
  /** The opponent's spec, or the position file. */
  against: string;
  /** Games played, or positions judged. */
  samples: number;
  /** Match: score fraction and Elo with its 95% interval (game pairs). */
  score?: number;
  elo?: number;
  eloLow?: number;
  eloHigh?: number;
  /** Quality: mean win-chance loss and the blunder share, each with its 95% interval, and top-4 agreement. */
  meanLoss?: number;
  lossLow?: number;
  lossHigh?: number;
  blunder?: number;
  blunderLow?: number;
  blunderHigh?: number;
  top4?: number;
  checkpoint: string;
}

const COLUMNS = [
  'trained_games', 'measure', 'against', 'samples', 'score', 'elo', 'elo_low', 'elo_high', 'mean_loss', 'loss_low',
  'loss_high', 'blunder', 'blunder_low', 'blunder_high', 'top4', 'checkpoint', 'measured_at',
] as const;

export function recordCheckpointResult(db: MorphDatabase, result: CheckpointResult): void {
  const r = result;
  const values = [
    r.trainedGames, r.measure, r.against, r.samples, r.score, r.elo, r.eloLow, r.eloHigh, r.meanLoss, r.lossLow,
    r.lossHigh, r.blunder, r.blunderLow, r.blunderHigh, r.top4, r.checkpoint, new Date().toISOString(),
  ].map((value) => value ?? null);
  db.prepare(`INSERT INTO checkpoint_results (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`).run(...values);
}

export function readCheckpointResults(db: MorphDatabase): CheckpointResult[] {
  // A database read-only at an older schema (before migration 003) has no such table yet.
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'checkpoint_results'").get();
  if (!exists) return [];
  const rows = db.prepare('SELECT * FROM checkpoint_results ORDER BY trained_games, rowid').all() as Record<string, unknown>[];
  const opt = (value: unknown) => (value === null ? undefined : (value as number));
  return rows.map((row) => ({
    trainedGames: row.trained_games as number, measure: row.measure as 'match' | 'quality', against: row.against as string,
    samples: row.samples as number, score: opt(row.score), elo: opt(row.elo), eloLow: opt(row.elo_low), eloHigh: opt(row.elo_high),
    meanLoss: opt(row.mean_loss), lossLow: opt(row.loss_low), lossHigh: opt(row.loss_high), blunder: opt(row.blunder),
    blunderLow: opt(row.blunder_low), blunderHigh: opt(row.blunder_high), top4: opt(row.top4), checkpoint: row.checkpoint as string,
  }));
}
