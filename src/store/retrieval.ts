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
 *    an epoch, so nothing is cleared between calls;
 *  - positions retrieved together (a position's successors, a game's positions) share one walk, up to 32 of
 *    them, each a bit in the walk's masks (mostSpecificMatchesTogether).
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
import { FEATURE_KEY_COUNT, fileKey, labelKey, nodeKey, pairOfTriple, rankKey, safetyKey } from './patternFeatures.ts';
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
/**
 * Positions one walk retrieves together at most: each has a bit in the Int32 masks of flatHierarchy.ts
 * (matchedBits, childMatchedBits).
 */
export const RETRIEVED_TOGETHER = 32;
/**
 * What a walk of one target passes for its bits: such a walk keeps only the stamps (matchedEpoch,
 * childMatchedEpoch), the smallest of its arrays, since retrieval waits on memory, not on arithmetic.
 */
const ONE_TARGET = 0;

// Scratch of the walk in progress (walks are synchronous and never nested).
/** Slots matched so far (in at least one of the walk's targets). */
let matched = new Int32Array(256);
let matchedCount = 0;
/**
 * Candidates to test, by depth: where their trigger entries (flatHierarchy.ts) start in the trigger pool, which
 * does not change during a walk. A child has one trigger, which puts it up when it first matches, so a child
 * is put up at most once, and decided then for every target of the walk.
 */
const pending: Int32Array[] = [];
const pendingCount: number[] = [];
/**
 * The root-index keys the current target has visited, by stamp (a position has several nodes of one label, so a
 * key comes up more than once).
 */
const keyVisited = new Int32Array(FEATURE_KEY_COUNT);
let keyStamp = 0;
/** Graph patterns tested, per target of the walk in progress. */
const testedOf = new Int32Array(RETRIEVED_TOGETHER);

/**
 * Records that a slot matched, in the targets `bits` stands for (ONE_TARGET: the walk has one). On its first
 * match in the walk it puts the patterns it triggers up for testing at their depth.
 */
function markMatched(flat: FlatHierarchy, slot: number, bits: number, epoch: number): void {
  if (bits !== ONE_TARGET) {
    if (flat.matchedEpoch[slot] === epoch) {
      flat.matchedBits[slot] |= bits;
      return;
    }
    flat.matchedBits[slot] = bits;
    flat.childMatchedBits[slot] = 0;
  }
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

/** Have all the parents listed in a trigger entry matched (the trigger, listed last, has)? */
function allParentsMatched(entries: Int32Array, at: number, matchedEpoch: Int32Array, epoch: number): boolean {
  for (let i = at + ENTRY_PARENTS + 1, end = i + entries[at + ENTRY_PARENTS]; i < end; i++) {
    if (matchedEpoch[entries[i]] !== epoch) return false;
  }
  return true;
}

/** The targets in which every parent listed in a trigger entry matched (a walk of several targets). */
function targetsAllParentsMatched(entries: Int32Array, at: number, flat: FlatHierarchy, epoch: number): number {
  const matchedEpoch = flat.matchedEpoch;
  const matchedBits = flat.matchedBits;
  let bits = -1;
  for (let i = at + ENTRY_PARENTS + 1, end = i + entries[at + ENTRY_PARENTS]; i < end && bits !== 0; i++) {
    const parent = entries[i];
    bits &= matchedEpoch[parent] === epoch ? matchedBits[parent] : 0;
  }
  return bits;
}

/** Walks the hierarchy for one position, leaving its matched slots in `matched`; returns the walk's epoch. */
function walkOne(hierarchy: RetrievalIndex, graph: PositionGraph): number {
  const flat = hierarchy.flat;
  flat.flush(); // normally nothing to do: insert and delete flush when they are done
  const epoch = flat.nextEpoch();
  matchedCount = 0;
  testedOf[0] = 0;
  visitRootsOfPosition(flat, hierarchy.roots, graph, 0, epoch);
  descendOne(flat, graph, epoch, -1);
  return epoch;
}

export function mostSpecificMatches(hierarchy: RetrievalIndex, graph: PositionGraph): Retrieval {
  const flat = hierarchy.flat;
  const epoch = walkOne(hierarchy, graph);
  const counts = flat.matchCount;
  for (let j = 0; j < matchedCount; j++) counts[matched[j]]++;
  flat.retrievals++;
  const result = mostSpecificOfOne(flat, epoch);
  const material = hierarchy.material.get(materialKey(graph.material));
  if (material) result.push(material);
  hierarchy.afterRetrieval?.();
  return { matches: result, tested: testedOf[0] };
}

/**
 * Every graph pattern that matches a position, the general ones under its most-specific matches included
 * (inspection and experiments; play reads the most specific). Counts nothing: the hierarchy's match statistics,
 * which steer its triggers, stay those of retrieval.
 */
export function everyGraphMatch(hierarchy: RetrievalIndex, graph: PositionGraph): PatternRecord[] {
  walkOne(hierarchy, graph);
  const records: PatternRecord[] = [];
  for (let j = 0; j < matchedCount; j++) records.push(hierarchy.flat.records[matched[j]]!);
  return records;
}

/**
 * The retrieval of each of several positions (a position's successors, say): the same matches as retrieving
 * each alone. Up to RETRIEVED_TOGETHER positions share one walk of the hierarchy. A pattern comes up for testing
 * once for all of them, with a bit mask of the positions where all its parents matched, and is tested in those
 * one after another, its match plan at hand. The walk's bookkeeping, most of a retrieval's time, is then paid
 * once for the positions together rather than once each (measured: docs/scaling.md).
 */
export function mostSpecificMatchesTogether(hierarchy: RetrievalIndex, graphs: readonly PositionGraph[]): Retrieval[] {
  if (graphs.length === 1) return [mostSpecificMatches(hierarchy, graphs[0])];
  const retrievals: Retrieval[] = [];
  for (let from = 0; from < graphs.length; from += RETRIEVED_TOGETHER) {
    const batch = graphs.length <= RETRIEVED_TOGETHER ? graphs : graphs.slice(from, from + RETRIEVED_TOGETHER);
    for (const retrieval of retrieveTogether(hierarchy, batch)) retrievals.push(retrieval);
  }
  return retrievals;
}

function retrieveTogether(hierarchy: RetrievalIndex, graphs: readonly PositionGraph[]): Retrieval[] {
  const flat = hierarchy.flat;
  flat.flush();
  const epoch = flat.nextEpoch();
  matchedCount = 0;
  testedOf.fill(0, 0, graphs.length);
  for (let i = 0; i < graphs.length; i++) visitRootsOfPosition(flat, hierarchy.roots, graphs[i], i, epoch, 1 << i);
  descendTogether(flat, graphs, epoch);
  const counts = flat.matchCount;
  const matchedBits = flat.matchedBits;
  const childMatchedBits = flat.childMatchedBits;
  const matches: PatternRecord[][] = graphs.map(() => []);
  for (let j = 0; j < matchedCount; j++) {
    const slot = matched[j];
    let bits = matchedBits[slot];
    counts[slot] += bitCount(bits);
    bits &= ~childMatchedBits[slot];
    const record = flat.records[slot]!;
    while (bits !== 0) {
      const i = 31 - Math.clz32(bits);
      bits &= ~(1 << i);
      matches[i].push(record);
    }
  }
  flat.retrievals += graphs.length;
  const retrievals = graphs.map((graph, i): Retrieval => {
    const material = hierarchy.material.get(materialKey(graph.material));
    if (material) matches[i].push(material);
    return { matches: matches[i], tested: testedOf[i] };
  });
  hierarchy.afterRetrieval?.();
  return retrievals;
}

/** Visits the root-index keys of a position's features, for the walk's target `index` (`bits`: its bit, or ONE_TARGET). */
function visitRootsOfPosition(flat: FlatHierarchy, roots: RootIndex, graph: PositionGraph, index: number, epoch: number, bits = ONE_TARGET): void {
  nextKeyStamp();
  for (let v = 0; v < graph.nodeCount; v++) {
    const label = graph.nodeLabel[v];
    const square = graph.nodeSquare[v];
    visitRoots(flat, roots, nodeKey(label, square), graph, index, bits, epoch, -1);
    visitRoots(flat, roots, rankKey(label, rankOf(square)), graph, index, bits, epoch, -1);
    visitRoots(flat, roots, fileKey(label, fileOf(square)), graph, index, bits, epoch, -1);
    const safety = graph.nodeSafety[v];
    if (safety !== SAFETY_ANY) visitRoots(flat, roots, safetyKey(label, safety), graph, index, bits, epoch, -1);
  }
  for (let label = 0; label < LABEL_COUNT; label++) {
    if (graph.labelStart[label + 1] > graph.labelStart[label]) visitRoots(flat, roots, labelKey(label), graph, index, bits, epoch, -1);
  }
  const tripleBits = graph.tripleBits;
  for (let word = 0; word < tripleBits.length; word++) {
    let w = tripleBits[word];
    while (w !== 0) {
      const bit = 31 - Math.clz32(w);
      w &= ~(1 << bit);
      const triple = word * 32 + bit;
      if (triple >= TRIPLE_COUNT) continue;
      visitRoots(flat, roots, triple, graph, index, bits, epoch, -1);
      visitRoots(flat, roots, pairOfTriple(triple), graph, index, bits, epoch, -1);
    }
  }
}

/** A new target: no root-index key visited yet. */
function nextKeyStamp(): void {
  if (++keyStamp === 0x7fffffff) {
    keyVisited.fill(0);
    keyStamp = 1;
  }
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
  nextKeyStamp();
  for (const key of features) visitRoots(flat, hierarchy.roots, key, target, 0, ONE_TARGET, epoch, record.slot);
  descendOne(flat, target, epoch, record.slot);
  return mostSpecificOfOne(flat, epoch);
}

/** Decides the roots filed under a feature the walk's target `index` has (`bits`: its bit, or ONE_TARGET). */
function visitRoots(flat: FlatHierarchy, roots: RootIndex, key: number, target: MatchTarget, index: number, bits: number, epoch: number, exclude: number): void {
  if (keyVisited[key] === keyStamp) return;
  keyVisited[key] = keyStamp;
  const resolved = roots.resolved[key];
  if (resolved !== undefined && resolved.slot !== exclude) {
    testedOf[index]++;
    markMatched(flat, resolved.slot, bits, epoch);
  }
  const keyed = roots.keyed[key];
  if (keyed !== undefined) {
    for (let i = 0; i < keyed.length; i++) {
      const slot = keyed[i].slot;
      if (slot === exclude) continue;
      testedOf[index]++;
      const at = flat.planOffset(slot); // before reading plans: compiling a plan may move them
      if (planMatches(flat.plans, at, target)) markMatched(flat, slot, bits, epoch);
    }
  }
}

/** Tests every triggered candidate of a walk of one target in depth order. */
function descendOne(flat: FlatHierarchy, target: MatchTarget, epoch: number, exclude: number): void {
  let tested = 0;
  const entries = flat.triggers.pool;
  const matchedEpoch = flat.matchedEpoch;
  const childMatched = flat.childMatchedEpoch;
  for (let depth = 0; depth < pending.length; depth++) {
    // markMatched appends to deeper lists only, so this one neither grows nor moves while it is walked.
    const candidates = pending[depth];
    const count = pendingCount[depth];
    for (let c = 0; c < count; c++) {
      const at = candidates[c];
      const slot = entries[at];
      if (slot === exclude || !allParentsMatched(entries, at, matchedEpoch, epoch)) continue;
      tested++;
      const planAt = flat.planOffset(slot);
      if (planMatches(flat.plans, planAt, target)) {
        markMatched(flat, slot, ONE_TARGET, epoch);
        // None of the parents the entry lists is most specific.
        for (let i = at + ENTRY_PARENTS + 1, end = i + entries[at + ENTRY_PARENTS]; i < end; i++) childMatched[entries[i]] = epoch;
      }
    }
    pendingCount[depth] = 0;
  }
  testedOf[0] += tested;
}

/** Tests every triggered candidate of a walk of several targets in depth order, in the targets where all its parents matched. */
function descendTogether(flat: FlatHierarchy, targets: readonly MatchTarget[], epoch: number): void {
  const entries = flat.triggers.pool;
  const childMatchedBits = flat.childMatchedBits;
  for (let depth = 0; depth < pending.length; depth++) {
    const candidates = pending[depth];
    const count = pendingCount[depth];
    for (let c = 0; c < count; c++) {
      const at = candidates[c];
      let candidate = targetsAllParentsMatched(entries, at, flat, epoch);
      if (candidate === 0) continue;
      const slot = entries[at];
      const planAt = flat.planOffset(slot);
      const plans = flat.plans;
      let matchedIn = 0;
      while (candidate !== 0) {
        const i = 31 - Math.clz32(candidate);
        candidate &= ~(1 << i);
        testedOf[i]++;
        if (planMatches(plans, planAt, targets[i])) matchedIn |= 1 << i;
      }
      if (matchedIn !== 0) {
        markMatched(flat, slot, matchedIn, epoch);
        for (let i = at + ENTRY_PARENTS + 1, end = i + entries[at + ENTRY_PARENTS]; i < end; i++) childMatchedBits[entries[i]] |= matchedIn;
      }
    }
    pendingCount[depth] = 0;
  }
}

/** The matched slots of a walk of one target none of whose children matched. */
function mostSpecificOfOne(flat: FlatHierarchy, epoch: number): PatternRecord[] {
  const result: PatternRecord[] = [];
  const childMatched = flat.childMatchedEpoch;
  for (let j = 0; j < matchedCount; j++) {
    const slot = matched[j];
    if (childMatched[slot] !== epoch) result.push(flat.records[slot]!);
  }
  return result;
}

/** The number of bits set in a 32-bit mask. */
function bitCount(bits: number): number {
  let n = 0;
  for (let b = bits; b !== 0; b &= b - 1) n++;
  return n;
}
