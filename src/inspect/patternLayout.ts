/**
 * What a pattern drawing shows, shared by the text diagram and the SVG board: each node's letter and where it
 * goes, each edge's type and whether it attacks, defends or covers an empty square.
 *
 * Squares are NORMAL-FORM squares: a pattern belongs to no real position, so it is drawn as the side that just
 * moved being White, moving up the board (the side to move is Black). A node may carry an exact square, only a
 * rank, only a file, or nothing; only exact squares go on the board.
 */
import { squareName, type PieceLetter } from '../chess/board.ts';
import { edgeTypeName, labelPiece, labelSide, type EdgeType, type Side } from '../graph/labels.ts';
import { desigKind, desigSquare } from '../pattern/designation.ts';
import type { GraphPattern } from '../pattern/pattern.ts';

export type NodePlace =
  | { kind: 'square'; square: number }
  | { kind: 'rank'; rank: number }
  | { kind: 'file'; file: number }
  | { kind: 'anywhere' };

export interface DrawnNode {
  index: number;
  piece: PieceLetter | 'square';
  side: Side | null;
  /** Upper case for the side that just moved (White), lower case for the side to move, '*' an empty square. */
  letter: string;
  place: NodePlace;
  /** e.g. "#0 N  knight of the side that just moved (White), on f3". */
  text: string;
}

export type EdgeRelation = 'attack' | 'defend' | 'square';

export interface DrawnEdge {
  from: number;
  to: number;
  type: EdgeType;
  relation: EdgeRelation;
}

export const NORMAL_FORM_LEGEND =
  'Normal form: the side that just moved is White (upper case), moving up the board; the side to move is Black ' +
  "(lower case); '*' is an empty square next to a king.";

const PIECE_NAMES: Record<PieceLetter, string> = { P: 'pawn', N: 'knight', B: 'bishop', R: 'rook', Q: 'queen', K: 'king' };

export const EDGE_MEANINGS: Record<EdgeType, string> = {
  direct: 'direct',
  indirect: 'x-ray through an enemy piece (pin, skewer)',
  discovered: 'x-ray through an own piece (battery, discovered attack)',
  attacks: 'any of these (generalised)',
};

function placeOf(desig: number): NodePlace {
  switch (desigKind(desig)) {
    case 'exact':
      return { kind: 'square', square: desigSquare(desig) };
    case 'rank':
      return { kind: 'rank', rank: desig - 65 };
    case 'file':
      return { kind: 'file', file: desig - 73 };
    default:
      return { kind: 'anywhere' };
  }
}

function describePlace(place: NodePlace): string {
  switch (place.kind) {
    case 'square':
      return `on ${squareName(place.square)}`;
    case 'rank':
      return `anywhere on rank ${place.rank + 1}`;
    case 'file':
      return `anywhere on the ${String.fromCharCode(97 + place.file)}-file`;
    default:
      return 'on any square';
  }
}

export function layoutPattern(pattern: GraphPattern): { nodes: DrawnNode[]; edges: DrawnEdge[] } {
  const nodes = pattern.labels.map((label, index): DrawnNode => {
    const piece = labelPiece(label);
    const side = labelSide(label);
    const place = placeOf(pattern.desigs[index]);
    const letter = piece === 'square' ? '*' : side === 'moved' ? piece : piece.toLowerCase();
    const who = piece === 'square'
      ? 'empty square next to a king'
      : `${PIECE_NAMES[piece]} of the ${side === 'moved' ? 'side that just moved (White)' : 'side to move (Black)'}`;
    return { index, piece, side, letter, place, text: `#${index} ${letter}  ${who}, ${describePlace(place)}` };
  });
  const edges = pattern.edges.map(([from, to, code]): DrawnEdge => {
    const target = nodes[to];
    const relation: EdgeRelation = target.side === null ? 'square' : target.side === nodes[from].side ? 'defend' : 'attack';
    return { from, to, type: edgeTypeName(code), relation };
  });
  return { nodes, edges };
}

