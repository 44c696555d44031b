import { describe, expect, it } from 'vitest';
import { combinePair, playOrder, playValue, updateValue } from '../src/eval/combine.ts';
import { Random } from '../src/util/random.ts';

/** The 101 grid values 0, .01, ..., 1 (i/100 is the correctly rounded decimal, unlike i*.01). */
const GRID = Array.from({ length: 101 }, (_, i) => i / 100);
/** Equalities the paper states hold exactly in real arithmetic; allow only floating-point rounding. */
const ROUNDING = 1e-12;

function forEachGridPair(check: (x: number, y: number) => void): void {
  for (const x of GRID) for (const y of GRID) check(x, y);
}

describe("the paper's worked example (Performance Example after Figure 2)", () => {
  it('play function: A {.2} -> .20, B {.2,.3} -> .12, C {.2,.4} -> .16, so A > C > B', () => {
    expect(combinePair(0.2, 0.3)).toBeCloseTo(0.12, 12);
    expect(combinePair(0.2, 0.4)).toBeCloseTo(0.16, 12);
    expect(playValue([0.2])).toBe(0.2);
    expect(playValue([0.2, 0.3])).toBeCloseTo(0.12, 12);
    expect(playValue([0.4, 0.2])).toBeCloseTo(0.16, 12);
  });

  it('update function with beta = 3: {.2,.3} -> .223 and {.2,.4} -> .207 (so it would wrongly prefer B)', () => {
    expect(updateValue([0.2, 0.3], 3).toFixed(3)).toBe('0.223');
    expect(updateValue([0.2, 0.4], 3).toFixed(3)).toBe('0.207');
    expect(updateValue([0.2], 3)).toBeCloseTo(0.2, 12);
  });
});

describe('combinePair: the five properties the paper states (section 3.3), on a 101x101 grid', () => {
  it('1. both > .5 -> f > max(w1, w2), unless one is 1, then f = 1', () => {
    let checked = 0;
    forEachGridPair((x, y) => {
      if (!(x > 0.5 && y > 0.5)) return;
      const f = combinePair(x, y);
      if (x === 1 || y === 1) expect(f).toBe(1);
      else expect(f).toBeGreaterThan(Math.max(x, y));
      checked++;
    });
    expect(checked).toBe(50 * 50);
  });

  it('2. f(.5, w2) = w2 (and, by symmetry, f(w1, .5) = w1)', () => {
    for (const y of GRID) {
      expect(Math.abs(combinePair(0.5, y) - y)).toBeLessThanOrEqual(ROUNDING);
      expect(Math.abs(combinePair(y, 0.5) - y)).toBeLessThanOrEqual(ROUNDING);
    }
  });

  it('3. f(a, 1 - a) = .5', () => {
    for (const a of GRID) expect(Math.abs(combinePair(a, 1 - a) - 0.5)).toBeLessThanOrEqual(ROUNDING);
  });

  it('4. both < .5 -> f < min(w1, w2), unless one is 0, then f = 0', () => {
    let checked = 0;
    forEachGridPair((x, y) => {
      if (!(x < 0.5 && y < 0.5)) return;
      const f = combinePair(x, y);
      if (x === 0 || y === 0) expect(f).toBe(0);
      else expect(f).toBeLessThan(Math.min(x, y));
      checked++;
    });
    expect(checked).toBe(50 * 50);
  });

  it('5. w1 > .5 > w2 -> w2 < f < w1, and f leans toward the more extreme weight', () => {
    let checked = 0;
    forEachGridPair((x, y) => {
      if (!(x > 0.5 && y < 0.5)) return;
      const f = combinePair(x, y);
      expect(f).toBeGreaterThan(y);
      expect(f).toBeLessThan(x);
      // "More towards the most extreme weight": f is nearer the more extreme weight than the other one, i.e.
      // on its side of the midpoint (strictly, unless the two are equally extreme, which is property 3).
      const xExtremeness = x - 0.5;
      const yExtremeness = 0.5 - y;
      const midpoint = (x + y) / 2;
      if (Math.abs(xExtremeness - yExtremeness) < ROUNDING) return;
      if (xExtremeness > yExtremeness) expect(f).toBeGreaterThan(midpoint);
      else expect(f).toBeLessThan(midpoint);
      checked++;
    });
    expect(checked).toBe(50 * 50 - 50);
  });

  it('agreeing weights reinforce, so "f lies between x and y" holds only for opposing weights', () => {
    // The brief's "result between x and y inclusive" contradicts properties 1 and 4 (and the paper's own .12).
    expect(combinePair(0.2, 0.3)).toBeLessThan(0.2);
    expect(combinePair(0.7, 0.8)).toBeGreaterThan(0.8);
  });
});

describe('combinePair: further properties', () => {
  it('is symmetric: f(x, y) = f(y, x) exactly', () => {
    forEachGridPair((x, y) => expect(combinePair(x, y)).toBe(combinePair(y, x)));
  });

  it('stays in [0,1], including at the corners', () => {
    forEachGridPair((x, y) => {
      const f = combinePair(x, y);
      expect(f).toBeGreaterThanOrEqual(0);
      expect(f).toBeLessThanOrEqual(1);
    });
    expect(combinePair(1, 0)).toBe(0.5);
    expect(combinePair(1, 1)).toBe(1);
    expect(combinePair(0, 0)).toBe(0);
  });

  it('is continuous across the .5 boundaries (the pieces meet)', () => {
    const justBelow = 0.5 - 1e-9;
    for (const x of GRID) {
      expect(combinePair(x, justBelow)).toBeCloseTo(combinePair(x, 0.5), 6);
    }
  });

  it('matches hand-worked mixed-sign values', () => {
    // x = .9, y = .25: u = .8, v = -.5, g = .3 + .4(.64 - .25)/(.64 + .25) = .3 + .156/.89
    expect(combinePair(0.9, 0.25)).toBeCloseTo((1 + 0.3 + 0.156 / 0.89) / 2, 12);
    // x = .6, y = .3: u = .2, v = -.4, g = -.2 + .08(.04 - .16)/.2 = -.248
    expect(combinePair(0.6, 0.3)).toBeCloseTo(0.376, 12);
  });
});

describe('playValue', () => {
  it('is .5 with no weights and the weight itself with one', () => {
    expect(playValue([])).toBe(0.5);
    expect(playValue([0.83])).toBe(0.83);
    expect(playValue(new Float64Array([0.07]))).toBe(0.07);
  });

  it('folds most extreme first', () => {
    // Order .1 (extremeness .4), .75 (.25), .4 (.1).
    const expected = combinePair(combinePair(0.1, 0.75), 0.4);
    expect(playValue([0.4, 0.75, 0.1])).toBe(expected);
    // The fold is not associative, so the order is a real choice: least extreme first gives another value.
    expect(combinePair(combinePair(0.4, 0.75), 0.1)).not.toBeCloseTo(expected, 6);
  });

  it('breaks equal extremeness by the smaller value first', () => {
    // .25 and .75 are exactly equally extreme in binary (both .25 from .5).
    const expected = combinePair(combinePair(combinePair(0.25, 0.25), 0.75), 0.6);
    expect(combinePair(combinePair(combinePair(0.75, 0.25), 0.25), 0.6)).not.toBeCloseTo(expected, 6);
    expect(playValue([0.75, 0.6, 0.25, 0.25])).toBe(expected);
  });

  it('does not depend on the order of its input (all permutations of a set with ties)', () => {
    const weights = [0.25, 0.75, 0.6, 0.1, 0.5, 0.25];
    const reference = playValue(weights);
    let permutations = 0;
    const permute = (prefix: number[], rest: number[]): void => {
      if (rest.length === 0) {
        expect(playValue(prefix)).toBe(reference);
        permutations++;
        return;
      }
      rest.forEach((w, i) => permute([...prefix, w], [...rest.slice(0, i), ...rest.slice(i + 1)]));
    };
    permute([], weights);
    expect(permutations).toBe(720);
  });

  it('folds in the order playOrder gives, for every size either sort handles, ties included', () => {
    const random = new Random(5);
    for (let size = 2; size <= 120; size++) {
      // Coarse values make ties (equal values, and equally extreme pairs such as .25 / .75) common.
      const weights = Array.from({ length: size }, () => Math.round(random.next() * 8) / 8);
      const reference = playOrder(weights)
        .map((i) => weights[i])
        .reduce((value, weight, k) => (k === 0 ? weight : combinePair(value, weight)), NaN);
      expect(playValue(weights)).toBe(reference);
    }
  });

  it('does not depend on input order for many weights (the merge sort path)', () => {
    const random = new Random(7);
    const weights = Array.from({ length: 200 }, () => Math.round(random.next() * 20) / 20);
    const reference = playValue(weights);
    for (let trial = 0; trial < 20; trial++) {
      const shuffled = [...weights];
      for (let i = shuffled.length - 1; i > 0; i--) {
        const j = random.int(i + 1);
        [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
      }
      expect(playValue(shuffled)).toBe(reference);
    }
  });

  it('gives the same value with or without a scratch array and leaves the input untouched', () => {
    const random = new Random(11);
    const scratch = new Float64Array(64);
    for (let trial = 0; trial < 200; trial++) {
      const weights = Array.from({ length: 1 + random.int(40) }, () => random.next());
      const copy = [...weights];
      const withScratch = playValue(weights, scratch);
      expect(withScratch).toBe(playValue(weights));
      expect(playValue(weights, new Float64Array(2))).toBe(withScratch); // too small: falls back
      expect(weights).toEqual(copy);
      expect(withScratch).toBeGreaterThanOrEqual(0);
      expect(withScratch).toBeLessThanOrEqual(1);
    }
  });
});

describe('updateValue', () => {
  it('is .5 with no weights or only neutral ones', () => {
    expect(updateValue([], 2)).toBe(0.5);
    expect(updateValue([0.5, 0.5], 3)).toBe(0.5);
  });

  it('ignores neutral weights and is the plain mean at beta = 0', () => {
    expect(updateValue([0.9, 0.5, 0.5], 2)).toBeCloseTo(0.9, 12);
    expect(updateValue([0.9, 0.5, 0.4], 0)).toBeCloseTo(0.6, 12);
  });

  it('weights by extremeness^beta: {.9, .6} at beta 1 is (.9·.4 + .6·.1)/.5 = .84', () => {
    expect(updateValue([0.9, 0.6], 1)).toBeCloseTo(0.84, 12);
  });

  it('rejects a negative beta', () => {
    expect(() => updateValue([0.3], -1)).toThrow(RangeError);
  });
});
