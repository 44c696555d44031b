/**
 * The square values' evidence kept in a policy (src/model/squareEvidence.ts): read back exactly as written, and
 * damaged or partial evidence read as none, so that the next build fits afresh instead of from garbage.
 */
import { describe, expect, it } from 'vitest';
import { readSquareEvidence, writeSquareEvidence } from '../src/model/squareEvidence.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { setMeta, setMetaBytes } from '../src/store/meta.ts';
import { Random } from '../src/util/random.ts';
import type { SquareEvidence } from '../src/model/choiceEvaluation.ts';

function someEvidence(dims: number, alternatives = 8): SquareEvidence {
  const random = new Random(3);
  const values = (n: number) => Float64Array.from({ length: n }, () => random.next() * 4 - 2);
  return {
    tapered: true,
    alternatives,
    decisions: 1234,
    offered: 5678,
    fits: 3,
    valueTotal: 7.25,
    evaluation: { values: [0.5, 1, 1.1, 1.6, 3], squareValues: [...values(dims - 8)] },
    weights: values(dims),
    precision: values(dims * dims),
    seen: values(dims),
  };
}

describe('square evidence in a policy file', () => {
  it('reads back bit for bit what was written, every legal move (no alternatives bound) included', () => {
    const store = PatternStore.open(':memory:');
    try {
      expect(readSquareEvidence(store.db)).toBeNull();
      const evidence = someEvidence(20);
      writeSquareEvidence(store.db, evidence);
      expect(readSquareEvidence(store.db)).toEqual(evidence);
      const everyMove = someEvidence(12, Infinity);
      writeSquareEvidence(store.db, everyMove);
      expect(readSquareEvidence(store.db)).toEqual(everyMove);
    } finally {
      store.close();
    }
  });

  it('reads damaged evidence as none: arrays of the wrong size, text where bytes belong, or a broken header', () => {
    const store = PatternStore.open(':memory:');
    try {
      writeSquareEvidence(store.db, someEvidence(20));
      setMetaBytes(store.db, 'model_square_evidence_arrays', new Uint8Array(8 * 100));
      expect(readSquareEvidence(store.db)).toBeNull();
      setMeta(store.db, 'model_square_evidence_arrays', 'not bytes');
      expect(readSquareEvidence(store.db)).toBeNull();
      writeSquareEvidence(store.db, someEvidence(20));
      setMeta(store.db, 'model_square_evidence', '{"dims": 20');
      expect(readSquareEvidence(store.db)).toBeNull();
    } finally {
      store.close();
    }
  });
});
