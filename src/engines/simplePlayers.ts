/**
 * The two weakest baselines: a random mover and a one-ply material grabber. They cost nothing, so they are
 * the first opponents to beat and a quick check that a learner has learnt anything at all.
 */
import { Chess, type Move, type PieceSymbol } from 'chess.js';
import { Random } from '../util/random.ts';
import type { GamePlayer, GamePosition } from './player.ts';

function legalMoves(position: GamePosition): Move[] {
  const moves = new Chess(position.fen).moves({ verbose: true });
  if (moves.length === 0) throw new Error(`no legal move in ${position.fen} (the game is over)`);
  return moves;
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
    return this.random.pick(legalMoves(position)).lan;
  }

  async close(): Promise<void> {}
}

export const MATERIAL_VALUE: Readonly<Record<PieceSymbol, number>> = { p: 1, n: 3, b: 3, r: 5, q: 9, k: 0 };

/**
 * The mover's material balance after `move`, relative to before it: what it captures plus what a promotion
 * adds. Ranking moves by this is ranking them by the material balance of the position they lead to.
 */
export function materialGain(move: Move): number {
  const captured = move.captured ? MATERIAL_VALUE[move.captured] : 0;
  const promoted = move.promotion ? MATERIAL_VALUE[move.promotion] - MATERIAL_VALUE.p : 0;
  return captured + promoted;
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
    let best: Move[] = [];
    let bestGain = -Infinity;
    for (const move of legalMoves(position)) {
      const gain = materialGain(move);
      if (gain > bestGain) {
        bestGain = gain;
        best = [move];
      } else if (gain === bestGain) {
        best.push(move);
      }
    }
    return this.random.pick(best).lan;
  }

  async close(): Promise<void> {}
}
