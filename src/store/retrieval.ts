/**
 * Levinson's associative retrieval (reference section 3): test the roots; test a child only once all its
 * parents matched (it cannot match otherwise); the most-specific matches are the matched patterns none of whose
 * children matched. The position's own material pattern is added when the database has it.
 *
 * How the work is kept small:
 *  - roots are looked up by the position's own features (rootIndex.ts): nodes, ranks, files, labels, edge
 *    triples and pairs;
 *  - a pattern is put up for testing only by its trigger parent (hierarchy.ts), the parent least likely to
 *    match, and tested when it comes up in depth order, by which time every parent has been decided;
 *  - per-retrieval state lives on the records, stamped with an epoch, so nothing is cleared between calls.
 */
import { materialKey } from '../pattern/canonical.ts';
import { LABEL_COUNT, SAFETY_ANY } from '../graph/labels.ts';
import type { PositionGraph } from '../graph/positionGraph.ts';
import type { PatternRecord } from './patternRecord.ts';
import type { MatchTarget } from '../pattern/matcher.ts';
import { patternTarget } from '../pattern/subpattern.ts';
import type { GraphPattern } from '../pattern/pattern.ts';
import type { RootIndex } from './rootIndex.ts';
import { FEATURE_KEY_COUNT, fileKey, labelKey, nodeKey, pairOfTriple, rankKey, safetyKey } from './patternFeatures.ts';
import { fileOf, rankOf } from '../chess/board.ts';

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
  const roots = hierarchy.roots;
  let tested = 0;
  for (let v = 0; v < graph.nodeCount; v++) {
    const label = graph.nodeLabel[v];
    const square = graph.nodeSquare[v];
    tested += visitRoots(roots, nodeKey(label, square), graph, epoch, null);
    tested += visitRoots(roots, rankKey(label, rankOf(square)), graph, epoch, null);
    tested += visitRoots(roots, fileKey(label, fileOf(square)), graph, epoch, null);
    const safety = graph.nodeSafety[v];
    if (safety !== SAFETY_ANY) tested += visitRoots(roots, safetyKey(label, safety), graph, epoch, null);
  }
  for (let label = 0; label < LABEL_COUNT; label++) {
    if (graph.labelStart[label + 1] > graph.labelStart[label]) tested += visitRoots(roots, labelKey(label), graph, epoch, null);
  }
  const bits = graph.tripleBits;
  for (let word = 0; word < bits.length; word++) {
    let w = bits[word];
    while (w !== 0) {
      const bit = 31 - Math.clz32(w);
      w &= ~(1 << bit);
      const triple = word * 32 + bit;
      if (triple >= TRIPLE_COUNT) continue;
      tested += visitRoots(roots, triple, graph, epoch, null);
      tested += visitRoots(roots, pairOfTriple(triple), graph, epoch, null);
    }
  }
  tested += descend(graph, epoch, null);
  const result = mostSpecific(epoch);
  const material = hierarchy.material.get(materialKey(graph.material));
  if (material) result.push(material);
  return { matches: result, tested };
}

/**
 * The most specific existing subpatterns of a pattern being inserted (its parents-to-be): the same walk, with
 * the pattern read as a graph and its own features (patternFeatures.ts) looked up in the root index.
 */
export function mostSpecificSubpatterns(hierarchy: RetrievalIndex, record: PatternRecord, features: readonly number[]): PatternRecord[] {
  const epoch = ++epochCounter;
  matched.length = 0;
  const target = patternTarget(record.pattern as GraphPattern);
  for (const key of features) visitRoots(hierarchy.roots, key, target, epoch, record);
  descend(target, epoch, record);
  return mostSpecific(epoch);
}

/** Keys already visited in this retrieval (a position has several nodes of one label and safety). */
const keyVisited = new Uint32Array(FEATURE_KEY_COUNT);

/** Decides the roots filed under a feature the target has; returns how many were looked at. */
function visitRoots(roots: RootIndex, key: number, target: MatchTarget, epoch: number, exclude: PatternRecord | null): number {
  if (keyVisited[key] === epoch) return 0;
  keyVisited[key] = epoch;
  let tested = 0;
  const resolved = roots.resolved[key];
  if (resolved !== undefined && resolved !== exclude) {
    tested++;
    markMatched(resolved, epoch);
  }
  const keyed = roots.keyed[key];
  if (keyed !== undefined) {
    for (let i = 0; i < keyed.length; i++) {
      const root = keyed[i];
      if (root === exclude) continue;
      tested++;
      if (root.compiled.matches(target)) markMatched(root, epoch);
    }
  }
  return tested;
}

/** Tests every triggered candidate in depth order; returns how many were tested. */
function descend(target: MatchTarget, epoch: number, exclude: PatternRecord | null): number {
  let tested = 0;
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
