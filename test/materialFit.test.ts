import { Chess } from 'chess.js';
import { describe, expect, it } from 'vitest';
import { blendedWeight, fitPieceValues, fittedWeight, solveLinearSystem, solvePositiveDefinite } from '../src/eval/materialFit.ts';
import { databasePieceValues, materialEvaluation } from '../src/eval/evaluate.ts';
import { MorphPlayer } from '../src/player/morphPlayer.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { materialPattern } from '../src/pattern/pattern.ts';
import { GameHistory } from '../src/chess/history.ts';
import { boardFromFen } from '../src/chess/board.ts';
import { Random } from '../src/util/random.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPawnUpDatabase, morph, PAWN_UP_STALEMATE_FEN } from './helpers/sampleDatabase.ts';

const logistic = (x: number) => 1 / (1 + Math.exp(-x));

/** Every difference with each piece count in [-2, 2] except the empty one, in a fixed order. */
function allDifferences(): number[][] {
  const diffs: number[][] = [];
  for (let p = -2; p <= 2; p++)
    for (let n = -2; n <= 2; n++)
      for (let b = -1; b <= 1; b++)
        for (let r = -1; r <= 1; r++)
          for (let q = -1; q <= 1; q++) if (p || n || b || r || q) diffs.push([p, n, b, r, q]);
  return diffs;
}

describe('piece values fitted to the material patterns', () => {
  it('recovers the piece values of weights that are exactly additive in log-odds', () => {
    const values = [0.2, 0.6, 0.7, 1.0, 1.9];
    const evidence = allDifferences().map((diff) => ({
      diff,
      weight: logistic(diff.reduce((sum, d, i) => sum + d * values[i], 0)),
      updates: 1000,
    }));
    const fitted = fitPieceValues(evidence);
    // Only the ridge (one pseudo-update a value, against 1000 a pattern) keeps the fit from exact.
    for (let i = 0; i < 5; i++) expect(fitted[i]).toBeCloseTo(values[i], 3);
    expect(fittedWeight(fitted, [0, 1, 0, 0, 0])).toBeCloseTo(logistic(0.6), 3);
  });

  it('maximises the binomial likelihood: its gradient, ridge included, is zero at the fit, from any start', () => {
    const rng = new Random(7);
    const evidence = allDifferences().map((diff) => ({
      diff,
      weight: rng.next() < 0.2 ? Math.round(rng.next()) : rng.next(), // some one-game weights, 0 or 1
      updates: 1 + Math.floor(rng.next() * 50),
    }));
    const gradientAt = (values: ArrayLike<number>) => {
      // d/dc of Σ n·(w·log σ(c·d) + (1 - w)·log(1 - σ(c·d))) - |c|²/2.
      const gradient = Array.from(values, (v) => -v);
      for (const { diff, weight, updates } of evidence) {
        const p = logistic(diff.reduce((sum, d, i) => sum + d * values[i], 0));
        for (let i = 0; i < 5; i++) gradient[i] += updates * (weight - p) * diff[i];
      }
      return gradient;
    };
    const fitted = fitPieceValues(evidence);
    for (const g of gradientAt(fitted)) expect(g).toBeCloseTo(0, 6);
    const fromElsewhere = fitPieceValues(evidence, Float64Array.from([3, -2, 1, 0, -4]));
    for (let i = 0; i < 5; i++) expect(fromElsewhere[i]).toBeCloseTo(fitted[i], 6);
  });

  it('reads a weight as the share won of its updates: one pattern of ten games fits as ten one-game patterns', () => {
    const pooled = [
      { diff: [0, 1, 0, 0, 0], weight: 0.7, updates: 10 },
      { diff: [1, 0, 0, 0, 0], weight: 0.6, updates: 5 },
    ];
    const oneGameEach = [
      ...Array.from({ length: 10 }, (_, game) => ({ diff: [0, 1, 0, 0, 0], weight: game < 7 ? 1 : 0, updates: 1 })),
      ...Array.from({ length: 5 }, (_, game) => ({ diff: [1, 0, 0, 0, 0], weight: game < 3 ? 1 : 0, updates: 1 })),
    ];
    const a = fitPieceValues(pooled);
    const b = fitPieceValues(oneGameEach);
    for (let i = 0; i < 5; i++) expect(b[i]).toBeCloseTo(a[i], 9);
    expect(a[1]).toBeGreaterThan(a[0]); // and the knight, won more often, is worth more
  });

  it('gives a database without material evidence values of 0, so every difference counts as a draw', () => {
    const fitted = fitPieceValues([{ diff: [1, 0, 0, 0, 0], weight: 0.9, updates: 0 }]);
    expect(Array.from(fitted)).toEqual([0, 0, 0, 0, 0]);
    expect(fittedWeight(fitted, [0, 0, 0, 1, 0])).toBe(0.5);
  });

  it('blends a weight with the fitted one by their counts', () => {
    expect(blendedWeight(1, 1, 0.7, 20)).toBeCloseTo((1 + 20 * 0.7) / 21, 14);
    expect(blendedWeight(0.3, 0, 0.7, 20)).toBe(0.7);
    expect(blendedWeight(0.3, 5, 0.7, 0)).toBe(0.3);
  });
});

describe('the material searches with a material prior', () => {
  /** A database whose only evidence is a knight up or down, often, and a rook up once, lost. */
  function knightStore(): PatternStore {
    const store = PatternStore.open(':memory:');
    store.insert(materialPattern([0, 1, 0, 0, 0]), 'manual', 0, { weight: 0.8, updates: 200 });
    store.insert(materialPattern([0, -1, 0, 0, 0]), 'manual', 0, { weight: 0.2, updates: 200 });
    store.insert(materialPattern([0, 0, 0, 1, 0]), 'manual', 0, { weight: 0, updates: 1 });
    return store;
  }

  it('values a difference by its weight blended with the fit, and one the database lacks by the fit alone', () => {
    const store = knightStore();
    const values = databasePieceValues(store);
    expect(values[1]).toBeGreaterThan(1.3); // logit(.8) = 1.39, pulled a little toward 0 by the ridge
    const settings = { function: 'paper' as const, prior: 0, materialPrior: 20 };
    // Black to move with two knights fewer: White, who just moved, is two knights up, a difference never seen.
    const twoKnights = boardFromFen('4k3/8/8/8/8/8/8/1N2K1N1 b - - 0 1');
    const unseen = materialEvaluation(store, twoKnights, 0, settings, values);
    expect(unseen.matched).toEqual([]);
    expect(unseen.value).toBeCloseTo(logistic(2 * values[1]), 14);
    expect(materialEvaluation(store, twoKnights, 0, { ...settings, materialPrior: 0 }, values).value).toBe(0.5);
    // A rook up once, lost: the blend pulls that one result most of the way to what the rook's fit says.
    const rook = boardFromFen('4k3/8/8/8/8/8/8/R3K3 b - - 0 1');
    const blended = materialEvaluation(store, rook, 0, settings, values);
    expect(blended.matched.map((record) => record.updates)).toEqual([1]);
    expect(blended.value).toBeCloseTo((1 * 0 + 20 * fittedWeight(values, [0, 0, 0, 1, 0])) / 21, 14);
    // The fit has no intercept: a difference and its opposite are valued as a win and a loss of each other.
    const twoKnightsDown = boardFromFen('1n2k1n1/8/8/8/8/8/8/4K3 b - - 0 1');
    expect(materialEvaluation(store, twoKnightsDown, 0, settings, values).value).toBeCloseTo(1 - unseen.value, 14);
    store.close();
  });

  it('refits the piece values when a material pattern learns, comes or goes, and otherwise returns the last fit', () => {
    const store = knightStore();
    const evidenceNow = () =>
      [...store.hierarchy.material.values()].map((record) => ({ diff: (record.pattern as { diff: number[] }).diff, weight: record.weight, updates: record.updates }));
    const first = databasePieceValues(store);
    const knightBefore = first[1];
    expect([...first]).toEqual([...fitPieceValues(evidenceNow())]);
    // A copy each time: a caller that changes what it got changes nothing for the next.
    first[1] = 99;
    expect(databasePieceValues(store)[1]).toBeCloseTo(fitPieceValues(evidenceNow())[1], 12);
    // Learning moves a weight in place, as the learner does: the next answer is the new evidence's fit.
    store.byKey(materialPattern([0, 1, 0, 0, 0]))!.weight = 0.95;
    const afterLearning = databasePieceValues(store);
    expect(afterLearning[1]).toBeCloseTo(fitPieceValues(evidenceNow())[1], 9);
    expect(afterLearning[1]).toBeGreaterThan(knightBefore + 0.3);
    store.byKey(materialPattern([0, -1, 0, 0, 0]))!.updates++;
    expect([...databasePieceValues(store)]).not.toEqual([...afterLearning]);
    // A pattern inserted or deleted changes the evidence too.
    const queen = store.insert(materialPattern([0, 0, 0, 0, 1]), 'manual', 0, { weight: 0.9, updates: 50 }).record;
    const withQueen = databasePieceValues(store);
    expect(withQueen[4]).toBeCloseTo(fitPieceValues(evidenceNow())[4], 9);
    expect(withQueen[4]).toBeGreaterThan(1);
    store.delete(queen);
    expect(databasePieceValues(store)[4]).toBeCloseTo(0, 9);
    store.close();
  });

  it('lets the player take a second knight that a database without the difference values as a draw', () => {
    const store = knightStore();
    // White is a knight up and can take Black's last knight, reaching two knights up, a difference never seen.
    const fen = '4k3/8/8/3n4/8/4N3/8/1N2K3 w - - 0 1';
    const rank = (materialPrior: number) =>
      new MorphPlayer(store, { maturity: 0, seed: 1, search: 'material-quiescence', evaluation: { function: 'paper', prior: 0, materialPrior } })
        .rankMoves(new GameHistory(fen));
    expect(rank(0)[0].move).not.toBe('e3d5'); // .5 for the capture, against .8 for keeping the knight up
    expect(rank(20)[0].move).toBe('e3d5');
    store.close();
  });

  it('is the database\'s setting, which morph match --material-prior overrides, and refuses a bad value in one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'morph-material-prior-'));
    try {
      const db = join(dir, 'knights.db');
      const file = PatternStore.open(db);
      file.insert(materialPattern([0, 1, 0, 0, 0]), 'manual', 0, { weight: 0.8, updates: 200 });
      file.insert(materialPattern([0, -1, 0, 0, 0]), 'manual', 0, { weight: 0.2, updates: 200 });
      file.close();
      const openings = join(dir, 'knights.epd');
      writeFileSync(openings, '4k3/8/8/3n4/8/4N3/8/1N2K3 w - - id "a knight up, the second to take";\n');
      const firstMove = (...extra: string[]) => {
        const result = morph(['match', '--white', `morph:${db}`, '--black', 'random', '--games', '1', '--seed', '1', '--max-plies', '2',
          '--search', 'material-quiescence', '--openings', openings, '--json', '--no-progress', ...extra]);
        expect(result.stderr).toBe('');
        const pgn = (JSON.parse(result.stdout) as { pgn: string[] }).pgn[0];
        return /\n1\. (\S+)/.exec(pgn)![1];
      };
      expect(firstMove()).toBe('Nxd5'); // the default, 20
      expect(firstMove('--material-prior', '0')).not.toBe('Nxd5');
      const bad = morph(['match', '--white', `morph:${db}`, '--black', 'random', '--material-prior', '-1']);
      expect(bad.status).toBe(2);
      expect(bad.stderr).toBe('morph: --material-prior needs a number from 0 to 1000000, got "-1"\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('morph match --contempt sets what a draw is worth to Morph: a pawn up, it stalemates only when a draw is worth more', () => {
    const dir = mkdtempSync(join(tmpdir(), 'morph-contempt-'));
    try {
      const db = join(dir, 'pawns.db');
      buildPawnUpDatabase(db);
      const openings = join(dir, 'stalemate.epd');
      // Kf7 and Kf8 stalemate Black (checked with chess.js below); every other move keeps the pawn.
      writeFileSync(openings, `${PAWN_UP_STALEMATE_FEN.split(' ').slice(0, 4).join(' ')} id "a pawn up, a stalemate to hand";\n`);
      const stalemates = ['Kf7', 'Kf8'].filter((san) => {
        const chess = new Chess(PAWN_UP_STALEMATE_FEN);
        chess.move(san);
        return chess.isStalemate();
      });
      expect(stalemates).toEqual(['Kf7', 'Kf8']);
      const firstMove = (...extra: string[]) => {
        const result = morph(['match', '--white', `morph:${db}`, '--black', 'random', '--games', '1', '--seed', '1', '--max-plies', '2',
          '--search', 'material-forks', '--openings', openings, '--json', '--no-progress', ...extra]);
        expect(result.stderr).toBe('');
        const pgn = (JSON.parse(result.stdout) as { pgn: string[] }).pgn[0];
        return /\n1\. (\S+)/.exec(pgn)![1];
      };
      expect(stalemates).not.toContain(firstMove()); // the default: a draw is worth less than .5
      expect(stalemates).not.toContain(firstMove('--contempt', '0'));
      expect(stalemates).toContain(firstMove('--contempt', '-2')); // a draw worth .88, more than a pawn up
      const bad = morph(['match', '--white', `morph:${db}`, '--black', 'random', '--contempt', 'x']);
      expect(bad.status).toBe(2);
      expect(bad.stderr).toBe('morph: --contempt needs a number from -5 to 5, got "x"\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('linear systems', () => {
  /** A x, for A row-major n x n. */
  const times = (a: Float64Array, x: Float64Array) =>
    Float64Array.from(x, (_, i) => x.reduce((sum, v, k) => sum + a[i * x.length + k] * v, 0));

  it("Cholesky's solution satisfies A x = b for a positive definite A, and agrees with elimination", () => {
    const random = new Random(5);
    const n = 60;
    // B B' + a small ridge: positive definite, with many near-equal eigenvalues (as a logit's Hessian).
    const b = Float64Array.from({ length: n * 8 }, () => random.next() - 0.5);
    const a = new Float64Array(n * n);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        for (let k = 0; k < 8; k++) a[i * n + j] += b[i * 8 + k] * b[j * 8 + k];
        if (i === j) a[i * n + j] += 0.001;
      }
    const rhs = Float64Array.from({ length: n }, () => random.next());
    const x = solvePositiveDefinite(a, rhs);
    times(a, x).forEach((v, i) => expect(v).toBeCloseTo(rhs[i], 6));
    const rows = Array.from({ length: n }, (_, r) => Float64Array.from([...a.subarray(r * n, r * n + n), rhs[r]]));
    solveLinearSystem(rows).forEach((v, i) => expect(x[i]).toBeCloseTo(v, 6));
  });

  it('solves rows with nothing off the diagonal on their own, to the same x as the whole factorisation', () => {
    // The textbook Cholesky solve over every row (what solvePositiveDefinite did before it set such rows apart).
    const dense = (a: Float64Array, rhs: Float64Array): Float64Array => {
      const n = rhs.length;
      const lower = new Float64Array(n * n);
      for (let i = 0; i < n; i++)
        for (let j = 0; j <= i; j++) {
          let sum = a[i * n + j];
          for (let k = 0; k < j; k++) sum -= lower[i * n + k] * lower[j * n + k];
          lower[i * n + j] = i === j ? Math.sqrt(sum) : sum / lower[j * n + j];
        }
      const x = Float64Array.from(rhs);
      for (let i = 0; i < n; i++) {
        for (let k = 0; k < i; k++) x[i] -= lower[i * n + k] * x[k];
        x[i] /= lower[i * n + i];
      }
      for (let i = n - 1; i >= 0; i--) {
        for (let k = i + 1; k < n; k++) x[i] -= lower[k * n + i] * x[k];
        x[i] /= lower[i * n + i];
      }
      return x;
    };
    const random = new Random(7);
    const n = 50;
    // A logit's Hessian under a ridge: features no row touched (every third, and the last ten) keep the ridge alone.
    const untouched = (i: number) => i % 3 === 1 || i >= n - 10;
    const b = Float64Array.from({ length: n * 8 }, (_, k) => (untouched(Math.floor(k / 8)) ? 0 : random.next() - 0.5));
    const a = new Float64Array(n * n);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        for (let k = 0; k < 8; k++) a[i * n + j] += b[i * 8 + k] * b[j * 8 + k];
        if (i === j) a[i * n + j] += 0.5 + random.next();
      }
    const rhs = Float64Array.from({ length: n }, () => random.next() - 0.5);
    const x = solvePositiveDefinite(a, rhs);
    expect([...x]).toEqual([...dense(a, rhs)]);
    times(a, x).forEach((v, i) => expect(v).toBeCloseTo(rhs[i], 9));
    // Every row alone (a diagonal matrix), and none (a dense one): the same as the whole factorisation too.
    const diagonal = Float64Array.from(a, (v, k) => (k % (n + 1) === 0 ? v : 0));
    expect([...solvePositiveDefinite(diagonal, rhs)]).toEqual([...dense(diagonal, rhs)]);
    // A row alone whose pivot is not positive: elimination, as for any other.
    const negative = Float64Array.from([1, 0, 0, 0, -2, 0, 0, 0, 4]);
    expect([...solvePositiveDefinite(negative, Float64Array.from([1, 2, 3]))]).toEqual([1, -1, 0.75]);
  });

  it('a matrix that is not positive definite is still solved, by elimination', () => {
    const a = Float64Array.from([0, 2, 3, 1]); // [[0, 2], [3, 1]]: a zero first pivot
    const x = solvePositiveDefinite(a, Float64Array.from([4, 5]));
    expect([...x]).toEqual([1, 2]);
  });
});
