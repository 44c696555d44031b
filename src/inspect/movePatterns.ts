/**
 * `morph inspect move-patterns`: the move patterns (issue 71; src/model/movePatterns.ts) that most favour a move,
 * with SYLPH's statistics. Read by SQL over the pattern_stats view, as `inspect patterns` reads a value database.
 */
import type { MorphDatabase } from '../store/database.ts';
import { databaseKind } from '../store/databaseKind.ts';
import { getMetaJson } from '../store/meta.ts';
import { MOVE_PATTERN_INFO_KEY } from '../model/movePatterns.ts';
import { scoreOfWeight } from '../model/opponentModel.ts';
import { describePattern, type GraphPattern, type Pattern } from '../pattern/pattern.ts';
import { patternSheetSvg } from './patternSvg.ts';
import { badInput } from '../util/errors.ts';
import { parsePatternBody } from './patterns.ts';
import { signed } from '../util/format.ts';

export interface MovePatternRow {
  id: number;
  /** Node count, the destination included. */
  size: number;
  /** The learned score a matching move gains, in log-odds (the conditional logit's; weight = logistic(score)). */
  score: number;
  /** Legal moves it matched while learning. */
  uses: number;
  /** Of those, the moves that were chosen (or found worth a look, for search lessons). */
  chosen: number;
  origin: string;
  description: string;
  pattern: Pattern;
}

export interface MovePatternListing {
  /** What the file was learned from (morph model's summary). */
  info: Record<string, unknown> | undefined;
  /** Patterns with at least the asked-for uses. */
  total: number;
  rows: MovePatternRow[];
}

/** What the listing's columns and descriptions mean (the drawings carry patternLayout's MOVE_PATTERN_LEGEND). */
const LISTING_LEGEND =
  'In a move pattern the side to move ("toMove") is the mover; the square node with a safety or edges out is the\n' +
  "move's destination, its safety the mover's there after the move, its edges out what the piece will attack or\n" +
  'defend from there. score: what a matching move gains in the learned choice, in log-odds; chosen/uses: SYLPH\'s rate.';

/**
 * The move patterns with at least `minUses` uses, highest score first (lowest with `ascending`), ties by id; a file
 * that is not a move-pattern database is a one-line error.
 */
export function readMovePatterns(db: MorphDatabase, path: string, query: { minUses: number; limit: number; ascending?: boolean }): MovePatternListing {
  const kind = databaseKind(db);
  if (kind !== 'move-patterns') throw badInput(`${path} is ${kind === 'value' ? 'a value database' : 'an opponent model'}, not a move-pattern database (morph model --move-patterns)`);
  const where = "WHERE kind = 'graph' AND uses >= ?";
  const total = db.prepare(`SELECT count(*) FROM pattern_stats ${where}`).pluck().get(query.minUses) as number;
  const rows = db
    .prepare(`SELECT id, size, weight, updates, uses, origin, body FROM pattern_stats ${where} ORDER BY weight ${query.ascending ? 'ASC' : 'DESC'}, id LIMIT ?`)
    .all(query.minUses, query.limit) as { id: number; size: number; weight: number; updates: number; uses: number; origin: string; body: string }[];
  return {
    info: getMetaJson(db, MOVE_PATTERN_INFO_KEY),
    total,
    rows: rows.map((row) => {
      const pattern = parsePatternBody(row);
      return {
        id: row.id, size: row.size, score: scoreOfWeight(row.weight), uses: row.uses, chosen: row.updates, origin: row.origin,
        description: describePattern(pattern), pattern,
      };
    }),
  };
}

/** The JSON form: the rows without the in-memory pattern objects. */
export function movePatternListingJson(listing: MovePatternListing): Record<string, unknown> {
  return { ...listing, rows: listing.rows.map(({ pattern: _pattern, ...row }) => row) };
}

/** What the patterns were learned from, as the listing's first line says it. */
function sourceText(info: MovePatternListing['info']): string {
  return info ? `learned from ${String(info.source ?? 'unknown')}${info.decisions !== undefined ? `, ${String(info.decisions)} decisions` : ''}` : 'no record of what it was learned from';
}

/** The heading of a drawn pattern, in the text listing and on its SVG board: its id, score and SYLPH's counts. */
function drawingHeading(row: MovePatternRow): string {
  return `Move pattern ${row.id}: score ${signed(row.score, 2)}, chosen ${row.chosen} of ${row.uses}`;
}

/** The table, then the first `drawn` rows drawn (given `draw`, e.g. patternDiagramText). */
export function movePatternListingText(listing: MovePatternListing, minUses: number, drawn: number, draw: (pattern: Pattern) => string): string {
  const { info, total, rows } = listing;
  const lines = [
    `Move patterns: ${sourceText(info)}.`,
    `${total} with at least ${minUses} uses${rows.length < total ? `, showing ${rows.length}` : ''}.`,
    LISTING_LEGEND,
    '     id  size   score  chosen/uses   rate  origin     pattern',
  ];
  for (const r of rows) {
    const rate = r.uses ? r.chosen / r.uses : 0;
    lines.push(
      `${String(r.id).padStart(7)}  ${String(r.size).padStart(4)}  ${signed(r.score, 2).padStart(6)}  ${`${r.chosen}/${r.uses}`.padStart(11)}` +
        `  ${rate.toFixed(3)}  ${r.origin.padEnd(9)}  ${r.description}`,
    );
  }
  for (const r of rows.slice(0, drawn)) {
    lines.push('', drawingHeading(r), draw(r.pattern));
  }
  return lines.join('\n');
}

/**
 * The first `drawn` rows on SVG boards in one file (patternSvg.ts's sheet), each titled with its rank in the
 * listing and the heading the text listing gives it, the move drawn as an arrow to its ringed destination.
 */
export function movePatternListingSvg(listing: MovePatternListing, minUses: number, drawn: number, ascending = false): string {
  const rows = listing.rows.slice(0, drawn).filter((r): r is MovePatternRow & { pattern: GraphPattern } => r.pattern.kind === 'graph');
  const heading = [
    `Move patterns: ${sourceText(listing.info)}.`,
    `The ${rows.length} ${ascending ? 'lowest' : 'highest'}-scoring of ${listing.total} with at least ${minUses} uses ` +
      '(score: what a matching move gains in the learned choice, in log-odds; chosen of uses: SYLPH\'s counts).',
  ];
  return patternSheetSvg(rows.map((r, i) => ({ pattern: r.pattern, title: `${i + 1}. ${drawingHeading(r)}` })), { heading, movePattern: true });
}
