/**
 * Temporal-difference targets for one game (reference section 6; paper 004, "Temporal-Difference Learning"):
 * each position Morph moved to is pulled toward what came after it, and the last one toward the result.
 */

/**
 * The λ-return target for each position Morph moved to, p_1..p_T.
 *
 * `evaluations[t-1]` is E_t, the update-evaluation (updateValue) of p_t before learning; `finalResult` is z,
 * the game's result for Morph (1 win, .5 draw, 0 loss). Computed backwards:
 *   G_T = z,   G_t = (1-λ)·E_{t+1} + λ·G_{t+1}
 * which equals the forward λ-return G_t = (1-λ)·Σ_{k=1}^{T-t} λ^{k-1}·E_{t+k} + λ^{T-t}·z.
 * λ = 0 is the paper's scheme (target_t = E_{t+1}, last target z); λ = 1 gives z for every position.
 * E_1 never enters a target (nothing precedes p_1). No positions -> [].
 */
export function tdTargets(evaluations: readonly number[], finalResult: number, lambda: number): number[] {
  if (!(lambda >= 0 && lambda <= 1)) throw new RangeError(`tdTargets: lambda must be in [0,1], got ${lambda}`);
  const count = evaluations.length;
  const targets = new Array<number>(count);
  let laterReturn = finalResult;
  for (let t = count - 1; t >= 0; t--) {
    // For the last position there is no later evaluation: its return is the result itself.
    targets[t] = t === count - 1 ? finalResult : (1 - lambda) * evaluations[t + 1] + lambda * laterReturn;
    laterReturn = targets[t];
  }
  return targets;
}
