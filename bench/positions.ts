/** Benchmark material: middlegame positions from the fixture file (real games of the embedded Stockfish). */
import { readFileSync } from 'node:fs';
import { boardFromFen } from '../src/chess/board.ts';
import { hasLegalMove } from '../src/chess/movegen.ts';

export function fixtureFens(): string[] {
  return readFileSync(new URL('../test/fixtures/positions.fen', import.meta.url), 'utf8').split('\n').filter(Boolean);
}

/** Middlegame: at least 20 pieces on the board, past the first 10 moves, and a move to make. */
export function isMiddlegame(fen: string): boolean {
  const board = boardFromFen(fen);
  const pieces = board.squares.reduce((n, piece) => n + (piece !== 0 ? 1 : 0), 0);
  return pieces >= 20 && board.fullmoveNumber > 10 && hasLegalMove(board);
}

/** Positions used to grow hierarchies (even lines) and held-out positions to measure on (odd lines). */
export function splitFens(): { train: string[]; test: string[] } {
  const fens = fixtureFens();
  return {
    train: fens.filter((_, i) => i % 2 === 0),
    test: fens.filter((fen, i) => i % 2 === 1 && isMiddlegame(fen)),
  };
}
