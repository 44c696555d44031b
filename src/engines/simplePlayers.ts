/**
 * The two weakest baselines: a random mover and a one-ply material grabber. They cost nothing, so they are
 * the first opponents to beat and a quick check that a learner has learnt anything at all. Moves come from our
 * perft-verified generator: chess.js would cost ~2 ms a move, which dominates a training run against them.
 */
import { PIECE_VALUE } from '../chess/pieceValues.ts';
import { boardFromFen, typeOf, uciMove, type Board, type CompactMove } from '../chess/board.ts';
import { generateLegalMoves } from '../chess/movegen.ts';
import { Random } from '../util/random.ts';
import type { GamePlayer, GamePosition } from './gamePlayer.ts';

function legalMoves(position: GamePosition): { board: Board; moves: CompactMove[] } {
  const board = boardFromFen(position.fen);
  const moves = generateLegalMoves(board);
  if (moves.length === 0) throw new Error(`no legal move in ${position.fen} (the game is over)`);
  return { board, moves };
}

function asRandom(seed: number | Random): Random {
  return typeof seed === 'number' ? new Random(seed) : seed;
}

/** Plays a uniformly random legal move. */
export class RandomPlayer implements GamePlayer {
  readonly name = 'random';
  private readonly random: Random;

  constructor(seed: number | Random) {
    this.random = asRandom(seed);
  }

  async newGame(): Promise<void> {}

  async chooseMove(position: GamePosition): Promise<string> {
    return uciMove(this.random.pick(legalMoves(position).moves));
  }

  async close(): Promise<void> {}
}


/**
 * The mover's material balance after `move`, relative to before it: what it captures plus what a promotion
 * adds. Ranking moves by this is ranking them by the material balance of the position they lead to.
 */
export function materialGain(board: Board, move: CompactMove): number {
  const piece = board.squares[move.from];
  let captured = typeOf(board.squares[move.to]);
  if (captured === 0 && typeOf(piece) === 1 && move.to === board.epSquare) captured = 1; // en passant
  const promoted = move.promotion ? PIECE_VALUE[move.promotion] - PIECE_VALUE[1] : 0;
  return PIECE_VALUE[captured] + promoted;
}

/** Plays the move that leaves the best material balance for the mover (P1 N3 B3 R5 Q9); random among ties. */
export class GreedyPlayer implements GamePlayer {
  readonly name = 'greedy';
  private readonly random: Random;

  constructor(seed: number | Random) {
    this.random = asRandom(seed);
  }

  async newGame(): Promise<void> {}

  async chooseMove(position: GamePosition): Promise<string> {
    const { board, moves } = legalMoves(position);
    let best: CompactMove[] = [];
    let bestGain = -Infinity;
    for (const move of moves) {
      const gain = materialGain(board, move);
      if (gain > bestGain) {
        bestGain = gain;
        best = [move];
      } else if (gain === bestGain) {
        best.push(move);
      }
    }
    return uciMove(this.random.pick(best));
  }

  async close(): Promise<void> {}
}
