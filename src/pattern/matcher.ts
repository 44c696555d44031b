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
import { MAX_NODES } from '../graph/positionGraph.ts';
import { desigKind, desigSatisfies, desigSquare } from './designation.ts';
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
 * The search plan, packed into one byte array (one allocation per pattern keeps 100k compiled patterns small):
 *   [0]                      n, the node count
 *   [1 .. 1+n)               pattern node placed at each step
 *   [1+n .. 1+2n)            label of each step
 *   [1+2n .. 1+3n)           designation code of each step
 *   [1+3n .. 1+4n)           required safety of each step (0 = any)
 *   [1+4n .. 2+5n)           constraint start index of each step, n+1 entries (constraints are few, < 256)
 *   then 3 bytes per constraint: earlier step, incoming flag (1: edge earlier -> this), edge code
 * Label needs, as (label, count) pairs, follow the constraints; their start is kept in `needsStart`.
 */
export class CompiledPattern {
  readonly size: number;
  private readonly plan: Uint8Array;
  private readonly needsStart: number;
  /** Two-node one-edge patterns without designations: (from label * 13 + to label) * 3 + code - 1, or -1. */
  private readonly tripleBit: number;
  private readonly tripleAnyType: boolean;

  constructor(pattern: GraphPattern) {
    const n = pattern.labels.length;
    this.size = n;
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

    const consBase = 2 + 5 * n;
    this.needsStart = consBase + 3 * constraints.length;
    const plan = new Uint8Array(this.needsStart + needs.length);
    plan[0] = n;
    order.forEach((v, s) => {
      plan[1 + s] = v;
      plan[1 + n + s] = pattern.labels[v];
      plan[1 + 2 * n + s] = pattern.desigs[v];
      plan[1 + 3 * n + s] = nodeSafety(pattern, v);
    });
    for (const c of constraints) plan[2 + 4 * n + c.step]++;
    for (let s = 0; s < n; s++) plan[2 + 4 * n + s] += plan[1 + 4 * n + s];
    constraints.forEach((c, i) => {
      plan[consBase + 3 * i] = c.other;
      plan[consBase + 3 * i + 1] = c.incoming;
      plan[consBase + 3 * i + 2] = c.code;
    });
    plan.set(needs, this.needsStart);
    this.plan = plan;

    const [edge] = pattern.edges;
    const isTriple =
      n === 2 && pattern.edges.length === 1 && pattern.desigs[0] === 0 && pattern.desigs[1] === 0 && !usesSafety(pattern);
    this.tripleAnyType = isTriple && edge[2] === EDGE_ATTACKS;
    this.tripleBit = isTriple
      ? (pattern.labels[edge[0]] * LABEL_COUNT + pattern.labels[edge[1]]) * 3 + (this.tripleAnyType ? 0 : edge[2] - 1)
      : -1;
  }

  /** Does the pattern match the target? */
  matches(target: MatchTarget): boolean {
    if (target.nodeCount < this.size) return false;
    const plan = this.plan;
    for (let i = this.needsStart; i < plan.length; i += 2) {
      const label = plan[i];
      if (target.labelStart[label + 1] - target.labelStart[label] < plan[i + 1]) return false;
    }
    if (this.tripleBit >= 0) {
      const bits = (target as { tripleBits?: Uint32Array }).tripleBits;
      if (bits) return this.matchesTriple(bits);
    }
    return this.search(target, 0);
  }

  /** The target node matched by each pattern node (in pattern node order), or null when there is no match. */
  embedding(target: MatchTarget): number[] | null {
    if (target.nodeCount < this.size || !this.search(target, 0)) return null;
    const mapping = new Array<number>(this.size);
    for (let s = 0; s < this.size; s++) mapping[this.plan[1 + s]] = image[s];
    return mapping;
  }

  private matchesTriple(bits: Uint32Array): boolean {
    const first = this.tripleBit;
    for (let bit = first; bit < first + (this.tripleAnyType ? 3 : 1); bit++) {
      if (bits[bit >>> 5] & (1 << (bit & 31))) return true;
    }
    return false;
  }

  private search(target: MatchTarget, step: number): boolean {
    const n = this.size;
    if (step === n) return true;
    const plan = this.plan;
    const desig = plan[1 + 2 * n + step];
    if (desig > 0 && desig < 65) {
      // An exact square: a direct lookup.
      const candidate = target.squareToNode[desig - 1];
      return candidate >= 0 && this.tryCandidate(target, step, candidate);
    }
    const first = plan[1 + 4 * n + step];
    if (first < plan[2 + 4 * n + step]) {
      // Walk the neighbours of the node placed for the most restrictive constraint.
      const at = 2 + 5 * n + 3 * first;
      const anchor = image[plan[at]];
      if (plan[at + 1]) {
        for (let i = target.outStart[anchor], end = target.outStart[anchor + 1]; i < end; i++) {
          if (this.tryCandidate(target, step, target.outList[i])) return true;
        }
      } else {
        for (let i = target.inStart[anchor], end = target.inStart[anchor + 1]; i < end; i++) {
          if (this.tryCandidate(target, step, target.inList[i])) return true;
        }
      }
      return false;
    }
    const label = plan[1 + n + step];
    for (let i = target.labelStart[label], end = target.labelStart[label + 1]; i < end; i++) {
      if (this.tryCandidate(target, step, target.labelNodes[i])) return true;
    }
    return false;
  }

  private tryCandidate(target: MatchTarget, step: number, candidate: number): boolean {
    const plan = this.plan;
    const n = this.size;
    if (used[candidate] || target.nodeLabel[candidate] !== plan[1 + n + step]) return false;
    if (!desigSatisfies(plan[1 + 2 * n + step], target.nodeDesig[candidate])) return false;
    const safety = plan[1 + 3 * n + step];
    if (safety !== SAFETY_ANY && target.nodeSafety[candidate] !== safety) return false;
    for (let c = plan[1 + 4 * n + step], end = plan[2 + 4 * n + step]; c < end; c++) {
      const at = 2 + 5 * n + 3 * c;
      const other = image[plan[at]];
      const found = plan[at + 1] ? target.edges[other * MAX_NODES + candidate] : target.edges[candidate * MAX_NODES + other];
      const wanted = plan[at + 2];
      // "attacks" accepts any edge type; a pattern target's generic edge only satisfies "attacks" itself.
      if (found === 0 || (wanted !== EDGE_ATTACKS && found !== wanted)) return false;
    }
    image[step] = candidate;
    used[candidate] = 1;
    const ok = this.search(target, step + 1);
    used[candidate] = 0;
    return ok;
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
