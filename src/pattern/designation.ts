/**
 * Square designations of pattern nodes, coded as one small integer so that matching compares numbers:
 *   0          no designation (any square)
 *   1..64      exact square (normal-form square index + 1)
 *   65..72     rank only (65 + rank index 0..7)
 *   73..80     file only (73 + file index 0..7)
 * Position-graph nodes always carry their exact square.
 */
import { fileOf, rankOf, squareName, parseSquare } from '../chess/board.ts';
import { badInput } from '../util/errors.ts';

export const DESIG_NONE = 0;
const RANK_BASE = 65;
const FILE_BASE = 73;

export const exactDesig = (square: number): number => square + 1;
export const rankDesig = (rank: number): number => RANK_BASE + rank;
export const fileDesig = (file: number): number => FILE_BASE + file;

export type DesigKind = 'none' | 'exact' | 'rank' | 'file';

export function desigKind(desig: number): DesigKind {
  if (desig === DESIG_NONE) return 'none';
  if (desig < RANK_BASE) return 'exact';
  return desig < FILE_BASE ? 'rank' : 'file';
}

/** The exact normal-form square, or -1. */
export const desigSquare = (desig: number): number => (desig > 0 && desig < RANK_BASE ? desig - 1 : -1);

/** The rank 0..7 a rank-only designation requires, or -1. */
export const desigRank = (desig: number): number => (desig >= RANK_BASE && desig < FILE_BASE ? desig - RANK_BASE : -1);

/** The file 0..7 a file-only designation requires, or -1. */
export const desigFile = (desig: number): number => (desig >= FILE_BASE ? desig - FILE_BASE : -1);

/** Does a node designated `target` (a pattern node, or a position node's exact square) satisfy `required`? */
export function desigSatisfies(required: number, target: number): boolean {
  if (required === DESIG_NONE || required === target) return true;
  if (required < RANK_BASE || target === DESIG_NONE || target >= RANK_BASE) return false;
  const square = target - 1;
  return required < FILE_BASE ? rankOf(square) === required - RANK_BASE : fileOf(square) === required - FILE_BASE;
}

/** The most specific designation satisfied by both a and b (used by generalisation). */
export function commonDesig(a: number, b: number): number {
  if (a === b) return a;
  const sa = desigSquare(a);
  const sb = desigSquare(b);
  const rankA = sa >= 0 ? rankOf(sa) : desigRank(a);
  const rankB = sb >= 0 ? rankOf(sb) : desigRank(b);
  if (rankA >= 0 && rankA === rankB) return rankDesig(rankA);
  const fileA = sa >= 0 ? fileOf(sa) : desigFile(a);
  const fileB = sb >= 0 ? fileOf(sb) : desigFile(b);
  if (fileA >= 0 && fileA === fileB) return fileDesig(fileA);
  return DESIG_NONE;
}

/** JSON attributes of a designation: {square:'e4'} | {rank:4} (1-8) | {file:'e'} | {}. */
export function desigToAttributes(desig: number): { square?: string; rank?: number; file?: string } {
  switch (desigKind(desig)) {
    case 'exact':
      return { square: squareName(desig - 1) };
    case 'rank':
      return { rank: desig - RANK_BASE + 1 };
    case 'file':
      return { file: String.fromCharCode(97 + desig - FILE_BASE) };
    default:
      return {};
  }
}

export function desigFromAttributes(attrs: { square?: unknown; rank?: unknown; file?: unknown }): number {
  if (attrs.square !== undefined) {
    const sq = typeof attrs.square === 'string' ? parseSquare(attrs.square) : -1;
    if (sq < 0) throw badInput(`bad pattern square designation ${JSON.stringify(attrs.square)}`);
    return exactDesig(sq);
  }
  if (attrs.rank !== undefined) {
    const rank = Number(attrs.rank);
    if (!Number.isInteger(rank) || rank < 1 || rank > 8) throw badInput(`bad pattern rank ${JSON.stringify(attrs.rank)}`);
    return rankDesig(rank - 1);
  }
  if (attrs.file !== undefined) {
    const file = typeof attrs.file === 'string' && attrs.file.length === 1 ? attrs.file.charCodeAt(0) - 97 : -1;
    if (file < 0 || file > 7) throw badInput(`bad pattern file ${JSON.stringify(attrs.file)}`);
    return fileDesig(file);
  }
  return DESIG_NONE;
}

export function describeDesig(desig: number): string {
  const attrs = desigToAttributes(desig);
  if (attrs.square) return `on ${attrs.square}`;
  if (attrs.rank) return `on rank ${attrs.rank}`;
  if (attrs.file) return `on the ${attrs.file}-file`;
  return '';
}
