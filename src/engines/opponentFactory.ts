/**
 * Turns an opponent spec into a GamePlayer. Morph and the alpha-beta engine are built by factories the caller
 * injects, which keeps this module free of the learner and the search (and of their import cost).
 */
import { MorphError, badInput } from '../util/errors.ts';
import { GAME_DIRS, createGnuchessPlayer, findExecutable } from './gnuchess.ts';
import { engineSettings, formatOpponentSpec, type OpponentSpec } from './opponentSpec.ts';
import type { GamePlayer } from './gamePlayer.ts';
import { GreedyPlayer, RandomPlayer } from './simplePlayers.ts';
import { NoisyPlayer } from './noisyPlayer.ts';
import { createStockfishPlayer } from './stockfish.ts';
import type { EngineTimeouts } from './uciClient.ts';
import { UciEnginePlayer, XboardEnginePlayer } from './uciEnginePlayer.ts';

export type MorphSpec = Extract<OpponentSpec, { kind: 'morph' }>;
export type AlphaBetaSpec = Extract<OpponentSpec, { kind: 'ab' }>;

export interface OpponentContext {
  /** Seeds the opponent's own randomness (tie-breaks, random moves). */
  seed: number;
  /** The canonical spec text, to use as the player's name. */
  name: string;
}

export interface CreateOpponentOptions {
  seed: number;
  morphFactory?: (spec: MorphSpec, context: OpponentContext) => GamePlayer | Promise<GamePlayer>;
  alphaBetaFactory?: (spec: AlphaBetaSpec, context: OpponentContext) => GamePlayer | Promise<GamePlayer>;
  /** Overrides the UCI client's default timeouts for external engines. */
  engineTimeouts?: EngineTimeouts;
}

export async function createOpponent(spec: OpponentSpec, options: CreateOpponentOptions): Promise<GamePlayer> {
  const name = formatOpponentSpec(spec);
  const context: OpponentContext = { seed: options.seed, name };
  const timeouts = options.engineTimeouts ?? {};
  switch (spec.kind) {
    case 'random':
      return new RandomPlayer(options.seed);
    case 'greedy':
      return new GreedyPlayer(options.seed);
    case 'stockfish':
      return createStockfishPlayer(name, spec.options, timeouts);
    case 'gnuchess':
      return createGnuchessPlayer(name, spec.depth, timeouts);
    case 'uci': {
      const command = findExecutable(spec.path);
      if (command === null) throw badInput(`UCI engine not found or not executable: ${spec.path}`);
      const { go, setoptions } = engineSettings(spec.options);
      return new UciEnginePlayer({ name, command, options: setoptions, go, ...timeouts });
    }
    case 'xboard': {
      const [program, ...args] = spec.command.split(' ');
      // Debian installs these engines in /usr/games, often missing from PATH.
      const command = findExecutable(program, GAME_DIRS);
      if (command === null) throw badInput(`xboard engine not found or not executable: ${program}`);
      // The spec admits only depth, movetime and clock, so its options are all search limits.
      const { go, setoptions } = engineSettings(spec.options);
      const limits = setoptions.clock === undefined ? go : { ...go, clock: Number(setoptions.clock) };
      return new XboardEnginePlayer({ name, command, args, limits, ...timeouts });
    }
    case 'morph':
      if (!options.morphFactory) throw new MorphError(`cannot create opponent "${name}": no Morph player factory was given`);
      return options.morphFactory(spec, context);
    case 'noisy': {
      const inner = await createOpponent(spec.inner, options);
      return new NoisyPlayer(name, inner, spec.probability, options.seed, spec.target);
    }
    case 'self':
      throw badInput('"self" (self-play) is a training opponent only: morph train --opponent self');
    case 'mix':
      throw badInput(`"${name}" (a mix of opponents) is for training only: morph train --opponent mix:...`);
    case 'ladder':
      throw badInput(`"${name}" (a ladder of opponents) is for training only: morph train --opponent ladder:...`);
    case 'ab':
      if (!options.alphaBetaFactory) {
        throw new MorphError(`cannot create opponent "${name}": no alpha-beta player factory was given`);
      }
      return options.alphaBetaFactory(spec, context);
  }
}
