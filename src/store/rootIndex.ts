/**
 * The roots of the hierarchy, every one indexed by a feature (patternFeatures.ts), so that retrieval looks roots
 * up by the features the position has instead of testing each root:
 *  - resolved roots match exactly when the graph has their feature, so a lookup decides them with no test:
 *    one-node patterns (an exact square, or a safety, or a bare label) and two-node one-edge patterns without
 *    designations or safety (a typed triple, or a label pair for "attacks");
 *  - every other root is filed under its rarest feature and tested only when the graph has that feature.
 */
import { EDGE_ATTACKS, SAFETY_ANY } from '../graph/labels.ts';
import { nodeSafety, usesSafety, type GraphPattern } from '../pattern/pattern.ts';
import { tripleIndex } from '../graph/positionGraph.ts';
import { DESIG_NONE, desigSquare } from '../pattern/designation.ts';
import type { PatternRecord } from './patternRecord.ts';
import { FEATURE_KEY_COUNT, labelKey, nodeKey, pairKey, patternFeatures, rarestFeature, safetyKey } from './patternFeatures.ts';

/** The feature whose presence is exactly a match of this pattern, or -1 when it has none. */
function resolvingKey(record: PatternRecord): number {
  const pattern = record.pattern as GraphPattern;
  if (pattern.labels.length === 1 && pattern.edges.length === 0) {
    const label = pattern.labels[0];
    const square = desigSquare(pattern.desigs[0]);
    const safety = nodeSafety(pattern, 0);
    if (safety === SAFETY_ANY) return square >= 0 ? nodeKey(label, square) : pattern.desigs[0] === DESIG_NONE ? labelKey(label) : -1;
    return pattern.desigs[0] === DESIG_NONE ? safetyKey(label, safety) : -1;
  }
  if (
    !usesSafety(pattern) &&
    pattern.labels.length === 2 &&
    pattern.edges.length === 1 &&
    pattern.desigs[0] === DESIG_NONE &&
    pattern.desigs[1] === DESIG_NONE
  ) {
    const [from, to, code] = pattern.edges[0];
    const a = pattern.labels[from];
    const b = pattern.labels[to];
    return code === EDGE_ATTACKS ? pairKey(a, b) : tripleIndex(a, b, code);
  }
  return -1;
}

export class RootIndex {
  /** Roots decided by their feature alone, by feature key. */
  readonly resolved: (PatternRecord | undefined)[] = new Array(FEATURE_KEY_COUNT).fill(undefined);
  /** The other roots, under their rarest feature: tested when the graph has it. */
  readonly keyed: (PatternRecord[] | undefined)[] = new Array(FEATURE_KEY_COUNT).fill(undefined);
  /** Every root, with where it is filed: its resolving key, or FEATURE_KEY_COUNT + the key it is tested under. */
  private readonly filed = new Map<PatternRecord, number>();

  has(record: PatternRecord): boolean {
    return this.filed.has(record);
  }

  get size(): number {
    return this.filed.size;
  }

  [Symbol.iterator](): IterableIterator<PatternRecord> {
    return this.filed.keys();
  }

  /** Files a graph pattern's record as a root. */
  add(record: PatternRecord): void {
    if (this.filed.has(record) || record.kind !== 'graph') return;
    const resolving = resolvingKey(record);
    if (resolving >= 0) {
      this.resolved[resolving] = record;
      this.filed.set(record, resolving);
      return;
    }
    const key = rarestFeature(patternFeatures(record.pattern as GraphPattern));
    (this.keyed[key] ??= []).push(record);
    this.filed.set(record, FEATURE_KEY_COUNT + key);
  }

  delete(record: PatternRecord): void {
    const filed = this.filed.get(record);
    if (filed === undefined) return;
    this.filed.delete(record);
    if (filed < FEATURE_KEY_COUNT) {
      this.resolved[filed] = undefined;
      return;
    }
    const list = this.keyed[filed - FEATURE_KEY_COUNT]!;
    list.splice(list.indexOf(record), 1);
  }

  clear(): void {
    this.filed.clear();
    this.resolved.fill(undefined);
    this.keyed.fill(undefined);
  }
}
