/**
 * A model of a player's choices used as Morph's move policy: when Morph chooses, each legal move's value is
 * joined by `weight` times the log-probability the model gives it (AlphaGo's policy prior beside its value, in
 * one ply). The model is an ordinary opponent model (opponentModel.ts), built by `morph model` from the games of
 * a stronger player, for example Morph's own sparring partner in its training games. Nothing about chess is
 * given: the model learned which moves that player chooses, the value database what positions are worth.
 *
 * Why: Morph's values are noisy between similar moves, and the player it loses to rarely leaves a piece to be
 * taken or allows a fork. Measured in docs/lab/.
 */
import type { GameHistory } from '../chess/history.ts';
import type { MovePolicy } from '../player/morphPlayer.ts';
import type { MovePatterns } from './movePatterns.ts';
import type { OpponentModel } from './opponentModel.ts';

/**
 * A policy over an opened model, `weight` times its log-probabilities (absent: the player's default for its
 * search, search.ts defaultPolicyWeight); the caller closes the model.
 */
export function modelPolicy(model: OpponentModel, weight?: number): MovePolicy {
  return {
    name: `policy:${model.store.path}${weight !== undefined ? `@${weight}` : ''}`,
    weight,
    logProbabilities: (history: GameHistory) => new Map(model.rank(history).map((m) => [m.move, m.logProbability])),
    ...(model.choiceSquares ? { squares: model.choiceSquares } : {}),
  };
}

/**
 * Move patterns (movePatterns.ts) as a policy: the log of the softmax of their move scores, the conditional logit
 * they were fitted as. The caller closes the patterns.
 */
export function movePatternPolicy(patterns: MovePatterns, weight?: number): MovePolicy {
  return {
    name: `${patterns.name}${weight !== undefined ? `@${weight}` : ''}`,
    weight,
    logProbabilities: (history: GameHistory) => logSoftmax(patterns.rankBoard(history.board)),
  };
}

/**
 * Two policies as one: the first's log-probabilities plus `scale` times the second's (a product of experts; only
 * differences between a position's moves matter to the choice). The first's weight and square values stay.
 */
export function jointPolicy(first: MovePolicy, second: MovePolicy, scale: number): MovePolicy {
  return {
    ...first,
    name: `${first.name}+${scale}*${second.name}`,
    logProbabilities: (history: GameHistory) => {
      const a = first.logProbabilities(history);
      const b = second.logProbabilities(history);
      return new Map([...a].map(([move, lp]) => [move, lp + scale * (b.get(move) ?? 0)]));
    },
  };
}

/**
 * A player's policy from what it was given: the model's, the move patterns', both joined (the patterns'
 * log-probabilities times `patternScale`), or none.
 */
export function playerPolicy(
  model: OpponentModel | null | undefined,
  patterns: MovePatterns | null | undefined,
  weight?: number,
  patternScale = 1,
): MovePolicy | undefined {
  const fromModel = model ? modelPolicy(model, weight) : undefined;
  const fromPatterns = patterns ? movePatternPolicy(patterns, weight) : undefined;
  return fromModel && fromPatterns ? jointPolicy(fromModel, fromPatterns, patternScale) : (fromModel ?? fromPatterns);
}

function logSoftmax(scored: readonly { move: string; score: number }[]): Map<string, number> {
  const top = Math.max(...scored.map((m) => m.score));
  const logZ = top + Math.log(scored.reduce((sum, m) => sum + Math.exp(m.score - top), 0));
  return new Map(scored.map((m) => [m.move, m.score - logZ]));
}
