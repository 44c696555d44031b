/**
 * Piece values learned from the material patterns, and the material value a search judges positions by.
 *
 * Each material pattern's weight is learned alone: "the mean result when this material difference stood".
 * Many differences are rare (in a 12,000-game database a third of them have one update, so their weights are
 * one game's 0 or 1), and a difference the database lacks counts as a draw. The fit pools them: the weights,
 * in log-odds, as a sum of one value per piece kind, fitted by least squares with each pattern counting by
 * its updates. A rarely seen difference then leans on what every other difference says about its pieces,
 * (n·w + K·p) / (n + K), with p the fitted weight and K the prior's pseudo-counts (the config's
 * materialPrior). Measured in training/RESULTS.md, "the material blend".
 */
import { logistic, logit } from './combine.ts';

/** P, N, B, R, Q: the order of a material pattern's differences. */
const KINDS = 5;
/**
 * Weights are clipped to [.02, .98] before taking log-odds: a pattern with one update holds 0 or 1, whose
 * log-odds are infinite. .02 is about -3.9.
 */
const WEIGHT_EDGE = 0.02;
/**
 * Pseudo-updates pulling each piece value toward 0 (ridge): a new database, whose few material patterns may
 * never show some piece kind, still gets a fit (0 for that kind, so its differences count as draws).
 */
const RIDGE = 1;

export interface MaterialEvidence {
  /** Piece-count differences P, N, B, R, Q (side that just moved minus side to move). */
  diff: ArrayLike<number>;
  weight: number;
  updates: number;
}

/** The learned value of each piece kind P, N, B, R, Q, in log-odds of the weight. */
export type PieceValues = Float64Array;

/** Least-squares piece values from the material patterns, each weighted by its updates. */
export function fitPieceValues(patterns: Iterable<MaterialEvidence>): PieceValues {
  // Normal equations (DᵀWD + ridge·I) c = DᵀW y, as a 5 x 6 augmented matrix.
  const rows = Array.from({ length: KINDS }, (_, i) => {
    const row = new Float64Array(KINDS + 1);
    row[i] = RIDGE;
    return row;
  });
  for (const { diff, weight, updates } of patterns) {
    if (updates <= 0) continue;
    const target = logit(Math.min(1 - WEIGHT_EDGE, Math.max(WEIGHT_EDGE, weight)));
    for (let i = 0; i < KINDS; i++) {
      if (diff[i] === 0) continue;
      const row = rows[i];
      for (let j = 0; j < KINDS; j++) row[j] += updates * diff[i] * diff[j];
      row[KINDS] += updates * diff[i] * target;
    }
  }
  return solveSymmetric(rows);
}

/** Gaussian elimination with partial pivoting; the ridge keeps the matrix positive definite. */
function solveSymmetric(rows: Float64Array[]): PieceValues {
  for (let col = 0; col < KINDS; col++) {
    let pivot = col;
    for (let r = col + 1; r < KINDS; r++) if (Math.abs(rows[r][col]) > Math.abs(rows[pivot][col])) pivot = r;
    [rows[col], rows[pivot]] = [rows[pivot], rows[col]];
    for (let r = 0; r < KINDS; r++) {
      if (r === col) continue;
      const factor = rows[r][col] / rows[col][col];
      if (factor !== 0) for (let j = col; j <= KINDS; j++) rows[r][j] -= factor * rows[col][j];
    }
  }
  const values = new Float64Array(KINDS);
  for (let i = 0; i < KINDS; i++) values[i] = rows[i][KINDS] / rows[i][i];
  return values;
}

/** The weight the piece values give a material difference. */
export function fittedWeight(values: PieceValues, diff: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < KINDS; i++) sum += values[i] * diff[i];
  return logistic(sum);
}

/** A learned weight blended with the fitted one as `prior` pseudo-counts: (n·w + K·p) / (n + K). */
export function blendedWeight(weight: number, updates: number, fitted: number, prior: number): number {
  return updates + prior > 0 ? (updates * weight + prior * fitted) / (updates + prior) : weight;
}
