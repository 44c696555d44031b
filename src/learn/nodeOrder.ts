/**
 * Node-ordered induced subgraphs (reference section 7): number a position graph's nodes in a connected order
 * from a starting piece, then the first n nodes induce a pattern. Forward ordering starts at the most recently
 * moved piece, reverse ordering at the piece that moves next. Within each breadth-first layer, a checked king
 * ranks first, then pieces, then empty squares; ties break at random (seeded).
 */
import { EDGE_DIRECT, SQUARE_LABEL, labelPieceType, labelSide } from '../graph/labels.ts';
import { MAX_NODES, type PositionGraph } from '../graph/positionGraph.ts';
import { KING } from '../chess/board.ts';
import { inducedPattern, neighbours } from '../pattern/extract.ts';
import type { GraphPattern } from '../pattern/pattern.ts';
import type { Random } from '../util/random.ts';

function isCheckedKing(graph: PositionGraph, node: number): boolean {
  const label = graph.nodeLabel[node];
  if (label === SQUARE_LABEL || labelPieceType(label) !== KING) return false;
  for (let i = graph.inStart[node]; i < graph.inStart[node + 1]; i++) {
    const attacker = graph.inList[i];
    const attackerSide = labelSide(graph.nodeLabel[attacker]);
    if (attackerSide !== labelSide(label) && graph.edges[attacker * MAX_NODES + node] === EDGE_DIRECT) return true;
  }
  return false;
}

function rank(graph: PositionGraph, node: number): number {
  if (isCheckedKing(graph, node)) return 0;
  return graph.nodeLabel[node] === SQUARE_LABEL ? 2 : 1;
}

/** The connected breadth-first order of the nodes reachable from `start` (edges read in both directions). */
export function connectedOrder(graph: PositionGraph, start: number, rng: Random): number[] {
  const order = [start];
  const seen = new Set(order);
  let layer = [start];
  while (layer.length) {
    const next: { node: number; rank: number; tie: number }[] = [];
    for (const node of layer) {
      for (const u of neighbours(graph, node)) {
        if (seen.has(u)) continue;
        seen.add(u);
        next.push({ node: u, rank: rank(graph, u), tie: rng.next() });
      }
    }
    next.sort((a, b) => a.rank - b.rank || a.tie - b.tie);
    layer = next.map((entry) => entry.node);
    order.push(...layer);
  }
  return order;
}

/** The pattern induced by the first `size` nodes of the connected order from `start` (fewer if not reachable). */
export function orderedSubpattern(graph: PositionGraph, start: number, size: number, rng: Random): GraphPattern {
  const order = connectedOrder(graph, start, rng);
  return inducedPattern(graph, order.slice(0, Math.max(1, Math.min(size, order.length))));
}
