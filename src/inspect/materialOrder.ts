/**
 * The learning check's yardstick (issue 5): the learned weights of being exactly one piece up or down, next to
 * the paper's Table 1, and whether they say what chess players know: every advantage above .5 and every deficit
 * below it, advantages ordered queen > rook > minor pieces > pawn, deficits in the mirror order.
 */
import type { MorphDatabase } from '../store/database.ts';
import { readMaterialTable, type MaterialPiece, type MaterialRow } from './material.ts';

export const ONE_PIECE_ORDER: readonly MaterialPiece[] = ['Q', 'R', 'B', 'N', 'P'];

/** Levinson's Table 1 (106 games against GnuChess): [up one piece, down one piece]. */
export const PAPER_TABLE_1: Readonly<Record<MaterialPiece, readonly [number, number]>> = {
  Q: [0.903, 0.085], R: [0.916, 0.078], B: [0.912, 0.094], N: [0.910, 0.102], P: [0.731, 0.259],
};
export const PAPER_EVEN = 0.455;

export interface OnePieceWeight {
  piece: MaterialPiece;
  up?: { weight: number; updates: number };
  down?: { weight: number; updates: number };
}

export interface MaterialClaim {
  claim: string;
  holds: boolean;
  /** Part of the requirement (advantages above .5 and in order, deficits below .5), or only reported. */
  required: boolean;
}

export interface MaterialOrderReport {
  pieces: OnePieceWeight[];
  even?: number;
  claims: MaterialClaim[];
  /** Every required claim holds. */
  passed: boolean;
}

function onePiece(row: MaterialRow): { piece: MaterialPiece; sign: number } | null {
  const nonZero = ONE_PIECE_ORDER.filter((piece) => row.diff[piece] !== 0);
  if (nonZero.length !== 1 || Math.abs(row.diff[nonZero[0]]) !== 1) return null;
  return { piece: nonZero[0], sign: row.diff[nonZero[0]] };
}

export function materialOrderReport(db: MorphDatabase): MaterialOrderReport {
  const rows = readMaterialTable(db);
  const pieces: OnePieceWeight[] = ONE_PIECE_ORDER.map((piece) => ({ piece }));
  let even: number | undefined;
  for (const row of rows) {
    if (ONE_PIECE_ORDER.every((piece) => row.diff[piece] === 0)) even = row.weight;
    const one = onePiece(row);
    if (!one) continue;
    const entry = pieces.find((p) => p.piece === one.piece)!;
    entry[one.sign > 0 ? 'up' : 'down'] = { weight: row.weight, updates: row.updates };
  }
  // A pattern never seen counts as .5: it holds no claim either way.
  const up = (piece: MaterialPiece) => pieces.find((p) => p.piece === piece)!.up?.weight ?? 0.5;
  const down = (piece: MaterialPiece) => pieces.find((p) => p.piece === piece)!.down?.weight ?? 0.5;
  const minorUp = [up('B'), up('N')];
  const minorDown = [down('B'), down('N')];
  const notAbove = ONE_PIECE_ORDER.filter((piece) => !(up(piece) > 0.5));
  const notBelow = ONE_PIECE_ORDER.filter((piece) => !(down(piece) < 0.5));
  const except = (pieces: MaterialPiece[]) => (pieces.length ? ` (not: ${pieces.join(' ')})` : '');
  const claims: MaterialClaim[] = [
    { claim: `every advantage above .5${except(notAbove)}`, holds: notAbove.length === 0, required: true },
    { claim: `every deficit below .5${except(notBelow)}`, holds: notBelow.length === 0, required: true },
    { claim: 'up: queen > rook', holds: up('Q') > up('R'), required: true },
    { claim: 'up: rook > both minors', holds: up('R') > Math.max(...minorUp), required: true },
    { claim: 'up: both minors > pawn', holds: Math.min(...minorUp) > up('P'), required: true },
    { claim: 'down: queen < rook', holds: down('Q') < down('R'), required: false },
    { claim: 'down: rook < both minors', holds: down('R') < Math.min(...minorDown), required: false },
    { claim: 'down: both minors < pawn', holds: Math.max(...minorDown) < down('P'), required: false },
  ];
  return { pieces, even, claims, passed: claims.every((c) => !c.required || c.holds) };
}

export function materialOrderText(report: MaterialOrderReport): string {
  const fmt = (w?: { weight: number; updates: number }) => (w ? `${w.weight.toFixed(3)} (${w.updates})` : '   -   ').padEnd(12);
  const lines = ['piece  up (updates)  paper   down (updates)  paper'];
  for (const { piece, up, down } of report.pieces) {
    lines.push(`${piece}      ${fmt(up)}  ${PAPER_TABLE_1[piece][0].toFixed(3)}   ${fmt(down)}    ${PAPER_TABLE_1[piece][1].toFixed(3)}`);
  }
  lines.push(`even   ${report.even === undefined ? '-' : report.even.toFixed(3)}         ${PAPER_EVEN}`);
  for (const { claim, holds, required } of report.claims) {
    lines.push(`${holds ? 'holds ' : 'FAILS '} ${claim}${required ? '' : ' (reported, not required)'}`);
  }
  lines.push(report.passed ? 'ok: the learned material values have the textbook order' : 'FAILED: see the claims above');
  return lines.join('\n');
}
