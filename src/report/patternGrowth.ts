/**
 * How the pattern database grew, by origin (seed, forward, reverse, regression, generalisation, ...) and by size,
 * over the games. Read from the patterns themselves (each keeps the game it was created in), so it counts the
 * patterns alive now: a pattern created and later deleted is in neither curve. The total after each game, deleted
 * ones included, is the games table's own count (the "Database size" chart).
 */
import type { MorphDatabase } from '../store/database.ts';
import { thin } from './series.ts';

export interface GrowthSeries {
  name: string;
  /** Cumulative count of today's patterns created up to each game where the count changed. */
  points: { game: number; value: number }[];
}

/** Sizes of 6 nodes and more share a curve; material patterns have their own. */
const SIZE_GROUP = "CASE WHEN kind = 'material' THEN 'material' WHEN size >= 6 THEN '6+ nodes' ELSE size || ' node' || CASE WHEN size = 1 THEN '' ELSE 's' END END";

function cumulative(db: MorphDatabase, groupSql: string): GrowthSeries[] {
  const rows = db
    .prepare(`SELECT created_game, ${groupSql} AS grp, count(*) FROM patterns GROUP BY created_game, grp ORDER BY created_game, grp`)
    .raw()
    .all() as [number, string, number][];
  const series = new Map<string, GrowthSeries>();
  const totals = new Map<string, number>();
  for (const [game, group, count] of rows) {
    if (!series.has(group)) series.set(group, { name: group, points: [] });
    const total = (totals.get(group) ?? 0) + count;
    totals.set(group, total);
    series.get(group)!.points.push({ game, value: total });
  }
  // The largest group first, so the legend reads in order of importance.
  return [...series.values()]
    .sort((a, b) => b.points.at(-1)!.value - a.points.at(-1)!.value || a.name.localeCompare(b.name))
    .map((s) => ({ ...s, points: thin(s.points) }));
}

export function patternGrowth(db: MorphDatabase): { byOrigin: GrowthSeries[]; bySize: GrowthSeries[] } {
  return { byOrigin: cumulative(db, 'origin'), bySize: cumulative(db, SIZE_GROUP) };
}
