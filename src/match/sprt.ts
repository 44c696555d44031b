/**
 * The sequential probability ratio test fishtest runs (Michel Van den Bergh's generalized SPRT, GSPRT): after
 * every game pair, the log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0) is compared with the
 * bounds ln(β/(1−α)) and ln((1−β)/α); crossing the lower accepts H0, crossing the upper accepts H1.
 *
 * The LLR uses the GSPRT approximation for a multinomial (Van den Bergh, "A GSPRT for the multinomial"): with
 * observed frequencies f_k of outcome scores x_k over N samples, and s the score a hypothesis implies,
 *   σ²(s) = Σ f_k (x_k − s)²,   LLR = N/2 · ln(σ²(s0) / σ²(s1)).
 * Hypotheses in logistic Elo map to s = 1/(1 + 10^(−elo/400)); in normalized Elo (fishtest's default since 2021,
 * independent of the draw rate) to s = .5 + nElo·σ_game/(800/ln 10), σ_game the per-game standard deviation
 * observed (see outcomes.ts). Samples are game pairs (pentanomial), as fishtest and fastchess count them.
 */
import { NORMALIZED_ELO_SCALE } from './elo.ts';
import { moments, type OutcomeDistribution } from './outcomes.ts';

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

export function sprtBounds(alpha: number, beta: number): { lower: number; upper: number } {
  return { lower: Math.log(beta / (1 - alpha)), upper: Math.log((1 - beta) / alpha) };
}

/** The score a hypothesis of `elo` implies, in the given model, for the observed distribution. */
function hypothesisScore(elo: number, model: SprtModel, gameVariance: number): number {
  if (model === 'logistic') return 1 / (1 + 10 ** (-elo / 400));
  return 0.5 + (elo * Math.sqrt(gameVariance)) / NORMALIZED_ELO_SCALE;
}

/** The log-likelihood ratio of elo1 against elo0; 0 while the outcomes have not varied. */
export function sprtLlr(distribution: OutcomeDistribution, elo0: number, elo1: number, model: SprtModel): number {
  const { samples, variance } = moments(distribution);
  if (samples === 0 || !(variance > 0)) return 0;
  const gameVariance = variance * distribution.gamesPerSample;
  const spread = (s: number) => {
    let total = 0;
    for (let i = 0; i < distribution.values.length; i++) {
      total += (distribution.counts[i] / samples) * (distribution.values[i] - s) ** 2;
    }
    return total;
  };
  const v0 = spread(hypothesisScore(elo0, model, gameVariance));
  const v1 = spread(hypothesisScore(elo1, model, gameVariance));
  return (samples / 2) * Math.log(v0 / v1);
}

export function sprtState(distribution: OutcomeDistribution, settings: SprtSettings): SprtState {
  const llr = sprtLlr(distribution, settings.elo0, settings.elo1, settings.model);
  const { lower, upper } = sprtBounds(settings.alpha, settings.beta);
  const decision: SprtDecision = llr >= upper ? 'H1' : llr <= lower ? 'H0' : 'continue';
  return { ...settings, llr, lower, upper, decision };
}
