/**
 * A database that knows only material: a weight for every difference of pieces in a range (a logistic of 1/3/3/5/9
 * points), so that a piece won or lost shows in every material search.
 */
import { materialPattern } from '../../src/pattern/pattern.ts';
import { PatternStore } from '../../src/store/patternStore.ts';

export function materialOnlyStore(): PatternStore {
  const store = PatternStore.open(':memory:');
  store.transaction(() => {
    for (let p = -3; p <= 3; p++) for (let n = -2; n <= 2; n++) for (let b = -2; b <= 2; b++) {
      for (let r = -2; r <= 2; r++) for (let q = -1; q <= 1; q++) {
        const weight = 1 / (1 + Math.exp(-0.4 * (p + 3 * n + 3 * b + 5 * r + 9 * q)));
        store.insert(materialPattern([p, n, b, r, q]), 'manual', 0, { weight, updates: 100 });
      }
    }
  });
  return store;
}
