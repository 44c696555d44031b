/**
 * Listing patterns and looking at one: plain SQL over the pattern_stats view (age derived from games_played), so
 * a look at a 100k-pattern database does not load the whole hierarchy into memory.
 */
import type { MorphDatabase } from '../store/database.ts';
import { getPatternPositions } from '../store/patternPositions.ts';
import { describePattern, patternFromJson, type Pattern } from '../pattern/pattern.ts';
import { badInput, MorphError } from '../util/errors.ts';
import { traditionalValue, type MaterialDiff } from './material.ts';
import { MATERIAL_PIECES } from '../pattern/pattern.ts';

export const PATTERN_SORT_KEYS = ['importance', 'weight', 'updates', 'uses', 'extremeness', 'age'] as const;
export type PatternSortKey = (typeof PATTERN_SORT_KEYS)[number];

/**
 * What the listing leads with: the patterns that matter most, by evidence times effect: updates times the
 * weight's distance from even in log-odds, |ln(w / (1 - w))|. A seed no game has moved from .5 counts 0 however
 * often it was updated, and a rarely updated extreme weight counts little.
 */
export const IMPORTANCE_NOTE = 'importance: updates x |log-odds of the weight| (evidence times effect; 0 at .500)';

/** Weights beyond .01 and .99 count as .01 and .99: an extreme weight on little evidence must not lead the list. */
const WEIGHT_EDGE = 0.01;
const CLAMPED_WEIGHT = `max(min(weight, ${1 - WEIGHT_EDGE}), ${WEIGHT_EDGE})`;
const IMPORTANCE_SQL = `updates * abs(ln(${CLAMPED_WEIGHT} / (1 - ${CLAMPED_WEIGHT})))`;

export interface PatternQuery {
  sort: PatternSortKey;
  /** Smallest first instead of largest first. */
  ascending?: boolean;
  kind?: 'graph' | 'material';
  /** Node count (graph patterns). */
  size?: number;
  /** Smallest node count. */
  minSize?: number;
  minUpdates?: number;
  limit?: number;
}

export interface PatternSummaryRow {
  id: number;
  kind: 'graph' | 'material';
  /** Node count; 0 for material patterns. */
  size: number;
  weight: number;
  updates: number;
  variance: number;
  uses: number;
  age: number;
  /** |weight - .5|: how strongly the pattern predicts either result. */
  extremeness: number;
  /** updates x |log-odds of the weight|: evidence times effect (IMPORTANCE_NOTE). */
  importance: number;
  origin: string;
  createdGame: number;
  lastUsedGame: number | null;
  /** One readable line, in the normal form ("moved" = the side that just moved). */
  description: string;
}

interface StatsRow {
  id: number;
  kind: 'graph' | 'material';
  size: number;
  weight: number;
  updates: number;
  variance: number;
  uses: number;
  age: number;
  extremeness: number;
  importance: number;
  origin: string;
  created_game: number;
  last_used_game: number | null;
  body: string;
}

const STATS_COLUMNS =
  `id, kind, size, weight, updates, variance, uses, age, abs(weight - 0.5) AS extremeness, ${IMPORTANCE_SQL} AS importance, ` +
  'origin, created_game, last_used_game, body';

// Column expressions for --sort; never user text in the SQL.
const ORDER_BY: Record<PatternSortKey, string> = {
  importance: IMPORTANCE_SQL,
  weight: 'weight',
  updates: 'updates',
  uses: 'uses',
  extremeness: 'abs(weight - 0.5)',
  age: 'age',
};

/** A stored pattern's body, parsed; an unreadable one is a one-line error naming the pattern. */
export function parsePatternBody(row: { id: number; body: string }): Pattern {
  try {
    return patternFromJson(row.body);
  } catch (error) {
    throw new MorphError(`pattern ${row.id} is unreadable: ${(error as Error).message}`, 2);
  }
}

function summaryRow(row: StatsRow): PatternSummaryRow {
  return {
    id: row.id,
    kind: row.kind,
    size: row.size,
    weight: row.weight,
    updates: row.updates,
    variance: row.variance,
    uses: row.uses,
    age: row.age,
    extremeness: row.extremeness,
    importance: row.importance,
    origin: row.origin,
    createdGame: row.created_game,
    lastUsedGame: row.last_used_game,
    description: describePattern(parsePatternBody(row)),
  };
}

function whereClause(query: PatternQuery): { sql: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (query.kind) {
    conditions.push('kind = ?');
    params.push(query.kind);
  }
  if (query.size !== undefined) {
    conditions.push('size = ?');
    params.push(query.size);
  }
  if (query.minSize !== undefined) {
    conditions.push('size >= ?');
    params.push(query.minSize);
  }
  if (query.minUpdates) {
    conditions.push('updates >= ?');
    params.push(query.minUpdates);
  }
  return { sql: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', params };
}

/** The patterns that pass the filters, sorted (largest first unless ascending), ties by id; and how many passed. */
export function listPatterns(db: MorphDatabase, query: PatternQuery): { total: number; rows: PatternSummaryRow[] } {
  const where = whereClause(query);
  const total = db.prepare(`SELECT count(*) FROM pattern_stats ${where.sql}`).pluck().get(...where.params) as number;
  const direction = query.ascending ? 'ASC' : 'DESC';
  const limit = query.limit ?? -1; // SQLite: a negative LIMIT means no limit
  const rows = db
    .prepare(`SELECT ${STATS_COLUMNS} FROM pattern_stats ${where.sql} ORDER BY ${ORDER_BY[query.sort]} ${direction}, id LIMIT ?`)
    .all(...where.params, limit) as StatsRow[];
  return { total, rows: rows.map(summaryRow) };
}

export const NORMAL_FORM_NOTE =
  'Normal form: "moved" is the side that just moved (drawn as White, moving up the board), "toMove" the side to\n' +
  'move (Black); a weight is the expected outcome for the side that just moved.';

export function patternListText(rows: readonly PatternSummaryRow[], total: number, sort: PatternSortKey): string {
  const lines = [
    `${total} pattern${total === 1 ? '' : 's'}${rows.length < total ? `, showing ${rows.length}` : ''}, by ${sort === 'importance' ? IMPORTANCE_NOTE : sort}.`,
    NORMAL_FORM_NOTE,
    '     id  kind      size  weight  updates  importance  variance    uses    age  origin          pattern',
  ];
  for (const r of rows) {
    lines.push(
      `${String(r.id).padStart(7)}  ${r.kind.padEnd(8)}  ${String(r.size).padStart(4)}  ${r.weight.toFixed(3)}  ${String(r.updates).padStart(7)}` +
        `  ${r.importance.toFixed(1).padStart(10)}  ${r.variance.toFixed(2).padStart(8)}  ${String(r.uses).padStart(6)}  ${String(r.age).padStart(5)}` +
        `  ${r.origin.padEnd(14)}  ${r.description}`,
    );
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// One pattern

export interface PatternBrief {
  id: number;
  kind: 'graph' | 'material';
  size: number;
  weight: number;
  updates: number;
  description: string;
}

export interface PatternDetail extends PatternSummaryRow {
  /** The parsed pattern (for drawing). */
  pattern: Pattern;
  /** graphology's serialised graph, as stored. */
  body: unknown;
  /** Material patterns: the difference and its traditional value in pawns. */
  material?: { diff: MaterialDiff; value: number };
  /** Immediate generalisations (more general patterns) and specialisations, from the stored hierarchy links. */
  parents: PatternBrief[];
  children: PatternBrief[];
  /** Recent positions the pattern matched, newest first (learning records them for each game's most-changed patterns). */
  positions: { gameId: number; fen: string }[];
}

function brief(row: StatsRow): PatternBrief {
  return { id: row.id, kind: row.kind, size: row.size, weight: row.weight, updates: row.updates, description: describePattern(parsePatternBody(row)) };
}

/** Parses a pattern id given on the command line (exit 2 for anything but a positive whole number). */
export function parsePatternId(text: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    throw badInput(`a pattern id is a positive whole number, got "${text}"`);
  }
  return Number(text);
}

/** One pattern with its links; unknown id is a one-line error with exit code 2. */
export function readPatternDetail(db: MorphDatabase, id: number, path: string): PatternDetail {
  const row = db.prepare(`SELECT ${STATS_COLUMNS} FROM pattern_stats WHERE id = ?`).get(id) as StatsRow | undefined;
  if (!row) throw badInput(`no pattern ${id} in ${path}`);
  const summary = summaryRow(row);
  const pattern = parsePatternBody(row);
  const related = (sql: string) => (db.prepare(sql).all(id) as StatsRow[]).map(brief);
  const detail: PatternDetail = {
    ...summary,
    pattern,
    body: JSON.parse(row.body) as unknown,
    parents: related(
      `SELECT ${STATS_COLUMNS} FROM pattern_stats WHERE id IN (SELECT parent FROM links WHERE child = ?) ORDER BY size DESC, id`,
    ),
    children: related(
      `SELECT ${STATS_COLUMNS} FROM pattern_stats WHERE id IN (SELECT child FROM links WHERE parent = ?) ORDER BY size, id`,
    ),
    positions: getPatternPositions(db, id),
  };
  if (pattern.kind === 'material') {
    const diff = Object.fromEntries(MATERIAL_PIECES.map((piece, i) => [piece, pattern.diff[i]])) as MaterialDiff;
    detail.material = { diff, value: traditionalValue(diff) };
  }
  return detail;
}

/** The JSON form: everything but the in-memory pattern object. */
export function patternDetailJson(detail: PatternDetail): Record<string, unknown> {
  const { pattern: _pattern, ...rest } = detail;
  return rest;
}

function briefLine(b: PatternBrief): string {
  return `  ${String(b.id).padStart(7)}  ${b.kind === 'graph' ? `${b.size} node${b.size === 1 ? ' ' : 's'}` : 'material'}` +
    `  weight ${b.weight.toFixed(3)}  ${String(b.updates).padStart(6)} updates  ${b.description}`;
}

/** Statistics, the drawing (given as text), parents, children and recorded positions. */
export function patternDetailText(detail: PatternDetail, drawing: string): string {
  const d = detail;
  const lines = [
    `Pattern ${d.id}: ${d.kind === 'graph' ? `graph, ${d.size} node${d.size === 1 ? '' : 's'}` : 'material'}, created by ${d.origin} in game ${d.createdGame}`,
    `  weight ${d.weight.toFixed(4)}  updates ${d.updates}  variance ${d.variance.toFixed(3)}  uses ${d.uses}  age ${d.age}` +
      `  extremeness ${d.extremeness.toFixed(3)}  importance ${d.importance.toFixed(1)}  last used in game ${d.lastUsedGame ?? '-'}`,
  ];
  if (d.material) lines.push(`  traditional value ${d.material.value > 0 ? '+' : ''}${d.material.value} pawns`);
  lines.push(`  ${d.description}`, '', drawing, '');
  lines.push(`Parents (more general): ${d.parents.length ? '' : d.kind === 'material' ? 'none (material patterns stand alone)' : 'none (a root)'}`);
  lines.push(...d.parents.map(briefLine));
  lines.push(`Children (more specific): ${d.children.length ? '' : 'none'}`);
  lines.push(...d.children.map(briefLine));
  if (d.positions.length) {
    lines.push('Recent positions it matched (real squares and colours):');
    for (const position of d.positions) lines.push(`  game ${position.gameId}: ${position.fen}`);
  } else {
    lines.push('Recent positions: none recorded (learning records them for the patterns a game changed most)');
  }
  return lines.join('\n');
}
