/**
 * The evaluation functions Morph can play and learn with (selectable in the learning config, saved in the
 * database). Each turns the most-specific matching patterns of a position into one value in [0,1] for the side
 * that just moved.
 *
 * - paper:   the paper's play function over the raw weights (combine.ts, playValue).
 * - shrunk:  the paper's play function over weights shrunk toward .5 by `prior` pseudo-counts of a draw,
 *            (n·w + prior·.5)/(n + prior), so a pattern with few updates cannot decide a move.
 *
 * Two more were measured and retired (docs/lab/2026-12.md, session 75): `logodds` (the shrunk weights added in
 * log-odds) and `joint` (the raw weights added in log-odds and learned jointly, n-tuple style). A database saved
 * with either is refused with a message saying so (learn/config.ts).
 */
import { combinePair, playOrder, playValue, updateValue } from './combine.ts';

export const EVALUATION_FUNCTIONS = ['paper', 'shrunk'] as const;
export type EvaluationFunction = (typeof EVALUATION_FUNCTIONS)[number];

/**
 * Evaluation functions Morph once had, with what measured them: a database saved with one is refused by name.
 */
export const RETIRED_EVALUATION_FUNCTIONS: Readonly<Record<string, string>> = {
  logodds: 'measured no better than shrunk, which it extended (docs/lab/2026-11.md, 2026-11-22)',
  joint: 'played clearly worse than the paper\'s function, -173 Elo against ab:1 where paper scored -85 (docs/lab/2026-11.md, 2026-11-22)',
};

export interface EvaluationSettings {
  function: EvaluationFunction;
  /** Pseudo-counts of a draw each weight is shrunk by (shrunk only). */
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
  return settings.function === 'shrunk'
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

/** Play value of a position from its (mature) most-specific matches. Hot path: allocation-free. */
export function positionValue(records: readonly Evidence[], settings: EvaluationSettings): number {
  return playValue(effectiveWeights(records, settings), scratch);
}

/**
 * The evaluation a TD target bootstraps from: the paper's update function (an extremeness-weighted average,
 * exponent beta) over the same effective weights as play.
 */
export function targetValue(records: readonly Evidence[], settings: EvaluationSettings, beta: number): number {
  return updateValue(effectiveWeights(records, settings), beta);
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
 * positionValue step by step, for explanations: in the play function's fold order (the same order playValue
 * uses: most extreme first).
 */
export function combinationSteps(records: readonly Evidence[], settings: EvaluationSettings): CombinationStep[] {
  const weights = Array.from(effectiveWeights(records, settings));
  const steps: CombinationStep[] = [];
  let running = NaN;
  for (const index of playOrder(weights)) {
    running = Number.isNaN(running) ? weights[index] : combinePair(running, weights[index]);
    steps.push({ index, weight: weights[index], runningValue: running });
  }
  return steps;
}
