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
import { EDGE_ATTACKS, LABEL_COUNT } from '../graph/labels.ts';
import { MAX_NODES } from '../graph/positionGraph.ts';
import { desigKind, desigSatisfies, desigSquare } from './designation.ts';
import type { GraphPattern } from './pattern.ts';

/** What the matcher needs of a target graph. PositionGraph has this shape; so does PatternTarget. */
export interface MatchTarget {
  nodeCount: number;
  readonly nodeLabel: Uint8Array;
  readonly nodeDesig: Uint8Array;
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

export class CompiledPattern {
  readonly size: number;
  /** Pattern node placed at each search step. */
  readonly order: Uint8Array;
  readonly stepLabel: Uint8Array;
  readonly stepDesig: Uint8Array;
  /** Exact square to look up directly, or -1. */
  readonly stepSquare: Int8Array;
  /** Constraints of step s: consStart[s] .. consStart[s+1]. */
  readonly consStart: Uint16Array;
  /** Earlier step the constraint refers to. */
  readonly consStep: Uint8Array;
  /** 1: edge from the earlier node to this one; 0: edge from this node to the earlier one. */
  readonly consIncoming: Uint8Array;
  readonly consCode: Uint8Array;
  /** Label counts the target must have, as (label, count) pairs. */
  readonly labelNeeds: Uint8Array;
  /** Fast path for one-edge two-node patterns without designations: [fromLabel, toLabel, code] or empty. */
  readonly triple: readonly number[];
  /** Scratch: target node chosen at each step, and which target nodes are taken. */
  readonly image: Int8Array;
  private readonly used = new Uint8Array(MAX_NODES);

  constructor(readonly pattern: GraphPattern) {
    const n = pattern.labels.length;
    this.size = n;
    const order = planOrder(pattern);
    this.order = Uint8Array.from(order);
    const stepOf = new Array<number>(n);
    order.forEach((v, s) => (stepOf[v] = s));
    this.stepLabel = Uint8Array.from(order, (v) => pattern.labels[v]);
    this.stepDesig = Uint8Array.from(order, (v) => pattern.desigs[v]);
    this.stepSquare = Int8Array.from(order, (v) => desigSquare(pattern.desigs[v]));
    const constraints: { step: number; other: number; incoming: number; code: number }[] = [];
    for (const [from, to, code] of pattern.edges) {
      const a = stepOf[from];
      const b = stepOf[to];
      if (a < b) constraints.push({ step: b, other: a, incoming: 1, code });
      else constraints.push({ step: a, other: b, incoming: 0, code });
    }
    constraints.sort((x, y) => x.step - y.step || EDGE_RARITY[y.code] - EDGE_RARITY[x.code] || x.other - y.other);
    this.consStart = new Uint16Array(n + 1);
    for (const c of constraints) this.consStart[c.step + 1]++;
    for (let s = 0; s < n; s++) this.consStart[s + 1] += this.consStart[s];
    this.consStep = Uint8Array.from(constraints, (c) => c.other);
    this.consIncoming = Uint8Array.from(constraints, (c) => c.incoming);
    this.consCode = Uint8Array.from(constraints, (c) => c.code);
    const counts = new Array<number>(LABEL_COUNT).fill(0);
    for (const label of pattern.labels) counts[label]++;
    const needs: number[] = [];
    counts.forEach((count, label) => count > 0 && needs.push(label, count));
    this.labelNeeds = Uint8Array.from(needs);
    const [edge] = pattern.edges;
    this.triple =
      n === 2 && pattern.edges.length === 1 && pattern.desigs[0] === 0 && pattern.desigs[1] === 0
        ? [pattern.labels[edge[0]], pattern.labels[edge[1]], edge[2]]
        : [];
    this.image = new Int8Array(n).fill(-1);
  }

  /** Does the pattern match the target? On success `image[s]` holds the target node of step s. */
  matches(target: MatchTarget): boolean {
    if (target.nodeCount < this.size) return false;
    const needs = this.labelNeeds;
    for (let i = 0; i < needs.length; i += 2) {
      const label = needs[i];
      if (target.labelStart[label + 1] - target.labelStart[label] < needs[i + 1]) return false;
    }
    if (this.triple.length) return this.matchesTriple(target);
    return this.search(target, 0);
  }

  /** The target node matched by each pattern node (in pattern node order), or null when there is no match. */
  embedding(target: MatchTarget): number[] | null {
    if (!this.matches(target)) return null;
    if (this.triple.length) this.search(target, 0); // the fast path records no image
    const mapping = new Array<number>(this.size);
    for (let s = 0; s < this.size; s++) mapping[this.order[s]] = this.image[s];
    return mapping;
  }

  private matchesTriple(target: MatchTarget): boolean {
    const [fromLabel, toLabel, code] = this.triple;
    const bits = (target as { tripleBits?: Uint32Array }).tripleBits;
    if (!bits) return this.search(target, 0);
    for (let type = 1; type <= 3; type++) {
      if (code !== EDGE_ATTACKS && code !== type) continue;
      const bit = (fromLabel * LABEL_COUNT + toLabel) * 3 + type - 1;
      if (bits[bit >>> 5] & (1 << (bit & 31))) return true;
    }
    return false;
  }

  private search(target: MatchTarget, step: number): boolean {
    if (step === this.size) return true;
    const square = this.stepSquare[step];
    if (square >= 0) {
      const candidate = target.squareToNode[square];
      return candidate >= 0 && this.tryCandidate(target, step, candidate);
    }
    const first = this.consStart[step];
    if (first < this.consStart[step + 1]) {
      // Walk the neighbours of the node placed for the most restrictive constraint.
      const anchor = this.image[this.consStep[first]];
      if (this.consIncoming[first]) {
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
    const label = this.stepLabel[step];
    for (let i = target.labelStart[label], end = target.labelStart[label + 1]; i < end; i++) {
      if (this.tryCandidate(target, step, target.labelNodes[i])) return true;
    }
    return false;
  }

  private tryCandidate(target: MatchTarget, step: number, candidate: number): boolean {
    if (this.used[candidate] || target.nodeLabel[candidate] !== this.stepLabel[step]) return false;
    if (!desigSatisfies(this.stepDesig[step], target.nodeDesig[candidate])) return false;
    for (let c = this.consStart[step], end = this.consStart[step + 1]; c < end; c++) {
      const other = this.image[this.consStep[c]];
      const found = this.consIncoming[c]
        ? target.edges[other * MAX_NODES + candidate]
        : target.edges[candidate * MAX_NODES + other];
      const wanted = this.consCode[c];
      // "attacks" accepts any edge type; a pattern target's generic edge only satisfies "attacks" itself.
      if (found === 0 || (wanted !== EDGE_ATTACKS && found !== wanted)) return false;
    }
    this.image[step] = candidate;
    this.used[candidate] = 1;
    const ok = this.search(target, step + 1);
    this.used[candidate] = 0;
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
    return desigScore + LABEL_RARITY[pattern.labels[v]] * 4 + degree[v];
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
