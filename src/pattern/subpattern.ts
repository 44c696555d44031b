/**
 * subpattern-of (reference section 3): P <= Q when P matches Q read as a graph. Q's designations and generic
 * edges are read conservatively: a designation (or safety) in P must be implied by Q's, and an edge of a specific type in
 * P needs that type in Q, so P <= Q and Q matching a position imply P matches it. This is the partial order
 * the hierarchy stores.
 */
import { LABEL_COUNT } from '../graph/labels.ts';
import { MAX_NODES } from '../graph/positionGraph.ts';
import { desigSquare } from './designation.ts';
import { compilePattern, type MatchTarget } from './matcher.ts';
import { nodeSafety, type GraphPattern } from './pattern.ts';

/**
 * A graph pattern laid out as a match target. Reusable: `load` refills it in place, because insertion tests a
 * new pattern against thousands of others and allocating a 2 KB edge matrix for each dominated its cost.
 */
export class PatternTarget implements MatchTarget {
  nodeCount = 0;
  readonly nodeLabel = new Uint8Array(MAX_NODES);
  readonly nodeDesig = new Uint8Array(MAX_NODES);
  readonly nodeSafety = new Uint8Array(MAX_NODES);
  readonly squareToNode = new Int8Array(64).fill(-1);
  readonly edges = new Uint8Array(MAX_NODES * MAX_NODES);
  readonly outStart = new Uint16Array(MAX_NODES + 1);
  readonly outList = new Uint8Array(MAX_NODES * MAX_NODES);
  readonly inStart = new Uint16Array(MAX_NODES + 1);
  readonly inList = new Uint8Array(MAX_NODES * MAX_NODES);
  readonly labelStart = new Uint8Array(LABEL_COUNT + 1);
  readonly labelNodes = new Uint8Array(MAX_NODES);
  private loaded: GraphPattern | null = null;

  constructor(pattern?: GraphPattern) {
    if (pattern) this.load(pattern);
  }

  load(pattern: GraphPattern): this {
    if (pattern === this.loaded) return this;
    const previous = this.loaded;
    if (previous) {
      // Clear only what the previous pattern set.
      for (const [from, to] of previous.edges) this.edges[from * MAX_NODES + to] = 0;
      for (const desig of previous.desigs) {
        const sq = desigSquare(desig);
        if (sq >= 0) this.squareToNode[sq] = -1;
      }
    }
    this.loaded = pattern;
    const n = pattern.labels.length;
    const edges = pattern.edges;
    this.nodeCount = n;
    this.outStart.fill(0, 0, n + 1);
    this.inStart.fill(0, 0, n + 1);
    this.labelStart.fill(0);
    for (let v = 0; v < n; v++) {
      this.nodeLabel[v] = pattern.labels[v];
      this.nodeDesig[v] = pattern.desigs[v];
      this.nodeSafety[v] = nodeSafety(pattern, v);
      const sq = desigSquare(pattern.desigs[v]);
      if (sq >= 0) this.squareToNode[sq] = v;
      this.labelStart[pattern.labels[v] + 1]++;
    }
    for (const [from, to, code] of edges) {
      this.edges[from * MAX_NODES + to] = code;
      this.outStart[from + 1]++;
      this.inStart[to + 1]++;
    }
    for (let v = 0; v < n; v++) {
      this.outStart[v + 1] += this.outStart[v];
      this.inStart[v + 1] += this.inStart[v];
    }
    for (let l = 0; l < LABEL_COUNT; l++) this.labelStart[l + 1] += this.labelStart[l];
    // Fill cursors in shared scratch: insertion loads thousands of candidates, and allocating them showed.
    for (let v = 0; v < n; v++) {
      outFill[v] = this.outStart[v];
      inFill[v] = this.inStart[v];
    }
    for (let i = 0; i < edges.length; i++) {
      const from = edges[i][0];
      const to = edges[i][1];
      this.outList[outFill[from]++] = to;
      this.inList[inFill[to]++] = from;
    }
    for (let l = 0; l < LABEL_COUNT; l++) labelFill[l] = this.labelStart[l];
    for (let v = 0; v < n; v++) this.labelNodes[labelFill[pattern.labels[v]]++] = v;
    return this;
  }
}

const outFill = new Uint16Array(MAX_NODES);
const inFill = new Uint16Array(MAX_NODES);
const labelFill = new Uint8Array(LABEL_COUNT);

// Two shared targets: the new pattern during an insertion's top-down walk, and the candidate under test.
const walkTarget = new PatternTarget();
const testTarget = new PatternTarget();

/** The shared target holding `pattern` for a top-down walk (valid until the next call). */
export function patternTarget(pattern: GraphPattern): PatternTarget {
  return walkTarget.load(pattern);
}

/** P <= Q: every position Q matches, P matches too. */
export function isSubpattern(p: GraphPattern, q: GraphPattern): boolean {
  if (p.labels.length > q.labels.length || p.edges.length > q.edges.length) return false;
  return compilePattern(p).matches(testTarget.load(q));
}

/** The node of Q that each node of P maps to, when P <= Q (the mapping kept on hierarchy links). */
export function subpatternMapping(p: GraphPattern, q: GraphPattern): number[] | null {
  if (p.labels.length > q.labels.length || p.edges.length > q.edges.length) return null;
  return compilePattern(p).embedding(testTarget.load(q));
}
