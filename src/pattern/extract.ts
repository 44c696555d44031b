/**
 * Patterns cut out of position graphs: the induced subgraph on chosen nodes, with square designations as the
 * reference fixes them: kings, pawns and empty squares keep their exact square; other pieces keep theirs only
 * when they would otherwise be disconnected (no edge to another chosen node).
 */
import { KING, PAWN } from '../chess/board.ts';
import { SQUARE_LABEL, labelPieceType } from '../graph/labels.ts';
import { MAX_NODES, type PositionGraph } from '../graph/positionGraph.ts';
import { DESIG_NONE, exactDesig } from './designation.ts';
import type { GraphPattern } from './pattern.ts';

/** Kings, pawns and empty squares keep their exact square in extracted and specialised patterns. */
export function keepsSquare(label: number): boolean {
  if (label === SQUARE_LABEL) return true;
  const type = labelPieceType(label);
  return type === KING || type === PAWN;
}

/** The induced subpattern of `graph` on `nodes` (graph node indices, in the order the pattern numbers them). */
export function inducedPattern(graph: PositionGraph, nodes: readonly number[]): GraphPattern {
  const labels = nodes.map((v) => graph.nodeLabel[v]);
  const edges: GraphPattern['edges'] = [];
  const connected = new Array<boolean>(nodes.length).fill(false);
  for (let i = 0; i < nodes.length; i++) {
    for (let j = 0; j < nodes.length; j++) {
      const code = graph.edges[nodes[i] * MAX_NODES + nodes[j]];
      if (i === j || code === 0) continue;
      edges.push([i, j, code]);
      connected[i] = connected[j] = true;
    }
  }
  const desigs = nodes.map((v, i) =>
    keepsSquare(labels[i]) || !connected[i] ? exactDesig(graph.nodeSquare[v]) : DESIG_NONE,
  );
  return { kind: 'graph', labels, desigs, edges };
}

/** Graph nodes adjacent (either direction) to `node`. */
export function neighbours(graph: PositionGraph, node: number): number[] {
  const result = new Set<number>();
  for (let i = graph.outStart[node]; i < graph.outStart[node + 1]; i++) result.add(graph.outList[i]);
  for (let i = graph.inStart[node]; i < graph.inStart[node + 1]; i++) result.add(graph.inList[i]);
  return [...result];
}
