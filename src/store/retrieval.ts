/**
 * Levinson's associative retrieval (reference section 3): test the roots; test a child only once all its
 * parents matched (it cannot match otherwise); the most-specific matches are the matched patterns none of whose
 * children matched. The position's own material pattern is added when the database has it.
 *
 * How the work is kept small:
 *  - roots are looked up by the position's own features (rootIndex.ts): nodes, ranks, files, labels, edge
 *    triples and pairs;
 *  - a pattern is put up for testing only by its trigger parent (hierarchy.ts), the parent least likely to
 *    match (judged by its shape at first, then by how often it matched the positions retrieved), and tested when
 *    it comes up in depth order, by which time every parent has been decided;
 *  - the walk runs over the hierarchy's compiled index (flatHierarchy.ts): dense slots, typed arrays of trigger
 *    entries (a triggered child with its depth and all its parents, so that deciding it, and marking its parents
 *    not most specific when it matches, reads one contiguous run), and per-retrieval state in arrays stamped with
 *    an epoch, so nothing is cleared between calls.
 */
import { materialKey } from '../pattern/canonical.ts';
import { LABEL_COUNT, SAFETY_ANY } from '../graph/labels.ts';
import type { PositionGraph } from '../graph/positionGraph.ts';
import type { PatternRecord } from './patternRecord.ts';
import { planMatches, type MatchTarget } from '../pattern/matcher.ts';
import { patternTarget } from '../pattern/subpattern.ts';
import type { GraphPattern } from '../pattern/pattern.ts';
import type { RootIndex } from './rootIndex.ts';
import { ENTRY_DEPTH, ENTRY_PARENTS, type FlatHierarchy } from './flatHierarchy.ts';
import { fileKey, labelKey, nodeKey, pairOfTriple, rankKey, safetyKey } from './patternFeatures.ts';
import { fileOf, rankOf } from '../chess/board.ts';

/** What retrieval reads of a hierarchy: its roots, its compiled index and its material table. */
export interface RetrievalIndex {
  readonly roots: RootIndex;
  readonly flat: FlatHierarchy;
  readonly material: ReadonlyMap<string, PatternRecord>;
  /** Called after each position's retrieval (the hierarchy reviews its triggers now and then). */
  afterRetrieval?(): void;
}

export interface Retrieval {
  /** Most-specific matching graph patterns, then the material pattern if present. */
  matches: PatternRecord[];
  /** Graph patterns tested (the cost the hierarchy is meant to keep small). */
  tested: number;
}

const TRIPLE_COUNT = LABEL_COUNT * LABEL_COUNT * 3;
// Scratch of the walk in progress (walks are synchronous and never nested).
/** Slots matched so far. */
let matched = new Int32Array(256);
let matchedCount = 0;
/**
 * Candidates to test, by depth: where their trigger entries (flatHierarchy.ts) start in the trigger pool, which
 * does not change during a walk. A child has one trigger, matched at most once, so it is put up at most once.
 */
const pending: Int32Array[] = [];
const pendingCount: number[] = [];

/** Records a match and puts the patterns it triggers up for testing at their depth. */
function markMatched(flat: FlatHierarchy, slot: number, epoch: number): void {
  flat.matchedEpoch[slot] = epoch;
  if (matchedCount === matched.length) {
    const bigger = new Int32Array(2 * matched.length);
    bigger.set(matched);
    matched = bigger;
  }
  matched[matchedCount++] = slot;
  const triggers = flat.triggers;
  const entries = triggers.pool;
  for (let at = triggers.start[slot], end = at + triggers.count[slot]; at < end; at += ENTRY_PARENTS + 1 + entries[at + ENTRY_PARENTS]) {
    const depth = entries[at + ENTRY_DEPTH];
    while (pending.length <= depth) {
      pending.push(new Int32Array(64));
      pendingCount.push(0);
    }
    let list = pending[depth];
    const count = pendingCount[depth];
    if (count === list.length) {
      list = new Int32Array(2 * count);
      list.set(pending[depth]);
      pending[depth] = list;
    }
    list[count] = at;
    pendingCount[depth] = count + 1;
  }
}

/** Have the other parents listed in a trigger entry matched (the trigger, listed last, has)? */
function otherParentsMatched(entries: Int32Array, at: number, matchedEpoch: Int32Array, epoch: number): boolean {
  for (let i = at + ENTRY_PARENTS + 1, end = i + entries[at + ENTRY_PARENTS] - 1; i < end; i++) {
    if (matchedEpoch[entries[i]] !== epoch) return false;
  }
  return true;
}

/** A child matched: none of the parents its trigger entry lists is most specific. */
function markParentsOf(entries: Int32Array, at: number, childMatched: Int32Array, epoch: number): void {
  for (let i = at + ENTRY_PARENTS + 1, end = i + entries[at + ENTRY_PARENTS]; i < end; i++) childMatched[entries[i]] = epoch;
}

export function mostSpecificMatches(hierarchy: RetrievalIndex, graph: PositionGraph): Retrieval {
  const flat = hierarchy.flat;
  flat.flush(); // normally nothing to do: insert and delete flush when they are done
  const epoch = flat.nextEpoch();
  matchedCount = 0;
  const roots = hierarchy.roots;
  let tested = 0;
  for (let v = 0; v < graph.nodeCount; v++) {
    const label = graph.nodeLabel[v];
    const square = graph.nodeSquare[v];
    tested += visitRoots(flat, roots, nodeKey(label, square), graph, epoch, -1);
    tested += visitRoots(flat, roots, rankKey(label, rankOf(square)), graph, epoch, -1);
    tested += visitRoots(flat, roots, fileKey(label, fileOf(square)), graph, epoch, -1);
    const safety = graph.nodeSafety[v];
    if (safety !== SAFETY_ANY) tested += visitRoots(flat, roots, safetyKey(label, safety), graph, epoch, -1);
  }
  for (let label = 0; label < LABEL_COUNT; label++) {
    if (graph.labelStart[label + 1] > graph.labelStart[label]) tested += visitRoots(flat, roots, labelKey(label), graph, epoch, -1);
  }
  const bits = graph.tripleBits;
  for (let word = 0; word < bits.length; word++) {
    let w = bits[word];
    while (w !== 0) {
      const bit = 31 - Math.clz32(w);
      w &= ~(1 << bit);
      const triple = word * 32 + bit;
      if (triple >= TRIPLE_COUNT) continue;
      tested += visitRoots(flat, roots, triple, graph, epoch, -1);
      tested += visitRoots(flat, roots, pairOfTriple(triple), graph, epoch, -1);
    }
  }
  tested += descend(flat, graph, epoch, -1);
  const counts = flat.matchCount;
  for (let i = 0; i < matchedCount; i++) counts[matched[i]]++;
  flat.retrievals++;
  const result = mostSpecific(flat, epoch);
  const material = hierarchy.material.get(materialKey(graph.material));
  if (material) result.push(material);
  hierarchy.afterRetrieval?.();
  return { matches: result, tested };
}

/**
 * The most specific existing subpatterns of a pattern being inserted (its parents-to-be): the same walk, with
 * the pattern read as a graph and its own features (patternFeatures.ts) looked up in the root index.
 */
export function mostSpecificSubpatterns(hierarchy: RetrievalIndex, record: PatternRecord, features: readonly number[]): PatternRecord[] {
  const flat = hierarchy.flat;
  flat.flush();
  const epoch = flat.nextEpoch();
  matchedCount = 0;
  const target = patternTarget(record.pattern as GraphPattern);
  for (const key of features) visitRoots(flat, hierarchy.roots, key, target, epoch, record.slot);
  descend(flat, target, epoch, record.slot);
  return mostSpecific(flat, epoch);
}

function matchesAt(flat: FlatHierarchy, slot: number, target: MatchTarget): boolean {
  const at = flat.planOffset(slot);
  return planMatches(flat.plans, at, target);
}

/** Decides the roots filed under a feature the target has; returns how many were looked at. */
function visitRoots(flat: FlatHierarchy, roots: RootIndex, key: number, target: MatchTarget, epoch: number, exclude: number): number {
  // A position has several nodes of one label and safety: each key is visited once.
  if (flat.keyVisited[key] === epoch) return 0;
  flat.keyVisited[key] = epoch;
  let tested = 0;
  const resolved = roots.resolved[key];
  if (resolved !== undefined && resolved.slot !== exclude) {
    tested++;
    markMatched(flat, resolved.slot, epoch);
  }
  const keyed = roots.keyed[key];
  if (keyed !== undefined) {
    for (let i = 0; i < keyed.length; i++) {
      const slot = keyed[i].slot;
      if (slot === exclude) continue;
      tested++;
      if (matchesAt(flat, slot, target)) markMatched(flat, slot, epoch);
    }
  }
  return tested;
}

/** Tests every triggered candidate in depth order; returns how many were tested. */
function descend(flat: FlatHierarchy, target: MatchTarget, epoch: number, exclude: number): number {
  let tested = 0;
  const entries = flat.triggers.pool;
  const matchedEpoch = flat.matchedEpoch;
  const childMatched = flat.childMatchedEpoch;
  for (let depth = 0; depth < pending.length; depth++) {
    // markMatched appends to deeper lists only, so this one neither grows nor moves while it is walked.
    const candidates = pending[depth];
    const count = pendingCount[depth];
    for (let i = 0; i < count; i++) {
      const at = candidates[i];
      const slot = entries[at];
      if (slot === exclude || !otherParentsMatched(entries, at, matchedEpoch, epoch)) continue;
      tested++;
      if (matchesAt(flat, slot, target)) {
        markMatched(flat, slot, epoch);
        markParentsOf(entries, at, childMatched, epoch);
      }
    }
    pendingCount[depth] = 0;
  }
  return tested;
}

function mostSpecific(flat: FlatHierarchy, epoch: number): PatternRecord[] {
  const result: PatternRecord[] = [];
  const childMatched = flat.childMatchedEpoch;
  for (let i = 0; i < matchedCount; i++) {
    const slot = matched[i];
    if (childMatched[slot] !== epoch) result.push(flat.records[slot]!);
  }
  return result;
}
