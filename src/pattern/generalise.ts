/**
 * Generalisation (reference section 7, the paper's Figure 1): the maximum common subgraph of two patterns.
 * Nodes pair up only with nodes of the same label; the common pattern keeps the edges both have, with the
 * generic "attacks" type where their types differ, the most specific designation both satisfy, and a safety
 * only where both require the same one. The result
 * is a subpattern of both. Patterns are small (<= ~8 nodes), so an exhaustive search with a bound is fine.
 */
import { EDGE_ATTACKS, SAFETY_ANY } from '../graph/labels.ts';
import { commonDesig } from './designation.ts';
import { nodeSafety, withSafety, type GraphPattern } from './pattern.ts';

function edgeMatrix(pattern: GraphPattern): number[][] {
  const n = pattern.labels.length;
  const matrix = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (const [from, to, code] of pattern.edges) matrix[from][to] = code;
  return matrix;
}

/** The largest connected common subpattern (most edges, then most nodes), or null if it has no edge. */
export function maximumCommonSubpattern(p: GraphPattern, q: GraphPattern): GraphPattern | null {
  const pEdges = edgeMatrix(p);
  const qEdges = edgeMatrix(q);
  const n = p.labels.length;
  const mapping = new Array<number>(n).fill(-1);
  const usedQ = new Array<boolean>(q.labels.length).fill(false);
  let best: number[] | null = null;
  let bestScore = -1;
  const maxEdges = Math.min(p.edges.length, q.edges.length);
  // A bound on the search for patterns with many same-label nodes: the best found so far is kept.
  let budget = 200_000;

  const commonEdges = (): number => {
    let count = 0;
    for (let i = 0; i < n; i++) {
      if (mapping[i] < 0) continue;
      for (let j = 0; j < n; j++) if (mapping[j] >= 0 && pEdges[i][j] && qEdges[mapping[i]][mapping[j]]) count++;
    }
    return count;
  };
  const visit = (i: number): void => {
    if (bestScore >= maxEdges * 100 + n || budget-- <= 0) return; // cannot do better, or out of budget
    if (i === n) {
      const score = commonEdges() * 100 + mapping.filter((m) => m >= 0).length;
      if (score > bestScore) {
        bestScore = score;
        best = [...mapping];
      }
      return;
    }
    for (let u = 0; u < q.labels.length; u++) {
      if (usedQ[u] || q.labels[u] !== p.labels[i]) continue;
      mapping[i] = u;
      usedQ[u] = true;
      visit(i + 1);
      usedQ[u] = false;
      mapping[i] = -1;
    }
    visit(i + 1); // leave node i out
  };
  visit(0);
  if (!best) return null;
  return largestComponent(p, q, best, pEdges, qEdges);
}

function largestComponent(
  p: GraphPattern,
  q: GraphPattern,
  mapping: number[],
  pEdges: number[][],
  qEdges: number[][],
): GraphPattern | null {
  const nodes = mapping.map((m, i) => (m >= 0 ? i : -1)).filter((i) => i >= 0);
  const shared = (i: number, j: number) => pEdges[i][j] !== 0 && qEdges[mapping[i]][mapping[j]] !== 0;
  const component = new Map<number, number>();
  let largest: number[] = [];
  for (const start of nodes) {
    if (component.has(start)) continue;
    const members = [start];
    component.set(start, start);
    for (let k = 0; k < members.length; k++) {
      for (const other of nodes) {
        if (!component.has(other) && (shared(members[k], other) || shared(other, members[k]))) {
          component.set(other, start);
          members.push(other);
        }
      }
    }
    if (members.length > largest.length) largest = members;
  }
  if (largest.length < 2) return null;
  largest.sort((a, b) => a - b);
  const index = new Map(largest.map((node, k) => [node, k]));
  const edges: GraphPattern['edges'] = [];
  for (const i of largest) {
    for (const j of largest) {
      if (!shared(i, j)) continue;
      const a = pEdges[i][j];
      const b = qEdges[mapping[i]][mapping[j]];
      edges.push([index.get(i)!, index.get(j)!, a === b ? a : EDGE_ATTACKS]);
    }
  }
  const common: GraphPattern = {
    kind: 'graph',
    labels: largest.map((i) => p.labels[i]),
    desigs: largest.map((i) => commonDesig(p.desigs[i], q.desigs[mapping[i]])),
    edges,
  };
  // A safety both require is kept; where they differ, the common pattern says nothing.
  return withSafety(common, largest.map((i) => (nodeSafety(p, i) === nodeSafety(q, mapping[i]) ? nodeSafety(p, i) : SAFETY_ANY)));
}
