/** One benchmark figure: what was measured, its value and unit, and the target it is judged against. */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  /** e.g. ">= 50000" or "< 0.3"; checked by `meetsTarget`. */
  target?: string;
  /** Value divided by the run's reference measurement (chess.js legal moves per second), for cross-machine comparison. */
  ratio?: number;
  note?: string;
}

export function meetsTarget(figure: Figure): boolean | undefined {
  if (!figure.target) return undefined;
  const match = /^(>=|<=|<|>)\s*([\d.e+-]+)/.exec(figure.target);
  if (!match) return undefined;
  const bound = Number(match[2]);
  switch (match[1]) {
    case '>=':
      return figure.value >= bound;
    case '>':
      return figure.value > bound;
    case '<=':
      return figure.value <= bound;
    default:
      return figure.value < bound;
  }
}

/** Runs `fn` repeatedly for about `ms` milliseconds; returns calls per second. */
export function ratePerSecond(fn: () => void, ms = 1000): number {
  for (let i = 0; i < 50; i++) fn(); // warm up the JIT
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < 20; i++) fn();
    calls += 20;
    elapsed = performance.now() - start;
  }
  return (calls * 1000) / elapsed;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}
