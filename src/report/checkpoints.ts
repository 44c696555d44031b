/**
 * LEARNING-CURVE CHECKPOINTS (read only when present). Strength measurements taken during training (matches or
 * move agreement at given game counts) are written by the strength tooling into a table whose name contains
 * "checkpoint". The report shows whatever such a table holds, column by column, so it does not depend on that
 * table's exact layout; a database without one gets a note instead.
 */
import type { MorphDatabase } from '../store/database.ts';

export interface CheckpointTable {
  table: string;
  columns: string[];
  /** The latest rows (by rowid), oldest first. */
  rows: (string | number | null)[][];
  total: number;
}

export function readCheckpoints(db: MorphDatabase, limit = 50): CheckpointTable[] {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%checkpoint%' ORDER BY name")
    .pluck()
    .all() as string[];
  return tables.map((table) => {
    const quoted = `"${table.replace(/"/g, '""')}"`;
    const statement = db.prepare(`SELECT * FROM ${quoted} ORDER BY rowid DESC LIMIT ?`).raw();
    const columns = statement.columns().map((column) => column.name);
    const rows = (statement.all(limit) as (string | number | null)[][]).reverse();
    const total = db.prepare(`SELECT count(*) FROM ${quoted}`).pluck().get() as number;
    return { table, columns, rows, total };
  });
}
