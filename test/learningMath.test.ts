import { describe, expect, it } from 'vitest';
import {
  annealedWeight,
  DEFAULT_TEMPERATURE_SCHEDULE,
  formatTemperatureSchedule,
  parseTemperatureSchedule,
  temperatureAt,
} from '../src/learn/annealing.ts';
import { tdTargets } from '../src/learn/tdTargets.ts';
import { MorphError, BAD_INPUT } from '../src/util/errors.ts';
import { Random } from '../src/util/random.ts';

describe('tdTargets on a hand-made three-move game', () => {
  // Morph moved to p1, p2, p3 with update-evaluations E1 = .6, E2 = .3, E3 = .8, then won (z = 1).
  const evaluations = [0.6, 0.3, 0.8];
  const won = 1;

  it('lambda = 0: each target is the next evaluation, the last is the result', () => {
    expect(tdTargets(evaluations, won, 0)).toEqual([0.3, 0.8, 1]);
  });

  it('lambda = .5: G3 = 1, G2 = .5·.8 + .5·1 = .9, G1 = .5·.3 + .5·.9 = .6', () => {
    const targets = tdTargets(evaluations, won, 0.5);
    expect(targets[2]).toBe(1);
    expect(targets[1]).toBeCloseTo(0.9, 14);
    expect(targets[0]).toBeCloseTo(0.6, 14);
  });

  it('lambda = 1: every target is the result (loss and draw too)', () => {
    expect(tdTargets(evaluations, won, 1)).toEqual([1, 1, 1]);
    expect(tdTargets(evaluations, 0, 1)).toEqual([0, 0, 0]);
    expect(tdTargets(evaluations, 0.5, 1)).toEqual([0.5, 0.5, 0.5]);
  });

  it('handles games with no or one position of Morph', () => {
    expect(tdTargets([], 1, 0.3)).toEqual([]);
    expect(tdTargets([0.2], 0.5, 0.3)).toEqual([0.5]);
  });

  it('the backward recursion equals the forward lambda-return', () => {
    const random = new Random(3);
    for (let trial = 0; trial < 50; trial++) {
      const count = 1 + random.int(30);
      const values = Array.from({ length: count }, () => random.next());
      const result = [0, 0.5, 1][random.int(3)];
      const lambda = random.next();
      const targets = tdTargets(values, result, lambda);
      for (let t = 0; t < count; t++) {
        // G_t = (1-λ) Σ_{k=1}^{T-t} λ^{k-1} E_{t+k} + λ^{T-t} z, with 0-based t and T = count - 1.
        let forward = 0;
        const steps = count - 1 - t;
        for (let k = 1; k <= steps; k++) forward += (1 - lambda) * lambda ** (k - 1) * values[t + k];
        forward += lambda ** steps * result;
        expect(targets[t]).toBeCloseTo(forward, 12);
      }
    }
  });

  it('rejects lambda outside [0,1]', () => {
    expect(() => tdTargets([0.5], 1, 1.5)).toThrow(RangeError);
    expect(() => tdTargets([0.5], 1, -0.1)).toThrow(RangeError);
  });
});

/** Applies a sequence of targets to a fresh pattern, as learning would over successive updates. */
function weightAfter(targets: number[], temperature: number, initialWeight = 0.5): number {
  let weight = initialWeight;
  targets.forEach((target, updatesBefore) => {
    weight = annealedWeight(weight, updatesBefore, target, temperature);
  });
  return weight;
}

describe('annealedWeight', () => {
  it('first update (n = 1) gives exactly the target for any k > 0', () => {
    for (const k of [0.25, 0.5, 1, 2, 7]) expect(annealedWeight(0.5, 0, 0.8, k)).toBe(0.8);
  });

  it('k = 1 keeps the running mean of all targets', () => {
    const targets = [0.2, 0.9, 0.4, 0.7, 0.1, 1, 0];
    for (let m = 1; m <= targets.length; m++) {
      const mean = targets.slice(0, m).reduce((a, b) => a + b, 0) / m;
      expect(weightAfter(targets.slice(0, m), 1)).toBeCloseTo(mean, 14);
    }
  });

  it('k = 2 favours the recent target, k = .5 trusts the past (targets 1 then 0)', () => {
    // Second update: W2 = (W1·1 + k·0) / (1 + k) with W1 = 1.
    expect(weightAfter([1, 0], 2)).toBeCloseTo(1 / 3, 14);
    expect(weightAfter([1, 0], 1)).toBeCloseTo(1 / 2, 14);
    expect(weightAfter([1, 0], 0.5)).toBeCloseTo(2 / 3, 14);
    // Third update, target 1, k = 2: (1/3·2 + 2·1) / (2 + 2) = 2/3.
    expect(weightAfter([1, 0, 1], 2)).toBeCloseTo(2 / 3, 14);
  });

  it('k = 0 keeps the previous weight, even on the first update', () => {
    expect(annealedWeight(0.3, 0, 0.9, 0)).toBe(0.3);
    expect(annealedWeight(0.3, 5, 0.9, 0)).toBe(0.3);
  });

  it('steps shrink with the update count (each pattern cools on its own)', () => {
    const earlyStep = Math.abs(annealedWeight(0.5, 2, 1, 1) - 0.5);
    const lateStep = Math.abs(annealedWeight(0.5, 50, 1, 1) - 0.5);
    expect(earlyStep).toBeCloseTo(0.5 / 3, 14);
    expect(lateStep).toBeCloseTo(0.5 / 51, 14);
  });

  it('clamps to [0,1] and rejects bad arguments', () => {
    expect(annealedWeight(0.5, 0, 1.4, 1)).toBe(1);
    expect(annealedWeight(0.5, 0, -0.2, 1)).toBe(0);
    expect(() => annealedWeight(0.5, 0, 0.5, -1)).toThrow(RangeError);
    expect(() => annealedWeight(0.5, -1, 0.5, 1)).toThrow(RangeError);
    expect(() => annealedWeight(0.5, 1.5, 0.5, 1)).toThrow(RangeError);
  });
});

describe('temperature schedules', () => {
  it('defaults to constant:1', () => {
    expect(DEFAULT_TEMPERATURE_SCHEDULE).toBe('constant:1');
    const schedule = parseTemperatureSchedule();
    expect(schedule).toEqual({ kind: 'constant', temperature: 1 });
    expect(temperatureAt(schedule, 0)).toBe(1);
    expect(temperatureAt(schedule, 5000)).toBe(1);
  });

  it('constant:K', () => {
    const schedule = parseTemperatureSchedule('constant:1.5');
    expect(temperatureAt(schedule, 0)).toBe(1.5);
    expect(temperatureAt(schedule, 123)).toBe(1.5);
  });

  it('linear:K0->K1@G goes from K0 at game 0 to K1 at game G, then stays', () => {
    const schedule = parseTemperatureSchedule('linear:2->0.5@100');
    expect(schedule).toEqual({ kind: 'linear', start: 2, end: 0.5, games: 100 });
    expect(temperatureAt(schedule, 0)).toBe(2);
    expect(temperatureAt(schedule, 50)).toBeCloseTo(1.25, 14);
    expect(temperatureAt(schedule, 100)).toBe(0.5);
    expect(temperatureAt(schedule, 1000)).toBe(0.5);
    // Rising schedules work too.
    expect(temperatureAt(parseTemperatureSchedule('linear:0.5->1.5@10'), 4)).toBeCloseTo(0.9, 14);
  });

  it('exp:K0,HALF,KMIN halves every HALF games and never drops below KMIN', () => {
    const schedule = parseTemperatureSchedule('exp:4,100,0.75');
    expect(schedule).toEqual({ kind: 'exp', start: 4, halfLife: 100, floor: 0.75 });
    expect(temperatureAt(schedule, 0)).toBe(4);
    expect(temperatureAt(schedule, 100)).toBe(2);
    expect(temperatureAt(schedule, 200)).toBe(1);
    expect(temperatureAt(schedule, 50)).toBeCloseTo(4 / Math.SQRT2, 14);
    expect(temperatureAt(schedule, 300)).toBe(0.75);
    expect(temperatureAt(schedule, 10_000)).toBe(0.75);
  });

  it('tolerates spaces and exponents, and round-trips through its text form', () => {
    expect(parseTemperatureSchedule('  linear: 2 -> .5 @ 1e3 ')).toEqual({ kind: 'linear', start: 2, end: 0.5, games: 1000 });
    for (const text of ['constant:0.8', 'linear:2->0.5@100', 'exp:4,100,0.75']) {
      expect(formatTemperatureSchedule(parseTemperatureSchedule(text))).toBe(text);
    }
  });

  it('rejects malformed schedules with a bad-input error', () => {
    const malformed = [
      '',
      '1.5',
      'constant:',
      'constant:-1',
      'constant:abc',
      'constant:Infinity',
      'cosntant:1',
      'linear:2->0.5',
      'linear:2-0.5@100',
      'linear:2->0.5@0',
      'exp:4,100',
      'exp:4,0,0.5',
      'exp:4,100,0.5,1',
    ];
    for (const text of malformed) {
      let error: unknown;
      try {
        parseTemperatureSchedule(text);
      } catch (caught) {
        error = caught;
      }
      expect(error, text).toBeInstanceOf(MorphError);
      expect((error as MorphError).exitCode, text).toBe(BAD_INPUT);
    }
  });
});
