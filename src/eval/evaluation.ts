/**
 * The evaluation functions Morph can play and learn with (selectable in the learning config, saved in the
 * database). Each turns the most-specific matching patterns of a position into one value in [0,1] for the side
 * that just moved.
 *
 * - paper:   the paper's play function over the raw weights (combine.ts, playValue).
 * - shrunk:  the paper's play function over weights shrunk toward .5 by `prior` pseudo-counts of a draw,
 *            (n·w + prior·.5)/(n + prior), so a pattern with few updates cannot decide a move.
 * - logodds: the shrunk weights added in log-odds (logOddsValue), as if each were independent evidence.
 * - joint:   the raw weights added in log-odds, learned jointly: the learner moves every matched pattern's
 *            log-odds along the error of the combined value, by its annealing step, the position's error shared
 *            among its patterns (learner.ts), so the sum, not each weight alone, is fitted to the results. Like
 *            an n-tuple network's additive weights.
 */
import { combinePair, logistic, logit, logOddsValue, playOrder, playValue, updateValue } from './combine.ts';

export const EVALUATION_FUNCTIONS = ['paper', 'shrunk', 'logodds', 'joint'] as const;
export type EvaluationFunction = (typeof EVALUATION_FUNCTIONS)[number];

export interface EvaluationSettings {
  function: EvaluationFunction;
  /** Pseudo-counts of a draw each weight is shrunk by (shrunk and logodds only). */
  prior: number;
  /**
   * Pseudo-counts of the fitted piece values each material weight is blended with, where a search values
   * positions by material alone (materialFit.ts), whatever the function. 0 or absent: the weight alone.
   */
  materialPrior?: number;
}

export const PAPER_EVALUATION: EvaluationSettings = { function: 'paper', prior: 0 };

/** What a pattern contributes: its weight and how many updates stand behind it. */
export interface Evidence {
  weight: number;
  updates: number;
}

/** A weight shrunk toward .5 as if `prior` draws had been seen besides its `updates` results. */
export function shrunkWeight(weight: number, updates: number, prior: number): number {
  return prior > 0 ? (updates * weight + prior * 0.5) / (updates + prior) : weight;
}

/** The weight a pattern counts with under these settings. */
export function effectiveWeight(evidence: Evidence, settings: EvaluationSettings): number {
  return settings.function === 'shrunk' || settings.function === 'logodds'
    ? shrunkWeight(evidence.weight, evidence.updates, settings.prior)
    : evidence.weight;
}

/**
 * Reused for every position (evaluation is synchronous), grown as needed: a position of a 100k-pattern database
 * has about 900 most-specific matches (10k: about 90; docs/lab/2026-12.md, 2026-12-04), and a fresh pair of arrays
 * for each was garbage to collect.
 */
let buffer = new Float64Array(256);
let scratch = new Float64Array(256);

function effectiveWeights(records: readonly Evidence[], settings: EvaluationSettings): Float64Array {
  if (records.length > buffer.length) {
    buffer = new Float64Array(2 * records.length);
    scratch = new Float64Array(2 * records.length);
  }
  const weights = buffer.subarray(0, records.length);
  for (let i = 0; i < records.length; i++) weights[i] = effectiveWeight(records[i], settings);
  return weights;
}

const usesLogOdds = (settings: EvaluationSettings) => settings.function === 'logodds' || settings.function === 'joint';

/** Play value of a position from its (mature) most-specific matches. Hot path: allocation-free. */
export function positionValue(records: readonly Evidence[], settings: EvaluationSettings): number {
  const weights = effectiveWeights(records, settings);
  if (usesLogOdds(settings)) return logOddsValue(weights);
  return playValue(weights, scratch);
}

/**
 * The evaluation a TD target bootstraps from. The paper's functions use its update function (an
 * extremeness-weighted average, exponent beta) over the same effective weights as play; the log-odds
 * functions use their play value, so targets and play agree.
 */
export function targetValue(records: readonly Evidence[], settings: EvaluationSettings, beta: number): number {
  const weights = effectiveWeights(records, settings);
  return usesLogOdds(settings) ? logOddsValue(weights) : updateValue(weights, beta);
}

export interface CombinationStep {
  /** Index of the record in the list given. */
  index: number;
  /** The weight it counted with (shrunk, where the function shrinks). */
  weight: number;
  /** The value of the combination so far; the last step's is the position's value. */
  runningValue: number;
}

/**
 * positionValue step by step, for explanations: the paper's functions in their fold order (the same order
 * playValue uses: most extreme first), the log-odds ones by size of contribution (their sum has no order).
 */
export function combinationSteps(records: readonly Evidence[], settings: EvaluationSettings): CombinationStep[] {
  const weights = Array.from(effectiveWeights(records, settings));
  const steps: CombinationStep[] = [];
  if (usesLogOdds(settings)) {
    const order = weights.map((_, i) => i).sort((i, j) => Math.abs(logit(weights[j])) - Math.abs(logit(weights[i])) || i - j);
    let sum = 0;
    for (const index of order) {
      sum += logit(weights[index]);
      steps.push({ index, weight: weights[index], runningValue: logistic(sum) });
    }
    return steps;
  }
  let running = NaN;
  for (const index of playOrder(weights)) {
    running = Number.isNaN(running) ? weights[index] : combinePair(running, weights[index]);
    steps.push({ index, weight: weights[index], runningValue: running });
  }
  return steps;
}
