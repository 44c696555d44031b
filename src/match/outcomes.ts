/**
 * The statistics an engine tester expects from a match (cutechess-cli and fastchess conventions), computed over a
 * discrete distribution of outcomes: single games scored 0, ½, 1 (trinomial), or game pairs (the same opening
 * with colours reversed) scored 0, ¼, ½, ¾, 1 as the pair's points over 2 (pentanomial: LL, LD, WL or DD, WD, WW).
 *
 * Pairs are the sample that is really independent: the two games of a pair share an opening, so their results
 * are correlated, and only the pair variance gives an honest interval. For either kind, with mean score μ and
 * per-sample variance σ² over N samples:
 *   - Elo = −400·log10(1/μ − 1), its 95% interval μ ± 1.96·σ/√N mapped through the same formula;
 *   - normalized Elo = (μ − .5)/σ_game · 800/ln 10, where σ_game = σ for games and √2·σ for pairs (a pair's
 *     score over 2 averages two games);
 *   - the likelihood of superiority Φ((μ − .5)/(σ/√N)).
 */
import { eloFromScoreFraction, normalCdf, NORMALIZED_ELO_SCALE, Z_95 } from './elo.ts';

/** Counts of pairs by the first player's points in the pair: 0, ½, 1, 1½, 2 (LL, LD, WL+DD, WD, WW). */
export type Pentanomial = [number, number, number, number, number];

export interface OutcomeDistribution {
  /** The score of each outcome, in [0, 1]. */
  values: readonly number[];
  counts: readonly number[];
  /** Games per sample: 1 for single games, 2 for pairs. */
  gamesPerSample: 1 | 2;
}

export interface OutcomeStatistics {
  samples: number;
  score: number;
  /** Variance of one sample's score. */
  variance: number;
  elo: number;
  low: number;
  high: number;
  normalizedElo: number;
  normalizedLow: number;
  normalizedHigh: number;
  los: number;
}

export const PENTANOMIAL_VALUES = [0, 0.25, 0.5, 0.75, 1] as const;
export const TRINOMIAL_VALUES = [0, 0.5, 1] as const;

export function trinomial(wins: number, draws: number, losses: number): OutcomeDistribution {
  return { values: TRINOMIAL_VALUES, counts: [losses, draws, wins], gamesPerSample: 1 };
}

export function pentanomial(counts: Pentanomial): OutcomeDistribution {
  return { values: PENTANOMIAL_VALUES, counts, gamesPerSample: 2 };
}

/** Mean and variance of a sample's score. */
export function moments(distribution: OutcomeDistribution): { samples: number; mean: number; variance: number } {
  const { values, counts } = distribution;
  const samples = counts.reduce((a, b) => a + b, 0);
  if (samples === 0) return { samples, mean: NaN, variance: NaN };
  let mean = 0;
  for (let i = 0; i < values.length; i++) mean += (counts[i] * values[i]) / samples;
  let variance = 0;
  for (let i = 0; i < values.length; i++) variance += (counts[i] * (values[i] - mean) ** 2) / samples;
  return { samples, mean, variance };
}

/** Elo with its 95% interval, normalized Elo and LOS; null without samples or when the score is 0 or 1. */
export function outcomeStatistics(distribution: OutcomeDistribution): OutcomeStatistics | null {
  const { samples, mean, variance } = moments(distribution);
  if (samples === 0 || mean <= 0 || mean >= 1) return null;
  const halfWidth = Z_95 * Math.sqrt(variance / samples);
  const clamp = (p: number) => Math.min(1 - 1e-12, Math.max(1e-12, p));
  const gameSd = Math.sqrt(variance * distribution.gamesPerSample);
  const normalized = (p: number) => (gameSd > 0 ? ((p - 0.5) / gameSd) * NORMALIZED_ELO_SCALE : 0);
  return {
    samples,
    score: mean,
    variance,
    elo: eloFromScoreFraction(mean),
    low: eloFromScoreFraction(clamp(mean - halfWidth)),
    high: eloFromScoreFraction(clamp(mean + halfWidth)),
    normalizedElo: normalized(mean),
    normalizedLow: normalized(mean - halfWidth),
    normalizedHigh: normalized(mean + halfWidth),
    los: variance > 0 ? normalCdf((mean - 0.5) / Math.sqrt(variance / samples)) : mean > 0.5 ? 1 : mean < 0.5 ? 0 : 0.5,
  };
}
