/**
 * subpattern-of (reference section 3): P <= Q when P matches Q read as a graph. Q's designations and generic
 * edges are read conservatively: a designation in P must be implied by Q's, and an edge of a specific type in
 * P needs that type in Q, so P <= Q and Q matching a position imply P matches it. This is the partial order
 * the hierarchy stores.
 */
import { LABEL_COUNT } from '../graph/labels.ts';
import { MAX_NODES } from '../graph/positionGraph.ts';
import { desigSquare } from './designation.ts';
import { compilePattern, type MatchTarget } from './matcher.ts';
import type { GraphPattern } from './pattern.ts';

/** A graph pattern laid out as a match target. */
export class PatternTarget implements MatchTarget {
  nodeCount: number;
  readonly nodeLabel: Uint8Array;
  readonly nodeDesig: Uint8Array;
  readonly squareToNode = new Int8Array(64).fill(-1);
  readonly edges = new Uint8Array(MAX_NODES * MAX_NODES);
  readonly outStart: Uint16Array;
  readonly outList: Uint8Array;
  readonly inStart: Uint16Array;
  readonly inList: Uint8Array;
  readonly labelStart = new Uint8Array(LABEL_COUNT + 1);
  readonly labelNodes: Uint8Array;

  constructor(pattern: GraphPattern) {
    const n = pattern.labels.length;
    this.nodeCount = n;
    this.nodeLabel = Uint8Array.from(pattern.labels);
    this.nodeDesig = Uint8Array.from(pattern.desigs);
    pattern.desigs.forEach((desig, v) => {
      const sq = desigSquare(desig);
      if (sq >= 0) this.squareToNode[sq] = v;
    });
    const out: number[][] = Array.from({ length: n }, () => []);
    const inc: number[][] = Array.from({ length: n }, () => []);
    for (const [from, to, code] of pattern.edges) {
      this.edges[from * MAX_NODES + to] = code;
      out[from].push(to);
      inc[to].push(from);
    }
    [this.outStart, this.outList] = toCsr(out);
    [this.inStart, this.inList] = toCsr(inc);
    const byLabel: number[][] = Array.from({ length: LABEL_COUNT }, () => []);
    pattern.labels.forEach((label, v) => byLabel[label].push(v));
    [, this.labelNodes] = toCsr(byLabel);
    this.labelStart.set(toCsr(byLabel)[0]);
  }
}

function toCsr(lists: number[][]): [Uint16Array, Uint8Array] {
  const start = new Uint16Array(lists.length + 1);
  lists.forEach((list, i) => (start[i + 1] = start[i] + list.length));
  return [start, Uint8Array.from(lists.flat())];
}

// One-entry cache: insertion tests many patterns against the same new pattern. A cache per pattern would cost
// a 2 KB edge matrix for each of 100k patterns.
let lastPattern: GraphPattern | null = null;
let lastTarget: PatternTarget | null = null;

export function patternTarget(pattern: GraphPattern): PatternTarget {
  if (pattern !== lastPattern) {
    lastTarget = new PatternTarget(pattern);
    lastPattern = pattern;
  }
  return lastTarget!;
}

/** P <= Q: every position Q matches, P matches too. */
export function isSubpattern(p: GraphPattern, q: GraphPattern): boolean {
  if (p.labels.length > q.labels.length || p.edges.length > q.edges.length) return false;
  return compilePattern(p).matches(patternTarget(q));
}

/** The node of Q that each node of P maps to, when P <= Q (the mapping kept on hierarchy links). */
export function subpatternMapping(p: GraphPattern, q: GraphPattern): number[] | null {
  if (p.labels.length > q.labels.length || p.edges.length > q.edges.length) return null;
  return compilePattern(p).embedding(patternTarget(q));
}
