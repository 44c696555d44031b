import { describe, expect, it } from 'vitest';
import { Chess } from 'chess.js';
import { applyMove, boardFromFen, cloneBoard, parseUciMove, uciMove, type Board } from '../src/chess/board.ts';
import {
  gameStatus,
  generateLegalCaptures,
  generateLegalMaterialMoves,
  generateLegalMoves,
  hasLegalMove,
  isInCheck,
  isInsufficientMaterial,
  isSquareAttacked,
  perft,
} from '../src/chess/movegen.ts';
import { Random } from '../src/util/random.ts';
import { playUciMove, verboseMoves } from './helpers/chessMoves.ts';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
// The standard Kiwipete FEN (the task text had a typo, "2N2Q1pp", which is nine files wide).
const KIWIPETE = 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1';
const POSITION_3 = '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1';
const POSITION_4 = 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1';
const POSITION_5 = 'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8';

const uciSet = (board: Board): string[] => generateLegalMoves(board).map(uciMove).sort();

describe('perft against published values', () => {
  const cases: Array<[string, string, number[]]> = [
    ['start position', START, [20, 400, 8902, 197281]],
    ['Kiwipete', KIWIPETE, [48, 2039, 97862]],
    ['position 3', POSITION_3, [14, 191, 2812, 43238]],
    ['position 4', POSITION_4, [6, 264, 9467]],
    ['position 5', POSITION_5, [44, 1486, 62379]],
  ];
  for (const [name, fen, counts] of cases) {
    it(`${name} depths 1-${counts.length}`, () => {
      const board = boardFromFen(fen);
      const before = board.squares.slice();
      counts.forEach((expected, i) => expect(perft(board, i + 1)).toBe(expected));
      expect(board.squares).toEqual(before); // perft must leave its input untouched
    });
  }

  it('depth 0 is one node', () => {
    expect(perft(boardFromFen(START), 0)).toBe(1);
  });
});

describe('special moves', () => {
  it('refuses en passant that exposes the king along the rank (horizontal pin)', () => {
    const board = boardFromFen('8/8/8/KPp4r/8/8/8/7k w - c6 0 2');
    expect(uciSet(board)).not.toContain('b5c6');
    // Without the rook the same capture is legal.
    expect(uciSet(boardFromFen('8/8/8/KPp5/8/8/8/7k w - c6 0 2'))).toContain('b5c6');
  });

  it('refuses en passant whose captured pawn was shielding the king on a diagonal', () => {
    // Only the victim (d5) stands between the f7 bishop and the a2 king; the capturing pawn is not on that line.
    const fen = '8/5b2/8/3pP3/8/8/K7/7k w - d6 0 2';
    const moves = uciSet(boardFromFen(fen));
    expect(moves).not.toContain('e5d6');
    expect(moves).toEqual(['a2a1', 'a2a3', 'a2b1', 'a2b2', 'a2b3', 'e5e6']);
  });

  it('castles only through unattacked, empty squares and never out of check', () => {
    expect(uciSet(boardFromFen('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1'))).toEqual(
      expect.arrayContaining(['e1g1', 'e1c1']),
    );
    // A black rook on f8 covers f1: no king-side castling; b1 attacked does not stop queen-side castling.
    const moves = uciSet(boardFromFen('1r3r1k/8/8/8/8/8/8/R3K2R w KQ - 0 1'));
    expect(moves).not.toContain('e1g1');
    expect(moves).toContain('e1c1');
    // In check: no castling at all.
    const inCheck = uciSet(boardFromFen('4r2k/8/8/8/8/8/8/R3K2R w KQ - 0 1'));
    expect(inCheck).not.toContain('e1g1');
    expect(inCheck).not.toContain('e1c1');
  });

  it('generates all four promotions', () => {
    const moves = uciSet(boardFromFen('7k/P7/8/8/8/8/8/K7 w - - 0 1'));
    expect(moves.filter((m) => m.startsWith('a7a8')).sort()).toEqual(['a7a8b', 'a7a8n', 'a7a8q', 'a7a8r']);
  });

  it('reports attacks by each piece kind, respecting pawn direction and blockers', () => {
    // Black: king e8, pawn d5, knight b3. White: rook a1, king e1.
    const { squares } = boardFromFen('4k3/8/8/3p4/8/1n6/8/R3K3 w - - 0 1');
    expect(isSquareAttacked(squares, 28, false)).toBe(true); // e4 by the d5 pawn
    expect(isSquareAttacked(squares, 44, false)).toBe(false); // e6: black pawns attack downwards only
    expect(isSquareAttacked(squares, 11, false)).toBe(true); // d2 by the b3 knight
    expect(isSquareAttacked(squares, 53, false)).toBe(true); // f7 by the black king
    expect(isSquareAttacked(squares, 56, true)).toBe(true); // a8 by the rook up the open a-file
    expect(isSquareAttacked(squares, 6, true)).toBe(false); // g1: the rook's rank is blocked by its own king
    expect(isSquareAttacked(squares, 43, false)).toBe(false); // d6: nothing black reaches it
  });
});

describe('game status verdicts', () => {
  it('recognises checkmate, stalemate and ongoing play (as chess.js does)', () => {
    const cases: Array<[string, 'checkmate' | 'stalemate' | 'ongoing']> = [
      ['rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3', 'checkmate'], // fool's mate
      ['6kR/6P1/6K1/8/8/8/8/8 b - - 0 1', 'checkmate'],
      ['7k/5Q2/6K1/8/8/8/8/8 b - - 0 1', 'stalemate'],
      ['k7/8/1Q6/8/8/8/8/7K b - - 0 1', 'stalemate'],
      ['7k/5Q2/6K1/8/8/8/p7/8 b - - 0 1', 'ongoing'], // only the pawn can move
      [START, 'ongoing'],
    ];
    for (const [fen, expected] of cases) {
      const chess = new Chess(fen);
      const chessJs = chess.isCheckmate() ? 'checkmate' : chess.isStalemate() ? 'stalemate' : 'ongoing';
      expect(chessJs, fen).toBe(expected);
      const board = boardFromFen(fen);
      expect(gameStatus(board), fen).toBe(expected);
      expect(hasLegalMove(board), fen).toBe(expected === 'ongoing');
      expect(isInCheck(board), fen).toBe(chess.isCheck());
    }
  });

  it('matches chess.js on insufficient material', () => {
    const cases: Array<[string, boolean]> = [
      ['8/8/8/4k3/8/8/8/4K3 w - - 0 1', true], // K v K
      ['8/8/8/4k3/8/8/8/2B1K3 w - - 0 1', true], // KB v K
      ['8/8/8/4k3/8/8/8/1N2K3 b - - 0 1', true], // KN v K
      ['8/2b5/8/4k3/8/8/8/2B1K3 w - - 0 1', true], // KB v KB, both bishops on dark squares (c7, c1)
      ['8/8/2b5/4k3/8/8/8/2B1K3 w - - 0 1', false], // KB v KB on opposite colours (c6, c1)
      ['8/8/8/4k3/8/8/8/1NN1K3 w - - 0 1', false], // KNN v K
      ['8/8/8/4k3/8/8/8/1N2K1b1 w - - 0 1', false], // KN v KB
      ['8/8/8/4k3/8/8/4P3/4K3 w - - 0 1', false], // a pawn
      ['8/8/8/4k3/8/8/8/R3K3 w - - 0 1', false], // a rook
    ];
    for (const [fen, expected] of cases) {
      expect(isInsufficientMaterial(boardFromFen(fen).squares), fen).toBe(expected);
      expect(new Chess(fen).isInsufficientMaterial(), fen).toBe(expected);
    }
  });
});

describe('cross-check against chess.js on seeded random playouts', () => {
  it('agrees on legal moves and on check, mate, stalemate and material verdicts', () => {
    const rng = new Random(20240601);
    const starts = [
      START,
      KIWIPETE,
      POSITION_3,
      POSITION_4,
      POSITION_5,
      '4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1', // promotions both ways
      '8/8/3k4/8/3K4/8/8/1B4b1 w - - 0 1', // bishops: material draws appear and vanish
    ];
    const seen = { positions: 0, castles: 0, enPassant: 0, promotions: 0, checks: 0, insufficient: 0 };
    for (let playout = 0; playout < 14; playout++) {
      const chess = new Chess(starts[playout % starts.length]);
      const board = boardFromFen(chess.fen());
      for (let ply = 0; ply < 30; ply++) {
        // The board is kept up to date by applyMove, independently of chess.js's own FEN.
        const ours = uciSet(board);
        const fen = chess.fen();
        // chess.js's moves({ verbose: true }), listed without generating them again for each move's SAN (verboseMoves).
        const verbose = verboseMoves(chess);
        expect(ours, fen).toEqual(verbose.map((m) => m.from + m.to + (m.promotion ?? '')).sort());
        // The captures alone (the quiescence searches' generator): chess.js's captures, in the full list's order.
        const captureList = generateLegalCaptures(board).map(uciMove);
        expect([...captureList].sort(), fen).toEqual(verbose.filter((m) => m.isCapture() || m.isEnPassant()).map((m) => m.from + m.to + (m.promotion ?? '')).sort());
        expect(captureList, fen).toEqual(generateLegalMoves(board).map(uciMove).filter((uci) => captureList.includes(uci)));
        // The material moves (the material searches' generator): captures and promotions, quiet ones too.
        const materialList = generateLegalMaterialMoves(board).map(uciMove);
        expect([...materialList].sort(), fen).toEqual(verbose.filter((m) => m.isCapture() || m.isEnPassant() || m.isPromotion()).map((m) => m.from + m.to + (m.promotion ?? '')).sort());
        expect(materialList, fen).toEqual(generateLegalMoves(board).map(uciMove).filter((uci) => materialList.includes(uci)));
        expect(isInCheck(board), fen).toBe(chess.isCheck());
        const status = chess.isCheckmate() ? 'checkmate' : chess.isStalemate() ? 'stalemate' : 'ongoing';
        expect(gameStatus(board), fen).toBe(status);
        expect(hasLegalMove(board), fen).toBe(ours.length > 0);
        expect(isInsufficientMaterial(board.squares), fen).toBe(chess.isInsufficientMaterial());
        seen.positions++;
        if (chess.isCheck()) seen.checks++;
        if (chess.isInsufficientMaterial()) seen.insufficient++;
        if (ours.length === 0 || chess.isInsufficientMaterial()) break;

        if (verbose.some((m) => m.isKingsideCastle() || m.isQueensideCastle())) seen.castles++;
        if (verbose.some((m) => m.isEnPassant())) seen.enPassant++;
        if (verbose.some((m) => m.isPromotion())) seen.promotions++;
        // Prefer captures half the time so that playouts reach thin endgames.
        const captures = ours.filter((uci) => isCapture(board, uci));
        const pool = captures.length > 0 && rng.next() < 0.5 ? captures : ours;
        const uci = rng.pick(pool);
        playUciMove(chess, uci); // move() without writing the Move's SAN and FENs (checked against move())
        applyMove(board, parseUciMove(uci)!);
      }
    }
    expect(seen.positions).toBeGreaterThan(300);
    expect(seen.castles).toBeGreaterThan(0);
    expect(seen.enPassant).toBeGreaterThan(0);
    expect(seen.promotions).toBeGreaterThan(0);
    expect(seen.checks).toBeGreaterThan(0);
    expect(seen.insufficient).toBeGreaterThan(0);
  });
});

function isCapture(board: Board, uci: string): boolean {
  return applyMove(board, parseUciMove(uci)!, cloneBoard(board)) !== 0;
}
