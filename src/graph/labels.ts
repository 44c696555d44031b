/**
 * Colour-relative node labels of the normal form. A position is normalised so that the side to move is Black;
 * "moved" is the side that just moved (White in normal-form coordinates), "toMove" is the side to move.
 *
 * Label codes: moved pieces 0..5 (P N B R Q K), toMove pieces 6..11, empty king-neighbour square 12.
 */
import type { PieceLetter } from '../chess/board.ts';

export type Side = 'moved' | 'toMove';
export const LABEL_COUNT = 13;
export const SQUARE_LABEL = 12;
export const PIECE_TYPES: readonly PieceLetter[] = ['P', 'N', 'B', 'R', 'Q', 'K'];

/** Edge types of a position graph (codes 1..3) and the generalised pattern edge "attacks" (code 4). */
export type EdgeType = 'direct' | 'indirect' | 'discovered' | 'attacks';
export const EDGE_NONE = 0;
export const EDGE_DIRECT = 1;
export const EDGE_INDIRECT = 2;
export const EDGE_DISCOVERED = 3;
export const EDGE_ATTACKS = 4;
export const EDGE_TYPES: readonly EdgeType[] = ['direct', 'indirect', 'discovered', 'attacks'];

export function edgeCode(type: EdgeType): number {
  return EDGE_TYPES.indexOf(type) + 1;
}

export function edgeTypeName(code: number): EdgeType {
  return EDGE_TYPES[code - 1];
}

/** Label of a piece: `type` 1..6 (P..K). */
export function pieceLabel(side: Side, type: number): number {
  return (side === 'moved' ? 0 : 6) + type - 1;
}

export function labelSide(label: number): Side | null {
  if (label === SQUARE_LABEL) return null;
  return label < 6 ? 'moved' : 'toMove';
}

/** 1..6 for pieces, 0 for the square label. */
export function labelPieceType(label: number): number {
  return label === SQUARE_LABEL ? 0 : (label % 6) + 1;
}

export function labelPiece(label: number): PieceLetter | 'square' {
  return label === SQUARE_LABEL ? 'square' : PIECE_TYPES[label % 6];
}

/** A readable short name: "moved N", "toMove K", "square". */
export function describeLabel(label: number): string {
  const side = labelSide(label);
  return side ? `${side} ${labelPiece(label)}` : 'square';
}

/**
 * Safety of a piece (an extension of the paper's language, issue 12 part 4): whether the opponent attacks it
 * directly, and whether it has at least as many direct defenders as attackers. A king has no defenders, so an
 * attacked king (in check) is en prise. Empty squares have no safety (0). In a pattern node, 0 means "any".
 * Counting attackers and defenders needs no piece values: it is a fact of the graph, like an edge.
 */
export const SAFETY_ANY = 0;
export const SAFETY_UNATTACKED = 1;
export const SAFETY_DEFENDED = 2;
export const SAFETY_EN_PRISE = 3;
export const SAFETY_NAMES = ['any', 'unattacked', 'defended', 'en prise'] as const;
export type SafetyName = (typeof SAFETY_NAMES)[number];
