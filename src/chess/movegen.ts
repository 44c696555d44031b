/**
 * Legal move generation on the compact board (src/chess/board.ts).
 *
 * This is the hot path for search and for mate/stalemate detection after each candidate move, so the core
 * works on integer move codes written into a caller-owned Int32Array and tests legality by a tiny in-place
 * make/unmake on the squares array. Moves of pieces that are not on a line with their own king (and the king
 * not in check) are legal without any attack test, which skips most of the work.
 *
 * Move code: from | to << 6 | promotion << 12 (promotion is KNIGHT..QUEEN, or 0).
 */
import {
  applyMove,
  BISHOP,
  CASTLE_BK,
  CASTLE_BQ,
  CASTLE_WK,
  CASTLE_WQ,
  cloneBoard,
  KING,
  KNIGHT,
  PAWN,
  QUEEN,
  ROOK,
  WHITE,
  type Board,
  uciMove,
  type CompactMove,
} from './board.ts';
import { ALIGNED, KING_COUNT, KING_TARGETS, KNIGHT_COUNT, KNIGHT_TARGETS, RAY_LENGTH, RAY_SQUARES } from './geometry.ts';

/** More than the largest number of legal moves in any chess position (218). */
export const MAX_MOVES = 256;


export function decodeMove(code: number): CompactMove {
  return { from: code & 63, to: (code >> 6) & 63, promotion: code >> 12 };
}

// ---------------------------------------------------------------------------------------------------------------
// Attacks

/** Whether `square` is attacked by any piece of the given colour (the square's own content is ignored). */
export function isSquareAttacked(squares: Int8Array, square: number, byWhite: boolean): boolean {
  const sign = byWhite ? 1 : -1;
  const file = square & 7;
  // Pawns: a white pawn attacks diagonally upwards, so it stands one rank below the target.
  const pawn = sign * PAWN;
  const pawnRankStep = byWhite ? -8 : 8;
  const pawnBase = square + pawnRankStep;
  if (pawnBase >= 0 && pawnBase < 64) {
    if (file > 0 && squares[pawnBase - 1] === pawn) return true;
    if (file < 7 && squares[pawnBase + 1] === pawn) return true;
  }
  const knight = sign * KNIGHT;
  for (let i = square * 8, end = i + KNIGHT_COUNT[square]; i < end; i++) {
    if (squares[KNIGHT_TARGETS[i]] === knight) return true;
  }
  const king = sign * KING;
  for (let i = square * 8, end = i + KING_COUNT[square]; i < end; i++) {
    if (squares[KING_TARGETS[i]] === king) return true;
  }
  const queen = sign * QUEEN;
  for (let dir = 0; dir < 8; dir++) {
    const slider = dir < 4 ? sign * ROOK : sign * BISHOP;
    const base = (square * 8 + dir) * 7;
    for (let k = 0, length = RAY_LENGTH[square * 8 + dir]; k < length; k++) {
      const piece = squares[RAY_SQUARES[base + k]];
      if (piece === 0) continue;
      if (piece === slider || piece === queen) return true;
      break;
    }
  }
  return false;
}

function findKing(squares: Int8Array, king: number): number {
  for (let sq = 0; sq < 64; sq++) if (squares[sq] === king) return sq;
  return -1;
}

/** Whether the side to move is in check. */
export function isInCheck(board: Board): boolean {
  const white = board.turn === WHITE;
  const king = findKing(board.squares, white ? KING : -KING);
  return king >= 0 && isSquareAttacked(board.squares, king, !white);
}

// ---------------------------------------------------------------------------------------------------------------
// Generation

/**
 * The generator's working state lives in module variables rather than a closure or object so the inner
 * helpers allocate nothing; generation never re-enters itself, so sharing them is safe.
 */
let genSquares: Int8Array = new Int8Array(64);
let genKing = -1;
let genInCheck = false;
let genEnemyIsWhite = false;
let genOut: Int32Array = new Int32Array(0);
let genCount = 0;
/** Captures only (en passant included): what a quiescence search follows, without the quiet moves' legality tests. */
let genCapturesOnly = false;
/** With genCapturesOnly: quiet promotions too, the other moves that change material. */
let genPromotions = false;

/** Whether moving from -> to (optionally capturing en passant at epVictim) leaves the mover's king safe. */
function leavesKingSafe(from: number, to: number, epVictim: number): boolean {
  const king = genKing;
  if (king < 0) return true; // No king (test positions): every pseudo-legal move counts, as in chess.js.
  if (!genInCheck && epVictim < 0 && from !== king && ALIGNED[king * 64 + from] === 0) return true;
  const sq = genSquares;
  const moving = sq[from];
  const captured = sq[to];
  sq[to] = moving;
  sq[from] = 0;
  let victim = 0;
  if (epVictim >= 0) {
    victim = sq[epVictim];
    sq[epVictim] = 0;
  }
  const safe = !isSquareAttacked(sq, from === king ? to : king, genEnemyIsWhite);
  sq[from] = moving;
  sq[to] = captured;
  if (epVictim >= 0) sq[epVictim] = victim;
  return safe;
}

function addIfLegal(from: number, to: number): void {
  if (leavesKingSafe(from, to, -1)) genOut[genCount++] = from | (to << 6);
}

function addPawnMove(from: number, to: number, promotes: boolean): void {
  if (!leavesKingSafe(from, to, -1)) return;
  const base = from | (to << 6);
  if (promotes) {
    genOut[genCount++] = base | (QUEEN << 12);
    genOut[genCount++] = base | (ROOK << 12);
    genOut[genCount++] = base | (BISHOP << 12);
    genOut[genCount++] = base | (KNIGHT << 12);
  } else {
    genOut[genCount++] = base;
  }
}

/**
 * Writes legal move codes into `out` and returns how many; stops once `limit` moves are found (the count may
 * overshoot by up to three when a promotion adds its four moves at once).
 */
function generate(board: Board, out: Int32Array, limit: number, capturesOnly = false, promotions = false): number {
  const sq = board.squares;
  genCapturesOnly = capturesOnly;
  genPromotions = promotions;
  const white = board.turn === WHITE;
  const sign = white ? 1 : -1;
  genSquares = sq;
  genOut = out;
  genCount = 0;
  genEnemyIsWhite = !white;
  genKing = findKing(sq, sign * KING);
  genInCheck = genKing >= 0 && isSquareAttacked(sq, genKing, !white);

  const forward = white ? 8 : -8;
  const startRank = white ? 1 : 6;
  const lastRank = white ? 7 : 0;
  for (let from = 0; from < 64; from++) {
    const piece = sq[from] * sign;
    if (piece <= 0) continue;
    switch (piece) {
      case PAWN: {
        const file = from & 7;
        const one = from + forward;
        const promotes = one >> 3 === lastRank;
        if (sq[one] === 0 && !genCapturesOnly) {
          addPawnMove(from, one, promotes);
          const two = one + forward;
          if (from >> 3 === startRank && sq[two] === 0) addPawnMove(from, two, false);
        } else if (sq[one] === 0 && promotes && genPromotions) addPawnMove(from, one, true);
        if (file > 0) {
          const to = one - 1;
          if (sq[to] * sign < 0) addPawnMove(from, to, promotes);
          else if (to === board.epSquare && sq[to - forward] === -sign * PAWN) {
            if (leavesKingSafe(from, to, to - forward)) out[genCount++] = from | (to << 6);
          }
        }
        if (file < 7) {
          const to = one + 1;
          if (sq[to] * sign < 0) addPawnMove(from, to, promotes);
          else if (to === board.epSquare && sq[to - forward] === -sign * PAWN) {
            if (leavesKingSafe(from, to, to - forward)) out[genCount++] = from | (to << 6);
          }
        }
        break;
      }
      case KNIGHT:
        for (let i = from * 8, end = i + KNIGHT_COUNT[from]; i < end; i++) {
          const to = KNIGHT_TARGETS[i];
          if (sq[to] * sign < 0 || (sq[to] === 0 && !genCapturesOnly)) addIfLegal(from, to);
        }
        break;
      case KING:
        for (let i = from * 8, end = i + KING_COUNT[from]; i < end; i++) {
          const to = KING_TARGETS[i];
          if (sq[to] * sign < 0 || (sq[to] === 0 && !genCapturesOnly)) addIfLegal(from, to);
        }
        break;
      default: {
        // Sliders: rooks use directions 0-3, bishops 4-7, queens all eight.
        const firstDir = piece === BISHOP ? 4 : 0;
        const lastDir = piece === ROOK ? 4 : 8;
        for (let dir = firstDir; dir < lastDir; dir++) {
          const base = (from * 8 + dir) * 7;
          for (let k = 0, length = RAY_LENGTH[from * 8 + dir]; k < length; k++) {
            const to = RAY_SQUARES[base + k];
            const target = sq[to] * sign;
            if (target > 0) break;
            if (target < 0) {
              addIfLegal(from, to);
              break;
            }
            if (!genCapturesOnly) addIfLegal(from, to);
          }
        }
      }
    }
    if (genCount >= limit) return genCount;
  }

  // Castling: rights, king and rook at home, empty squares between, and the king neither in check nor
  // passing through or landing on an attacked square.
  if (!genInCheck && !genCapturesOnly && board.castling !== 0) {
    const home = white ? 4 : 60;
    const kingSide = white ? CASTLE_WK : CASTLE_BK;
    const queenSide = white ? CASTLE_WQ : CASTLE_BQ;
    if (sq[home] === sign * KING) {
      if (
        board.castling & kingSide &&
        sq[home + 3] === sign * ROOK &&
        sq[home + 1] === 0 &&
        sq[home + 2] === 0 &&
        !isSquareAttacked(sq, home + 1, !white) &&
        !isSquareAttacked(sq, home + 2, !white)
      ) {
        out[genCount++] = home | ((home + 2) << 6);
      }
      if (
        board.castling & queenSide &&
        sq[home - 4] === sign * ROOK &&
        sq[home - 1] === 0 &&
        sq[home - 2] === 0 &&
        sq[home - 3] === 0 &&
        !isSquareAttacked(sq, home - 1, !white) &&
        !isSquareAttacked(sq, home - 2, !white)
      ) {
        out[genCount++] = home | ((home - 2) << 6);
      }
    }
  }
  return genCount;
}

/** Writes every legal move's code into `out` (at least MAX_MOVES long) and returns the count. */
export function generateLegalMoveCodes(board: Board, out: Int32Array): number {
  return generate(board, out, MAX_MOVES);
}

const scratchCodes = new Int32Array(MAX_MOVES);

/** The first `count` move codes in scratchCodes, decoded. */
function decodedScratch(count: number): CompactMove[] {
  const moves: CompactMove[] = new Array(count);
  for (let i = 0; i < count; i++) moves[i] = decodeMove(scratchCodes[i]);
  return moves;
}

/** All legal moves of the side to move. */
export function generateLegalMoves(board: Board): CompactMove[] {
  return decodedScratch(generate(board, scratchCodes, MAX_MOVES));
}

/** The legal captures of the side to move (en passant included), in generateLegalMoves' order. */
export function generateLegalCaptures(board: Board): CompactMove[] {
  return decodedScratch(generate(board, scratchCodes, MAX_MOVES, true));
}

/**
 * The legal moves of the side to move that change material: captures (en passant included) and promotions,
 * quiet ones too, in generateLegalMoves' order. What a quiescence search follows when a pawn's promotion counts
 * as the gain it is.
 */
export function generateLegalMaterialMoves(board: Board): CompactMove[] {
  return decodedScratch(generate(board, scratchCodes, MAX_MOVES, true, true));
}

/** The legal move whose UCI text (canonical: lowercase promotion letter) is `uci`, or undefined. */
export function findLegalMove(board: Board, uci: string): CompactMove | undefined {
  return generateLegalMoves(board).find((move) => uciMove(move) === uci);
}

/** Whether the side to move has any legal move (stops at the first one found). */
export function hasLegalMove(board: Board): boolean {
  return generate(board, scratchCodes, 1) > 0;
}

export type GameStatus = 'checkmate' | 'stalemate' | 'ongoing';

/** Mate and stalemate only: repetition, the 50-move rule and material draws are the caller's business. */
export function gameStatus(board: Board): GameStatus {
  if (hasLegalMove(board)) return 'ongoing';
  return isInCheck(board) ? 'checkmate' : 'stalemate';
}

/**
 * chess.js's rule: K v K; K and one minor piece v K; or kings plus any number of bishops (either side) that all
 * stand on squares of one colour.
 */
export function isInsufficientMaterial(squares: Int8Array): boolean {
  let pieces = 0;
  let knights = 0;
  let bishops = 0;
  let bishopsOnLight = 0;
  for (let sq = 0; sq < 64; sq++) {
    const piece = squares[sq];
    if (piece === 0) continue;
    pieces++;
    const type = piece < 0 ? -piece : piece;
    if (type === KNIGHT) knights++;
    else if (type === BISHOP) {
      bishops++;
      if (((sq & 7) + (sq >> 3)) & 1) bishopsOnLight++;
    } else if (type !== KING) return false;
  }
  if (pieces === 2) return true;
  if (pieces === 3 && (bishops === 1 || knights === 1)) return true;
  return pieces === bishops + 2 && (bishopsOnLight === 0 || bishopsOnLight === bishops);
}

// ---------------------------------------------------------------------------------------------------------------
// Perft

/** Counts leaf nodes of the legal move tree to `depth` plies (the standard move generator check). */
export function perft(board: Board, depth: number): number {
  if (depth <= 0) return 1;
  const moveBuffers = Array.from({ length: depth }, () => new Int32Array(MAX_MOVES));
  const childBoards = Array.from({ length: depth }, () => cloneBoard(board));
  const move: CompactMove = { from: 0, to: 0, promotion: 0 };
  const count = (position: Board, remaining: number, ply: number): number => {
    const moves = moveBuffers[ply];
    const n = generate(position, moves, MAX_MOVES);
    if (remaining === 1) return n;
    const child = childBoards[ply];
    let total = 0;
    for (let i = 0; i < n; i++) {
      const code = moves[i];
      move.from = code & 63;
      move.to = (code >> 6) & 63;
      move.promotion = code >> 12;
      applyMove(position, move, child);
      total += count(child, remaining - 1, ply + 1);
    }
    return total;
  };
  return count(board, depth, 0);
}
