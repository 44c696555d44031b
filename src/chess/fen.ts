/**
 * FEN at the edges: chess.js checks that a FEN is well formed, then the position itself is checked
 * (setup.ts): an impossible one is refused in one line; castling rights and an en-passant square the position
 * cannot have are dropped, so every position Morph works on is one that can arise in a game.
 */
import { validateFen } from 'chess.js';
import { badInput, quoteInput } from '../util/errors.ts';
import { boardFromFen, boardToFen, type Board } from './board.ts';
import { POSITION_ERROR_TEXT, validateSetup } from './setup.ts';

export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** Each castling letter at most once, in this order (chess.js accepts "KQkqKQ"). */
const CASTLING_FIELD = /^(-|(?=.)K?Q?k?q?)$/;

/**
 * Normalises a FEN (4 fields are accepted, the move counters default to "0 1") or throws a one-line badInput
 * naming the problem. Castling rights and an en-passant square the position cannot have are dropped.
 */
export function checkFen(fen: string): string {
  const trimmed = fen.trim().replace(/\s+/g, ' ');
  const fields = trimmed.split(' ');
  const full = fields.length === 4 ? `${trimmed} 0 1` : trimmed;
  const shown = quoteInput(fen.trim()); // a bounded, escaped piece of what was given
  const verdict = validateFen(full);
  if (!verdict.ok) throw badInput(`bad FEN "${shown}": ${(verdict.error ?? 'invalid').replace(/^Invalid FEN: /, '')}`);
  if (!CASTLING_FIELD.test(fields[2])) throw badInput(`bad FEN "${shown}": castling field "${fields[2]}" is not one of K, Q, k, q in that order, or -`);
  const setup = validateSetup(boardFromFen(full));
  if (!setup.ok) throw badInput(`impossible position "${shown}": ${POSITION_ERROR_TEXT[setup.error]}`);
  return boardToFen(setup.board);
}

/** A validated FEN as a compact board. */
export function parseFen(fen: string): Board {
  return boardFromFen(checkFen(fen));
}
