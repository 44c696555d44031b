/**
 * The report's account of each training run: whom it played, with which settings, how many games in how many
 * hours, and how Morph scored (with the Elo difference and its 95% interval, as `morph match` gives it).
 */
import type { MorphDatabase } from '../store/database.ts';
import { eloEstimate, type EloEstimate } from '../match/elo.ts';
import { flatten } from '../inspect/summary.ts';

export interface RunRow {
  id: number;
  opponent: string;
  seed: number | null;
  startedAt: string | null;
  /** When the run stopped, or its last game's end when it is still running (or was killed). */
  endedAt: string | null;
  stopReason: string | null;
  games: number;
  /** Wall-clock hours from the run's start to its end (or last game); null when a time is missing. */
  hours: number | null;
  gamesPerHour: number | null;
  wins: number;
  draws: number;
  losses: number;
  /** Null for a run without games. */
  elo: EloEstimate | null;
  /** The settings the run was started with, as "name value" pairs; nested ones as "regression.perGame". */
  settings: [string, string][];
}

function parseSettings(text: string | null): [string, string][] {
  if (!text) return [];
  try {
    return flatten(JSON.parse(text)).filter(([name]) => name !== '');
  } catch {
    return [['unreadable', text]];
  }
}

export function hoursBetween(start: string | null, end: string | null): number | null {
  if (!start || !end) return null;
  const ms = Date.parse(end) - Date.parse(start);
  return Number.isFinite(ms) && ms >= 0 ? ms / 3_600_000 : null;
}

export function readRuns(db: MorphDatabase): RunRow[] {
  const rows = db
    .prepare(
      `SELECT r.id, r.opponent, r.seed, r.started_at, r.finished_at, r.stop_reason, r.config,
              count(g.id) AS games,
              coalesce(sum(g.morph_score = 1), 0) AS wins,
              coalesce(sum(g.morph_score = 0.5), 0) AS draws,
              coalesce(sum(g.morph_score = 0), 0) AS losses,
              max(g.finished_at) AS last_game_at
       FROM runs AS r LEFT JOIN games AS g ON g.run_id = r.id
       GROUP BY r.id ORDER BY r.id`,
    )
    .all() as {
    id: number; opponent: string | null; seed: number | null; started_at: string | null; finished_at: string | null;
    stop_reason: string | null; config: string | null; games: number; wins: number; draws: number; losses: number;
    last_game_at: string | null;
  }[];
  return rows.map((row) => {
    const endedAt = row.finished_at ?? row.last_game_at;
    const hours = hoursBetween(row.started_at, endedAt);
    return {
      id: row.id,
      opponent: row.opponent ?? '?',
      seed: row.seed,
      startedAt: row.started_at,
      endedAt,
      stopReason: row.stop_reason,
      games: row.games,
      hours,
      gamesPerHour: hours ? row.games / hours : null,
      wins: row.wins,
      draws: row.draws,
      losses: row.losses,
      elo: row.games ? eloEstimate({ wins: row.wins, draws: row.draws, losses: row.losses }) : null,
      settings: parseSettings(row.config),
    };
  });
}
