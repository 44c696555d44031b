/**
 * The roots of the hierarchy, with a direct index for the kinds of root that are most numerous and cheapest
 * to resolve: one-node patterns with an exact square (keyed by label and square), one-node patterns with a
 * safety and no square (keyed by label and safety), and two-node, one-edge patterns without designations or
 * safety (keyed by the (from label, to label, edge type) triple). Retrieval
 * then finds the matching ones among them by looking up the position's own nodes and triples instead of
 * testing each root; the rest of the roots are tested one by one.
 */
import { EDGE_ATTACKS, SAFETY_ANY } from '../graph/labels.ts';
import { nodeSafety, usesSafety } from '../pattern/pattern.ts';
import { tripleIndex } from '../graph/positionGraph.ts';
import { DESIG_NONE, desigSquare } from '../pattern/designation.ts';
import type { PatternRecord } from './patternRecord.ts';

/** Index keys: triples are 0..506; one-node keys are offset past them. */
const NODE_KEY_BASE = 1024;

export function nodeKey(label: number, square: number): number {
  return NODE_KEY_BASE + label * 64 + square;
}

const SAFETY_KEY_BASE = 2048;

export function safetyKey(label: number, safety: number): number {
  return SAFETY_KEY_BASE + label * 4 + safety;
}

/** The index key of a root, or -1 when it is not of an indexed shape. */
function indexKey(record: PatternRecord): number {
  const pattern = record.pattern;
  if (pattern.kind !== 'graph') return -1;
  const safety = nodeSafety(pattern, 0);
  if (pattern.labels.length === 1 && pattern.edges.length === 0) {
    const square = desigSquare(pattern.desigs[0]);
    if (safety === SAFETY_ANY) return square >= 0 ? nodeKey(pattern.labels[0], square) : -1;
    return pattern.desigs[0] === DESIG_NONE ? safetyKey(pattern.labels[0], safety) : -1;
  }
  if (
    !usesSafety(pattern) &&
    pattern.labels.length === 2 &&
    pattern.edges.length === 1 &&
    pattern.desigs[0] === DESIG_NONE &&
    pattern.desigs[1] === DESIG_NONE &&
    pattern.edges[0][2] !== EDGE_ATTACKS
  ) {
    const [from, to, code] = pattern.edges[0];
    return tripleIndex(pattern.labels[from], pattern.labels[to], code);
  }
  return -1;
}

export class RootIndex {
  readonly all = new Set<PatternRecord>();
  readonly indexed = new Map<number, PatternRecord>();
  /** Roots not in the index, tested one by one. */
  readonly others = new Set<PatternRecord>();

  has(record: PatternRecord): boolean {
    return this.all.has(record);
  }

  get size(): number {
    return this.all.size;
  }

  [Symbol.iterator](): IterableIterator<PatternRecord> {
    return this.all.values();
  }

  add(record: PatternRecord): void {
    if (this.all.has(record)) return;
    this.all.add(record);
    const key = indexKey(record);
    if (key >= 0) this.indexed.set(key, record);
    else this.others.add(record);
  }

  delete(record: PatternRecord): void {
    if (!this.all.delete(record)) return;
    const key = indexKey(record);
    if (key >= 0) this.indexed.delete(key);
    else this.others.delete(record);
  }

  clear(): void {
    this.all.clear();
    this.indexed.clear();
    this.others.clear();
  }
}
