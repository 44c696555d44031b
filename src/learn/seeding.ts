/**
 * Seeding (reference section 7): every two-node pattern that can occur, created once in a new database with
 * weight .5. Decided, beyond the paper: also every one-node pattern with an exact square (a given piece, or an
 * empty king-neighbour square, on a given square). They are real patterns (a piece-square fact, learned like
 * any other), and they make retrieval selective: a pattern is tested only when all its parents matched, and
 * every exact-square node of a pattern lies below one of these roots, so a pattern whose pieces are not on
 * their squares is never tested. A seed is one piece, one other node and one edge, without square designations. Left out because
 * no legal position has them: a king attacking the other king, and a piece of the side to move attacking the
 * king of the side that just moved directly (that side cannot have left its king in check). X-ray edges
 * (indirect, discovered) come only from bishops, rooks and queens.
 */
import { BISHOP, KING, PAWN, QUEEN, ROOK } from '../chess/board.ts';
import {
  EDGE_DIRECT, EDGE_DISCOVERED, EDGE_INDIRECT, LABEL_COUNT, SAFETY_EN_PRISE, SQUARE_LABEL, labelPieceType, labelSide,
} from '../graph/labels.ts';
import { DESIG_NONE, exactDesig } from '../pattern/designation.ts';
import type { GraphPattern } from '../pattern/pattern.ts';

function canOccur(from: number, to: number, edge: number): boolean {
  const fromType = labelPieceType(from);
  if (edge !== EDGE_DIRECT) return fromType === BISHOP || fromType === ROOK || fromType === QUEEN;
  if (to === SQUARE_LABEL) return true;
  const toType = labelPieceType(to);
  if (fromType === KING && toType === KING) return false;
  return !(toType === KING && labelSide(to) === 'moved' && labelSide(from) === 'toMove');
}

export function seedPatterns(): GraphPattern[] {
  const seeds: GraphPattern[] = [];
  for (let from = 0; from < SQUARE_LABEL; from++) {
    for (let to = 0; to < LABEL_COUNT; to++) {
      for (const edge of [EDGE_DIRECT, EDGE_INDIRECT, EDGE_DISCOVERED]) {
        if (!canOccur(from, to, edge)) continue;
        seeds.push({ kind: 'graph', labels: [from, to], desigs: [DESIG_NONE, DESIG_NONE], edges: [[0, 1, edge]] });
      }
    }
  }
  return seeds;
}

/** One-node patterns: each label on each square where it can stand (pawns never on the first or last rank). */
export function squareSeedPatterns(): GraphPattern[] {
  const seeds: GraphPattern[] = [];
  for (let label = 0; label < LABEL_COUNT; label++) {
    for (let square = 0; square < 64; square++) {
      const rank = square >> 3;
      if (labelPieceType(label) === PAWN && (rank === 0 || rank === 7)) continue;
      seeds.push({ kind: 'graph', labels: [label], desigs: [exactDesig(square)], edges: [] });
    }
  }
  return seeds;
}

export function allSeedPatterns(): GraphPattern[] {
  return [...squareSeedPatterns(), ...seedPatterns()];
}

/**
 * The safety language's seeds: one node, a piece en prise, anywhere. Left out: the king of the side that just
 * moved, which cannot be attacked (its side would have left it in check).
 */
export function safetySeedPatterns(): GraphPattern[] {
  const seeds: GraphPattern[] = [];
  for (let label = 0; label < SQUARE_LABEL; label++) {
    if (labelPieceType(label) === KING && labelSide(label) === 'moved') continue;
    seeds.push({ kind: 'graph', labels: [label], desigs: [DESIG_NONE], edges: [], safety: [SAFETY_EN_PRISE] });
  }
  return seeds;
}
