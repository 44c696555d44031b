/**
 * Temporal-difference targets for one game (reference section 6; paper 004, "Temporal-Difference Learning"):
 * each position Morph moved to is pulled toward what came after it, and the last one toward the result.
 *
 * The paper works backwards from the final state, and each earlier state's target is "the new evaluation for
 * the succeeding state": the evaluation after that state's own update. So the sweep interleaves targets and
 * updates (tdSweep); with fixed evaluations it reduces to the plain λ-return (tdTargets).
 */

function checkLambda(lambda: number): void {
  if (!(lambda >= 0 && lambda <= 1)) throw new RangeError(`TD: lambda must be in [0,1], got ${lambda}`);
}

/**
 * Backward TD sweep over positions 0..count-1. For t from the last position down: the target is z for the last,
 * else G_t = (1-λ)·E_{t+1} + λ·(.5 + γ·(G_{t+1} - .5)) with discount γ (1 = none), where E_{t+1} = `evaluate(t + 1)` is asked AFTER `apply(t + 1, ...)` ran,
 * so it sees the updated weights. `apply(t, target)` moves position t's patterns toward its target.
 * Returns the targets in position order.
 */
export function tdSweep(
  count: number,
  finalResult: number,
  lambda: number,
  evaluate: (t: number) => number,
  apply: (t: number, target: number) => void,
  discount = 1,
): number[] {
  checkLambda(lambda);
  if (!(discount > 0 && discount <= 1)) throw new RangeError(`TD: discount must be in (0,1], got ${discount}`);
  const targets = new Array<number>(count);
  let laterReturn = finalResult;
  for (let t = count - 1; t >= 0; t--) {
    // The discount shrinks a later return toward the draw value .5, so nearer outcomes count for more.
    const discounted = 0.5 + discount * (laterReturn - 0.5);
    // The last position's target is the result, and at λ = 1 an evaluation would be weighted by zero: neither
    // asks for one.
    if (t === count - 1) targets[t] = finalResult;
    else targets[t] = (lambda < 1 ? (1 - lambda) * evaluate(t + 1) : 0) + lambda * discounted;
    apply(t, targets[t]);
    laterReturn = targets[t];
  }
  return targets;
}

/**
 * The λ-return target for each position with fixed evaluations: `evaluations[t]` is E of position t.
 *   G_T = z,   G_t = (1-λ)·E_{t+1} + λ·G_{t+1}
 * which equals the forward λ-return G_t = (1-λ)·Σ_{k=1}^{T-t} λ^{k-1}·E_{t+k} + λ^{T-t}·z.
 * λ = 0 gives target_t = E_{t+1} and z for the last; λ = 1 gives z for every position. The first evaluation
 * never enters a target. No positions -> [].
 */
export function tdTargets(evaluations: readonly number[], finalResult: number, lambda: number): number[] {
  return tdSweep(evaluations.length, finalResult, lambda, (t) => evaluations[t], () => {});
}
