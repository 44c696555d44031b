/**
 * Ridge least squares over sparse rows, for the experiments that ask whether a value is learnable from a set of
 * features at all (research/gap-learnability.ts, research/relation-terms.ts): solved by conjugate gradients on
 * the normal equations, so the answer is the penalised least-squares fit itself, not what an SGD schedule reached.
 */

/** A row's features: key -> count. */
export type SparseRow = Map<string, number>;

/** Rows compressed over numbered features, feature 0 a constant (unpenalised). */
export interface Design {
  start: Int32Array;
  index: Int32Array;
  value: Float64Array;
  features: number;
  /** Feature key -> number; a design for other rows made `like` a fitted one numbers them by it. */
  keys: Map<string, number>;
}

/**
 * The design of `rows`. With `like`, features are numbered as there and those it never saw dropped (they would
 * carry no weight); otherwise numbered as first seen.
 */
export function sparseDesign(rows: readonly SparseRow[], like?: Design): Design {
  const keys = like?.keys ?? new Map<string, number>([['const', 0]]);
  const index: number[] = [];
  const value: number[] = [];
  const start = [0];
  for (const row of rows) {
    index.push(0);
    value.push(1);
    for (const [key, count] of row) {
      let k = keys.get(key);
      if (k === undefined) {
        if (like) continue;
        keys.set(key, (k = keys.size));
      }
      index.push(k);
      value.push(count);
    }
    start.push(index.length);
  }
  return { start: Int32Array.from(start), index: Int32Array.from(index), value: Float64Array.from(value), features: like?.features ?? keys.size, keys };
}

/** Row r's prediction by weights w. */
export function rowPrediction(d: Design, w: ArrayLike<number>, r: number): number {
  let sum = 0;
  for (let k = d.start[r]; k < d.start[r + 1]; k++) sum += w[d.index[k]] * d.value[k];
  return sum;
}

/** Weights minimising |y - Xw|^2 + lambda |w without the constant|^2 (conjugate gradients, at most 500 steps). */
export function ridge(d: Design, y: readonly number[], lambda: number): Float64Array {
  const m = d.features;
  const multiply = (p: Float64Array, out: Float64Array) => {
    out.fill(0);
    for (let r = 0; r < y.length; r++) {
      const xp = rowPrediction(d, p, r);
      for (let k = d.start[r]; k < d.start[r + 1]; k++) out[d.index[k]] += d.value[k] * xp;
    }
    for (let j = 1; j < m; j++) out[j] += lambda * p[j];
  };
  const dot = (a: Float64Array, b: Float64Array) => a.reduce((s, x, j) => s + x * b[j], 0);
  const w = new Float64Array(m);
  const residual = new Float64Array(m);
  for (let r = 0; r < y.length; r++) for (let k = d.start[r]; k < d.start[r + 1]; k++) residual[d.index[k]] += d.value[k] * y[r];
  const direction = Float64Array.from(residual);
  const product = new Float64Array(m);
  let rr = dot(residual, residual);
  const stop = rr * 1e-12;
  for (let step = 0; step < 500 && rr > stop; step++) {
    multiply(direction, product);
    const alpha = rr / dot(direction, product);
    for (let j = 0; j < m; j++) {
      w[j] += alpha * direction[j];
      residual[j] -= alpha * product[j];
    }
    const next = dot(residual, residual);
    for (let j = 0; j < m; j++) direction[j] = residual[j] + (next / rr) * direction[j];
    rr = next;
  }
  return w;
}

/** Root mean square of y - prediction over a design's rows. */
export function rmsError(d: Design, w: ArrayLike<number> | null, y: readonly number[]): number {
  return Math.sqrt(y.reduce((sum, target, r) => sum + (target - (w ? rowPrediction(d, w, r) : 0)) ** 2, 0) / y.length);
}

/**
 * Ridge with its penalty chosen among `lambdas` on held-out rows (`choose`), then refitted on `fit` and `choose`
 * together: the weights, the penalty, and each penalty's held-out error.
 */
export function chosenRidge(
  fit: { rows: readonly SparseRow[]; y: readonly number[] },
  choose: { rows: readonly SparseRow[]; y: readonly number[] },
  lambdas: readonly number[] = [0.3, 3, 30, 300, 3000],
): { weights: Float64Array; design: Design; lambda: number; choices: { lambda: number; rms: number }[] } {
  const fitDesign = sparseDesign(fit.rows);
  const chooseDesign = sparseDesign(choose.rows, fitDesign);
  const choices = lambdas.map((lambda) => ({ lambda, rms: rmsError(chooseDesign, ridge(fitDesign, fit.y, lambda), choose.y) }));
  const { lambda } = choices.reduce((a, b) => (b.rms < a.rms ? b : a));
  const design = sparseDesign([...fit.rows, ...choose.rows]);
  return { weights: ridge(design, [...fit.y, ...choose.y], lambda), design, lambda, choices };
}
