/**
 * The user-facing form of a position graph: real squares and real colours (the normal form is internal).
 * Nodes are sorted by square name, edges by (from, to) square names, so the output is stable and diffable.
 */
import { squareName } from '../chess/board.ts';
import { mirrorSquare } from './normalForm.ts';
import { SAFETY_NAMES, edgeTypeName, labelPiece, labelSide, type EdgeType, type SafetyName } from './labels.ts';
import type { PositionGraph } from './positionGraph.ts';
import type { PieceLetter } from '../chess/board.ts';

export type GraphJsonNode =
  | { square: string; kind: 'piece'; color: 'w' | 'b'; piece: PieceLetter; safety: SafetyName }
  | { square: string; kind: 'square' };

export interface GraphJson {
  fen: string;
  /** Who moves next in the real position; the normal form puts this side as Black. */
  turn: 'w' | 'b';
  nodes: GraphJsonNode[];
  edges: { from: string; to: string; type: EdgeType }[];
  /** Piece-count difference: side that just moved minus side to move. */
  material: { P: number; N: number; B: number; R: number; Q: number };
}

/** Real square name of a normal-form square. */
export function realSquareName(graph: PositionGraph, normalSquare: number): string {
  return squareName(graph.mirrored ? mirrorSquare(normalSquare) : normalSquare);
}

/** Real colour of a label's side: the side that just moved is Black when White is to move. */
export function realColor(graph: PositionGraph, side: 'moved' | 'toMove'): 'w' | 'b' {
  const movedIsWhite = !graph.mirrored;
  return (side === 'moved') === movedIsWhite ? 'w' : 'b';
}

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function graphToJson(graph: PositionGraph, fen: string): GraphJson {
  const nodes: GraphJsonNode[] = [];
  for (let v = 0; v < graph.nodeCount; v++) {
    const square = realSquareName(graph, graph.nodeSquare[v]);
    const label = graph.nodeLabel[v];
    const side = labelSide(label);
    if (side === null) nodes.push({ square, kind: 'square' });
    else {
      const safety = SAFETY_NAMES[graph.nodeSafety[v]];
      nodes.push({ square, kind: 'piece', color: realColor(graph, side), piece: labelPiece(label) as PieceLetter, safety });
    }
  }
  nodes.sort((a, b) => byName(a.square, b.square));
  const edges: GraphJson['edges'] = [];
  for (let a = 0; a < graph.nodeCount; a++) {
    for (let i = graph.outStart[a]; i < graph.outStart[a + 1]; i++) {
      const b = graph.outList[i];
      edges.push({
        from: realSquareName(graph, graph.nodeSquare[a]),
        to: realSquareName(graph, graph.nodeSquare[b]),
        type: edgeTypeName(graph.edgeType(a, b)),
      });
    }
  }
  edges.sort((x, y) => byName(x.from, y.from) || byName(x.to, y.to));
  const [P, N, B, R, Q] = graph.material;
  return { fen, turn: graph.mirrored ? 'w' : 'b', nodes, edges, material: { P, N, B, R, Q } };
}

const PIECE_GLYPH: Record<string, string> = { P: 'P', N: 'N', B: 'B', R: 'R', Q: 'Q', K: 'K' };

/** A text diagram of the board (real orientation, White at the bottom) with graph nodes marked, then the edges. */
export function graphToText(json: GraphJson): string {
  const cells = new Map<string, string>();
  for (const node of json.nodes) {
    if (node.kind === 'square') cells.set(node.square, '*');
    else cells.set(node.square, node.color === 'w' ? PIECE_GLYPH[node.piece] : PIECE_GLYPH[node.piece].toLowerCase());
  }
  const lines: string[] = [];
  for (let rank = 8; rank >= 1; rank--) {
    let row = `${rank} `;
    for (const file of 'abcdefgh') row += ' ' + (cells.get(file + rank) ?? '.');
    lines.push(row);
  }
  lines.push('   a b c d e f g h');
  lines.push(`${json.turn === 'w' ? 'White' : 'Black'} to move. '*' marks an empty square next to a king.`);
  const m = json.material;
  lines.push(`Material (side that just moved minus side to move): P ${m.P} N ${m.N} B ${m.B} R ${m.R} Q ${m.Q}`);
  lines.push(`${json.nodes.length} nodes, ${json.edges.length} edges:`);
  for (const edge of json.edges) lines.push(`  ${edge.from} -> ${edge.to}  ${edge.type}`);
  return lines.join('\n');
}
