/** The runs table: one row per `morph train` run, counting the games recorded into it. */
import type { MorphDatabase } from './database.ts';
import { stmt } from './statements.ts';

export interface RunStart {
  opponent: string;
  seed?: number | null;
  /** Stored as JSON (a string is stored as it is). */
  config?: unknown;
  /** The number of the run's first game (games_played + 1 when it starts). */
  firstGame: number;
  startedAt?: string;
}

/** Inserts a runs row and returns its id; recordGame with this runId counts games into it. */
export function startRun(db: MorphDatabase, run: RunStart): number {
  const config = run.config === undefined || typeof run.config === 'string' ? run.config : JSON.stringify(run.config);
  const info = stmt(
    db,
    'INSERT INTO runs (started_at, opponent, seed, config, first_game, games) VALUES (?, ?, ?, ?, ?, 0)',
  ).run(run.startedAt ?? new Date().toISOString(), run.opponent, run.seed ?? null, config ?? null, run.firstGame);
  return Number(info.lastInsertRowid);
}

export interface RunFinish {
  /** e.g. games-done, interrupted, time-limit. */
  stopReason: string;
  finishedAt?: string;
  /** Overrides the count recordGame kept. */
  games?: number;
}

export function finishRun(db: MorphDatabase, runId: number, finish: RunFinish): void {
  const info = stmt(
    db,
    'UPDATE runs SET finished_at = ?, stop_reason = ?, games = coalesce(?, games) WHERE id = ?',
  ).run(finish.finishedAt ?? new Date().toISOString(), finish.stopReason, finish.games ?? null, runId);
  if (info.changes === 0) throw new RangeError(`no run ${runId}`);
}
