/**
 * Move graphs (issue 71, SYLPH's move patterns; docs/move-patterns.md): a move described in the language of position
 * graphs, so that ordinary graph patterns over move graphs are move patterns, stored, induced and retrieved by the
 * same hierarchy machinery as position patterns.
 *
 * The move graph of a move is the position graph BEFORE the move (the mover is the side to move: labels 6..11), plus
 * one node for the move's destination:
 *   - label "square" (SQUARE_LABEL), at the destination square. It is the only square node with out-edges and an
 *     edge into it from a piece, which is how a pattern tells it from an empty square next to a king;
 *   - one edge into it, direct, from the moving piece's node (so the pattern knows which piece type moves);
 *   - edges out of it to every node the moving piece will attack or defend from the destination, typed as in the
 *     position graph after the move (direct, indirect, discovered), and a direct edge to the piece it captures;
 *   - its safety: the moving piece's safety on the destination after the move (unattacked, defended, en prise).
 *     Empty squares have no safety, so a pattern node of label "square" that requires one can only be a destination
 *     (move patterns always keep the destination's safety: src/model/movePatterns.ts);
 *   - its square names it in `squareToNode` when no other node stands there (the square is empty and not next to a
 *     king), so an exact designation of the destination matches; on a capture or a king's neighbour it does not.
 * The other nodes keep what they are before the move, their safety included (a piece that moves away from an attack
 * is en prise at its own node). Castling's rook and a promotion's new piece type show only through the destination's
 * edges (computed on the board after the move).
 */
import { applyMove, cloneBoard, type Board, type CompactMove } from '../chess/board.ts';
import { EDGE_DIRECT, SQUARE_LABEL } from './labels.ts';
import { mirrorSquare } from './normalForm.ts';
import { appendNode, buildPositionGraph, MAX_NODES, PositionGraph } from './positionGraph.ts';

export interface MoveGraph {
  graph: PositionGraph;
  /** The moving piece's node. */
  mover: number;
  /** The destination node (-1 only if the position graph had no room left, MAX_NODES). */
  destination: number;
}

/**
 * A label of the graph after the move as the graph before it names the same thing: the two normal forms have the
 * other side to move, so "moved" and "to move" swap; an empty square stays one.
 */
const sameLabelBefore = (label: number): number => (label === SQUARE_LABEL ? SQUARE_LABEL : (label + 6) % 12);

// Scratch (move graphs are built synchronously, never nested).
const afterGraph = new PositionGraph();
let afterBoard: Board | null = null;
const outEdges: [number, number][] = [];

/**
 * The move graph of `move` (legal) in `board`, built into `graph`. `before`, when given, is the already built
 * position graph of `board` (one per position, shared by all its moves); otherwise it is built here.
 */
export function buildMoveGraph(board: Board, move: CompactMove, graph = new PositionGraph(), before?: PositionGraph): MoveGraph {
  if (before) before.copyInto(graph);
  else buildPositionGraph(board, graph);
  const toNormal = (real: number) => (graph.mirrored ? mirrorSquare(real) : real);
  const mover = graph.squareToNode[toNormal(move.from)];
  if (afterBoard === null) afterBoard = cloneBoard(board);
  const after = afterBoard;
  const captured = applyMove(board, move, after);
  buildPositionGraph(after, afterGraph);
  // The after graph is in its own normal form (the other side to move): real squares translate between the two.
  const afterReal = (sq: number) => (afterGraph.mirrored ? mirrorSquare(sq) : sq);
  const moved = afterGraph.squareToNode[afterGraph.mirrored ? mirrorSquare(move.to) : move.to];
  outEdges.length = 0;
  for (let i = afterGraph.outStart[moved]; i < afterGraph.outStart[moved + 1]; i++) {
    const target = afterGraph.outList[i];
    const node = graph.squareToNode[toNormal(afterReal(afterGraph.nodeSquare[target]))];
    // Only a node that is the same thing before the move (not the mover's origin, nor castling's rook square).
    if (node < 0 || node === mover || graph.nodeLabel[node] !== sameLabelBefore(afterGraph.nodeLabel[target])) continue;
    outEdges.push([node, afterGraph.edges[moved * MAX_NODES + target]]);
  }
  if (captured !== 0) {
    // The captured piece: on the destination, or beside it (en passant).
    const victimSquare = board.squares[move.to] !== 0 ? move.to : move.to + (move.to > move.from ? -8 : 8);
    const victim = graph.squareToNode[toNormal(victimSquare)];
    if (victim >= 0) outEdges.push([victim, EDGE_DIRECT]);
  }
  const square = toNormal(move.to);
  const destination = appendNode(graph, square, SQUARE_LABEL, afterGraph.nodeSafety[moved], outEdges, [[mover, EDGE_DIRECT]]);
  // The square names the destination node when it names no other (a quiet move's destination is seldom a node): a
  // pattern can then designate the destination's exact square (the matcher finds exact squares through squareToNode).
  if (destination >= 0 && graph.squareToNode[square] < 0) graph.squareToNode[square] = destination;
  return { graph, mover, destination };
}

/**
 * Move graphs kept for reuse, for callers that retrieve several moves' graphs together: the k-th graph is rebuilt
 * in place for each new set of moves.
 */
export class MoveGraphPool {
  private readonly graphs: PositionGraph[] = [];

  build(k: number, board: Board, move: CompactMove, before: PositionGraph): MoveGraph {
    if (this.graphs.length <= k) this.graphs.push(new PositionGraph());
    return buildMoveGraph(board, move, this.graphs[k], before);
  }

  first(count: number): PositionGraph[] {
    return this.graphs.slice(0, count);
  }
}
