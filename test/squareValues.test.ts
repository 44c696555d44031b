/**
 * Square values (src/eval/squareValues.ts), one table or tapered by the share of officers on the board, and the
 * line features their fit uses (src/model/choiceEvaluation.ts, addSquareChanges): a fitted weight on a feature must
 * mean the same as that weight in the evaluation the material searches play with.
 */
import { describe, expect, it } from 'vitest';
import { applyMove, BLACK, boardFromFen, cloneBoard, WHITE, type Board } from '../src/chess/board.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { officerShare, SQUARE_VALUES, squareLogOdds, TAPERED_SQUARE_VALUES } from '../src/eval/squareValues.ts';
import { addSquareChanges, LINE_SQUARES } from '../src/model/choiceEvaluation.ts';
import { Random } from '../src/util/random.ts';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

const randomTable = (length: number, random: Random) => Array.from({ length }, () => random.next() * 2 - 1);

/** The square values of `color`'s pieces less its opponent's: squareLogOdds for the side that just moved, as `color`. */
const scoreFor = (board: Board, table: readonly number[], color: number) =>
  squareLogOdds({ squares: board.squares, turn: color === WHITE ? BLACK : WHITE }, table);

describe('officer share', () => {
  it('counts knights, bishops, rooks and queens of both sides against the 14 of the start, at most 1', () => {
    expect(officerShare(boardFromFen(START))).toBe(1);
    expect(officerShare(boardFromFen('4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1'))).toBe(0);
    expect(officerShare(boardFromFen('r2qk2r/pppppppp/8/8/8/8/PPPPPPPP/RNBQK3 w - - 0 1'))).toBe(7 / 14);
    // Two promoted queens beside every officer of the start.
    expect(officerShare(boardFromFen('rnbqkbnr/1ppppppp/8/8/8/8/1PPPPPPP/QNBQKBNQ w - - 0 1'))).toBe(1);
  });
});

describe('tapered square values', () => {
  const random = new Random(3);
  const middle = randomTable(SQUARE_VALUES, random);
  const end = randomTable(SQUARE_VALUES, random);
  const positions = [START, 'r2qk3/pppppppp/8/8/8/8/PPPPPPPP/RNBQK3 b - - 0 1', '4k3/pp6/8/3P4/8/8/6PP/4K3 w - - 0 1'];

  it('blend the middlegame and endgame tables by the officer share', () => {
    for (const fen of positions) {
      const board = boardFromFen(fen);
      const share = officerShare(board);
      const expected = share * squareLogOdds(board, middle) + (1 - share) * squareLogOdds(board, end);
      expect(squareLogOdds(board, [...middle, ...end])).toBeCloseTo(expected, 12);
    }
  });

  it('with two equal tables, value a position as the one table does', () => {
    for (const fen of positions) {
      const board = boardFromFen(fen);
      expect(squareLogOdds(board, [...middle, ...middle])).toBeCloseTo(squareLogOdds(board, middle), 12);
    }
  });
});

describe("a line's square features", () => {
  // Random lines of one or two plies from positions of random games, captures of officers among them: the
  // features dotted with any table must be what that table says the line changed for the side that chose it.
  for (const tapered of [false, true]) {
    it(`score a line as the evaluation does (${tapered ? 'tapered' : 'one table'})`, () => {
      const random = new Random(tapered ? 11 : 12);
      const table = randomTable(tapered ? TAPERED_SQUARE_VALUES : SQUARE_VALUES, random);
      let sharesChanged = 0;
      for (let game = 0; game < 40; game++) {
        let board = boardFromFen(START);
        for (let ply = 0; ply < 60; ply++) {
          const moves = generateLegalMoves(board);
          if (moves.length === 0) break;
          const mover = board.turn;
          let lineEnd = cloneBoard(board);
          applyMove(board, moves[random.int(moves.length)], lineEnd);
          const replies = generateLegalMoves(lineEnd);
          if (replies.length > 0 && random.next() < 0.7) lineEnd = applyMoveCopy(lineEnd, replies[random.int(replies.length)]);
          if (officerShare(lineEnd) !== officerShare(board)) sharesChanged++;
          const row = new Map<number, number>();
          addSquareChanges(board, lineEnd, mover === WHITE, row, tapered);
          let dotted = 0;
          for (const [k, v] of row) dotted += v * table[k - LINE_SQUARES];
          expect(dotted).toBeCloseTo(scoreFor(lineEnd, table, mover) - scoreFor(board, table, mover), 9);
          board = applyMoveCopy(board, moves[random.int(moves.length)]);
        }
      }
      expect(sharesChanged).toBeGreaterThan(20);
    });
  }
});

function applyMoveCopy(board: Board, move: Parameters<typeof applyMove>[1]): Board {
  const next = cloneBoard(board);
  applyMove(board, move, next);
  return next;
}
