/**
 * Position keys for repetition: two positions are the same when the same pieces stand on the same squares, the
 * same side is to move and the same moves are possible (FIDE 9.2). So castling rights count, and the en-passant
 * square counts only when a capture there is legal, as in chessops' `legalEpSquare` and Stockfish's keys.
 *
 * Keys are Zobrist hashes folded into 53 bits, so a game's positions are counted in a Map of numbers. Two
 * different positions share a key with probability about 2^-53 per pair: never, for games of a few hundred plies.
 */
import { KING, PAWN, WHITE, type Board } from './board.ts';
import { generateLegalMoves } from './movegen.ts';
import { Random } from '../util/random.ts';

// Fixed-seed random tables (the seed only has to be the same in every run): piece-square, castling, ep file, turn.
const random = new Random(0x5eed_2b1d);
const draw = (): number => (random.next() * 4294967296) >>> 0;
const PIECE_SQUARE_HI = Uint32Array.from({ length: 13 * 64 }, draw);
const PIECE_SQUARE_LO = Uint32Array.from({ length: 13 * 64 }, draw);
const CASTLING_HI = Uint32Array.from({ length: 16 }, draw);
const CASTLING_LO = Uint32Array.from({ length: 16 }, draw);
const EP_FILE_HI = Uint32Array.from({ length: 8 }, draw);
const EP_FILE_LO = Uint32Array.from({ length: 8 }, draw);
const BLACK_HI = draw();
const BLACK_LO = draw();

/** The en-passant square when the side to move can legally capture there, else -1. */
export function legalEpSquare(board: Board): number {
  const ep = board.epSquare;
  if (ep < 0) return -1;
  const pawn = board.turn === WHITE ? PAWN : -PAWN;
  const victim = board.turn === WHITE ? ep - 8 : ep + 8;
  const file = ep & 7;
  // Cheap test first: a pawn of the side to move beside the pawn that just advanced two squares.
  const beside = (file > 0 && board.squares[victim - 1] === pawn) || (file < 7 && board.squares[victim + 1] === pawn);
  if (!beside) return -1;
  for (const move of generateLegalMoves(board)) {
    if (move.to === ep && board.squares[move.from] === pawn) return ep;
  }
  return -1;
}

/** The repetition key of a position (placement, side to move, castling rights, usable en-passant square). */
export function positionKey(board: Board): number {
  let hi = 0;
  let lo = 0;
  const squares = board.squares;
  for (let sq = 0; sq < 64; sq++) {
    const piece = squares[sq];
    if (piece === 0) continue;
    const index = (piece + KING) * 64 + sq;
    hi ^= PIECE_SQUARE_HI[index];
    lo ^= PIECE_SQUARE_LO[index];
  }
  hi ^= CASTLING_HI[board.castling];
  lo ^= CASTLING_LO[board.castling];
  const ep = legalEpSquare(board);
  if (ep >= 0) {
    hi ^= EP_FILE_HI[ep & 7];
    lo ^= EP_FILE_LO[ep & 7];
  }
  if (board.turn !== WHITE) {
    hi ^= BLACK_HI;
    lo ^= BLACK_LO;
  }
  return (hi >>> 11) * 4294967296 + (lo >>> 0);
}
