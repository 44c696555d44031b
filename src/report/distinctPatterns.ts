/**
 * The strongest and weakest graph patterns, one per idea. Learning makes many copies of one idea on different
 * squares ("moved Q attacks toMove K" on six squares), and a list by weight alone shows the same idea again and
 * again. An idea is the pattern with its squares, ranks and files left out: the same pieces in the same
 * attack/defend relations (compared by canonical key, so the order of the nodes does not matter).
 */
import type { MorphDatabase } from '../store/database.ts';
import { canonicalKey } from '../pattern/canonical.ts';
import { DESIG_NONE } from '../pattern/designation.ts';
import { patternFromJson, type GraphPattern } from '../pattern/pattern.ts';
import { MorphError } from '../util/errors.ts';

export interface DistinctPatternQuery {
  /** strongest: highest weight first (good for the side that just moved); weakest: lowest first. */
  direction: 'strongest' | 'weakest';
  minUpdates: number;
  minSize: number;
  limit: number;
}

export interface DistinctPattern {
  id: number;
  /** Copies of the same idea passed over before the list was full (less extreme than this one). */
  similar: number;
}

/** The pattern's idea: its canonical key with every node's square, rank or file removed. */
export function patternIdea(pattern: GraphPattern): string {
  return canonicalKey({ ...pattern, desigs: pattern.desigs.map(() => DESIG_NONE) });
}

export function distinctPatterns(db: MorphDatabase, query: DistinctPatternQuery): DistinctPattern[] {
  const order = query.direction === 'strongest' ? 'DESC' : 'ASC';
  const rows = db
    .prepare(`SELECT id, body FROM pattern_stats WHERE kind = 'graph' AND updates >= ? AND size >= ? ORDER BY weight ${order}, id`)
    .raw()
    .iterate(query.minUpdates, query.minSize) as IterableIterator<[number, string]>;
  const kept = new Map<string, DistinctPattern>();
  if (query.limit <= 0) return [];
  for (const [id, body] of rows) {
    let pattern: GraphPattern;
    try {
      pattern = patternFromJson(body) as GraphPattern;
    } catch (error) {
      throw new MorphError(`pattern ${id} is unreadable: ${(error as Error).message}`, 2);
    }
    const idea = patternIdea(pattern);
    const seen = kept.get(idea);
    if (seen) seen.similar++;
    else if (kept.size < query.limit) kept.set(idea, { id, similar: 0 });
    // Reading on only to count copies would scan the whole table of a large database.
    else break;
  }
  // Returning early leaves the iterator open, and an open statement keeps the database busy.
  rows.return?.();
  return [...kept.values()];
}
