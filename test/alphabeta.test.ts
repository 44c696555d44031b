import { describe, expect, it } from 'vitest';
import { applyMove, boardFromFen, cloneBoard, uciMove, type Board, type CompactMove } from '../src/chess/board.ts';
import { gameStatus, generateLegalMoves } from '../src/chess/movegen.ts';
import {
  AlphaBetaPlayer,
  evaluateBoard,
  MATE_SCORE,
  parseAlphaBetaSpec,
  rankMoves,
  searchBestMove,
  type AlphaBetaOptions,
} from '../src/engines/alphabeta.ts';
import { MorphError } from '../src/util/errors.ts';
import { Random } from '../src/util/random.ts';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

const options = (depth: number, extra: Partial<AlphaBetaOptions> = {}): AlphaBetaOptions => ({
  depth,
  quiescence: false,
  tolerancePawns: 0,
  seed: 1,
  ...extra,
});

function after(board: Board, move: CompactMove): Board {
  const next = cloneBoard(board);
  applyMove(board, move, next);
  return next;
}

const isMate = (board: Board) => gameStatus(board) === 'checkmate';
const hasMateInOne = (board: Board) => generateLegalMoves(board).some((move) => isMate(after(board, move)));

describe('mate finding', () => {
  const mateInOne: Array<[string, string]> = [
    ['white back-rank mate', '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1'],
    ['black back-rank mate', 'r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1'],
    ["white scholar's mate", 'r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4'],
    ["black fool's mate", 'rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2'],
    ['white smothered mate', '6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1'],
  ];
  for (const [name, fen] of mateInOne) {
    it(`finds the ${name} at depths 1-3, with and without quiescence`, () => {
      const board = boardFromFen(fen);
      for (const depth of [1, 2, 3]) {
        for (const quiescence of [false, true]) {
          const result = searchBestMove(board, options(depth, { quiescence }), new Random(7));
          expect(isMate(after(board, result.move)), `${fen} d${depth}`).toBe(true);
          // Mate now outscores any later mate.
          expect(result.score).toBe(MATE_SCORE - 1);
        }
      }
    });
  }

  const mateInTwo: Array<[string, string]> = [
    ["Morphy's problem, white (1.Ra6!)", 'kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1'],
    ["Morphy's problem colour-reversed, black (1...Ra3!)", 'r7/8/8/8/8/1p6/PP6/KBk5 b - - 0 1'],
    ['knight check then bishop mate (1.Nf6+ gxf6 2.Bxf7#)', 'r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10'],
  ];
  for (const [name, fen] of mateInTwo) {
    it(`finds a mate in 2 at depth 3: ${name}`, () => {
      const board = boardFromFen(fen);
      expect(hasMateInOne(board)).toBe(false); // it really is a mate in two, not one
      const result = searchBestMove(board, options(3), new Random(3));
      const next = after(board, result.move);
      const replies = generateLegalMoves(next);
      expect(replies.length).toBeGreaterThan(0);
      for (const reply of replies) expect(hasMateInOne(after(next, reply)), uciMove(reply)).toBe(true);
      expect(result.score).toBe(MATE_SCORE - 3);
    });
  }
});

describe('material', () => {
  it('wins a hanging queen at depth 1, for either side', () => {
    expect(uciMove(searchBestMove(boardFromFen('4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1'), options(1), new Random(1)).move)).toBe(
      'd1d5',
    );
    expect(uciMove(searchBestMove(boardFromFen('3rk3/8/8/8/3Q4/8/8/4K3 b - - 0 1'), options(1), new Random(1)).move)).toBe(
      'd8d4',
    );
  });

  it('with quiescence, declines a pawn defended by a pawn that plain depth 1 grabs with the queen', () => {
    const board = boardFromFen('4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1');
    expect(uciMove(searchBestMove(board, options(1), new Random(1)).move)).toBe('d1d5');
    const quiet = searchBestMove(board, options(1, { quiescence: true }), new Random(1));
    expect(uciMove(quiet.move)).not.toBe('d1d5');
    expect(quiet.score).toBeGreaterThan(600); // still a queen against two pawns: nothing given away
  });

  it('evaluates the start position as level and a missing queen as about nine pawns', () => {
    expect(evaluateBoard(boardFromFen(START))).toBe(0);
    const noBlackQueen = evaluateBoard(boardFromFen('rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'));
    expect(noBlackQueen).toBeGreaterThan(850);
    expect(noBlackQueen).toBeLessThan(950);
    // Scores are from the side to move's point of view.
    expect(evaluateBoard(boardFromFen('rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1'))).toBe(-noBlackQueen);
  });
});

/** Plain negamax without pruning, to check that alpha-beta's scores are exact. */
function minimax(board: Board, depth: number, ply: number): number {
  const moves = generateLegalMoves(board);
  if (moves.length === 0) return gameStatus(board) === 'checkmate' ? -(MATE_SCORE - ply) : 0;
  if (depth === 0) return evaluateBoard(board);
  let best = -Infinity;
  for (const move of moves) best = Math.max(best, -minimax(after(board, move), depth - 1, ply + 1));
  return best;
}

describe('rankMoves', () => {
  it('scores every legal move exactly as a full minimax does, best first', () => {
    const fen = 'r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4';
    const board = boardFromFen(fen);
    const ranked = rankMoves(board, options(2));
    expect(ranked.length).toBe(generateLegalMoves(board).length);
    for (let i = 1; i < ranked.length; i++) expect(ranked[i - 1].score).toBeGreaterThanOrEqual(ranked[i].score);
    for (const { move, score } of ranked) expect(score, uciMove(move)).toBe(-minimax(after(board, move), 1, 1));
    const best = searchBestMove(board, options(2), new Random(5));
    expect(best.score).toBe(ranked[0].score);
  });
});

describe('root randomisation', () => {
  const board = boardFromFen(START);

  it('with t > 0 different seeds play different moves, all within the tolerance', () => {
    const spec = options(2, { tolerancePawns: 0.3 });
    const ranked = rankMoves(board, spec);
    const scoreOf = new Map(ranked.map((r) => [uciMove(r.move), r.score]));
    const chosen = new Set<string>();
    for (let seed = 1; seed <= 12; seed++) {
      const move = uciMove(searchBestMove(board, spec, new Random(seed)).move);
      chosen.add(move);
      expect(scoreOf.get(move)!).toBeGreaterThanOrEqual(ranked[0].score - 30);
    }
    expect(chosen.size).toBeGreaterThan(1);
  });

  it('the same seed plays the same move', () => {
    const spec = options(2, { tolerancePawns: 0.3 });
    const first = uciMove(searchBestMove(board, spec, new Random(42)).move);
    for (let i = 0; i < 3; i++) expect(uciMove(searchBestMove(board, spec, new Random(42)).move)).toBe(first);
  });

  it('with t = 0 only best-scoring moves are played', () => {
    const ranked = rankMoves(board, options(2));
    const best = ranked[0].score;
    const bestMoves = new Set(ranked.filter((r) => r.score === best).map((r) => uciMove(r.move)));
    for (let seed = 1; seed <= 8; seed++) {
      expect(bestMoves.has(uciMove(searchBestMove(board, options(2), new Random(seed)).move))).toBe(true);
    }
  });
});

describe('spec parsing and the player', () => {
  it('parses depth, quiescence and tolerance', () => {
    expect(parseAlphaBetaSpec('2', 9)).toEqual({ depth: 2, quiescence: false, tolerancePawns: 0, seed: 9 });
    expect(parseAlphaBetaSpec('2,q', 1)).toEqual({ depth: 2, quiescence: true, tolerancePawns: 0, seed: 1 });
    expect(parseAlphaBetaSpec('3,q,t=0.3', 4)).toEqual({ depth: 3, quiescence: true, tolerancePawns: 0.3, seed: 4 });
    expect(parseAlphaBetaSpec('ab:1,t=1')).toMatchObject({ depth: 1, quiescence: false, tolerancePawns: 1 });
  });

  it('rejects malformed specs with a one-line bad-input error', () => {
    for (const bad of ['', 'x', '0', '2.5', '-1', '99', '2,z', '2,t=', '2,t=-1', '2,t=abc', '2,q,q', '2,t=1,t=2', '2,']) {
      let error: unknown;
      try {
        parseAlphaBetaSpec(bad, 1);
      } catch (caught) {
        error = caught;
      }
      expect(error, `spec "${bad}"`).toBeInstanceOf(MorphError);
      expect((error as MorphError).exitCode).toBe(2);
      expect((error as MorphError).message).not.toContain('\n');
    }
  });

  it('names itself from its options and answers with a UCI move', async () => {
    expect(new AlphaBetaPlayer(parseAlphaBetaSpec('3,q,t=0.3', 1)).name).toBe('ab:3,q,t=0.3');
    expect(new AlphaBetaPlayer(parseAlphaBetaSpec('2', 1)).name).toBe('ab:2');
    const player = new AlphaBetaPlayer(parseAlphaBetaSpec('2,q', 1));
    await player.newGame();
    const fen = '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1';
    expect(await player.chooseMove({ startFen: fen, moves: [], fen })).toBe('a1a8');
    await player.close();
    await player.close();
  });
});
