/**
 * The discount γ in the TD sweep, checked against closed forms: at λ = 1 the target of position t is the result
 * shrunk toward the draw value γ^(T-t) times, .5 + γ^(T-t)·(z - .5); at λ = 0 it is the next evaluation whatever
 * γ is; and γ = 1 is the plain forward λ-return.
 */
import { describe, expect, it } from 'vitest';
import { tdSweep } from '../src/learn/tdTargets.ts';

const evaluations = [0.5, 0.61, 0.44, 0.7, 0.58, 0.66];

describe('TD discount', () => {
  it('at λ = 1 shrinks the result toward .5 by γ per ply back, and asks for no evaluation', () => {
    for (const [z, gamma] of [[1, 0.9], [0, 0.97], [0.5, 0.8], [1, 1]] as const) {
      let asked = 0;
      const targets = tdSweep(evaluations.length, z, 1, () => (asked++, 0.5), () => {}, gamma);
      const last = evaluations.length - 1;
      targets.forEach((target, t) => expect(target).toBeCloseTo(0.5 + gamma ** (last - t) * (z - 0.5), 12));
      expect(asked).toBe(0);
    }
    // A worked case: γ = .9, a win four plies on: 1, .95, .905, .8645.
    expect(tdSweep(4, 1, 1, () => 0.5, () => {}, 0.9).map((g) => Math.round(g * 1e4) / 1e4)).toEqual([0.8645, 0.905, 0.95, 1]);
  });

  it('at λ = 0 is the next evaluation, whatever γ', () => {
    const targets = tdSweep(evaluations.length, 1, 0, (t) => evaluations[t], () => {}, 0.7);
    expect(targets).toEqual([...evaluations.slice(1), 1]);
  });

  it('with γ = 1 is the forward λ-return (1-λ)·Σ λ^(k-1)·E(t+k) + λ^(T-t)·z', () => {
    const last = evaluations.length - 1;
    for (const lambda of [0.3, 0.7]) {
      const swept = tdSweep(evaluations.length, 0, lambda, (t) => evaluations[t], () => {}, 1);
      for (let t = 0; t <= last; t++) {
        let forward = lambda ** (last - t) * 0;
        for (let k = 1; k <= last - t; k++) forward += (1 - lambda) * lambda ** (k - 1) * evaluations[t + k];
        expect(swept[t]).toBeCloseTo(forward, 12);
      }
    }
  });

  it('refuses a discount outside (0, 1]', () => {
    expect(() => tdSweep(3, 1, 0.5, () => 0.5, () => {}, 0)).toThrow(RangeError);
    expect(() => tdSweep(3, 1, 0.5, () => 0.5, () => {}, 1.1)).toThrow(RangeError);
  });
});
