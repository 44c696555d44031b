/**
 * The match statistics against published values: the examples in fastchess's own test suite (its tests
 * tests/elo_test.cpp and tests/sprt_test.cpp, computed by fastchess's implementation, quoted to two decimals), and
 * exact small cases worked by hand. fastchess writes pentanomial counts as (LL, LD, WL, DD, WD, WW) and
 * trinomial ones as (W, L, D).
 */
import { describe, expect, it } from 'vitest';
import { likelihoodOfSuperiority, normalCdf } from '../src/match/elo.ts';
import { moments, outcomeStatistics, pentanomial, trinomial, type Pentanomial } from '../src/match/outcomes.ts';
import { sprtBounds, sprtLlr, sprtState } from '../src/match/sprt.ts';

/** fastchess's six pentanomial counts folded into five (WL and DD both score 1 point in 2 games). */
const penta = (ll: number, ld: number, wl: number, dd: number, wd: number, ww: number): Pentanomial => [
  ll, ld, wl + dd, wd, ww,
];
/** fastchess reports an interval as ± half its width. */
const halfWidth = (s: { low: number; high: number }) => (s.high - s.low) / 2;

describe('the normal distribution and LOS', () => {
  it('matches tabulated normal probabilities', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1)).toBeCloseTo(0.841345, 6);
    expect(normalCdf(-1.959963984540054)).toBeCloseTo(0.025, 6);
    expect(normalCdf(3)).toBeCloseTo(0.998650, 6);
  });

  it('is Φ((W − L)/√(W + L)): exact small cases', () => {
    expect(likelihoodOfSuperiority(5, 5)).toBeCloseTo(0.5, 8);
    expect(likelihoodOfSuperiority(0, 0)).toBe(0.5);
    // One win, no loss: Φ(1).
    expect(likelihoodOfSuperiority(1, 0)).toBeCloseTo(0.841345, 6);
    // 8 wins, 2 losses: Φ(6/√10) = Φ(1.8974) = 0.97111.
    expect(likelihoodOfSuperiority(8, 2)).toBeCloseTo(0.97111, 4);
  });
});

describe('Elo from game results (fastchess EloWDL examples)', () => {
  it('W 76, L 89, D 123: normalized Elo -20.76 ± 40.13', () => {
    const stats = outcomeStatistics(trinomial(76, 123, 89))!;
    expect(stats.normalizedElo).toBeCloseTo(-20.76, 1);
    expect((stats.normalizedHigh - stats.normalizedLow) / 2).toBeCloseTo(40.13, 1);
  });

  it('W 34, L 0, D 356: normalized Elo 508.44 ± 34.48 (fastchess lists it with the colours the other way)', () => {
    // fastchess's example is (34, 356, 0): 34 wins, 356 losses: -508.44.
    const stats = outcomeStatistics(trinomial(34, 0, 356))!;
    expect(stats.normalizedElo).toBeCloseTo(-508.44, 1);
    expect((stats.normalizedHigh - stats.normalizedLow) / 2).toBeCloseTo(34.48, 1);
  });

  it('an exact small case: 6 wins, 2 draws, 4 losses', () => {
    // μ = 7/12, σ² = (6·(5/12)² + 2·(1/12)² + 4·(7/12)²)/12 = 348/1728; Elo = 400·log10(7/5).
    const stats = outcomeStatistics(trinomial(6, 2, 4))!;
    expect(stats.score).toBeCloseTo(7 / 12, 12);
    expect(stats.variance).toBeCloseTo(348 / 1728, 12);
    expect(stats.elo).toBeCloseTo(400 * Math.log10(7 / 5), 9);
    const upper = 7 / 12 + 1.959963984540054 * Math.sqrt(348 / 1728 / 12);
    expect(stats.high).toBeCloseTo(-400 * Math.log10(1 / upper - 1), 9);
  });
});

describe('Elo from game pairs (fastchess EloPentanomial examples)', () => {
  const cases: Array<[Pentanomial, number, number, number, number]> = [
    // counts, Elo, ± , normalized Elo, ±
    [penta(34, 54, 31, 32, 64, 75), 55.58, 27.65, 57.94, 28.28],
    [penta(332, 433, 457, 41, 333, 334), -8.64, 10.33, -9.17, 10.96],
    [penta(7895, 8757, 5485, 200, 568, 9999), -21.04, 2.95, -19.01, 2.65],
  ];
  it.each(cases)('%j: Elo %d ± %d, normalized %d ± %d', (counts, elo, error, nElo, nError) => {
    const stats = outcomeStatistics(pentanomial(counts))!;
    expect(stats.elo).toBeCloseTo(elo, 1);
    expect(halfWidth(stats)).toBeCloseTo(error, 1);
    expect(stats.normalizedElo).toBeCloseTo(nElo, 1);
    expect((stats.normalizedHigh - stats.normalizedLow) / 2).toBeCloseTo(nError, 1);
  });

  it('fastchess example 2 has LOS 5.05%', () => {
    expect(outcomeStatistics(pentanomial(penta(332, 433, 457, 41, 333, 334)))!.los).toBeCloseTo(0.0505, 3);
  });

  it('an exact small case: pairs scoring 2, 1, 1, 0 points', () => {
    // Pair scores over 2: 1, .5, .5, 0: mean .5, variance (.25 + 0 + 0 + .25)/4 = .125.
    const m = moments(pentanomial([1, 0, 2, 0, 1]));
    expect(m).toEqual({ samples: 4, mean: 0.5, variance: 0.125 });
    const stats = outcomeStatistics(pentanomial([1, 0, 2, 0, 1]))!;
    expect(stats.elo).toBe(0);
    expect(stats.los).toBeCloseTo(0.5, 8);
    // Correlated pairs: a win and a loss in every pair has zero pair variance, unlike the same games unpaired.
    expect(moments(pentanomial([0, 0, 4, 0, 0])).variance).toBe(0);
    expect(moments(trinomial(4, 0, 4)).variance).toBe(0.25);
  });
});

describe('SPRT (fastchess sprt examples, α = β = .05)', () => {
  it('has the bounds ±2.94', () => {
    const { lower, upper } = sprtBounds(0.05, 0.05);
    expect(lower).toBeCloseTo(-2.944, 3);
    expect(upper).toBeCloseTo(2.944, 3);
  });

  it.each([
    // W, L, D, elo0, elo1, model, LLR
    [36433, 36027, 68692, 0, 2, 'normalized', 0.92],
    [10871, 10650, 20431, -1.75, 0.25, 'normalized', 2.3],
    [21404, 21184, 40708, 0.5, 2.5, 'logistic', -1.57],
    [57433, 57030, 106593, 0, 2, 'logistic', -2.59],
    // A sweep: outcomes never seen count as 1/1000 of a game (fastchess's regularization).
    [4250, 0, 0, 0, 10, 'normalized', 120.56],
  ] as const)('trinomial W %d L %d D %d, [%d, %d] %s: LLR %d', (w, l, d, elo0, elo1, model, llr) => {
    expect(sprtLlr(trinomial(w, d, l), elo0, elo1, model)).toBeCloseTo(llr, 1);
  });

  it.each([
    [penta(365, 16618, 36029, 200, 16974, 390), 0, 2, 'normalized', 2.25],
    [penta(127, 4883, 10311, 401, 5150, 104), -1.75, 0.25, 'normalized', 3.01],
    [penta(223, 9863, 20279, 1000, 10037, 246), 0.5, 2.5, 'logistic', -3.07],
    [penta(871, 26175, 55003, 980, 26678, 821), 0, 2, 'logistic', -4.98],
    [penta(0, 0, 0, 0, 0, 5550), 0, 5, 'normalized', 111.82],
  ] as const)('pentanomial %j, [%d, %d] %s: LLR %d', (counts, elo0, elo1, model, llr) => {
    expect(sprtLlr(pentanomial(counts), elo0, elo1, model)).toBeCloseTo(llr, 1);
  });

  it('decides H1 above the upper bound, H0 below the lower, and waits in between', () => {
    const settings = { elo0: 0, elo1: 2, alpha: 0.05, beta: 0.05, model: 'normalized' as const };
    expect(sprtState(pentanomial(penta(127, 4883, 10311, 401, 5150, 104)), { ...settings, elo0: -1.75, elo1: 0.25 }).decision).toBe('H1');
    expect(sprtState(pentanomial(penta(871, 26175, 55003, 980, 26678, 821)), { ...settings, model: 'logistic' }).decision).toBe('H0');
    expect(sprtState(pentanomial(penta(365, 16618, 36029, 200, 16974, 390)), settings).decision).toBe('continue');
    // Nothing played: no evidence either way.
    expect(sprtState(pentanomial([0, 0, 0, 0, 0]), settings)).toMatchObject({ llr: 0, decision: 'continue' });
    // A sweep decides: ten pairs won twice are enough against elo0 = 0 for elo1 = 200.
    expect(sprtState(pentanomial([0, 0, 0, 0, 10]), { ...settings, elo1: 200, model: 'logistic' }).decision).toBe('H1');
  });
});
