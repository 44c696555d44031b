/**
 * The state applyMove carries besides the placement, checked against chess.js on seeded random playouts: the
 * half-move clock, the full-move number, castling rights, and the en-passant square (chess.js prints it only
 * when a capture is legal, which is legalEpSquare).
 */
import { describe, expect, it } from 'vitest';
import { Chess } from 'chess.js';
import { applyMove, boardFromFen, boardToFen, squareName, uciMove } from '../src/chess/board.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { legalEpSquare } from '../src/chess/positionKey.ts';
import { START_FEN } from '../src/chess/fen.ts';
import { Random } from '../src/util/random.ts';

describe('applyMove state against chess.js', () => {
  it('agrees on castling rights, en passant, half-move clock and move number over 100 random playouts', () => {
    const seed = 7;
    const rng = new Random(seed);
    const seen = { castlingLost: 0, epSet: 0, epUsable: 0, clockReset: 0 };
    const starts = [START_FEN, 'r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1', '4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1'];
    for (let game = 0; game < 100; game++) {
      const start = starts[game % starts.length];
      const board = boardFromFen(start);
      const chess = new Chess(start);
      for (let ply = 0; ply < 60; ply++) {
        const moves = generateLegalMoves(board);
        if (moves.length === 0) break;
        const move = rng.pick(moves);
        const before = board.castling;
        applyMove(board, move);
        const uci = uciMove(move);
        chess.move({ from: uci.slice(0, 2), to: uci.slice(2, 4), promotion: uci[4] });
        const [, turn, castling, ep, clock, number] = chess.fen().split(' ');
        const [, ourTurn, ourCastling, , ourClock, ourNumber] = boardToFen(board).split(' ');
        const where = `${seed}/${game}/${ply}: ${chess.fen()}`;
        expect(ourTurn, where).toBe(turn);
        expect(ourCastling, where).toBe(castling);
        expect(ourClock, where).toBe(clock);
        expect(ourNumber, where).toBe(number);
        const usable = legalEpSquare(board);
        expect(usable < 0 ? '-' : squareName(usable), where).toBe(ep);
        if (board.castling !== before) seen.castlingLost++;
        if (board.epSquare >= 0) seen.epSet++;
        if (usable >= 0) seen.epUsable++;
        if (clock === '0') seen.clockReset++;
      }
    }
    expect(seen.castlingLost).toBeGreaterThan(25);
    expect(seen.epSet).toBeGreaterThan(seen.epUsable);
    expect(seen.epUsable).toBeGreaterThan(5);
    expect(seen.clockReset).toBeGreaterThan(50);
  });
});
