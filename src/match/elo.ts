/**
 * The Elo difference a match result implies, with a 95% interval.
 *
 * From the score fraction p (wins + draws/2 over games), Elo = -400·log10(1/p - 1). The interval comes from the
 * standard error of the per-game score: the standard deviation of the {1, .5, 0} outcomes over sqrt(N), so
 * p ± 1.96·se, each end mapped through the same formula.
 *
 * A clean sweep would give p = 0 or 1 and an infinite Elo. So p and both ends of the interval are clamped to
 * [1/(2N), 1 - 1/(2N)]: the result is scored as if one of the N games had been a draw instead. For a sweep the
 * outcomes' deviation is taken with that draw in place too (otherwise all outcomes are equal, the deviation is
 * 0 and the interval a point). The open end of a sweep's interval is therefore the clamp itself, to be read as
 * "at least" (100%) or "at most" (0%): finite, and no stronger than N games can show. Any other result is
 * already inside the clamp and is reported as it is. All N games drawn gives 0 with a zero-width interval: the
 * outcomes really did not vary.
 */

export interface MatchScore {
  wins: number;
  draws: number;
  losses: number;
}

export interface EloEstimate {
  /** Points scored over games: (wins + draws/2) / N, not clamped. */
  scoreFraction: number;
  /** The Elo difference (first player minus second) from the clamped score fraction. */
  elo: number;
  /** The 95% interval: lower and upper Elo difference. */
  low: number;
  high: number;
  /** True when the result was a sweep and the clamp decided the estimate. */
  clamped: boolean;
}

/** Two-sided 95% normal quantile. */
export const Z_95 = 1.959963984540054;

/** The Elo difference for a score fraction p in (0, 1); ±Infinity at 0 and 1. */
export function eloFromScoreFraction(p: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`a score fraction must lie in [0, 1], got ${p}`);
  return -400 * Math.log10(1 / p - 1) + 0; // + 0 turns -0 into 0
}

/** The Elo difference with its 95% interval for a match result of N = wins + draws + losses > 0 games. */
export function eloEstimate(score: MatchScore): EloEstimate {
  const { wins, draws, losses } = score;
  const games = wins + draws + losses;
  if (!(games > 0)) throw new RangeError('an Elo estimate needs at least one game');
  const scoreFraction = (wins + draws / 2) / games;
  const edge = 1 / (2 * games);
  const clampFraction = (p: number) => Math.min(1 - edge, Math.max(edge, p));
  // A sweep is scored as if one game had been drawn (which is exactly the clamp).
  const clamped = scoreFraction < edge || scoreFraction > 1 - edge;
  const outcomes = clamped
    ? wins > 0
      ? { wins: wins - 1, draws: 1, losses: 0 }
      : { wins: 0, draws: 1, losses: losses - 1 }
    : score;
  const p = clampFraction(scoreFraction);
  const variance =
    (outcomes.wins * (1 - p) ** 2 + outcomes.draws * (0.5 - p) ** 2 + outcomes.losses * p ** 2) / games;
  const standardError = Math.sqrt(variance / games);
  return {
    scoreFraction,
    elo: eloFromScoreFraction(p),
    low: eloFromScoreFraction(clampFraction(p - Z_95 * standardError)),
    high: eloFromScoreFraction(clampFraction(p + Z_95 * standardError)),
    clamped,
  };
}

/** 800/ln(10): the scale that turns a score's distance from .5, in standard deviations, into normalized Elo. */
export const NORMALIZED_ELO_SCALE = 800 / Math.LN10;

/** The standard normal cumulative distribution (Abramowitz-Stegun 7.1.26 through erf; error below 1.5e-7). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-z * z);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/**
 * Likelihood of superiority: the probability that the first player is the stronger, from wins and losses alone
 * (draws say nothing about which is stronger), LOS = Φ((W − L) / √(W + L)), as cutechess-cli reports it.
 * 0.5 when no game was decisive.
 */
export function likelihoodOfSuperiority(wins: number, losses: number): number {
  if (wins + losses === 0) return 0.5;
  return normalCdf((wins - losses) / Math.sqrt(wins + losses));
}
