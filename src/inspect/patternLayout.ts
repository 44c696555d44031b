/**
 * What a pattern drawing shows, shared by the text diagram and the SVG board: each node's letter and where it
 * goes, each edge's type and whether it attacks, defends or covers an empty square.
 *
 * Squares are NORMAL-FORM squares: a pattern belongs to no real position, so it is drawn as the side that just
 * moved being White, moving up the board (the side to move is Black). A node may carry an exact square, only a
 * rank, only a file, or nothing; only exact squares go on the board.
 */
import { squareName, type PieceLetter } from '../chess/board.ts';
import { edgeTypeName, labelPiece, labelSide, SAFETY_ANY, SAFETY_NAMES, type EdgeType, type SafetyName, type Side } from '../graph/labels.ts';
import { desigKind, desigSquare } from '../pattern/designation.ts';
import { nodeSafety, type GraphPattern } from '../pattern/pattern.ts';

export type NodePlace =
  | { kind: 'square'; square: number }
  | { kind: 'rank'; rank: number }
  | { kind: 'file'; file: number }
  | { kind: 'anywhere' };

export interface DrawnNode {
  index: number;
  piece: PieceLetter | 'square';
  side: Side | null;
  /**
   * Upper case for the side that just moved (White), lower case for the side to move, '*' an empty square, '@' a
   * move pattern's destination.
   */
  letter: string;
  place: NodePlace;
  /** The safety the node requires (unattacked, defended, en prise), if any: a destination's is the mover's there after the move. */
  safety?: SafetyName;
  /** e.g. "#0 N  knight of the side that just moved (White), on f3". */
  text: string;
}

export type EdgeRelation = 'attack' | 'defend' | 'square' | 'move';

export interface DrawnEdge {
  from: number;
  to: number;
  type: EdgeType;
  relation: EdgeRelation;
}

export const NORMAL_FORM_LEGEND =
  'Normal form: the side that just moved is White (upper case), moving up the board; the side to move is Black ' +
  "(lower case); '*' is an empty square next to a king.";

/** The legend of a move pattern's drawing (src/graph/moveGraph.ts): the normal form before the move. */
export const MOVE_PATTERN_LEGEND =
  "A move pattern, drawn before the move: the mover is the side to move, Black (lower case), moving down the board; " +
  "'@' is the move's destination, its edges out what the moved piece will attack or defend from there; " +
  "'*' is an empty square next to a king.";

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

/**
 * The nodes and edges as drawn. With `movePattern` the square nodes that are a move's destination (a safety, or
 * edges out, which no empty square next to a king has: moveGraph.ts) are drawn as '@', their edges out judged from
 * the mover's side.
 */
export function layoutPattern(pattern: GraphPattern, movePattern = false): { nodes: DrawnNode[]; edges: DrawnEdge[] } {
  const destination = (index: number) =>
    movePattern && labelPiece(pattern.labels[index]) === 'square' &&
    (nodeSafety(pattern, index) !== SAFETY_ANY || pattern.edges.some(([from]) => from === index));
  const nodes = pattern.labels.map((label, index): DrawnNode => {
    const piece = labelPiece(label);
    const side = labelSide(label);
    const place = placeOf(pattern.desigs[index]);
    const isDestination = destination(index);
    const letter = isDestination ? '@' : piece === 'square' ? '*' : side === 'moved' ? piece : piece.toLowerCase();
    const who = isDestination
      ? "the move's destination"
      : piece === 'square'
        ? 'empty square next to a king'
        : `${PIECE_NAMES[piece]} of the ${side === 'moved' ? 'side that just moved (White)' : 'side to move (Black)'}`;
    const safety = nodeSafety(pattern, index);
    return {
      index, piece, side, letter, place, ...(safety !== SAFETY_ANY ? { safety: SAFETY_NAMES[safety] } : {}),
      text: `#${index} ${letter}  ${who}, ${describePlace(place)}`,
    };
  });
  const edges = pattern.edges.map(([from, to, code]): DrawnEdge => {
    const target = nodes[to];
    // A destination speaks for the mover, the side to move.
    const fromSide = nodes[from].letter === '@' ? 'toMove' : nodes[from].side;
    const relation: EdgeRelation = target.letter === '@' ? 'move' : target.side === null ? 'square' : target.side === fromSide ? 'defend' : 'attack';
    return { from, to, type: edgeTypeName(code), relation };
  });
  return { nodes, edges };
}
