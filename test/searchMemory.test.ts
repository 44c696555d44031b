/**
 * The plies look's memory over a game move (src/search/searchMemory.ts): with it, fullWidthValue finds the same
 * values inside every window as without it, and values a position already searched as deep no more.
 */
import { describe, expect, it } from 'vitest';
import { applyMove, boardFromFen, cloneBoard, parseUciMove, uciMove, type Board } from '../src/chess/board.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { positionKey } from '../src/chess/positionKey.ts';
import { fullWidthValue, QUIESCENCE } from '../src/search/search.ts';
import { boundOf, KILLERS_PER_DEPTH, KillerMoves, reusableValue, SearchMemory } from '../src/search/searchMemory.ts';
import { Random } from '../src/util/random.ts';

/** Textbook piece values and a small made-up term for each square, so that few positions tie. */
const PIECE_VALUES = [0, 1, 3, 3, 5, 9, 0];
/** A position's value for the side that just moved: a logistic of its material and square terms. */
function valueForMover(board: Board): number {
  let whiteLead = 0;
  for (let sq = 0; sq < 64; sq++) {
    const piece = board.squares[sq];
    if (piece === 0) continue;
    const points = PIECE_VALUES[Math.abs(piece)] + ((sq * 7 + Math.abs(piece) * 13) % 11) / 100;
    whiteLead += piece > 0 ? points : -points;
  }
  const moverLead = board.turn === 1 ? whiteLead : -whiteLead; // black to move: white just moved
  return 1 / (1 + Math.exp(-moverLead / 3));
}

/** valueForMover, counting how many positions it valued. */
function counted(): { value: (board: Board) => number; valued: () => number } {
  let valued = 0;
  return {
    value: (board) => {
      valued++;
      return valueForMover(board);
    },
    valued: () => valued,
  };
}

/** The position after `moves` (UCI) from `fen`. */
function after(fen: string, ...moves: string[]): Board {
  let board = boardFromFen(fen);
  for (const uci of moves) {
    const next = cloneBoard(board);
    applyMove(board, parseUciMove(uci)!, next);
    board = next;
  }
  return board;
}

// Positions after a move (the side to move replies): an open middlegame, a pin, a fork, pieces hanging.
const POSITIONS = [
  'r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 5 4',
  'r3k2r/ppp2ppp/2n5/3qp3/8/2N2N2/PPP2PPP/R2QK2R b KQkq - 0 10',
  '2r3k1/5ppp/8/3N4/8/8/5PPP/6K1 b - - 0 25',
  '4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 40',
];

describe('the plies look with its memory', () => {
  it('finds the same value inside every window as without it, and a bound on the same side outside', () => {
    const random = new Random(7);
    for (const fen of POSITIONS) {
      const board = boardFromFen(fen);
      for (const plies of [1, 2, 3]) {

        const exact = fullWidthValue(board, plies, -Infinity, Infinity, valueForMover, QUIESCENCE);
        // One memory through windows on both sides of the value, narrow and wide, as a game move's root moves share it.
        const memory = new SearchMemory();
        const windows: [number, number][] = [];
        for (let i = 0; i < 12; i++) {
          const width = [0.001, 0.02, 0.2][i % 3];
          const centre = exact + (random.next() - 0.5) * 0.1;
          windows.push([centre - width, centre + width], [centre, Infinity], [-Infinity, centre]);
        }
        windows.push([-Infinity, Infinity]);
        for (const [low, high] of windows) {
          const alone = fullWidthValue(board, plies, low, high, valueForMover, QUIESCENCE);
          const remembered = fullWidthValue(board, plies, low, high, valueForMover, QUIESCENCE, undefined, memory);
          const where = `${fen} plies ${plies} window [${low}, ${high}]`;
          if (alone > low && alone < high) expect(remembered, where).toBe(alone);
          else if (alone <= low) {
            expect(remembered, where).toBeLessThanOrEqual(low);
            expect(exact, where).toBeLessThanOrEqual(remembered + 1e-12);
          } else {
            expect(remembered, where).toBeGreaterThanOrEqual(high);
            expect(exact, where).toBeGreaterThanOrEqual(remembered - 1e-12);
          }
        }
      }
    }
  });

  it('values each root move of a game move as without it, one memory for them all, each above the best found so far', () => {
    for (const fen of ['r3k2r/ppp2ppp/2n5/3qp3/8/2N2N2/PPP2PPP/R2QK2R w KQkq - 0 10', '2r3k1/5ppp/8/3N4/8/8/5PPP/6K1 w - - 0 25']) {
      const board = boardFromFen(fen);
      const memory = new SearchMemory();
      let bestAlone = -Infinity;
      let bestRemembered = -Infinity;
      for (const move of generateLegalMoves(board)) {
        const next = cloneBoard(board);
        applyMove(board, move, next);
        const alone = fullWidthValue(next, 3, bestAlone, Infinity, valueForMover, QUIESCENCE);
        const remembered = fullWidthValue(next, 3, bestRemembered, Infinity, valueForMover, QUIESCENCE, undefined, memory);
        if (alone > bestAlone) expect(remembered, `${fen} ${uciMove(move)}`).toBe(alone);
        else expect(remembered, `${fen} ${uciMove(move)}`).toBeLessThanOrEqual(bestRemembered);
        bestAlone = Math.max(bestAlone, alone);
        bestRemembered = Math.max(bestRemembered, remembered);
      }
      expect(bestRemembered).toBe(bestAlone);
    }
  });

  it('values nothing when a position already searched as deep is searched again, and never answers a shallower search from a deeper one', () => {
    const board = boardFromFen(POSITIONS[2]);
    const memory = new SearchMemory();
    const first = counted();
    const value = fullWidthValue(board, 2, -Infinity, Infinity, first.value, QUIESCENCE, undefined, memory);
    expect(first.valued()).toBeGreaterThan(0);
    const again = counted();
    expect(fullWidthValue(board, 2, -Infinity, Infinity, again.value, QUIESCENCE, undefined, memory)).toBe(value);
    expect(again.valued()).toBe(0);
    const shallower = counted();
    const oneply = fullWidthValue(board, 1, -Infinity, Infinity, shallower.value, QUIESCENCE, undefined, memory);
    expect(shallower.valued()).toBeGreaterThan(0);
    expect(oneply).toBe(fullWidthValue(board, 1, -Infinity, Infinity, valueForMover, QUIESCENCE));
  });

  it('searches once a position two root moves transpose into', () => {
    // 1. Nc3 ... 2. Nf3 and 1. Nf3 ... 2. Nc3 meet three plies past each root move, with the same plies remaining.
    const start = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
    const roots = [after(start, 'b1c3'), after(start, 'g1f3')];
    const alone = counted();
    const withoutMemory = roots.map((root) => fullWidthValue(root, 3, -Infinity, Infinity, alone.value, QUIESCENCE));
    const remembered = counted();
    const memory = new SearchMemory();
    const withMemory = roots.map((root) => fullWidthValue(root, 3, -Infinity, Infinity, remembered.value, QUIESCENCE, undefined, memory));
    expect(withMemory).toEqual(withoutMemory);
    expect(remembered.valued()).toBeLessThan(alone.valued());
    // The transposed position itself was stored by the first root move's search and found again by the second's.
    const transposed = after(start, 'b1c3', 'g8f6', 'g1f3');
    expect(positionKey(transposed)).toBe(positionKey(after(start, 'g1f3', 'g8f6', 'b1c3')));
    expect(memory.table.get(positionKey(transposed), 1)).toBeDefined();
  });

  it('tells what a value found in a window proves, and reuses it only where that answers the window', () => {
    expect(boundOf(0.3, 0.3, 0.6)).toBe('at-most');
    expect(boundOf(0.6, 0.3, 0.6)).toBe('at-least');
    expect(boundOf(0.4, 0.3, 0.6)).toBe('exact');
    expect(reusableValue({ value: 0.4, bound: 'exact', best: undefined }, 0.5, 0.9)).toBe(0.4);
    expect(reusableValue({ value: 0.3, bound: 'at-most', best: undefined }, 0.35, 0.9)).toBe(0.3);
    expect(reusableValue({ value: 0.3, bound: 'at-most', best: undefined }, 0.25, 0.9)).toBeUndefined();
    expect(reusableValue({ value: 0.7, bound: 'at-least', best: undefined }, 0.1, 0.65)).toBe(0.7);
    expect(reusableValue({ value: 0.7, bound: 'at-least', best: undefined }, 0.1, 0.75)).toBeUndefined();
  });

  it('keeps the latest killers at each depth, a move once', () => {
    const killers = new KillerMoves();
    const move = (uci: string) => parseUciMove(uci)!;
    killers.record(1, move('e2e4'));
    killers.record(1, move('d2d4'));
    killers.record(1, move('e2e4'));
    expect(killers.at(1).map((m) => `${m.from}-${m.to}`)).toEqual([`${move('e2e4').from}-${move('e2e4').to}`, `${move('d2d4').from}-${move('d2d4').to}`]);
    for (const uci of ['a2a3', 'b2b3', 'c2c3']) killers.record(1, move(uci));
    expect(killers.at(1)).toHaveLength(KILLERS_PER_DEPTH);
    expect(killers.at(2)).toEqual([]);
  });
});
