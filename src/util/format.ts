/** Number formats shared by the commands' text output. */

/** `x` with `digits` decimals and its sign always shown: +0.25, -1.50, +0.00. */
export function signed(x: number, digits = 0): string {
  return `${x >= 0 ? '+' : '-'}${Math.abs(x).toFixed(digits)}`;
}
