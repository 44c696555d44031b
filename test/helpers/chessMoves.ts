/**
 * chess.js's verbose move list without its quadratic cost. chess.js 1.4 builds each verbose Move's SAN from a fresh
 * list of every legal move, so `moves({ verbose: true })` generates the moves once per move (n + 1 times): most of
 * the time of the tests that brute-force positions with it. verboseMoves builds the same Move objects, by chess.js's
 * own constructor, handing it the one list while the position is the one it was generated in.
 */
import { Chess, Move } from 'chess.js';
import type { Random } from '../../src/util/random.ts';

/** The private parts of chess.js 1.4 that its Move constructor reads. */
interface ChessInternals {
  _moves(options?: { legal?: boolean; piece?: string; square?: string }): unknown[];
  _hash: bigint;
  _history: unknown[];
}

function listedOnce(chess: Chess): Move[] {
  const inner = chess as unknown as ChessInternals;
  const generate = inner._moves;
  const legal = generate.call(inner, { legal: true });
  const [hash, plies] = [inner._hash, inner._history.length];
  // Shadows the method on this instance only while the Moves are built; any other call (another position, a
  // piece or square filter, the checkmate test after a move) generates as chess.js does.
  inner._moves = (options) =>
    options?.legal === true && options.piece === undefined && options.square === undefined && inner._hash === hash && inner._history.length === plies
      ? legal
      : generate.call(inner, options);
  try {
    return legal.map((move) => new (Move as unknown as new (chess: Chess, internal: unknown) => Move)(chess, move));
  } finally {
    delete (inner as Partial<ChessInternals>)._moves;
  }
}

/** Positions with castling, en passant, promotions, checks, a mate and moves that need disambiguating. */
const SELF_CHECK = [
  'r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3',
  'r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4',
  'N3k2N/8/8/8/8/8/1p4p1/R3K2R b KQ - 0 1',
  '4k3/8/8/8/8/8/2N3N1/R3K2R w - - 0 1',
];
for (const fen of SELF_CHECK) {
  const [fast, slow] = [listedOnce(new Chess(fen)), new Chess(fen).moves({ verbose: true })];
  if (JSON.stringify(fast) !== JSON.stringify(slow)) {
    throw new Error(`test/helpers/chessMoves.ts: chess.js's internals changed (moves of ${fen} differ); use moves({ verbose: true })`);
  }
}

/** `chess.moves({ verbose: true })`: the same Moves, in the same order (checked against it when this module loads). */
export function verboseMoves(chess: Chess): Move[] {
  return listedOnce(chess);
}

/** The private parts of chess.js 1.4 that its move() runs to play a move given as an object. */
interface MoveInternals {
  _moves(options?: { legal?: boolean; square?: string }): { to: number; promotion?: string }[];
  _makeMove(move: unknown): void;
  _incPositionCount(): void;
}

/**
 * `chess.move({ from, to, promotion })` for a UCI move, without the Move it returns: chess.js finds the move among
 * its legal moves and plays it the same way, but does not write the Move's SAN and two FENs, most of the time of
 * replaying a game in chess.js to have it write the game's PGN (test/san.test.ts). Checked against move() at its
 * first call. Throws as move() does for a move that is not legal.
 */
export function playUciMove(chess: Chess, uci: string): void {
  if (!playChecked) {
    playChecked = true;
    checkPlayUciMove();
  }
  play(chess, uci);
}

let playChecked = false;

function play(chess: Chess, uci: string): void {
  const inner = chess as unknown as MoveInternals;
  const [from, to, promotion] = [uci.slice(0, 2), uci.slice(2, 4), uci[4]];
  // chess.js's squares are 0x88: file in the low nibble, rank 8 first.
  const square = (index: number) => 'abcdefgh'[index & 0xf] + String(8 - (index >> 4));
  const found = inner._moves({ legal: true, square: from }).find((m) => square(m.to) === to && (!('promotion' in m) || m.promotion === promotion));
  if (found === undefined) throw new Error(`Invalid move: ${uci}`);
  inner._makeMove(found);
  inner._incPositionCount();
}

/**
 * Every legal move of the SELF_CHECK positions, then a game through castling, en passant and promotions: play leaves
 * the same position, repetition count and PGN as move().
 */
function checkPlayUciMove(): void {
  const game = ['e2e4', 'g8f6', 'e4e5', 'd7d5', 'e5d6', 'c8e6', 'd6c7', 'b8c6', 'c7d8n', 'a8d8', 'g1f3', 'd8d2', 'f1c4', 'd2c2', 'e1g1'];
  const cases: [string, string[]][] = [
    ...SELF_CHECK.flatMap((fen) => new Chess(fen).moves({ verbose: true }).map((m): [string, string[]] => [fen, [m.lan]])),
    [new Chess().fen(), game],
  ];
  for (const [fen, moves] of cases) {
    const [fast, slow] = [new Chess(fen), new Chess(fen)];
    for (const uci of moves) {
      play(fast, uci);
      slow.move({ from: uci.slice(0, 2), to: uci.slice(2, 4), promotion: uci[4] });
    }
    if (fast.fen() !== slow.fen() || fast.pgn() !== slow.pgn() || fast.isThreefoldRepetition() !== slow.isThreefoldRepetition()) {
      throw new Error(`test/helpers/chessMoves.ts: chess.js's internals changed (${moves.join(' ')} from ${fen} differ); use move()`);
    }
  }
}

/**
 * Seeded random playouts from the start position in one chess.js game, yielded after each step: a step plays a
 * random legal move, or starts again once the game has ended, is drawn or has passed `maxPlies` plies (counted here:
 * chess.js's history() writes every move's SAN again at each call). Endless: the caller stops when it has enough.
 */
export function* restartingPlayout(random: Random, maxPlies = 80): Generator<Chess> {
  const chess = new Chess();
  let plies = 0;
  for (;;) {
    const moves = chess.moves();
    if (moves.length === 0 || chess.isDraw() || plies > maxPlies) {
      chess.reset();
      plies = 0;
    } else {
      chess.move(moves[random.int(moves.length)]);
      plies++;
    }
    yield chess;
  }
}
