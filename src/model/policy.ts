/**
 * A model of a player's choices used as Morph's move policy: when Morph chooses, each legal move's value is
 * joined by `weight` times the log-probability the model gives it (AlphaGo's policy prior beside its value, in
 * one ply). The model is an ordinary opponent model (opponentModel.ts), built by `morph model` from the games of
 * a stronger player, for example Morph's own sparring partner in its training games. Nothing about chess is
 * given: the model learned which moves that player chooses, the value database what positions are worth.
 *
 * Why: Morph's values are noisy between similar moves, and the player it loses to rarely leaves a piece to be
 * taken or allows a fork. Measured in training/RESULTS.md.
 */
import type { GameHistory } from '../chess/history.ts';
import type { MovePolicy } from '../player/morphPlayer.ts';
import type { SearchMode } from '../player/search.ts';
import type { OpponentModel } from './opponentModel.ts';

/**
 * The policy's default weight for a player looking this far (training/RESULTS.md). With the looks that value
 * positions by all their patterns, .1: measured best on the scored positions, and level with .05-1 in games.
 * With material-quiescence, whose values are settled material, .03: there the policy should choose among moves
 * of equal material, not outvote a lost pawn. Against .1 on the same four databases: mean win-chance loss
 * -0.40, -0.10, -0.76 and -0.37, and in games against ab:2,q +.033, +.025 and +.010 (2026-11-24).
 */
export function defaultPolicyWeight(search: SearchMode): number {
  return search === 'material-quiescence' ? 0.03 : 0.1;
}

/** A policy over an opened model, `weight` times its log-probabilities; the caller closes the model. */
export function modelPolicy(model: OpponentModel, weight: number): MovePolicy {
  return {
    name: `policy:${model.store.path}@${weight}`,
    weight,
    logProbabilities: (history: GameHistory) => new Map(model.rank(history).map((m) => [m.move, m.logProbability])),
  };
}
