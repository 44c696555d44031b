/**
 * Opponent models with material "settled" and "two-ply" (issue 14): each move's settled loss, the material its
 * mover's opponent wins back by captures and promotions, and its two-ply balance, after the opponent's best reply
 * and the mover's captures, checked against unpruned brute forces; and models that weigh them, built
 * and measured as a user would.
 */
import { squareValueIndex } from '../src/eval/squareValues.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chess } from 'chess.js';
import { applyMove, BLACK, boardFromFen, cloneBoard, parseSquare, uciMove, type Board, type CompactMove } from '../src/chess/board.ts';
import { generateLegalMoves, hasLegalMove, isInCheck, isInsufficientMaterial } from '../src/chess/movegen.ts';
import { GameHistory } from '../src/chess/history.ts';
import { AlphaBetaPlayer, evaluateBoard, parseAlphaBetaSpec } from '../src/engines/alphabeta.ts';
import { PIECE_VALUE } from '../src/chess/pieceValues.ts';
import {
  learnedLogOdds, OpponentModel, scoreOfWeight, settledLoss, twoPlyLine,
} from '../src/model/opponentModel.ts';
import { QUIESCENCE_DEPTH } from '../src/search/search.ts';
import { Random } from '../src/util/random.ts';
import { fixturePositions } from './helpers/patternSamples.ts';
import { runMorph } from './helpers/cli.ts';
import { verboseMoves } from './helpers/chessMoves.ts';
import { gamesAgainstRandom } from './helpers/playedGames.ts';
import { alphaBetaSquareValues } from './helpers/alphaBetaSquares.ts';

const VALUES = [0.2, 0.7, 0.8, 1.1, 2.2];
const PIECES = 'pnbrq';

/** The material balance, in VALUES, of the side NOT to move in `fen` (the side that just moved), counted from the FEN. */
function balance(fen: string): number {
  const [placement, turn] = fen.split(' ');
  let total = 0;
  for (const c of placement) {
    const k = PIECES.indexOf(c.toLowerCase());
    if (k < 0) continue;
    const white = c !== c.toLowerCase();
    total += (white === (turn === 'b') ? 1 : -1) * VALUES[k];
  }
  return total;
}

const FLOOR = scoreOfWeight(0);
const CEILING = scoreOfWeight(1);

/**
 * What the side that just moved into `fen` is left with, in log-odds of VALUES, after every line of captures and
 * promotions up to `depth` in all, each side free to stop; null when the tree is larger than the budget.
 */
function bruteForce(fen: string, depth: number, budget: { nodes: number }): number | null {
  const stand = balance(fen);
  if (depth === 0) return stand;
  let value = stand;
  for (const m of verboseMoves(new Chess(fen))) {
    if (!(m.isCapture() || m.isEnPassant() || m.isPromotion())) continue;
    if (--budget.nodes < 0) return null;
    const after = new Chess(m.after);
    let reply: number;
    if (after.isCheckmate()) reply = FLOOR;
    else if (after.isStalemate() || after.isInsufficientMaterial()) reply = 0;
    else {
      const capturer = bruteForce(m.after, depth - 1, budget);
      if (capturer === null) return null;
      reply = -capturer;
    }
    value = Math.min(value, reply);
  }
  return Math.max(FLOOR, Math.min(CEILING, value));
}

/** The material balance, in VALUES, of the side that just moved into `board`. */
function boardBalance(board: Board): number {
  let total = 0;
  for (const piece of board.squares) {
    const type = Math.abs(piece);
    if (type >= 1 && type <= 5) total += (piece > 0 === (board.turn === BLACK) ? 1 : -1) * VALUES[type - 1];
  }
  return total;
}

/** The positions the legal moves of `board` lead to, each with its move. */
function successorBoards(board: Board): { move: CompactMove; after: Board }[] {
  return generateLegalMoves(board).map((move) => {
    const after = cloneBoard(board);
    applyMove(board, move, after);
    return { move, after };
  });
}

/** How a position ends the game, asked as the search asks (mate, stalemate, or too little material to mate). */
const ending = (board: Board): 'checkmate' | 'draw' | null =>
  !hasLegalMove(board) ? (isInCheck(board) ? 'checkmate' : 'draw') : isInsufficientMaterial(board.squares) ? 'draw' : null;

/**
 * bruteForce on the compact board (chess.js per node is too slow for two plies; the move generator is checked
 * against chess.js by perft, movegen.test.ts): what the side that just moved is left with after the side to
 * move's captures and promotions, `depth` in all, with no pruning and no move order.
 */
function quiescence(board: Board, depth: number, budget: { nodes: number }): number | null {
  const stand = boardBalance(board);
  if (depth === 0) return stand;
  let value = stand;
  for (const { move, after } of successorBoards(board)) {
    const followed = board.squares[move.to] !== 0 || move.promotion !== 0 || (move.to === board.epSquare && Math.abs(board.squares[move.from]) === 1);
    if (!followed) continue;
    if (--budget.nodes < 0) return null;
    const end = ending(after);
    let reply: number;
    if (end === 'checkmate') reply = FLOOR;
    else if (end === 'draw') reply = 0;
    else {
      const capturer = quiescence(after, depth - 1, budget);
      if (capturer === null) return null;
      reply = -capturer;
    }
    value = Math.min(value, reply);
  }
  return Math.max(FLOOR, Math.min(CEILING, value));
}

/**
 * The two-ply balance of the side that just moved into `fen`: the least, over every legal reply, of what the mover
 * keeps after its own captures (quiescence from the other side); a reply that mates is the floor, one that ends
 * the game otherwise 0 (asked, as the search asks, only of captures and checks); no reply at all, the ceiling for
 * a mate, 0 for a stalemate. Null when the tree is larger than the budget.
 */
function bruteForceTwoPly(fen: string, budget: { nodes: number }): number | null {
  const board = boardFromFen(fen);
  const replies = successorBoards(board);
  if (replies.length === 0) return isInCheck(board) ? CEILING : 0;
  let value = CEILING;
  for (const { move, after } of replies) {
    if (--budget.nodes < 0) return null;
    const asked = board.squares[move.to] !== 0 || (move.to === board.epSquare && Math.abs(board.squares[move.from]) === 1) || isInCheck(after);
    const end = asked ? ending(after) : null;
    let mover: number;
    if (end === 'checkmate') mover = FLOOR;
    else if (end === 'draw') mover = 0;
    else {
      const replier = quiescence(after, QUIESCENCE_DEPTH, budget);
      if (replier === null) return null;
      mover = -replier;
    }
    value = Math.min(value, mover);
  }
  return Math.max(FLOOR, Math.min(CEILING, value));
}

/** Whether the search asks a move whether it ends the game: captures (en passant too) and checks. */
const askedEnd = (board: Board, move: CompactMove, after: Board): boolean =>
  board.squares[move.to] !== 0 || (move.to === board.epSquare && Math.abs(board.squares[move.from]) === 1) || isInCheck(after);

/** The best balance the side to move in `board` gets from one move, valued where it stands; mated the floor. */
function bestStaticMove(board: Board): number {
  const answers = successorBoards(board);
  if (answers.length === 0) return isInCheck(board) ? FLOOR : 0;
  return Math.max(
    ...answers.map(({ move, after }) => {
      const end = askedEnd(board, move, after) ? ending(after) : null;
      return end === 'checkmate' ? CEILING : end === 'draw' ? 0 : boardBalance(after);
    }),
  );
}

/**
 * The balance of the side that just moved into `fen` after two plies and nothing after (shape "plain"), or with a
 * ply more, the mover's best move, after a move or a reply that gives check ("checks"): unpruned.
 */
function bruteForceShape(fen: string, shape: 'plain' | 'checks'): number {
  const board = boardFromFen(fen);
  const replies = successorBoards(board);
  if (replies.length === 0) return isInCheck(board) ? CEILING : 0;
  let value = CEILING;
  for (const { move, after } of replies) {
    const end = askedEnd(board, move, after) ? ending(after) : null;
    let mover: number;
    if (end === 'checkmate') mover = FLOOR;
    else if (end === 'draw') mover = 0;
    else if (shape === 'checks' && (isInCheck(board) || isInCheck(after))) mover = bestStaticMove(after);
    else mover = -boardBalance(after);
    value = Math.min(value, mover);
  }
  return Math.max(FLOOR, Math.min(CEILING, value));
}

/** Positions after every `every`-th legal move of sample positions and random games: what a model judges. */
function judgedPositions(every: number): string[] {
  const rng = new Random(11);
  const bases = fixturePositions().filter((_, i) => i % 120 === 0);
  for (let game = 0; game < 2; game++) {
    const chess = new Chess();
    for (let ply = 0; ply < 60 && !chess.isGameOver(); ply++) {
      const moves = chess.moves();
      chess.move(moves[rng.int(moves.length)]);
      if (ply % 10 === 9) bases.push(chess.fen());
    }
  }
  return bases.flatMap((fen) => verboseMoves(new Chess(fen)).filter((_, i) => i % every === 0).map((m) => m.after));
}

describe('twoPlyLine', () => {
  it("is the minimax over every reply and then the mover's captures (an unpruned brute force), and its line ends where that balance stands", () => {
    let compared = 0;
    let gaining = 0;
    let losing = 0;
    for (const fen of judgedPositions(4)) {
      const expected = bruteForceTwoPly(fen, { nodes: 3000 });
      if (expected === null) continue;
      const line = twoPlyLine(boardFromFen(fen), VALUES);
      expect(line.balance, fen).toBeCloseTo(expected, 9);
      if (line.difference) {
        // The material where the line ends, the mover less its opponent, is worth the balance.
        const worth = [...line.difference].reduce((sum, d, k) => sum + d * VALUES[k], 0);
        expect(worth, fen).toBeCloseTo(line.balance, 9);
      }
      compared++;
      if (line.balance > balance(fen) + 1e-9) gaining++;
      if (line.balance < balance(fen) - 1e-9) losing++;
    }
    expect(compared).toBeGreaterThan(60);
    // Not vacuous: some moves win material the reply cannot save, some lose it.
    expect(gaining).toBeGreaterThan(1);
    expect(losing).toBeGreaterThan(15);
  }, 120_000);

  it('sees a fork, a mate in one allowed, and gives a mate and a draw their ends of the scale', () => {
    // White's knight has just forked king and rook (Nc7+): the king must move, and the knight takes the rook.
    const fork = twoPlyLine(boardFromFen('r3k3/2N4p/8/8/8/8/P7/4K3 b - - 0 1'), VALUES);
    expect(fork.balance).toBeCloseTo(VALUES[1], 9);
    expect([...fork.difference!]).toEqual([0, 1, 0, 0, 0]);
    // White to be mated on the back rank (Ra1#): the floor, whatever the material.
    expect(twoPlyLine(boardFromFen('r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1'), VALUES)).toMatchObject({ balance: FLOOR, difference: null });
    expect(twoPlyLine(boardFromFen('6k1/8/8/8/8/8/8/6K1 b - - 0 1'), VALUES, 'checkmate')).toMatchObject({ balance: CEILING, difference: null });
    expect(twoPlyLine(boardFromFen('6k1/8/8/8/8/8/8/6K1 b - - 0 1'), VALUES, 'draw')).toMatchObject({ balance: 0, difference: null });
  });
});

describe('twoPlyLine in the other shapes', () => {
  it('is the minimax over two plies (plain), and a ply more after a check (checks): unpruned brute forces', () => {
    const differ = { plain: 0, checks: 0 };
    let compared = 0;
    for (const fen of judgedPositions(4)) {
      const quiescence = twoPlyLine(boardFromFen(fen), VALUES).balance;
      for (const shape of ['plain', 'checks'] as const) {
        const line = twoPlyLine(boardFromFen(fen), VALUES, null, undefined, shape);
        expect(line.balance, `${shape} ${fen}`).toBeCloseTo(bruteForceShape(fen, shape), 9);
        if (line.difference) {
          const worth = [...line.difference].reduce((sum, d, k) => sum + d * VALUES[k], 0);
          expect(worth, `${shape} ${fen}`).toBeCloseTo(line.balance, 9);
        }
        if (Math.abs(line.balance - quiescence) > 1e-9) differ[shape]++;
      }
      compared++;
    }
    expect(compared).toBeGreaterThan(100);
    // Not vacuous: the shapes judge some moves otherwise than the quiescence line.
    expect(differ.plain).toBeGreaterThan(10);
    expect(differ.checks).toBeGreaterThan(10);
  }, 120_000);

  it('a plain line counts a defended pawn lost, and only the check extension sees a fork by check', () => {
    // Black's bishop can take e4, which d3 defends: two plies end on the capture; the quiescence sees dxe4.
    const defended = '6k1/8/2b5/8/4P3/3P4/8/6K1 b - - 0 1';
    expect(twoPlyLine(boardFromFen(defended), VALUES, null, undefined, 'plain').balance).toBeCloseTo(VALUES[0] - VALUES[2], 9);
    expect(twoPlyLine(boardFromFen(defended), VALUES).balance).toBeCloseTo(2 * VALUES[0] - VALUES[2], 9);
    // Nc7+ forks king and rook: after the king moves, two plies still see the rook; a ply more takes it.
    const fork = 'r3k3/2N4p/8/8/8/8/P7/4K3 b - - 0 1';
    expect(twoPlyLine(boardFromFen(fork), VALUES, null, undefined, 'plain').balance).toBeCloseTo(VALUES[1] - VALUES[3], 9);
    const extended = twoPlyLine(boardFromFen(fork), VALUES, null, undefined, 'checks');
    expect(extended.balance).toBeCloseTo(VALUES[1], 9);
    expect([...extended.difference!]).toEqual([0, 1, 0, 0, 0]);
  });
});

describe('learnedLogOdds', () => {
  it("with ab:2,q's piece and square values, is ab:2,q's static evaluation for the side that just moved", () => {
    const squares = alphaBetaSquareValues();
    const pieces = PIECE_VALUE.slice(1, 6);
    let positional = 0;
    for (const fen of judgedPositions(3)) {
      const board = boardFromFen(fen);
      // evaluateBoard speaks for the side to move; the model's evaluation for the side that just moved.
      expect(learnedLogOdds(board, pieces, squares), fen).toBeCloseTo(-evaluateBoard(board) / 100, 9);
      if (Math.abs(learnedLogOdds(board, pieces, squares) - learnedLogOdds(board, pieces)) > 0.05) positional++;
    }
    expect(positional).toBeGreaterThan(50); // not vacuous: the squares count
  });

});

describe('settledLoss', () => {
  it('is the settled balance less the standing one, the full minimax over captures and promotions (brute force by chess.js)', () => {
    // Positions after every sixth legal move of sample positions: what a model judges, many of them losing material.
    const fens = judgedPositions(6);
    let compared = 0;
    let losing = 0;
    for (const fen of fens) {
      const expected = bruteForce(fen, QUIESCENCE_DEPTH, { nodes: 100 });
      if (expected === null) continue;
      const loss = settledLoss(boardFromFen(fen), VALUES);
      expect(loss, fen).toBeCloseTo(Math.min(0, expected - balance(fen)), 9);
      compared++;
      if (loss < -1e-9) losing++;
    }
    expect(compared).toBeGreaterThan(40);
    expect(losing).toBeGreaterThan(15); // not vacuous: many positions lose material
  }, 60_000);

  it('counts a piece left to a pawn, and an exchange that comes out level as no loss', () => {
    // After 1.e4 d5 2.Qg4?? (Black to move): the bishop takes the queen and nothing takes back.
    expect(settledLoss(boardFromFen('rnbqkbnr/ppp1pppp/8/3p4/4P1Q1/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2'), VALUES)).toBeCloseTo(-VALUES[4], 9);
    // After 1.e4 d5 (White to move): exd5 Qxd5 is a pawn for a pawn.
    expect(settledLoss(boardFromFen('rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2'), VALUES)).toBe(0);
  });
});

/** Games of ab:2,q against random, colours alternating, from varied openings. */
const alphaBetaGames = (count: number, seed: number) =>
  gamesAgainstRandom(count, seed, (playerSeed) => new AlphaBetaPlayer(parseAlphaBetaSpec('ab:2,q', playerSeed)));

describe('morph model --material settled and two-ply', () => {
  let dir: string;
  let train: string;
  let heldOut: string;
  let player: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'morph-settled-'));
    train = join(dir, 'ab.train.pgn');
    heldOut = join(dir, 'ab.heldout.pgn');
    // Sixteen games to fit on (24 until 2026-12-07; the first 16 of them): the two-ply model's fit, most of this
    // file's time, is a third cheaper (16 s -> 10.6 s of processor time), and the held-out top-1 keeps its order with
    // no smaller margins: exact .386, settled .462, two-ply .682 (on 24: .379, .439, .705; on 12: .394, .439, .629).
    // The two-ply values keep every order checked below (P .35, N .70, B .63, R 1.09, Q 1.35; two-ply weight 19; a
    // knight .11 in the centre against -.20 on the rim).
    writeFileSync(train, await alphaBetaGames(16, 1));
    writeFileSync(heldOut, await alphaBetaGames(8, 2));
    player = new AlphaBetaPlayer(parseAlphaBetaSpec('ab:2,q', 0)).name;
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("scores each move as the linear model does plus the learned weight times its settled loss, and predicts a searcher better (two-ply better still)", async () => {
    const built: Record<string, string> = {};
    // Each with the pull --shrinkage auto chooses for it on these games (the same model, without the five trial
    // fits; the choice is opponentModel.test.ts's "--shrinkage auto").
    const pulls: Record<string, string> = { exact: '0.1', settled: '0.1', 'two-ply': '1' };
    for (const material of ['exact', 'settled', 'two-ply']) {
      built[material] = join(dir, `ab.${material}.db`);
      const run = await runMorph(['model', '--out', built[material], '--pgn', train, '--player', player, '--seed', '1', '--material', material, '--search', 'one-ply', '--shrinkage', pulls[material], '--json', '--no-progress']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout).settings).toMatchObject({ material, squareValues: true });
    }
    const model = OpponentModel.open(built.settled);
    try {
      const settle = model.material!.settle!;
      // The games have results: the values are fitted to them, all positive; a searcher avoids losses.
      expect(settle.values).toHaveLength(5);
      for (const v of settle.values) expect(v).toBeGreaterThan(0);
      expect(settle.lossWeight).toBeGreaterThan(0.5);
      const withoutSettle = new OpponentModel(model.store, model.terminal, model.features, 'one-ply', { ...model.material!, settle: undefined });
      const fen = 'rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2';
      const linear = new Map(withoutSettle.rank(new GameHistory(fen)).map((m) => [m.move, m.score]));
      let lowered = 0;
      for (const m of model.rank(new GameHistory(fen))) {
        const chess = new Chess(fen);
        chess.move({ from: m.move.slice(0, 2), to: m.move.slice(2, 4), promotion: m.move[4] });
        const loss = settledLoss(boardFromFen(chess.fen()), settle.values);
        expect(m.score).toBeCloseTo(linear.get(m.move)! + settle.lossWeight * loss, 9);
        if (loss < 0) lowered++;
      }
      expect(lowered).toBeGreaterThan(0); // Qg4 and Bc4 among them
    } finally {
      model.close();
    }
    /**
     * Top-1 of each model given on the held-out games: the first as --model, a second as --other-model of the same
     * run (ranked on the same moves, against the same labels, as a run of its own would rank it).
     */
    const top1 = async (...files: [string] | [string, string]): Promise<number[]> => {
      const run = await runMorph(['predict', '--model', files[0], ...(files[1] ? ['--other-model', files[1]] : []), '--pgn', heldOut, '--player', player, '--labels', 'ab:2,q', '--json']);
      expect(run.code).toBe(0);
      const rankers = JSON.parse(run.stdout).rankers as { ranker: string; top1: { value: number } }[];
      const named = [`model ${files[0]}`, ...(files[1] ? [`other model ${files[1]}`] : [])];
      return named.map((name) => rankers.find((r) => r.ranker === name)!.top1.value);
    };
    // Measured on 300 games: 41% -> 50% -> 87% (docs/lab/); these few games show the direction. (Square
    // values, the default with two-ply, add 19 points there; in these short games against a random mover, decided by
    // the material it hangs, they neither help nor hurt measurably: 64% with them, 64-67% without.)
    const [settled, exact] = await top1(built.settled, built.exact);
    const [twoPly] = await top1(built['two-ply']);
    expect(settled).toBeGreaterThan(exact);
    expect(twoPly).toBeGreaterThan(settled);
  }, 360_000);

  it('with two-ply, adds the learned weight times the two-ply balance, at the piece values its choices imply', () => {
    const file = join(dir, 'ab.two-ply.db');
    const model = OpponentModel.open(file);
    try {
      const settle = model.material!.settle!;
      // The implied values: every piece worth more than a pawn, the queen the most; a searcher goes for material.
      const [pawn, knight, bishop, rook, queen] = settle.values;
      for (const v of [knight, bishop, rook]) expect(v).toBeGreaterThan(pawn);
      expect(queen).toBeGreaterThan(rook);
      expect(settle.twoPlyWeight).toBeGreaterThan(2);
      const withoutSettle = new OpponentModel(model.store, model.terminal, model.features, 'one-ply', { ...model.material!, settle: undefined });
      // 1.e4 e5 2.Nf3 Nc6 3.Bc4 Nd4: Nxe5 wins a pawn the queen's Qg5 fork answers; Bxf7+ Kxf7 loses a bishop for a pawn.
      const fen = 'r1bqkbnr/pppp1ppp/8/4p3/2BnP3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4';
      const linear = new Map(withoutSettle.rank(new GameHistory(fen)).map((m) => [m.move, m.score]));
      const balances = new Set<number>();
      for (const m of model.rank(new GameHistory(fen))) {
        const chess = new Chess(fen);
        chess.move({ from: m.move.slice(0, 2), to: m.move.slice(2, 4), promotion: m.move[4] });
        const after = boardFromFen(chess.fen());
        const balance = twoPlyLine(after, settle.values, null, settle.squareValues).balance;
        const expected = linear.get(m.move)! + settle.lossWeight * settledLoss(after, settle.values) + settle.twoPlyWeight! * balance;
        expect(m.score, m.move).toBeCloseTo(expected, 9);
        balances.add(Math.round(balance * 1e6));
      }
      expect(balances.size).toBeGreaterThan(2); // the moves differ in what they keep
      // The square values the choices imply: ab:2,q's knights go to the centre, not the rim (its own table:
      // +20 on d4-e5, -30 to -50 on the a- and h-files).
      const knightOn = (square: string) => settle.squareValues![squareValueIndex(2, parseSquare(square))];
      const centre = ['d4', 'e4', 'd5', 'e5'].reduce((sum, sq) => sum + knightOn(sq), 0) / 4;
      const rim = ['a3', 'a6', 'h3', 'h6'].reduce((sum, sq) => sum + knightOn(sq), 0) / 4;
      expect(centre).toBeGreaterThan(rim);
    } finally {
      model.close();
    }
  });

  it('refuses a model whose square values are not one per piece type and square: one line, exit code 2', async () => {
    const damaged = join(dir, 'ab.damaged.db');
    writeFileSync(damaged, readFileSync(join(dir, 'ab.two-ply.db')));
    const db = new Database(damaged);
    const row = db.prepare("SELECT value FROM meta WHERE key = 'model_material_scores'").get() as { value: string };
    const scores = JSON.parse(row.value);
    scores.settle.squareValues = scores.settle.squareValues.slice(0, 10);
    db.prepare("UPDATE meta SET value = ? WHERE key = 'model_material_scores'").run(JSON.stringify(scores));
    db.close();
    const run = await runMorph(['predict', '--model', damaged, '--pgn', heldOut, '--player', player]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/10 square values where a model has 384/);
  });
});
