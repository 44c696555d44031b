/**
 * Levinson's associative retrieval (reference section 3): test the roots; test a child only once all its
 * parents matched (it cannot match otherwise); the most-specific matches are the matched patterns none of whose
 * children matched. The position's own material pattern is added when the database has it.
 *
 * How the work is kept small:
 *  - indexed roots (rootIndex.ts) are resolved by looking up the position's own nodes and edge triples;
 *  - a pattern is put up for testing only by its trigger parent (hierarchy.ts), the parent least likely to
 *    match, and tested when it comes up in depth order, by which time every parent has been decided;
 *  - per-retrieval state lives on the records, stamped with an epoch, so nothing is cleared between calls.
 */
import { materialKey } from '../pattern/canonical.ts';
import { LABEL_COUNT } from '../graph/labels.ts';
import type { PositionGraph } from '../graph/positionGraph.ts';
import type { PatternRecord } from './patternRecord.ts';
import type { MatchTarget } from '../pattern/matcher.ts';
import { patternTarget } from '../pattern/subpattern.ts';
import type { GraphPattern } from '../pattern/pattern.ts';
import { nodeKey, safetyKey, type RootIndex } from './rootIndex.ts';

/** What retrieval reads of a hierarchy: its roots and its material table, nothing of how it is maintained. */
export interface RetrievalIndex {
  readonly roots: RootIndex;
  readonly material: ReadonlyMap<string, PatternRecord>;
}

export interface Retrieval {
  /** Most-specific matching graph patterns, then the material pattern if present. */
  matches: PatternRecord[];
  /** Graph patterns tested (the cost the hierarchy is meant to keep small). */
  tested: number;
}

const TRIPLE_COUNT = LABEL_COUNT * LABEL_COUNT * 3;
let epochCounter = 0;
const matched: PatternRecord[] = [];
/** Candidates to test, by depth. */
const pending: PatternRecord[][] = [];

/** Records a match and puts the patterns it triggers up for testing at their depth. */
function markMatched(record: PatternRecord, epoch: number): void {
  record.epoch = epoch;
  record.matched = true;
  matched.push(record);
  for (const parent of record.parents) parent.childMatchedEpoch = epoch;
  for (const child of record.triggers) {
    if (child.pendingEpoch === epoch) continue;
    child.pendingEpoch = epoch;
    while (pending.length <= child.depth) pending.push([]);
    pending[child.depth].push(child);
  }
}

function allParentsMatched(record: PatternRecord, epoch: number): boolean {
  for (const parent of record.parents) if (parent.epoch !== epoch || !parent.matched) return false;
  return true;
}

export function mostSpecificMatches(hierarchy: RetrievalIndex, graph: PositionGraph): Retrieval {
  const epoch = ++epochCounter;
  matched.length = 0;
  let tested = 0;
  const indexed = hierarchy.roots.indexed;
  if (indexed.size > 0) {
    for (let v = 0; v < graph.nodeCount; v++) {
      const root = indexed.get(nodeKey(graph.nodeLabel[v], graph.nodeSquare[v]));
      if (root !== undefined) {
        tested++;
        markMatched(root, epoch);
      }
      // Several nodes can share a label and safety: the root is marked once.
      const safetyRoot = indexed.get(safetyKey(graph.nodeLabel[v], graph.nodeSafety[v]));
      if (safetyRoot !== undefined && safetyRoot.epoch !== epoch) {
        tested++;
        markMatched(safetyRoot, epoch);
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
  tested += descend(hierarchy, graph, epoch, null);
  const result = mostSpecific(epoch);
  const material = hierarchy.material.get(materialKey(graph.material));
  if (material) result.push(material);
  return { matches: result, tested };
}

/**
 * The most specific existing subpatterns of a pattern being inserted (its parents-to-be): the same walk, with
 * the pattern read as a graph. Indexed roots below it are found from its own exact nodes and typed edges.
 */
export function mostSpecificSubpatterns(hierarchy: RetrievalIndex, record: PatternRecord, rootKeys: readonly number[]): PatternRecord[] {
  const epoch = ++epochCounter;
  matched.length = 0;
  for (const key of rootKeys) {
    const root = hierarchy.roots.indexed.get(key);
    if (root !== undefined && root !== record && root.epoch !== epoch) markMatched(root, epoch);
  }
  descend(hierarchy, patternTarget(record.pattern as GraphPattern), epoch, record);
  return mostSpecific(epoch);
}

/** Tests the un-indexed roots, then every triggered candidate in depth order; returns how many were tested. */
function descend(hierarchy: RetrievalIndex, target: MatchTarget, epoch: number, exclude: PatternRecord | null): number {
  let tested = 0;
  for (const root of hierarchy.roots.others) {
    if (root === exclude) continue;
    tested++;
    if (root.compiled.matches(target)) markMatched(root, epoch);
  }
  for (let depth = 0; depth < pending.length; depth++) {
    const candidates = pending[depth];
    // markMatched may append to deeper lists only, so this list is stable while it is walked.
    for (let i = 0; i < candidates.length; i++) {
      const candidate = candidates[i];
      if (candidate === exclude || !allParentsMatched(candidate, epoch)) continue;
      tested++;
      if (candidate.compiled.matches(target)) markMatched(candidate, epoch);
      else {
        candidate.epoch = epoch;
        candidate.matched = false;
      }
    }
    candidates.length = 0;
  }
  return tested;
}

function mostSpecific(epoch: number): PatternRecord[] {
  const result: PatternRecord[] = [];
  for (const record of matched) if (record.childMatchedEpoch !== epoch) result.push(record);
  return result;
}
