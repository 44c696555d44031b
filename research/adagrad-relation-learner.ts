/**
 * The relation terms' first training learner (main until 2026-12-06), kept for the experiments that compare it:
 * one AdaGrad pass over the lessons, each feature the position holds stepping toward the gap with a pull toward 0.
 * Training now fits the terms by exact ridge over every lesson (src/learn/relationLearning.ts); this one reached
 * weights about half the size (docs/lab/2026-12.md).
 */
import type { Board } from '../src/chess/board.ts';
import { MAX_RELATION_FEATURES, RELATION_TERM_FEATURES, relationFeatures } from '../src/eval/relationTerms.ts';

export interface AdagradRelationSettings {
  /** AdaGrad's rate, in log-odds. */
  rate: number;
  /** Pull of each weight toward 0 per lesson it takes part in (a ridge penalty's gradient). */
  pull: number;
  /** An error counts at most this many log-odds. */
  clip: number;
}

/**
 * Chosen on seed 11's 3,000-game database, one pass over 15,600 positions of its first 180 games in order (as a run
 * learns), held-out games after: rate .001 explained .27 of the gap's variance (.0003 .19, .003 .17, .01 and
 * above less than nothing); a ridge fit of the same features .31 (research/relation-terms.ts, docs/lab/2026-12.md).
 */
export const DEFAULT_ADAGRAD_RELATION: AdagradRelationSettings = { rate: 0.001, pull: 0.001, clip: 0.5 };

/** The bias is a running mean of the errors of about this many recent lessons at most. */
const BIAS_MEMORY = 2000;

/** Scratch: a position's features. */
const features = new Uint16Array(MAX_RELATION_FEATURES);
const counts = new Float64Array(RELATION_TERM_FEATURES);

export class AdagradRelationLearner {
  readonly weights: Float64Array<ArrayBufferLike>;
  /** Each feature's squared gradients so far (AdaGrad). */
  readonly squares: Float64Array<ArrayBufferLike>;
  /** Lessons taken. */
  lessons = 0;
  /**
   * What every position's gap shares (a running mean of the errors): learned beside the weights so that they
   * carry only what tells positions apart, and never read in play, where it would add the same to every position.
   */
  bias = 0;

  constructor(
    readonly settings: AdagradRelationSettings = DEFAULT_ADAGRAD_RELATION,
    weights: Float64Array<ArrayBufferLike> = new Float64Array(RELATION_TERM_FEATURES),
    squares: Float64Array<ArrayBufferLike> = new Float64Array(RELATION_TERM_FEATURES),
  ) {
    this.weights = weights;
    this.squares = squares;
  }

  /**
   * One lesson: the position `board` (for the side that just moved into it), whose capture-settled material is
   * worth `settled` and the search `target`, both in log-odds. Returns the error before the step (clipped).
   */
  learn(board: Pick<Board, 'squares' | 'turn'>, settled: number, target: number): number {
    const count = relationFeatures(board, features);
    let term = 0;
    for (let i = 0; i < count; i++) term += this.weights[features[i]];
    const { rate, pull, clip } = this.settings;
    const error = Math.max(-clip, Math.min(clip, target - settled - this.bias - term));
    this.bias += error / Math.min(this.lessons + 1, BIAS_MEMORY);
    for (let i = 0; i < count; i++) counts[features[i]]++;
    for (let i = 0; i < count; i++) {
      const f = features[i];
      if (counts[f] === 0) continue; // a feature held several times steps once, by its count
      const gradient = error * counts[f] - pull * this.weights[f];
      counts[f] = 0;
      this.squares[f] += gradient * gradient;
      if (this.squares[f] > 0) this.weights[f] += (rate * gradient) / Math.sqrt(this.squares[f]);
    }
    this.lessons++;
    return error;
  }
}
