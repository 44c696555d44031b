/**
 * Levinson's associative retrieval (reference section 3): test the roots; test a child only once all its
 * parents matched (it cannot match otherwise); the most-specific matches are the matched patterns none of whose
 * children matched. The position's own material pattern is added when the database has it.
 *
 * Indexed roots (rootIndex.ts) are resolved by looking up the position's nodes and edge triples; each found one
 * counts as tested. Per-retrieval state lives on the records, stamped with an epoch, so nothing is cleared.
 */
import { materialKey } from '../pattern/canonical.ts';
import { LABEL_COUNT } from '../graph/labels.ts';
import type { PositionGraph } from '../graph/positionGraph.ts';
import type { Hierarchy, PatternRecord } from './hierarchy.ts';
import { nodeKey } from './rootIndex.ts';

export interface Retrieval {
  /** Most-specific matching graph patterns, then the material pattern if present. */
  matches: PatternRecord[];
  /** Graph patterns tested (the cost the hierarchy is meant to keep small). */
  tested: number;
}

const TRIPLE_COUNT = LABEL_COUNT * LABEL_COUNT * 3;
let epochCounter = 0;
const stack: PatternRecord[] = [];
const matched: PatternRecord[] = [];

function markMatched(record: PatternRecord, epoch: number): void {
  record.epoch = epoch;
  record.matchedParents = 0;
  record.matched = true;
  matched.push(record);
  stack.push(record);
}

export function mostSpecificMatches(hierarchy: Hierarchy, graph: PositionGraph): Retrieval {
  const epoch = ++epochCounter;
  let tested = 0;
  stack.length = 0;
  matched.length = 0;
  const indexed = hierarchy.roots.indexed;
  if (indexed.size > 0) {
    for (let v = 0; v < graph.nodeCount; v++) {
      const root = indexed.get(nodeKey(graph.nodeLabel[v], graph.nodeSquare[v]));
      if (root !== undefined) {
        tested++;
        markMatched(root, epoch);
      }
    }
    const bits = graph.tripleBits;
    for (let word = 0; word < bits.length; word++) {
      let w = bits[word];
      while (w !== 0) {
        const bit = 31 - Math.clz32(w);
        w &= ~(1 << bit);
        const triple = word * 32 + bit;
        if (triple >= TRIPLE_COUNT) continue;
        const root = indexed.get(triple);
        if (root !== undefined) {
          tested++;
          markMatched(root, epoch);
        }
      }
    }
  }
  for (const root of hierarchy.roots.others) {
    tested++;
    if (root.compiled.matches(graph)) markMatched(root, epoch);
    else stampUnmatched(root, epoch);
  }
  while (stack.length) {
    const parent = stack.pop()!;
    const children = parent.children;
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      if (child.epoch !== epoch) {
        child.epoch = epoch;
        child.matchedParents = 0;
        child.matched = false;
      }
      if (++child.matchedParents === child.parents.length) {
        tested++;
        if (child.compiled.matches(graph)) markMatched(child, epoch);
      }
    }
  }
  const result: PatternRecord[] = [];
  for (const record of matched) {
    let specific = true;
    for (const child of record.children) {
      if (child.epoch === epoch && child.matched) {
        specific = false;
        break;
      }
    }
    if (specific) result.push(record);
  }
  const material = hierarchy.material.get(materialKey(graph.material));
  if (material) result.push(material);
  return { matches: result, tested };
}

function stampUnmatched(record: PatternRecord, epoch: number): void {
  record.epoch = epoch;
  record.matchedParents = 0;
  record.matched = false;
}
