/** Learning counters (table learning_counters): how many patterns were created, deleted, ... over all games. */
import type { MorphDatabase } from './database.ts';
import { stmt } from './statements.ts';

/** Adds `by` (an integer, may be negative) to a learning counter, creating it at 0; returns the new value. */
export function incrementCounter(db: MorphDatabase, name: string, by = 1): number {
  if (!Number.isInteger(by)) throw new RangeError(`counter ${name}: increment ${by} is not an integer`);
  const row = stmt(
    db,
    `INSERT INTO learning_counters (name, value) VALUES (?, ?)
     ON CONFLICT (name) DO UPDATE SET value = value + excluded.value RETURNING value`,
  ).get(name, by) as { value: number };
  return row.value;
}

export function getCounters(db: MorphDatabase): Record<string, number> {
  const counters: Record<string, number> = {};
  const rows = stmt(db, 'SELECT name, value FROM learning_counters ORDER BY name').raw().all() as [string, number][];
  for (const [name, value] of rows) counters[name] = value;
  return counters;
}
