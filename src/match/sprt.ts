/**
 * The sequential probability ratio test fishtest runs (Michel Van den Bergh's generalized SPRT, GSPRT): after
 * every game pair, the log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0) is compared with the
 * bounds ln(β/(1−α)) and ln((1−β)/α); crossing the lower accepts H0, crossing the upper accepts H1.
 *
 * The LLR is the generalized one: for each hypothesis, the distribution over the outcome scores a_i (0, ¼, ½,
 * ¾, 1 for pairs) that is most likely given the observed frequencies p̂_i among those satisfying the hypothesis,
 * then LLR = N · Σ p̂_i · ln(p1_i / p0_i) (Van den Bergh, "Comments on Normalized Elo"):
 *   - logistic Elo: the hypothesis fixes the expected score s = 1/(1 + 10^(−elo/400)); the most likely
 *     distribution is p_i = p̂_i / (1 + θ(a_i − s)) with θ solving Σ p̂_i (a_i − s)/(1 + θ(a_i − s)) = 0;
 *   - normalized Elo (fishtest's default since 2021, independent of the draw rate): the hypothesis fixes
 *     t = (μ − ½)/σ = nElo/(800/ln 10) per game (×√2 for a pair's score over 2); the distribution is found by
 *     iterating p_i = p̂_i / (1 + θ φ_i), φ_i = a_i − ½ − ½·t·σ·(1 + ((a_i − μ)/σ)²), μ and σ of the current p.
 * Outcomes never observed count as 1/1000 (as fastchess does), so a clean sweep still decides.
 */
import { NORMALIZED_ELO_SCALE } from './elo.ts';
import type { OutcomeDistribution } from './outcomes.ts';

export type SprtModel = 'normalized' | 'logistic';
export type SprtDecision = 'H0' | 'H1' | 'continue';

export interface SprtSettings {
  elo0: number;
  elo1: number;
  alpha: number;
  beta: number;
  model: SprtModel;
}

export interface SprtState extends SprtSettings {
  llr: number;
  lower: number;
  upper: number;
  decision: SprtDecision;
}

/** What an outcome never observed counts as. */
export const UNSEEN_OUTCOME_COUNT = 1e-3;

export function sprtBounds(alpha: number, beta: number): { lower: number; upper: number } {
  return { lower: Math.log(beta / (1 - alpha)), upper: Math.log((1 - beta) / alpha) };
}

/** The root of a decreasing function on the open interval (low, high), by bisection. */
function decreasingRoot(f: (x: number) => number, low: number, high: number): number {
  for (let i = 0; i < 200 && high - low > 1e-15 * Math.max(1, Math.abs(low), Math.abs(high)); i++) {
    const middle = (low + high) / 2;
    if (f(middle) > 0) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

/**
 * The distribution closest (most likely) to p̂ among those with Σ p_i·g_i = 0, for g_i = g(a_i): p_i = p̂_i/(1 + θ g_i).
 * θ is bounded so that every 1 + θ g_i stays positive.
 */
function tilted(observed: readonly number[], g: readonly number[]): number[] {
  const lowest = Math.min(...g);
  const highest = Math.max(...g);
  const f = (theta: number) => observed.reduce((sum, p, i) => sum + (p * g[i]) / (1 + theta * g[i]), 0);
  const theta = decreasingRoot(f, -1 / highest, -1 / lowest);
  return observed.map((p, i) => p / (1 + theta * g[i]));
}

function meanAndSd(values: readonly number[], probabilities: readonly number[]): [number, number] {
  const mean = values.reduce((sum, a, i) => sum + a * probabilities[i], 0);
  const variance = values.reduce((sum, a, i) => sum + probabilities[i] * (a - mean) ** 2, 0);
  return [mean, Math.sqrt(variance)];
}

/** The most likely distribution with expected score s (logistic hypotheses). */
function withScore(values: readonly number[], observed: readonly number[], s: number): number[] {
  return tilted(observed, values.map((a) => a - s));
}

/** The most likely distribution with (μ − ½)/σ = t (normalized hypotheses), by fixed-point iteration. */
function withNormalizedScore(values: readonly number[], observed: readonly number[], t: number): number[] {
  let p = values.map(() => 1 / values.length);
  for (let iteration = 0; iteration < 50; iteration++) {
    const [mean, sd] = meanAndSd(values, p);
    const phi = values.map((a) => a - 0.5 - 0.5 * t * sd * (1 + ((a - mean) / sd) ** 2));
    const next = tilted(observed, phi);
    const change = Math.max(...next.map((q, i) => Math.abs(q - p[i])));
    p = next;
    if (change < 1e-10) break;
  }
  return p;
}

/** The log-likelihood ratio of elo1 against elo0; 0 before any result. */
export function sprtLlr(distribution: OutcomeDistribution, elo0: number, elo1: number, model: SprtModel): number {
  if (distribution.counts.every((count) => count === 0)) return 0;
  const counts = distribution.counts.map((count) => count || UNSEEN_OUTCOME_COUNT);
  const total = counts.reduce((a, b) => a + b, 0);
  const observed = counts.map((count) => count / total);
  const values = distribution.values;
  const hypothesis = (elo: number) =>
    model === 'logistic'
      ? withScore(values, observed, 1 / (1 + 10 ** (-elo / 400)))
      : withNormalizedScore(values, observed, (Math.sqrt(distribution.gamesPerSample) * elo) / NORMALIZED_ELO_SCALE);
  const p0 = hypothesis(elo0);
  const p1 = hypothesis(elo1);
  return total * observed.reduce((sum, p, i) => sum + p * (Math.log(p1[i]) - Math.log(p0[i])), 0);
}

export function sprtState(distribution: OutcomeDistribution, settings: SprtSettings): SprtState {
  const llr = sprtLlr(distribution, settings.elo0, settings.elo1, settings.model);
  const { lower, upper } = sprtBounds(settings.alpha, settings.beta);
  const decision: SprtDecision = llr >= upper ? 'H1' : llr <= lower ? 'H0' : 'continue';
  return { ...settings, llr, lower, upper, decision };
}
