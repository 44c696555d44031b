/**
 * The numbers behind the report's charts, one value per game: Morph's score and final material (per game, as a
 * trailing moving average and as the cumulative average the paper plots: "traditional chess points per game"),
 * and the pattern count after each game.
 */
import type { MorphDatabase } from '../store/database.ts';

export interface GameRow {
  /** 1-based position in the games table (its id order). */
  game: number;
  score: number;
  finalMaterial: number | null;
  patterns: number | null;
}

export interface SeriesPoint {
  game: number;
  value: number;
}

export interface LearningSeries {
  games: number;
  /** Trailing window of the moving averages. */
  window: number;
  scoreMoving: SeriesPoint[];
  scoreCumulative: SeriesPoint[];
  materialMoving: SeriesPoint[];
  materialCumulative: SeriesPoint[];
  patterns: SeriesPoint[];
}

/** Charts keep at most this many points per series: beyond it a path grows large and shows nothing more. */
export const MAX_POINTS_PER_SERIES = 1500;

export function readGameRows(db: MorphDatabase): GameRow[] {
  const rows = db.prepare('SELECT morph_score, final_material, patterns FROM games ORDER BY id').raw().all() as [
    number | null,
    number | null,
    number | null,
  ][];
  return rows.map(([score, finalMaterial, patterns], i) => ({ game: i + 1, score: score ?? 0.5, finalMaterial, patterns }));
}

/** A moving-average window that smooths without hiding the trend: about a twentieth of the run, 5..100 games. */
export function movingWindow(games: number): number {
  return Math.min(100, Math.max(5, Math.round(games / 20)));
}

/** Trailing moving average (shorter at the start) and cumulative average of the defined values. */
function averages(values: { game: number; value: number }[], window: number): { moving: SeriesPoint[]; cumulative: SeriesPoint[] } {
  const moving: SeriesPoint[] = [];
  const cumulative: SeriesPoint[] = [];
  let total = 0;
  let windowTotal = 0;
  values.forEach((point, i) => {
    total += point.value;
    windowTotal += point.value;
    if (i >= window) windowTotal -= values[i - window].value;
    moving.push({ game: point.game, value: windowTotal / Math.min(i + 1, window) });
    cumulative.push({ game: point.game, value: total / (i + 1) });
  });
  return { moving, cumulative };
}

/** Evenly spaced points (always the first and the last) when a series is longer than `max`. */
export function thin<T>(points: T[], max = MAX_POINTS_PER_SERIES): T[] {
  if (points.length <= max) return points;
  const kept: T[] = [];
  for (let i = 0; i < max; i++) kept.push(points[Math.round((i * (points.length - 1)) / (max - 1))]);
  return kept;
}

export function learningSeries(rows: readonly GameRow[]): LearningSeries {
  const window = movingWindow(rows.length);
  const score = averages(rows.map((r) => ({ game: r.game, value: r.score })), window);
  const material = averages(
    rows.filter((r) => r.finalMaterial !== null).map((r) => ({ game: r.game, value: r.finalMaterial! })),
    window,
  );
  return {
    games: rows.length,
    window,
    scoreMoving: thin(score.moving),
    scoreCumulative: thin(score.cumulative),
    materialMoving: thin(material.moving),
    materialCumulative: thin(material.cumulative),
    patterns: thin(rows.filter((r) => r.patterns !== null).map((r) => ({ game: r.game, value: r.patterns! }))),
  };
}
