/**
 * Subgraph monomorphism of a pattern into a target graph (reference section 3): an injective map of pattern
 * nodes to target nodes that keeps labels, satisfies square designations, and finds for every pattern edge a
 * target edge of the same type (any type when the pattern edge is the generalised "attacks"). Extra target
 * nodes and edges are fine.
 *
 * Patterns are compiled once into a search plan (SYLPH's trick): nodes ordered most restrictive first, each
 * later node reached through an edge to an earlier one, constraints ordered rarest edge type first. The search
 * runs over typed arrays with no allocation. The target is a position graph, or a pattern read as a graph
 * (for subpattern-of), through the same interface.
 */
import { EDGE_ATTACKS, LABEL_COUNT, SAFETY_ANY } from '../graph/labels.ts';
import { FILE_MASKS, IN_MASKS, LABEL_MASKS, MAX_NODES, OUT_MASKS, RANK_MASKS, SAFETY_MASKS } from '../graph/positionGraph.ts';
import { DESIG_NONE, desigFile, desigKind, desigRank, desigSatisfies, desigSquare } from './designation.ts';
import { nodeSafety, usesSafety, type GraphPattern } from './pattern.ts';

/** What the matcher needs of a target graph. PositionGraph has this shape; so does PatternTarget. */
export interface MatchTarget {
  nodeCount: number;
  readonly nodeLabel: Uint8Array;
  readonly nodeDesig: Uint8Array;
  /** Safety of each node (labels.ts SAFETY_*; a pattern target's 0 satisfies only "any"). */
  readonly nodeSafety: Uint8Array;
  /** Node designated exactly at a square, or -1. */
  readonly squareToNode: Int8Array;
  /** Edge codes at [a * MAX_NODES + b]. */
  readonly edges: Uint8Array;
  readonly outStart: Uint16Array;
  readonly outList: Uint8Array;
  readonly inStart: Uint16Array;
  readonly inList: Uint8Array;
  readonly labelStart: Uint8Array;
  readonly labelNodes: Uint8Array;
}

/** Restrictiveness of edge types when ordering constraints: x-ray edges are rarer than direct ones. */
const EDGE_RARITY = [0, 1, 3, 3, 0];
/** Rarity of labels (P N B R Q K per side, then square) when choosing the first node. */
const LABEL_RARITY = [1, 3, 3, 3, 5, 6, 1, 3, 3, 3, 5, 6, 0];

// Scratch shared by every compiled pattern: matching is synchronous and never re-entered, so one set suffices
// (per-pattern buffers would cost ~2 KB each across 100k patterns).
const image = new Int8Array(MAX_NODES);
const used = new Uint8Array(MAX_NODES);

/*
 * The search plan, packed into one byte array (one allocation per pattern keeps 100k compiled patterns small, and
 * the hierarchy's compiled index copies plans into one shared store: see flatHierarchy.ts). Offsets from the
 * plan's start:
 *   [0]                      n, the node count
 *   [1]                      m, the number of label needs
 *   [2], [3]                 for a two-node one-edge pattern without designations or safety, its triple bit + 1
 *                            (16 bits, low byte first; 0 for other patterns), then [4] 1 when the edge is "attacks"
 *   then from S = 5:
 *   [S .. S+n)               pattern node placed at each step
 *   [S+n .. S+2n)            label of each step
 *   [S+2n .. S+3n)           designation code of each step
 *   [S+3n .. S+4n)           required safety of each step (0 = any)
 *   [S+4n .. S+5n+1)         constraint start index of each step, n+1 entries (constraints are few, < 256)
 *   then 3 bytes per constraint: earlier step, incoming flag (1: edge earlier -> this), edge code
 *   then the label needs, m (label, count) pairs.
 */
const NODES = 0;
const NEEDS = 1;
const TRIPLE = 2;
const TRIPLE_ANY = 4;
const STEPS = 5;

/** The search plan of a pattern (layout above). */
export function compilePlan(pattern: GraphPattern): Uint8Array {
  const n = pattern.labels.length;
  const order = planOrder(pattern);
  const stepOf = new Array<number>(n);
  order.forEach((v, s) => (stepOf[v] = s));
  const constraints: { step: number; other: number; incoming: number; code: number }[] = [];
  for (const [from, to, code] of pattern.edges) {
    const a = stepOf[from];
    const b = stepOf[to];
    if (a < b) constraints.push({ step: b, other: a, incoming: 1, code });
    else constraints.push({ step: a, other: b, incoming: 0, code });
  }
  constraints.sort((x, y) => x.step - y.step || EDGE_RARITY[y.code] - EDGE_RARITY[x.code] || x.other - y.other);
  const counts = new Array<number>(LABEL_COUNT).fill(0);
  for (const label of pattern.labels) counts[label]++;
  const needs: number[] = [];
  counts.forEach((count, label) => count > 0 && needs.push(label, count));

  const s = STEPS;
  const consBase = s + 5 * n + 1;
  const needsStart = consBase + 3 * constraints.length;
  const plan = new Uint8Array(needsStart + needs.length);
  plan[NODES] = n;
  plan[NEEDS] = needs.length / 2;
  order.forEach((v, step) => {
    plan[s + step] = v;
    plan[s + n + step] = pattern.labels[v];
    plan[s + 2 * n + step] = pattern.desigs[v];
    plan[s + 3 * n + step] = nodeSafety(pattern, v);
  });
  for (const c of constraints) plan[s + 4 * n + c.step + 1]++;
  for (let step = 0; step < n; step++) plan[s + 4 * n + step + 1] += plan[s + 4 * n + step];
  constraints.forEach((c, i) => {
    plan[consBase + 3 * i] = c.other;
    plan[consBase + 3 * i + 1] = c.incoming;
    plan[consBase + 3 * i + 2] = c.code;
  });
  plan.set(needs, needsStart);

  const [edge] = pattern.edges;
  const isTriple =
    n === 2 && pattern.edges.length === 1 && pattern.desigs[0] === 0 && pattern.desigs[1] === 0 && !usesSafety(pattern);
  if (isTriple) {
    const anyType = edge[2] === EDGE_ATTACKS;
    const bit = (pattern.labels[edge[0]] * LABEL_COUNT + pattern.labels[edge[1]]) * 3 + (anyType ? 0 : edge[2] - 1);
    plan[TRIPLE] = (bit + 1) & 0xff;
    plan[TRIPLE + 1] = (bit + 1) >> 8;
    plan[TRIPLE_ANY] = anyType ? 1 : 0;
  }
  return plan;
}

/** The length in bytes of the plan starting at `at` in `plans`. */
export function planLength(plans: Uint8Array, at: number): number {
  const n = plans[at + NODES];
  return STEPS + 5 * n + 1 + 3 * plans[at + STEPS + 5 * n] + 2 * plans[at + NEEDS];
}

/** Does the plan starting at `at` in `plans` match the target? */
export function planMatches(plans: Uint8Array, at: number, target: MatchTarget): boolean {
  const n = plans[at + NODES];
  if (target.nodeCount < n) return false;
  const s = at + STEPS;
  const masks = (target as { masks?: Int32Array }).masks;
  if (masks) {
    // A position graph: the masks decide labels step by step, and most tests succeed, so no counting first.
    const triple = plans[at + TRIPLE] | (plans[at + TRIPLE + 1] << 8);
    if (triple > 0) return matchesTriple((target as { tripleBits?: Uint32Array }).tripleBits!, triple - 1, plans[at + TRIPLE_ANY] === 1);
    return searchMasks(plans, s, n, masks, target.squareToNode, 0, 0, 0);
  }
  const needsStart = s + 5 * n + 1 + 3 * plans[s + 5 * n];
  for (let i = needsStart, end = needsStart + 2 * plans[at + NEEDS]; i < end; i += 2) {
    const label = plans[i];
    if (target.labelStart[label + 1] - target.labelStart[label] < plans[i + 1]) return false;
  }
  return search(plans, s, n, target, 0);
}

/**
 * The search over a position graph's node masks (positionGraph.ts): a step's candidates are its label's nodes,
 * narrowed by its square, safety and every edge to an earlier step with a few ANDs, and only those are placed.
 * The same answers as `search` (tested against brute force) in less time (retrieval at 100k patterns, 14%
 * less): most candidates `search` tries fail one of those checks. `used0`, `used1`: the target nodes placed so far.
 */
function searchMasks(plans: Uint8Array, s: number, n: number, masks: Int32Array, squareToNode: Int8Array, step: number, used0: number, used1: number): boolean {
  const label = plans[s + n + step];
  let m0 = masks[LABEL_MASKS + 2 * label] & ~used0;
  let m1 = masks[LABEL_MASKS + 2 * label + 1] & ~used1;
  const desig = plans[s + 2 * n + step];
  if (desig !== DESIG_NONE) {
    const square = desigSquare(desig);
    if (square >= 0) {
      const node = squareToNode[square];
      if (node < 0) return false;
      if (node < 32) {
        m0 &= 1 << node;
        m1 = 0;
      } else {
        m0 = 0;
        m1 &= 1 << (node - 32);
      }
    } else {
      const rank = desigRank(desig);
      const at = rank >= 0 ? RANK_MASKS + 2 * rank : FILE_MASKS + 2 * desigFile(desig);
      m0 &= masks[at];
      m1 &= masks[at + 1];
    }
  }
  const safety = plans[s + 3 * n + step];
  if (safety !== SAFETY_ANY) {
    m0 &= masks[SAFETY_MASKS + 2 * safety];
    m1 &= masks[SAFETY_MASKS + 2 * safety + 1];
  }
  for (let c = plans[s + 4 * n + step], end = plans[s + 4 * n + step + 1]; c < end && (m0 | m1) !== 0; c++) {
    const at = s + 5 * n + 1 + 3 * c;
    // Incoming: an edge from the earlier step's node to this one, so this one is among that node's out-neighbours.
    const set = (plans[at + 1] ? OUT_MASKS : IN_MASKS) + 2 * (image[plans[at]] * 5 + plans[at + 2]);
    m0 &= masks[set];
    m1 &= masks[set + 1];
  }
  if ((m0 | m1) === 0) return false;
  if (step === n - 1) return true;
  while (m0 !== 0) {
    const node = 31 - Math.clz32(m0);
    m0 &= ~(1 << node);
    image[step] = node;
    if (searchMasks(plans, s, n, masks, squareToNode, step + 1, used0 | (1 << node), used1)) return true;
  }
  while (m1 !== 0) {
    const bit = 31 - Math.clz32(m1);
    m1 &= ~(1 << bit);
    image[step] = 32 + bit;
    if (searchMasks(plans, s, n, masks, squareToNode, step + 1, used0, used1 | (1 << bit))) return true;
  }
  return false;
}

function matchesTriple(bits: Uint32Array, first: number, anyType: boolean): boolean {
  for (let bit = first; bit < first + (anyType ? 3 : 1); bit++) {
    if (bits[bit >>> 5] & (1 << (bit & 31))) return true;
  }
  return false;
}

/** Places steps from `step` on; `s` is where the plan's steps start in `plans`. */
function search(plans: Uint8Array, s: number, n: number, target: MatchTarget, step: number): boolean {
  if (step === n) return true;
  const desig = plans[s + 2 * n + step];
  if (desig > 0 && desig < 65) {
    // An exact square: a direct lookup.
    const candidate = target.squareToNode[desig - 1];
    return candidate >= 0 && tryCandidate(plans, s, n, target, step, candidate);
  }
  const first = plans[s + 4 * n + step];
  if (first < plans[s + 4 * n + step + 1]) {
    // Walk the neighbours of the node placed for the most restrictive constraint.
    const at = s + 5 * n + 1 + 3 * first;
    const anchor = image[plans[at]];
    if (plans[at + 1]) {
      for (let i = target.outStart[anchor], end = target.outStart[anchor + 1]; i < end; i++) {
        if (tryCandidate(plans, s, n, target, step, target.outList[i])) return true;
      }
    } else {
      for (let i = target.inStart[anchor], end = target.inStart[anchor + 1]; i < end; i++) {
        if (tryCandidate(plans, s, n, target, step, target.inList[i])) return true;
      }
    }
    return false;
  }
  const label = plans[s + n + step];
  for (let i = target.labelStart[label], end = target.labelStart[label + 1]; i < end; i++) {
    if (tryCandidate(plans, s, n, target, step, target.labelNodes[i])) return true;
  }
  return false;
}

function tryCandidate(plans: Uint8Array, s: number, n: number, target: MatchTarget, step: number, candidate: number): boolean {
  if (used[candidate] || target.nodeLabel[candidate] !== plans[s + n + step]) return false;
  if (!desigSatisfies(plans[s + 2 * n + step], target.nodeDesig[candidate])) return false;
  const safety = plans[s + 3 * n + step];
  if (safety !== SAFETY_ANY && target.nodeSafety[candidate] !== safety) return false;
  for (let c = plans[s + 4 * n + step], end = plans[s + 4 * n + step + 1]; c < end; c++) {
    const at = s + 5 * n + 1 + 3 * c;
    const other = image[plans[at]];
    const found = plans[at + 1] ? target.edges[other * MAX_NODES + candidate] : target.edges[candidate * MAX_NODES + other];
    const wanted = plans[at + 2];
    // "attacks" accepts any edge type; a pattern target's generic edge only satisfies "attacks" itself.
    if (found === 0 || (wanted !== EDGE_ATTACKS && found !== wanted)) return false;
  }
  image[step] = candidate;
  used[candidate] = 1;
  const ok = search(plans, s, n, target, step + 1);
  used[candidate] = 0;
  return ok;
}

/** A pattern's search plan, with the matcher's operations on it. */
export class CompiledPattern {
  readonly size: number;
  readonly plan: Uint8Array;

  constructor(pattern: GraphPattern) {
    this.plan = compilePlan(pattern);
    this.size = pattern.labels.length;
  }

  /** Does the pattern match the target? */
  matches(target: MatchTarget): boolean {
    return planMatches(this.plan, 0, target);
  }

  /** The target node matched by each pattern node (in pattern node order), or null when there is no match. */
  embedding(target: MatchTarget): number[] | null {
    if (target.nodeCount < this.size || !search(this.plan, STEPS, this.size, target, 0)) return null;
    const mapping = new Array<number>(this.size);
    for (let step = 0; step < this.size; step++) mapping[this.plan[STEPS + step]] = image[step];
    return mapping;
  }
}

/**
 * Search order: start from the most restrictive node (exact square, rare label, many edges), then repeatedly
 * take the node with most edges to nodes already placed, so each step is reached through an edge.
 */
function planOrder(pattern: GraphPattern): number[] {
  const n = pattern.labels.length;
  const degree = new Array<number>(n).fill(0);
  const neighbours: number[][] = Array.from({ length: n }, () => []);
  for (const [from, to] of pattern.edges) {
    degree[from]++;
    degree[to]++;
    neighbours[from].push(to);
    neighbours[to].push(from);
  }
  const restrictiveness = (v: number): number => {
    const kind = desigKind(pattern.desigs[v]);
    const desigScore = kind === 'exact' ? 100 : kind === 'none' ? 0 : 20;
    const safetyScore = nodeSafety(pattern, v) !== SAFETY_ANY ? 10 : 0;
    return desigScore + safetyScore + LABEL_RARITY[pattern.labels[v]] * 4 + degree[v];
  };
  const placed = new Array<boolean>(n).fill(false);
  const linksToPlaced = new Array<number>(n).fill(0);
  const order: number[] = [];
  while (order.length < n) {
    let best = -1;
    let bestScore = -Infinity;
    for (let v = 0; v < n; v++) {
      if (placed[v]) continue;
      const exact = desigKind(pattern.desigs[v]) === 'exact';
      // An exact square is a direct lookup, always cheapest; otherwise stay connected to what is placed.
      const score = (exact ? 1e6 : 0) + linksToPlaced[v] * 1000 + restrictiveness(v);
      if (score > bestScore || (score === bestScore && v < best)) {
        best = v;
        bestScore = score;
      }
    }
    placed[best] = true;
    order.push(best);
    for (const u of neighbours[best]) linksToPlaced[u]++;
  }
  return order;
}

const compiledCache = new WeakMap<GraphPattern, CompiledPattern>();

/** The compiled form of a pattern, cached on the pattern object. */
export function compilePattern(pattern: GraphPattern): CompiledPattern {
  let compiled = compiledCache.get(pattern);
  if (!compiled) {
    compiled = new CompiledPattern(pattern);
    compiledCache.set(pattern, compiled);
  }
  return compiled;
}

/** Does `pattern` match the position graph (or any match target)? */
export function matches(pattern: GraphPattern, target: MatchTarget): boolean {
  return compilePattern(pattern).matches(target);
}
