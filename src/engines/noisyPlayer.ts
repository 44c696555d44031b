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

export class NoisyPlayer implements GamePlayer {
  private random!: Random;
  private randomMover!: RandomPlayer;

  constructor(
    readonly name: string,
    private readonly inner: GamePlayer,
    private readonly probability: number,
    seed: number,
  ) {
    this.reseed(seed);
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
