/**
 * Any player from its spec text: the engines and baselines of opponentFactory.ts, plus Morph itself
 * (`morph:FILE`, read-only) and the alpha-beta baseline (`ab:D[,q][,t=T]`).
 */
import { AlphaBetaPlayer, parseAlphaBetaSpec } from '../engines/alphabeta.ts';
import { createOpponent, type CreateOpponentOptions } from '../engines/opponentFactory.ts';
import { parseOpponentSpec } from '../engines/opponentSpec.ts';
import type { GamePlayer } from '../engines/gamePlayer.ts';
import { MorphPlayer, playingMaturity } from '../player/morphPlayer.ts';
import { PatternStore } from '../store/patternStore.ts';

export interface PlayerOptions {
  seed: number;
  /** Overrides the maturity stored in a Morph database. */
  maturity?: number;
  engineTimeouts?: CreateOpponentOptions['engineTimeouts'];
}

/** A Morph player over a database opened read-only; closing the player closes the database. */
export function morphPlayerFromFile(path: string, options: PlayerOptions, name = `morph:${path}`): GamePlayer {
  const store = PatternStore.open(path, { readonly: true });
  const player = new MorphPlayer(store, { maturity: playingMaturity(store, options.maturity), seed: options.seed }, name);
  player.close = async () => store.close();
  return player;
}

export async function createPlayer(specText: string, options: PlayerOptions): Promise<GamePlayer> {
  const spec = parseOpponentSpec(specText);
  return createOpponent(spec, {
    seed: options.seed,
    engineTimeouts: options.engineTimeouts,
    morphFactory: (morph, context) => morphPlayerFromFile(morph.dbPath, options, context.name),
    alphaBetaFactory: (ab, context) => new AlphaBetaPlayer(parseAlphaBetaSpec(ab.body, context.seed)),
  });
}
