/**
 * Graph-pattern terms: what the graph patterns add to a position's value, beside material and square values, as
 * one learned number per pattern in log-odds (an n-tuple network's additive weight, Logistello's pattern weight).
 * A position's graph term is the sum of the terms of at most GRAPH_TERMS_READ of its most-specific matches, those
 * with the most evidence: so a position costs the same to value however large the database grows, while the
 * database's capacity (one term a pattern) grows with it.
 *
 * Why a term of its own and not the pattern's weight: a pattern's weight is the mean result of the games it
 * matched in, which mostly says what material it comes with (a pattern that matches when a knight is up has a high
 * weight for that reason alone), so adding weights to a material value counted material twice. A term is learned
 * jointly with the material and square values it is added to (learn/graphTermLearning.ts), so it carries only what
 * they do not.
 */
import type { PatternRecord } from '../store/patternRecord.ts';

/** The most matches a position reads terms from (the bound on a position's cost). */
export const GRAPH_TERMS_READ = 64;

/** A term is kept within this many log-odds of 0: no pattern alone may decide a position. */
export const GRAPH_TERM_LIMIT = 3;

export interface GraphTerm {
  /** Log-odds this pattern adds, for the side that just moved. */
  term: number;
  /** Updates it has had. */
  updates: number;
}

/** The learned terms of a database's graph patterns, by pattern id; a pattern with none adds 0. */
export class GraphTerms {
  private readonly terms = new Map<number, GraphTerm>();
  /** Ids whose term changed since the last `takeChanged` (the rows to write). */
  private readonly changed = new Set<number>();
  /** Scratch for `read` (synchronous, never nested). */
  private selected: PatternRecord[] = [];
  /**
   * What every position adds alike: the mean of the errors the terms are learned from (Morph loses most training
   * games, so most positions' targets are below their values). Learned beside the terms so that they carry only
   * what tells positions apart, and never read in play, where it would add the same to every move.
   */
  bias = 0;
  /** Positions the bias has learned from. */
  biasUpdates = 0;

  get size(): number {
    return this.terms.size;
  }

  get(id: number): GraphTerm | undefined {
    return this.terms.get(id);
  }

  /** Sets a pattern's term as stored (loading). */
  set(id: number, term: number, updates: number): void {
    this.terms.set(id, { term, updates });
  }

  /** Forgets a deleted pattern's term. */
  delete(id: number): void {
    if (this.terms.delete(id)) this.changed.add(id);
  }

  /**
   * The matches a position reads its terms from: all of `matches` (graph patterns only) when there are at most
   * GRAPH_TERMS_READ, else those with the most updates of their terms (then the lowest ids: older patterns first),
   * so that what is read, and learned, is the best-evidenced part of a large retrieval.
   */
  read(matches: readonly PatternRecord[]): readonly PatternRecord[] {
    const selected = this.selected;
    selected.length = 0;
    for (const record of matches) if (record.kind === 'graph') selected.push(record);
    if (selected.length <= GRAPH_TERMS_READ) return selected;
    const evidence = (record: PatternRecord) => this.terms.get(record.id)?.updates ?? 0;
    selected.sort((a, b) => evidence(b) - evidence(a) || a.id - b.id);
    selected.length = GRAPH_TERMS_READ;
    return selected;
  }

  /** A position's graph term: the sum of the terms of the matches it reads (read). */
  sum(matches: readonly PatternRecord[]): number {
    let sum = 0;
    for (const record of this.read(matches)) sum += this.terms.get(record.id)?.term ?? 0;
    return sum;
  }

  /** Moves one pattern's term by `step` (kept within GRAPH_TERM_LIMIT) and counts the update. */
  add(id: number, step: number): void {
    const entry = this.terms.get(id);
    const term = Math.max(-GRAPH_TERM_LIMIT, Math.min(GRAPH_TERM_LIMIT, (entry?.term ?? 0) + step));
    if (entry === undefined) this.terms.set(id, { term, updates: 1 });
    else {
      entry.term = term;
      entry.updates++;
    }
    this.changed.add(id);
  }

  /** The ids whose terms changed since the last call (each once), and forgets them. */
  takeChanged(): number[] {
    const ids = [...this.changed];
    this.changed.clear();
    return ids;
  }

  /** Every term, by id (inspection). */
  entries(): IterableIterator<[number, GraphTerm]> {
    return this.terms.entries();
  }
}
