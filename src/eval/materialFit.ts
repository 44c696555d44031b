/**
 * Piece values learned from the material patterns, and the material value a search judges positions by.
 *
 * Each material pattern's weight is learned alone: "the mean result when this material difference stood".
 * Many differences are rare (in a 12,000-game database a third of them have one update, so their weights are
 * one game's 0 or 1), and a difference the database lacks counts as a draw. The fit pools them: a logistic
 * model of the weights, the log-odds a sum of one value per piece kind, fitted by maximum likelihood with each
 * pattern's weight read as the share won of its updates (binomial logistic regression). A rarely seen
 * difference then leans on what every other difference says about its pieces, (n·w + K·p) / (n + K), with p
 * the fitted weight and K the prior's pseudo-counts (the config's materialPrior). Measured in
 * docs/lab/, "the material blend built in" and "the material searches ordered; piece values by maximum
 * likelihood".
 *
 * Why maximum likelihood and not least squares on each weight's log-odds (the first fit): a weight of 0 or 1
 * has infinite log-odds, so those had to be clipped, and the clipped one-game patterns, many of them with
 * large differences, pulled the values down and together (a rook worth a bishop: R .84, B .83). Maximum
 * likelihood takes a weight of 0 or 1 as it is, one game lost or won. On the same database it gives R 1.18,
 * B 1.04, and the values alone scored +.065 a game over the least-squares blend against ab:2,q.
 */
import { logistic } from './combine.ts';

/**
 * The largest material prior, and the default: the fitted values alone in effect, a pattern's own weight counting
 * at most a few per cent (the most updates a material pattern has is in the tens of thousands).
 */
export const MATERIAL_FIT_ALONE = 1_000_000;

/** P, N, B, R, Q: the order of a material pattern's differences. */
const KINDS = 5;
/**
 * Pseudo-updates pulling each piece value toward 0 (a ridge, a Gaussian prior on the values): a new database,
 * whose few material patterns may never show some piece kind, still gets a fit (0 for that kind, so its
 * differences count as draws), and Newton's method converges even when the evidence is one-sided.
 */
const RIDGE = 1;
/** Newton's method stops when no value moves by more than this, or after MAX_ITERATIONS. */
const TOLERANCE = 1e-7;
const MAX_ITERATIONS = 50;

export interface MaterialEvidence {
  /** Piece-count differences P, N, B, R, Q (side that just moved minus side to move). */
  diff: ArrayLike<number>;
  weight: number;
  updates: number;
}

/** The learned value of each piece kind P, N, B, R, Q, in log-odds of the weight. */
export type PieceValues = Float64Array;

/**
 * Maximum-likelihood piece values: the values c maximising Σ n·(w·log σ(c·d) + (1 - w)·log(1 - σ(c·d))) over
 * the patterns (n updates, weight w, difference d), minus RIDGE·|c|²/2. Newton's method from `start` (the last
 * fit, when the player refits after a few more games: then one or two steps), halving a step that would lower
 * the objective.
 */
export function fitPieceValues(patterns: Iterable<MaterialEvidence>, start?: PieceValues): PieceValues {
  const evidence = Array.from(patterns).filter((e) => e.updates > 0);
  let values: PieceValues = start ? Float64Array.from(start) : new Float64Array(KINDS);
  let current = objective(evidence, values);
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    const step = newtonStep(evidence, values);
    let scale = 1;
    let next = shifted(values, step, scale);
    let value = objective(evidence, next);
    while (value < current && scale > 1e-6) {
      scale /= 2;
      next = shifted(values, step, scale);
      value = objective(evidence, next);
    }
    const moved = Math.max(...Array.from(step, (s) => Math.abs(s * scale)));
    if (value < current) break; // no step improves: at the maximum to rounding
    values = next;
    current = value;
    if (moved < TOLERANCE) break;
  }
  return values;
}

/** The penalised log-likelihood fitPieceValues maximises. */
function objective(evidence: MaterialEvidence[], values: PieceValues): number {
  let sum = 0;
  for (const { diff, weight, updates } of evidence) {
    const score = fittedLogOdds(values, diff);
    // log σ(s) = -log(1 + e^-s), computed without overflow either way.
    const logWin = -softplus(-score);
    const logLoss = -softplus(score);
    sum += updates * (weight * logWin + (1 - weight) * logLoss);
  }
  for (let i = 0; i < KINDS; i++) sum -= (RIDGE * values[i] * values[i]) / 2;
  return sum;
}

/** The Newton step H⁻¹g of the objective at `values` (g its gradient, H minus its Hessian). */
function newtonStep(evidence: MaterialEvidence[], values: PieceValues): Float64Array {
  // The system (H) step = g as a 5 x 6 augmented matrix; the ridge keeps H positive definite.
  const rows = Array.from({ length: KINDS }, (_, i) => {
    const row = new Float64Array(KINDS + 1);
    row[i] = RIDGE;
    row[KINDS] = -RIDGE * values[i];
    return row;
  });
  for (const { diff, weight, updates } of evidence) {
    const p = logistic(fittedLogOdds(values, diff));
    const curvature = updates * p * (1 - p);
    const residual = updates * (weight - p);
    for (let i = 0; i < KINDS; i++) {
      if (diff[i] === 0) continue;
      const row = rows[i];
      for (let j = 0; j < KINDS; j++) row[j] += curvature * diff[i] * diff[j];
      row[KINDS] += residual * diff[i];
    }
  }
  return solveLinearSystem(rows);
}

/** The log-odds the piece values give a material difference. */
export function fittedLogOdds(values: ArrayLike<number>, diff: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < KINDS; i++) sum += values[i] * diff[i];
  return sum;
}

function shifted(values: PieceValues, step: Float64Array, scale: number): PieceValues {
  return values.map((v, i) => v + scale * step[i]);
}

/** log(1 + e^x) without overflow. */
function softplus(x: number): number {
  return x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x));
}

/**
 * Solves A x = b given the rows of [A | b] (changed in place), by Gaussian elimination with partial pivoting;
 * callers keep A positive definite (a ridge).
 */
export function solveLinearSystem(rows: Float64Array[]): Float64Array {
  const n = rows.length;
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(rows[r][col]) > Math.abs(rows[pivot][col])) pivot = r;
    [rows[col], rows[pivot]] = [rows[pivot], rows[col]];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const factor = rows[r][col] / rows[col][col];
      if (factor !== 0) for (let j = col; j <= n; j++) rows[r][j] -= factor * rows[col][j];
    }
  }
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) x[i] = rows[i][n] / rows[i][i];
  return x;
}

/**
 * Solves A x = b for a symmetric positive definite A (n x n, row-major; not changed) by Cholesky's factorisation,
 * A = L L': a sixth of the arithmetic of solveLinearSystem's elimination, which it falls back to when rounding
 * leaves a pivot that is not positive. A row with nothing off the diagonal (in a square-value fit, a piece on a
 * square no line ended on, under a diagonal prior: a fifth to three quarters of the 776) is an equation of its own,
 * solved as the factorisation would solve it, and the other rows are factorised together: the same arithmetic less
 * its products with those rows' zeros, so the same x (to the sign of a zero), in (m / n)^3 of the time for m
 * coupled rows.
 */
export function solvePositiveDefinite(a: Float64Array, b: Float64Array): Float64Array {
  const n = b.length;
  const coupled: number[] = [];
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let alone = true;
    for (let j = 0; j < n && alone; j++) if (j !== i && (a[i * n + j] !== 0 || a[j * n + i] !== 0)) alone = false;
    if (!alone) {
      coupled.push(i);
      continue;
    }
    // L_ii = sqrt(a_ii); forward y_i = b_i / L_ii; back x_i = y_i / L_ii.
    const pivot = a[i * n + i];
    if (!(pivot > 0)) return solveByElimination(a, b);
    x[i] = b[i] / Math.sqrt(pivot) / Math.sqrt(pivot);
  }
  const m = coupled.length;
  if (m === 0) return x;
  const block = m === n ? a : new Float64Array(m * m);
  if (block !== a) for (let p = 0; p < m; p++) for (let q = 0; q < m; q++) block[p * m + q] = a[coupled[p] * n + coupled[q]];
  const solved = choleskySolve(block, Float64Array.from(coupled, (i) => b[i]));
  if (solved === null) return solveByElimination(a, b);
  coupled.forEach((i, p) => (x[i] = solved[p]));
  return x;
}

const solveByElimination = (a: Float64Array, b: Float64Array): Float64Array => {
  const n = b.length;
  return solveLinearSystem(Array.from({ length: n }, (_, r) => Float64Array.from([...a.subarray(r * n, r * n + n), b[r]])));
};

/**
 * A x = b by Cholesky's factorisation, or null when a pivot is not positive. Column by column: each column's pivot,
 * then the entries below it four rows at a time, which share the loads of the pivot row's entries (each entry
 * L_ij = (a_ij - sum over k < j of L_ik L_jk) / L_jj, summed in the same order as row by row, so the same L to
 * the bit, and the first pivot that is not positive the same). A square-value fit's 776 rows: about half the time
 * of the row-by-row loop, which was nearly half of a policy rebuild (2026-12-07).
 */
function choleskySolve(a: Float64Array, b: Float64Array): Float64Array | null {
  const n = b.length;
  const lower = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    const rowJ = j * n;
    let diagonal = a[rowJ + j];
    for (let k = 0; k < j; k++) diagonal -= lower[rowJ + k] * lower[rowJ + k];
    if (!(diagonal > 0)) return null;
    const pivot = Math.sqrt(diagonal);
    lower[rowJ + j] = pivot;
    let i = j + 1;
    for (; i + 3 < n; i += 4) {
      const row0 = i * n;
      const row1 = row0 + n;
      const row2 = row1 + n;
      const row3 = row2 + n;
      let sum0 = a[row0 + j];
      let sum1 = a[row1 + j];
      let sum2 = a[row2 + j];
      let sum3 = a[row3 + j];
      for (let k = 0; k < j; k++) {
        const pivotRow = lower[rowJ + k];
        sum0 -= lower[row0 + k] * pivotRow;
        sum1 -= lower[row1 + k] * pivotRow;
        sum2 -= lower[row2 + k] * pivotRow;
        sum3 -= lower[row3 + k] * pivotRow;
      }
      lower[row0 + j] = sum0 / pivot;
      lower[row1 + j] = sum1 / pivot;
      lower[row2 + j] = sum2 / pivot;
      lower[row3 + j] = sum3 / pivot;
    }
    for (; i < n; i++) {
      const rowI = i * n;
      let sum = a[rowI + j];
      for (let k = 0; k < j; k++) sum -= lower[rowI + k] * lower[rowJ + k];
      lower[rowI + j] = sum / pivot;
    }
  }
  // L y = b, then L' x = y.
  const x = Float64Array.from(b);
  for (let i = 0; i < n; i++) {
    let sum = x[i];
    for (let k = 0; k < i; k++) sum -= lower[i * n + k] * x[k];
    x[i] = sum / lower[i * n + i];
  }
  for (let i = n - 1; i >= 0; i--) {
    let sum = x[i];
    for (let k = i + 1; k < n; k++) sum -= lower[k * n + i] * x[k];
    x[i] = sum / lower[i * n + i];
  }
  return x;
}

/** The weight the piece values give a material difference. */
export function fittedWeight(values: PieceValues, diff: ArrayLike<number>): number {
  return logistic(fittedLogOdds(values, diff));
}

/** A learned weight blended with the fitted one as `prior` pseudo-counts: (n·w + K·p) / (n + K). */
export function blendedWeight(weight: number, updates: number, fitted: number, prior: number): number {
  return updates + prior > 0 ? (updates * weight + prior * fitted) / (updates + prior) : weight;
}
