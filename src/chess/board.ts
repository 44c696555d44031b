/**
 * A compact chess board: the hot-path structure for successor positions, attack maps and graphs.
 * chess.js stays the rules authority at the edges (FEN validation, SAN, PGN, game end); this board only
 * needs to be cheap to copy and to apply a move to.
 *
 * Squares are 0..63 with a1 = 0, b1 = 1, ..., h8 = 63 (index = rank * 8 + file).
 * Pieces are signed: +1..+6 White pawn, knight, bishop, rook, queen, king; -1..-6 the same for Black; 0 empty.
 */

export const PAWN = 1;
export const KNIGHT = 2;
export const BISHOP = 3;
export const ROOK = 4;
export const QUEEN = 5;
export const KING = 6;

export const WHITE = 0;
export const BLACK = 1;
export type Color = typeof WHITE | typeof BLACK;

/** Castling rights as bits. */
export const CASTLE_WK = 1;
export const CASTLE_WQ = 2;
export const CASTLE_BK = 4;
export const CASTLE_BQ = 8;

export const PIECE_LETTERS = ['', 'P', 'N', 'B', 'R', 'Q', 'K'] as const;
export type PieceLetter = 'P' | 'N' | 'B' | 'R' | 'Q' | 'K';

export interface Board {
  /** 64 signed piece codes, a1 = 0. */
  squares: Int8Array;
  /** Side to move. */
  turn: Color;
  /** CASTLE_* bits. */
  castling: number;
  /** En-passant target square, or -1. */
  epSquare: number;
  halfmoveClock: number;
  fullmoveNumber: number;
}

/** A move in compact form: from/to squares and an optional promotion piece type (KNIGHT..QUEEN, 0 for none). */
export interface CompactMove {
  from: number;
  to: number;
  promotion: number;
}

export const fileOf = (sq: number): number => sq & 7;
export const rankOf = (sq: number): number => sq >> 3;
export const squareIndex = (file: number, rank: number): number => rank * 8 + file;

export function squareName(sq: number): string {
  return String.fromCharCode(97 + fileOf(sq)) + String(rankOf(sq) + 1);
}

/** Parses "e4" into a square index; returns -1 for anything else. */
export function parseSquare(name: string): number {
  if (name.length !== 2) return -1;
  const file = name.charCodeAt(0) - 97;
  const rank = name.charCodeAt(1) - 49;
  if (file < 0 || file > 7 || rank < 0 || rank > 7) return -1;
  return squareIndex(file, rank);
}

export const typeOf = (piece: number): number => (piece < 0 ? -piece : piece);

const LETTER_TO_TYPE: Record<string, number> = { p: PAWN, n: KNIGHT, b: BISHOP, r: ROOK, q: QUEEN, k: KING };

/**
 * Builds a board from a FEN string. It assumes the FEN has already been validated (chess.js `validateFen`
 * does that at the edges, see fen.ts); it only throws on text it cannot read at all.
 */
export function boardFromFen(fen: string): Board {
  const [placement, turn = 'w', castling = '-', ep = '-', half = '0', full = '1'] = fen.trim().split(/\s+/);
  const squares = new Int8Array(64);
  const rows = placement.split('/');
  if (rows.length !== 8) throw new Error(`FEN placement needs 8 ranks, got ${rows.length}`);
  for (let r = 0; r < 8; r++) {
    const rank = 7 - r;
    let file = 0;
    for (const ch of rows[r]) {
      if (ch >= '1' && ch <= '8') {
        file += ch.charCodeAt(0) - 48;
        continue;
      }
      const type = LETTER_TO_TYPE[ch.toLowerCase()];
      if (!type || file > 7) throw new Error(`bad FEN placement character '${ch}'`);
      squares[squareIndex(file, rank)] = ch === ch.toUpperCase() ? type : -type;
      file++;
    }
  }
  let castleBits = 0;
  if (castling.includes('K')) castleBits |= CASTLE_WK;
  if (castling.includes('Q')) castleBits |= CASTLE_WQ;
  if (castling.includes('k')) castleBits |= CASTLE_BK;
  if (castling.includes('q')) castleBits |= CASTLE_BQ;
  return {
    squares,
    turn: turn === 'b' ? BLACK : WHITE,
    castling: castleBits,
    epSquare: ep === '-' ? -1 : parseSquare(ep),
    halfmoveClock: Number(half) || 0,
    fullmoveNumber: Number(full) || 1,
  };
}

export function boardToFen(board: Board): string {
  const rows: string[] = [];
  for (let rank = 7; rank >= 0; rank--) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < 8; file++) {
      const piece = board.squares[squareIndex(file, rank)];
      if (piece === 0) {
        empty++;
        continue;
      }
      if (empty) row += String(empty);
      empty = 0;
      const letter = PIECE_LETTERS[typeOf(piece)];
      row += piece > 0 ? letter : letter.toLowerCase();
    }
    if (empty) row += String(empty);
    rows.push(row);
  }
  let castling = '';
  if (board.castling & CASTLE_WK) castling += 'K';
  if (board.castling & CASTLE_WQ) castling += 'Q';
  if (board.castling & CASTLE_BK) castling += 'k';
  if (board.castling & CASTLE_BQ) castling += 'q';
  return [
    rows.join('/'),
    board.turn === WHITE ? 'w' : 'b',
    castling || '-',
    board.epSquare < 0 ? '-' : squareName(board.epSquare),
    String(board.halfmoveClock),
    String(board.fullmoveNumber),
  ].join(' ');
}

export function cloneBoard(board: Board): Board {
  // Each field by name, not a spread: every board then shares one shape, and the copy is faster (a search makes many).
  return {
    squares: new Int8Array(board.squares),
    turn: board.turn,
    castling: board.castling,
    epSquare: board.epSquare,
    halfmoveClock: board.halfmoveClock,
    fullmoveNumber: board.fullmoveNumber,
  };
}

/** Castling rights lost when a piece leaves or arrives on these squares (rooks' and kings' home squares). */
const CASTLE_MASK_BY_SQUARE = new Uint8Array(64).fill(0);
CASTLE_MASK_BY_SQUARE[4] = CASTLE_WK | CASTLE_WQ;
CASTLE_MASK_BY_SQUARE[0] = CASTLE_WQ;
CASTLE_MASK_BY_SQUARE[7] = CASTLE_WK;
CASTLE_MASK_BY_SQUARE[60] = CASTLE_BK | CASTLE_BQ;
CASTLE_MASK_BY_SQUARE[56] = CASTLE_BQ;
CASTLE_MASK_BY_SQUARE[63] = CASTLE_BK;

/**
 * Applies a legal move to `board` into `out` (which may be `board` itself). Castling, en passant and
 * promotion are recognised from the board, so a move needs only from, to and the promotion type.
 * Returns the piece captured (signed code, 0 if none).
 */
export function applyMove(board: Board, move: CompactMove, out: Board = board): number {
  if (out !== board) {
    out.squares.set(board.squares);
    out.turn = board.turn;
    out.castling = board.castling;
    out.epSquare = board.epSquare;
    out.halfmoveClock = board.halfmoveClock;
    out.fullmoveNumber = board.fullmoveNumber;
  }
  const sq = out.squares;
  const { from, to } = move;
  const piece = sq[from];
  const type = typeOf(piece);
  let captured = sq[to];
  sq[to] = move.promotion ? (piece > 0 ? move.promotion : -move.promotion) : piece;
  sq[from] = 0;
  if (type === PAWN && to === board.epSquare && captured === 0) {
    // En passant: the captured pawn stands beside the destination, on the mover's rank.
    const victimSquare = piece > 0 ? to - 8 : to + 8;
    captured = sq[victimSquare];
    sq[victimSquare] = 0;
  } else if (type === KING && Math.abs(to - from) === 2) {
    const rookFrom = to > from ? from + 3 : from - 4;
    const rookTo = to > from ? from + 1 : from - 1;
    sq[rookTo] = sq[rookFrom];
    sq[rookFrom] = 0;
  }
  out.castling &= ~(CASTLE_MASK_BY_SQUARE[from] | CASTLE_MASK_BY_SQUARE[to]);
  out.epSquare = type === PAWN && Math.abs(to - from) === 16 ? (from + to) >> 1 : -1;
  out.halfmoveClock = type === PAWN || captured !== 0 ? 0 : board.halfmoveClock + 1;
  if (board.turn === BLACK) out.fullmoveNumber = board.fullmoveNumber + 1;
  out.turn = board.turn === WHITE ? BLACK : WHITE;
  return captured;
}

/**
 * The position with the side to move passing (a null move): a copy with the other side to move and no en-passant
 * square. Not a legal move; what a search or an evaluation asks when it wants to know what the other side threatens.
 */
export function passTurn(board: Board): Board {
  const passed = cloneBoard(board);
  passed.turn = board.turn === WHITE ? BLACK : WHITE;
  passed.epSquare = -1;
  return passed;
}

/** Parses a UCI move string such as "e7e8q"; returns null when malformed. */
export function parseUciMove(text: string): CompactMove | null {
  if (text.length < 4 || text.length > 5) return null;
  const from = parseSquare(text.slice(0, 2));
  const to = parseSquare(text.slice(2, 4));
  if (from < 0 || to < 0) return null;
  let promotion = 0;
  if (text.length === 5) {
    promotion = LETTER_TO_TYPE[text[4]] ?? 0;
    if (promotion < KNIGHT || promotion > QUEEN) return null;
  }
  return { from, to, promotion };
}

export function uciMove(move: CompactMove): string {
  return squareName(move.from) + squareName(move.to) + (move.promotion ? PIECE_LETTERS[move.promotion].toLowerCase() : '');
}
