/**
 * Patterns cut out of position graphs: the induced subgraph on chosen nodes, with square designations as the
 * reference fixes them: kings, pawns and empty squares keep their exact square; other pieces keep theirs only
 * when they would otherwise be disconnected (no edge to another chosen node).
 *
 * Safety (the extended language): a node keeps only "en prise". Requiring "unattacked" or "defended" of every
 * piece would make each pattern match far fewer positions; the pattern without the requirement already covers
 * them, and the en-prise one is its more specific child. A learner in the paper's language drops even that
 * (pattern.ts withoutSafety).
 */
import { KING, PAWN } from '../chess/board.ts';
import { SAFETY_ANY, SAFETY_EN_PRISE, SQUARE_LABEL, labelPieceType } from '../graph/labels.ts';
import { MAX_NODES, type PositionGraph } from '../graph/positionGraph.ts';
import { DESIG_NONE, exactDesig } from './designation.ts';
import { withSafety, type GraphPattern } from './pattern.ts';

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
  return withSafety({ kind: 'graph', labels, desigs, edges }, nodes.map((v) => extractedSafety(graph, v)));
}

/** The safety an extracted pattern node requires: en prise when the piece is, otherwise any. */
export function extractedSafety(graph: PositionGraph, node: number): number {
  return graph.nodeSafety[node] === SAFETY_EN_PRISE ? SAFETY_EN_PRISE : SAFETY_ANY;
}

/** Graph nodes adjacent (either direction) to `node`. */
export function neighbours(graph: PositionGraph, node: number): number[] {
  const result = new Set<number>();
  for (let i = graph.outStart[node]; i < graph.outStart[node + 1]; i++) result.add(graph.outList[i]);
  for (let i = graph.inStart[node]; i < graph.inStart[node + 1]; i++) result.add(graph.inList[i]);
  return [...result];
}
