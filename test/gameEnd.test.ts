/**
 * How a game ends, checked against chess.js over thousands of seeded random games: repetition counts (with the
 * en-passant square counted only when a capture there is legal, as in chess.js's FEN and FIDE's rule), the
 * 50-move rule and insufficient material.
 */
import { describe, expect, it } from 'vitest';
import { Chess } from 'chess.js';
import { uciMove } from '../src/chess/board.ts';
import { START_FEN } from '../src/chess/fen.ts';
import { GameHistory } from '../src/chess/history.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { gameEnd, type GameEnd } from '../src/chess/gameEnd.ts';
import { Random } from '../src/util/random.ts';
import { playUciMove } from './helpers/chessMoves.ts';

/** chess.js's FEN without the move counters: it prints the en-passant square only when the capture is legal. */
const chessJsKey = (fen: string): string => fen.split(' ').slice(0, 4).join(' ');

function chessJsVerdict(chess: Chess, occurrences: number): GameEnd | null {
  // One move generation: each asks whether the side to move is in check before it generates the moves, so only
  // the one that can be true does (moves() would write every move's SAN, a check test for each).
  if (chess.isCheckmate()) return 'checkmate';
  if (chess.isStalemate()) return 'stalemate';
  if (chess.isInsufficientMaterial()) return 'insufficient';
  if (occurrences >= 3) return 'threefold';
  if (chess.isDrawByFiftyMoves()) return 'fifty-move';
  return null;
}

describe('repetition with en passant', () => {
  it('finds the threefold after a double pawn push that allows no capture (1.e4 Nf6 2.Bc4 Ng8 3.Bf1 ...)', () => {
    const moves = ['e2e4', 'g8f6', 'f1c4', 'f6g8', 'c4f1', 'g8f6', 'f1c4', 'f6g8', 'c4f1'];
    const chess = new Chess();
    for (const move of moves) chess.move(move);
    expect(chess.isThreefoldRepetition()).toBe(true);
    const history = new GameHistory(START_FEN, moves);
    expect(history.occurrences(history.board)).toBe(3);
    expect(history.verdict()).toBe('threefold');
  });

  it('counts the en-passant square when the capture is legal, so the first position differs', () => {
    // 1.e4 d5?? no: put a black pawn on d4 so that ...dxe3 e.p. is possible after e2e4.
    const start = 'rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
    const moves = ['e2e4', 'g8f6', 'g1f3', 'f6g8', 'f3g1', 'g8f6', 'g1f3', 'f6g8', 'f3g1'];
    const chess = new Chess(start);
    for (const move of moves) chess.move(move);
    const history = new GameHistory(start, moves);
    // After e2e4 Black could capture en passant; the later returns to that placement cannot: only 2 repetitions.
    expect(history.occurrences(history.board)).toBe(2);
    expect(chess.isThreefoldRepetition()).toBe(false);
  });
});

/**
 * Starting points: the initial position, and thin ones where material draws come soon. Half-move clocks start
 * high so that the 50-move rule is reached within the few dozen plies a game here is allowed (chess.js moves
 * cost a millisecond each, so the games are kept short).
 */
const STARTS = [
  START_FEN,
  '4k3/pp6/8/8/8/8/6PP/4K3 w - - 0 1', // pawns on both wings: en passant, promotion
  '4k3/8/8/8/8/8/8/4KB1N w - - 85 60', // KBN v K
  '4k3/3p4/8/8/8/8/4P3/R3K3 w Q - 0 1', // a rook and castling rights
  '2b1k3/8/8/8/8/8/8/2B1K3 w - - 80 50', // bishops: material draws appear and vanish
  'r3k3/8/8/8/8/8/8/4K2R w Kq - 85 60',
  'rnbqkbnr/pp1ppppp/8/8/2p5/8/PPPPPPPP/RNBQKBNR w KQkq - 0 3', // ...cxb3 and ...cxd3 e.p. after b4 or d4
];

describe('game-end verdicts against chess.js on random games', () => {
  it('agrees on every position of 600 seeded games: repetition counts, threefold, 50-move, material', () => {
    const seed = 16;
    const rng = new Random(seed);
    const tally: Record<string, number> = {};
    let positions = 0;
    let epKeys = 0;
    for (let game = 0; game < 600; game++) {
      // Half the games prefer undoing their own last move, so repetitions come often; the rest play freely.
      const shuffler = game % 2 === 0;
      const start = STARTS[(game >> 1) % STARTS.length];
      const chess = new Chess(start);
      const history = new GameHistory(start);
      // chess.js's FEN of the position, written once a ply: its key for the counts and the failure messages.
      let fen = chess.fen();
      const counts = new Map<string, number>([[chessJsKey(fen), 1]]);
      const played: string[] = [];
      for (let ply = 0; ply < 36; ply++) {
        const key = chessJsKey(fen);
        positions++;
        if (!key.endsWith(' -')) epKeys++;
        expect(history.occurrences(history.board), `${seed}/${game}: ${fen}`).toBe(counts.get(key));
        const expected = chessJsVerdict(chess, counts.get(key)!);
        expect(history.verdict(), `${seed}/${game}: ${fen}`).toBe(expected);
        if (expected) {
          tally[expected] = (tally[expected] ?? 0) + 1;
          break;
        }
        const legal = generateLegalMoves(history.board).map(uciMove);
        const back = played.length >= 2 ? played[played.length - 2] : '';
        const undo = back.slice(2, 4) + back.slice(0, 2);
        const move = shuffler && legal.includes(undo) && rng.next() < 0.7 ? undo : rng.pick(legal);
        // chess.js plays it as move() does, without writing the Move's SAN and FENs (checked against move()).
        playUciMove(chess, move);
        history.play(move);
        played.push(move);
        fen = chess.fen();
        const next = chessJsKey(fen);
        counts.set(next, (counts.get(next) ?? 0) + 1);
      }
    }
    console.log(`game-end verdicts: ${positions} positions, ${epKeys} with a usable en-passant square`, tally);
    // Every kind of ending was met, and en-passant squares that count were too.
    expect(positions).toBeGreaterThan(10_000);
    expect(tally.threefold ?? 0).toBeGreaterThan(100);
    expect(tally['fifty-move'] ?? 0).toBeGreaterThan(10);
    expect(tally.insufficient ?? 0).toBeGreaterThan(5);
    expect(epKeys).toBeGreaterThan(10);
  }, 240_000); // chess.js takes a millisecond a move: about 15 s of CPU
});
