/**
 * The two ways Morph turns the weights of a position's most-specific matching patterns into one value in [0,1]
 * (0 loss, .5 draw, 1 win, for the side that just moved). Reference: shared/reference/morph.md section 4;
 * paper 004, Figure 2 and the "weighted average" that follows it.
 *
 * - playValue (move choice): the paper's binary function folded over the weights. Agreeing patterns reinforce
 *   each other (two bad patterns are worse than either alone), opposing ones pull toward the more extreme.
 * - updateValue (learning): an extremeness-weighted average, which moves weights minimally.
 */

const DRAW = 0.5;

/**
 * The paper's binary play function (Figure 2), written in centred form u = 2x-1, v = 2y-1, g = 2f-1:
 * - both >= 0: g = u + v - u·v, i.e. f = 1 - 2(1-x)(1-y)
 * - both < 0:  f = 2xy
 * - mixed, p the non-negative and q the negative one: g = p + q - p·q·(p² - q²)/(p² + q²)
 *   (the paper's OCR lost the '+' in that denominator; this reading meets the paper's five properties).
 * Symmetric in x and y. Inputs are expected in [0,1]; the result is then in [0,1].
 */
export function combinePair(x: number, y: number): number {
  const u = 2 * x - 1;
  const v = 2 * y - 1;
  if (u >= 0 && v >= 0) return 1 - 2 * (1 - x) * (1 - y);
  if (u < 0 && v < 0) return 2 * x * y;
  const positive = u >= 0 ? u : v;
  const negative = u >= 0 ? v : u;
  const sumOfSquares = positive * positive + negative * negative;
  // negative < 0 here, so sumOfSquares > 0; the guard only protects against u = v = 0 reaching this branch.
  const pull = sumOfSquares > 0 ? (positive * negative * (positive * positive - negative * negative)) / sumOfSquares : 0;
  const g = positive + negative - pull;
  const f = (g + 1) / 2;
  // Rounding can push a result at the very edge of [0,1] a hair outside it.
  return f < 0 ? 0 : f > 1 ? 1 : f;
}

/**
 * True when weight a comes before weight b in play order: more extreme (|w - .5| larger) first, and among
 * equally extreme weights the smaller value first. A total order, so the fold is independent of input order.
 * Extremeness is compared exactly as computed in floating point (0.8 - 0.5 is a hair above 0.5 - 0.2).
 */
function playsBefore(a: number, b: number): boolean {
  const extremenessA = Math.abs(a - DRAW);
  const extremenessB = Math.abs(b - DRAW);
  return extremenessA > extremenessB || (extremenessA === extremenessB && a < b);
}

function comparePlayOrder(a: number, b: number): number {
  return playsBefore(a, b) ? -1 : playsBefore(b, a) ? 1 : 0;
}

/** Indices of `weights` in the order playValue folds them (for explanations; playValue sorts in place). */
export function playOrder(weights: readonly number[]): number[] {
  return weights.map((_, i) => i).sort((i, j) => comparePlayOrder(weights[i], weights[j]) || i - j);
}

/** Insertion sort wins for a handful of weights; beyond this each side of .5 is sorted natively and merged. */
const INSERTION_SORT_LIMIT = 24;
/** The weights below .5 and those at or above it (sorting is synchronous, so one pair suffices). */
let belowDraw = new Float64Array(256);
let aboveDraw = new Float64Array(256);

/**
 * Sorts the first `count` values into play order. The order is total (equal keys are equal values), so every
 * correct sort gives the same sequence. Below .5 the more extreme weight is the smaller, at or above .5 the
 * larger (w - .5 is exact there), so each side is sorted by value with the typed array's own numeric sort, which
 * calls back into JavaScript not at all, and the two sides are merged in play order. A comparator called back
 * from the built-in sort took an eighth of a one-ply move's time (profile, 2026-11-23), and a merge sort in
 * JavaScript still a twentieth (2026-11-24).
 */
function sortIntoPlayOrder(values: Float64Array, count: number): void {
  if (count <= INSERTION_SORT_LIMIT) {
    insertionSort(values, 0, count);
    return;
  }
  if (belowDraw.length < count) {
    belowDraw = new Float64Array(2 * count);
    aboveDraw = new Float64Array(2 * count);
  }
  let below = 0;
  let above = 0;
  for (let i = 0; i < count; i++) {
    const value = values[i];
    if (value < DRAW) belowDraw[below++] = value;
    else aboveDraw[above++] = value;
  }
  belowDraw.subarray(0, below).sort();
  aboveDraw.subarray(0, above).sort();
  // Most extreme first: the smallest below .5 against the largest above it.
  let i = 0;
  let j = above - 1;
  let k = 0;
  while (i < below && j >= 0) values[k++] = playsBefore(aboveDraw[j], belowDraw[i]) ? aboveDraw[j--] : belowDraw[i++];
  while (i < below) values[k++] = belowDraw[i++];
  while (j >= 0) values[k++] = aboveDraw[j--];
}

function insertionSort(values: Float64Array, start: number, end: number): void {
  for (let i = start + 1; i < end; i++) {
    const value = values[i];
    let j = i - 1;
    while (j >= start && playsBefore(value, values[j])) {
      values[j + 1] = values[j];
      j--;
    }
    values[j + 1] = value;
  }
}

/**
 * Play evaluation of a position from its matching patterns' weights: combinePair folded over the weights in
 * play order (most extreme first, see playsBefore). The fold is not associative, so the fixed order is what
 * makes the value deterministic and independent of the order the weights arrive in.
 * No weights -> .5 (nothing known); one weight -> that weight.
 *
 * Hot path (called for every legal move): pass a reusable `scratch` with room for the weights to avoid
 * allocating; the weights themselves are never modified. A missing or too small scratch is replaced by a
 * fresh array.
 */
export function playValue(weights: ArrayLike<number>, scratch?: Float64Array): number {
  const count = weights.length;
  if (count === 0) return DRAW;
  if (count === 1) return weights[0];
  const ordered = scratch !== undefined && scratch.length >= count ? scratch : new Float64Array(count);
  for (let i = 0; i < count; i++) ordered[i] = weights[i];
  sortIntoPlayOrder(ordered, count);
  let value = ordered[0];
  for (let i = 1; i < count; i++) value = combinePair(value, ordered[i]);
  return value;
}

/**
 * Update (learning) evaluation: Σ w·|w - .5|^β / Σ |w - .5|^β, so extreme patterns dominate and neutral ones
 * count for nothing. β >= 0 (the paper uses 1..5; β = 0 is the plain mean). No weights, or only weights of
 * exactly .5 (all with zero pull), -> .5.
 */
export function updateValue(weights: ArrayLike<number>, beta: number): number {
  if (!(beta >= 0) || !Number.isFinite(beta)) throw new RangeError(`updateValue: beta must be a finite number >= 0, got ${beta}`);
  let weightedSum = 0;
  let totalPull = 0;
  for (let i = 0; i < weights.length; i++) {
    const weight = weights[i];
    const pull = Math.abs(weight - DRAW) ** beta;
    weightedSum += weight * pull;
    totalPull += pull;
  }
  return totalPull > 0 ? weightedSum / totalPull : DRAW;
}

/**
 * Log-odds are taken of weights clamped to [LOGIT_EDGE, 1 - LOGIT_EDGE], so a weight of exactly 0 or 1 (the
 * paper's annealing gives those after one update) counts as strong evidence, not infinite evidence.
 */
export const LOGIT_EDGE = 1e-3;

export function logit(p: number): number {
  const q = p < LOGIT_EDGE ? LOGIT_EDGE : p > 1 - LOGIT_EDGE ? 1 - LOGIT_EDGE : p;
  return Math.log(q / (1 - q));
}

export function logistic(x: number): number {
  return 1 / (1 + Math.exp(-x));
}
