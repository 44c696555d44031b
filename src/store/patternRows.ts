/**
 * Pattern and link rows. Thin on purpose: the hierarchy lives in memory (hierarchy.ts) and calls these inside
 * its transactions (patternStore.ts).
 */
import type { MorphDatabase } from './database.ts';
import { stmt } from './statements.ts';

export type PatternKind = 'graph' | 'material';
export type PatternOrigin =
  | 'seed'
  | 'forward'
  | 'reverse'
  | 'regression'
  | 'generalisation'
  | 'specialisation'
  | 'material'
  | 'manual';

/** The statistics learning changes (the paper's Table 1; age is derived, see the pattern_stats view). */
export interface PatternStats {
  weight: number;
  updates: number;
  /** Sum of absolute weight changes. */
  variance: number;
  uses: number;
  lastUsedGame: number | null;
}

export interface PatternRow extends PatternStats {
  id: number;
  kind: PatternKind;
  /** Canonical key, unique. */
  key: string;
  /** The pattern as JSON (its format belongs to the pattern module). */
  body: string;
  /** Node count; 0 for material patterns. */
  size: number;
  origin: PatternOrigin;
  createdGame: number;
}

/** A pattern to insert: id is assigned by SQLite unless given; stats default to weight 0.5 and zero counts. */
export type NewPatternRow = Omit<PatternRow, 'id' | keyof PatternStats> & Partial<PatternStats> & { id?: number };

/**
 * Returns the new pattern's id. Throws SQLite's constraint error if the key is already present. What is written
 * once goes to `patterns`, the statistics learning rewrites to the narrow `pattern_learning` (schema v5).
 */
export function insertPatternRow(db: MorphDatabase, row: NewPatternRow): number {
  const info = stmt(db, 'INSERT INTO patterns (id, kind, key, body, size, origin, created_game) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    row.id ?? null,
    row.kind,
    row.key,
    row.body,
    row.size,
    row.origin,
    row.createdGame,
  );
  const id = Number(info.lastInsertRowid);
  stmt(db, 'INSERT INTO pattern_learning (id, weight, updates, variance, uses, last_used_game) VALUES (?, ?, ?, ?, ?, ?)').run(
    id,
    row.weight ?? 0.5,
    row.updates ?? 0,
    row.variance ?? 0,
    row.uses ?? 0,
    row.lastUsedGame ?? null,
  );
  return id;
}

/** Writes a pattern's learning statistics; false if there is no such pattern. */
export function updatePatternStats(db: MorphDatabase, id: number, stats: PatternStats): boolean {
  return (
    stmt(
      db,
      'UPDATE pattern_learning SET weight = ?, updates = ?, variance = ?, uses = ?, last_used_game = ? WHERE id = ?',
    ).run(stats.weight, stats.updates, stats.variance, stats.uses, stats.lastUsedGame, id).changes > 0
  );
}

/**
 * Deletes a pattern; its statistics, its parent list and its recorded positions go with it (ON DELETE CASCADE).
 * Re-linking, and the parent lists of its children, are the caller's.
 */
export function deletePatternRow(db: MorphDatabase, id: number): boolean {
  return stmt(db, 'DELETE FROM patterns WHERE id = ?').run(id).changes > 0;
}

/**
 * Writes a pattern's parents (the more general patterns it links to), replacing what was stored; none removes
 * its row (schema v6: one row per pattern, not per link).
 */
export function writePatternParents(db: MorphDatabase, child: number, parents: readonly number[]): void {
  if (parents.length === 0) {
    stmt(db, 'DELETE FROM pattern_parents WHERE id = ?').run(child);
    return;
  }
  const ascending = Int32Array.from(parents).sort();
  stmt(db, 'INSERT INTO pattern_parents (id, parents) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET parents = excluded.parents')
    .run(child, `[${ascending.join(',')}]`);
}

/** The columns every pattern loader reads, in the order `statsRow` decodes them (p: patterns, l: pattern_learning). */
const STATS_COLUMNS = 'p.id, p.kind, p.key, l.weight, l.updates, l.variance, l.uses, p.origin, p.created_game, l.last_used_game';
/** Every pattern with its statistics. */
const PATTERNS_WITH_STATS = 'patterns AS p JOIN pattern_learning AS l ON l.id = p.id';

type PatternKeyAndStats = Omit<PatternRow, 'body' | 'size'>;

function statsRow(r: unknown[]): PatternKeyAndStats {
  return {
    id: r[0] as number,
    kind: r[1] as PatternKind,
    key: r[2] as string,
    weight: r[3] as number,
    updates: r[4] as number,
    variance: r[5] as number,
    uses: r[6] as number,
    origin: r[7] as PatternOrigin,
    createdGame: r[8] as number,
    lastUsedGame: r[9] as number | null,
  };
}

/** Every pattern row, by id. Uses raw arrays to keep a 100k-row load fast. */
export function loadAllPatternRows(db: MorphDatabase): PatternRow[] {
  const rows = stmt(db, `SELECT ${STATS_COLUMNS}, p.body, p.size FROM ${PATTERNS_WITH_STATS} ORDER BY p.id`).raw().all() as unknown[][];
  return rows.map((r) => ({ ...statsRow(r), body: r[10] as string, size: r[11] as number }));
}

/** Every pattern's id, kind, key and statistics, without the JSON body: what loading the hierarchy needs. */
export function loadPatternKeysAndStats(db: MorphDatabase): PatternKeyAndStats[] {
  return [...eachPatternKeyAndStats(db)];
}

/** Rows per query when loading: few enough that a batch is garbage before the collector has to copy it. */
const LOAD_BATCH = 4096;

/**
 * The same, read in batches by id. Rows read all at once would live until the last is used, so the garbage
 * collector would copy every one of them to the old generation (at 100k patterns, a quarter of the load time);
 * row by row (iterate) costs more than that in calls.
 */
export function* eachPatternKeyAndStats(db: MorphDatabase): Generator<PatternKeyAndStats> {
  const batch = stmt(db, `SELECT ${STATS_COLUMNS} FROM ${PATTERNS_WITH_STATS} WHERE p.id > ? ORDER BY p.id LIMIT ${LOAD_BATCH}`).raw();
  for (let after = -Infinity; ; ) {
    const rows = batch.all(after) as unknown[][];
    for (const row of rows) yield statsRow(row);
    if (rows.length < LOAD_BATCH) return;
    after = rows[rows.length - 1][0] as number;
  }
}

/**
 * Every link as a flat array [parent, child, parent, child, ...], each pattern's parents in turn by pattern id, or
 * null when a stored parent list is not a JSON array of integers (a corrupt database; the caller says which).
 * Read as one string of numbers (SQLite's group_concat) and scanned, so no per-row object is made: two per link
 * cost more than the scan.
 */
export function loadLinkPairs(db: MorphDatabase): Int32Array | null {
  let text: string;
  try {
    // An array's elements have integer keys; an object's have text keys and a scalar's none.
    const [pairs, malformed] = stmt(
      db,
      `SELECT group_concat(j.value || ',' || p.id), count(*) FILTER (WHERE j.type <> 'integer' OR typeof(j.key) <> 'integer' OR j.value NOT BETWEEN 1 AND 2147483647)
       FROM pattern_parents AS p, json_each(p.parents) AS j`,
    ).raw().get() as [string | null, number];
    if (malformed > 0) return null;
    text = pairs ?? '';
  } catch (error) {
    if (error instanceof Error && /JSON/.test(error.message)) return null;
    throw error;
  }
  let count = text.length > 0 ? 1 : 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 44 /* , */) count++;
  const pairs = new Int32Array(count);
  let at = 0;
  let value = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 44) {
      pairs[at++] = value;
      value = 0;
    } else value = value * 10 + c - 48;
  }
  if (count > 0) pairs[at] = value;
  return pairs;
}

/** Every link as [parent, child], by parent then child. */
export function loadAllLinks(db: MorphDatabase): [number, number][] {
  return stmt(db, 'SELECT parent, child FROM links ORDER BY parent, child').raw().all() as [number, number][];
}

export function countPatterns(db: MorphDatabase): number {
  return (stmt(db, 'SELECT count(*) FROM patterns').pluck().get() as number) ?? 0;
}
