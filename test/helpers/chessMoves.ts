/**
 * chess.js's verbose move list without its quadratic cost. chess.js 1.4 builds each verbose Move's SAN from a fresh
 * list of every legal move, so `moves({ verbose: true })` generates the moves once per move (n + 1 times): most of
 * the time of the tests that brute-force positions with it. verboseMoves builds the same Move objects, by chess.js's
 * own constructor, handing it the one list while the position is the one it was generated in.
 */
import { Chess, Move } from 'chess.js';

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
