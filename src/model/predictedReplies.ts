/**
 * A model of Morph's opponent used to look along its predicted replies: for each own move, the model's few
 * likeliest replies are played and the move is worth no more than the worst position they leave, as valued by
 * Morph's own database (src/player/morphPlayer.ts). It is a two-ply search whose second ply the model chooses,
 * on top of the player's captures look and move policy.
 *
 * IAM's "adversary model as a coach" averaged over the likely replies instead (modelGuidedPlayer.ts, kept as
 * the "coach" mode). Measured in docs/lab/: the mean lets quiet replies outweigh the one that takes a
 * piece, and it scored far worse than the worst-reply look against the opponent it modelled.
 */
import type { PositionHistory } from '../chess/history.ts';
import { MorphPlayer, type MorphPlayerOptions, type ReplyPredictor } from '../player/morphPlayer.ts';
import type { PatternStore } from '../store/patternStore.ts';
import { ModelGuidedPlayer } from './modelGuidedPlayer.ts';
import type { OpponentModel } from './opponentModel.ts';
import type { MovePatterns } from './movePatterns.ts';
import { playerPolicy } from './policy.ts';
import { LINE_CANDIDATES, PredictedLinePlayer } from './predictedLine.ts';

/** How many of the model's likeliest replies are looked at (3: measured in docs/lab/). */
export const DEFAULT_REPLIES = 3;

/** How a Morph player uses a model of its opponent. */
export const MODEL_MODES = ['look', 'coach', 'line'] as const;
export type ModelMode = (typeof MODEL_MODES)[number];
/**
 * Line: against ab:2,q, with a model of it from its games against other partners, +.142 [+.096, +.189] a game
 * over the same player without a model (200 games, paired by opening), where the look gave +.010
 * (docs/lab/2026-11.md, 2026-11-29).
 */
export const DEFAULT_MODEL_MODE: ModelMode = 'line';

/** The model's likeliest replies over an opened model; the caller closes the model. */
export function modelReplies(model: OpponentModel, replies = DEFAULT_REPLIES): ReplyPredictor {
  return {
    name: `model:${model.store.path}`,
    // One ply whatever the model's search: the player ranks the replies to every own move it looks at, and the
    // model's captures look made that about four times slower.
    likeliestReplies: (history: PositionHistory) => model.rank(history, 'one-ply').slice(0, replies).map((m) => m.move),
  };
}

/** The models a Morph player may play with, opened; the caller closes them. */
export interface PlayerModels {
  /** A model of a strong player's choices, the move policy (policy.ts). */
  policy?: OpponentModel | null;
  policyWeight?: number;
  /**
   * Move patterns (movePatterns.ts) as a second policy, e.g. learned from a strong teacher's games: their
   * log-probabilities joined to the policy's (policy.ts jointPolicy), or the policy alone when there is no model.
   */
  movePolicy?: MovePatterns | null;
  /** A model of the opponent. */
  opponent?: OpponentModel | null;
  /** How the opponent model is used (default DEFAULT_MODEL_MODE); IAM's coach plays without a policy. */
  mode?: ModelMode;
}

/** Whether a player with these models ignores a policy: IAM's coach judges moves by the replies alone. */
export const isCoached = (hasOpponentModel: boolean, mode: ModelMode | undefined): boolean =>
  hasOpponentModel && (mode ?? DEFAULT_MODEL_MODE) === 'coach';

/** A Morph player using the models given: the one rule for match, play and uci. */
export function morphPlayerWithModels(
  store: PatternStore,
  options: Pick<MorphPlayerOptions, 'maturity' | 'seed' | 'search' | 'evaluation' | 'contempt' | 'graphPatterns' | 'movePatterns'>,
  models: PlayerModels,
  name?: string,
): MorphPlayer {
  const opponent = models.opponent ?? undefined;
  if (opponent !== undefined && isCoached(true, models.mode)) {
    return new ModelGuidedPlayer(store, opponent, { maturity: options.maturity, seed: options.seed, replies: DEFAULT_REPLIES }, name);
  }
  const policy = playerPolicy(models.policy, models.movePolicy, models.policyWeight);
  if (opponent !== undefined && (models.mode ?? DEFAULT_MODEL_MODE) === 'line') return new PredictedLinePlayer(store, { ...options, policy }, opponent, LINE_CANDIDATES, name);
  return new MorphPlayer(store, { ...options, policy, opponent: opponent && modelReplies(opponent) }, name);
}
