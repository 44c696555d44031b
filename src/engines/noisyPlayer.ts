/**
 * A handicapped sparring partner: plays a uniformly random legal move with a given probability, otherwise the
 * inner player's move. It makes any engine as weak as wanted while keeping its strength in the other moves,
 * and with a deterministic inner engine (Stockfish at skill 20) the whole game is repeatable from its seed.
 */
import { Random } from '../util/random.ts';
import type { GamePlayer, GamePosition } from './gamePlayer.ts';
import { RandomPlayer } from './simplePlayers.ts';

/** Keeps the noise's stream apart from the inner player's, which is seeded from the same player seed. */
const NOISE_SEED_MIX = 0x2545f491;

/**
 * How far one game moves an adaptive handicap's probability: P += rate·(target - Morph's score). At rate .05 a
 * loss against a target of .3 adds .015 and a win takes .035 away, so P settles where the mean score is the
 * target, within some tens of games, and wanders a few hundredths around it.
 */
export const ADAPTATION_RATE = 0.05;

/** An adaptive handicap's probability after a game Morph scored `morphScore` in (1, .5, 0), aiming at `target`. */
export function adaptedProbability(probability: number, target: number, morphScore: number): number {
  return Math.min(1, Math.max(0, probability + ADAPTATION_RATE * (target - morphScore)));
}

export class NoisyPlayer implements GamePlayer {
  private random!: Random;
  private randomMover!: RandomPlayer;

  constructor(
    readonly name: string,
    private readonly inner: GamePlayer,
    /** The chance of a random move; an adaptive handicap changes it between games (adapt). */
    public probability: number,
    seed: number,
    /** Morph's score this handicap aims to hold (noisy:auto=T); undefined for a fixed probability. */
    readonly target?: number,
  ) {
    this.reseed(seed);
  }

  /** After a game Morph scored `morphScore` in (1, .5, 0): moves an adaptive probability toward the target. */
  adapt(morphScore: number): void {
    if (this.target === undefined) return;
    this.probability = adaptedProbability(this.probability, this.target, morphScore);
  }

  /** The fixed-probability spec of what plays now, e.g. for recording each game of an adaptive run. */
  currentName(): string {
    return this.target === undefined ? this.name : this.name.replace(/^noisy:auto=[^:]*/, `noisy:${this.probability.toFixed(3)}`);
  }

  /** Restarts the random choices from a player seed (the training harness gives each game its own). */
  reseed(seed: number): void {
    this.random = new Random(seed ^ NOISE_SEED_MIX);
    this.randomMover = new RandomPlayer(this.random);
  }

  newGame(): Promise<void> {
    return this.inner.newGame();
  }

  chooseMove(position: GamePosition): Promise<string> {
    return this.random.next() < this.probability ? this.randomMover.chooseMove(position) : this.inner.chooseMove(position);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
