/**
 * FEN at the edges: chess.js is the authority on whether a FEN is a legal chess position description.
 */
import { validateFen } from 'chess.js';
import { badInput } from '../util/errors.ts';
import { boardFromFen, type Board } from './board.ts';

export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** Normalises a FEN (4 fields are accepted, the move counters default to "0 1") or throws a one-line badInput. */
export function checkFen(fen: string): string {
  const trimmed = fen.trim().replace(/\s+/g, ' ');
  const fields = trimmed.split(' ');
  const full = fields.length === 4 ? `${trimmed} 0 1` : trimmed;
  const verdict = validateFen(full);
  if (!verdict.ok) throw badInput(`bad FEN "${fen.trim()}": ${(verdict.error ?? 'invalid').replace(/^Invalid FEN: /, '')}`);
  return full;
}

/** A validated FEN as a compact board. */
export function parseFen(fen: string): Board {
  return boardFromFen(checkFen(fen));
}
