/**
 * validatePattern, which guards every pattern loaded from a database: each square designated at most once (on
 * either half of the board) and at most one edge per ordered pair of nodes; checked against a plain recount.
 */
import { describe, expect, it } from 'vitest';
import { EDGE_DIRECT, EDGE_INDIRECT, pieceLabel } from '../src/graph/labels.ts';
import { DESIG_NONE, exactDesig, rankDesig } from '../src/pattern/designation.ts';
import { validatePattern, type GraphPattern } from '../src/pattern/pattern.ts';
import { Random } from '../src/util/random.ts';

const knight = pieceLabel('moved', 2);
const pawn = pieceLabel('toMove', 1);

function pattern(desigs: number[], edges: [number, number, number][]): GraphPattern {
  return { kind: 'graph', labels: desigs.map((_, v) => (v % 2 === 0 ? knight : pawn)), desigs, edges };
}

describe('validatePattern', () => {
  it('refuses a square designated twice, on either half of the board, and accepts distinct ones', () => {
    expect(() => validatePattern(pattern([exactDesig(5), exactDesig(37), exactDesig(63)], []))).not.toThrow();
    expect(() => validatePattern(pattern([exactDesig(5), DESIG_NONE, exactDesig(5)], []))).toThrow(/designate the same square/);
    expect(() => validatePattern(pattern([exactDesig(40), exactDesig(8), exactDesig(40)], []))).toThrow(/designate the same square/);
    // 8 and 40 share their low five bits: the two halves are kept apart.
    expect(() => validatePattern(pattern([exactDesig(8), exactDesig(40), rankDesig(3), rankDesig(3)], []))).not.toThrow();
  });

  it('refuses two edges between the same ordered pair, whatever their types, and accepts reversed ones', () => {
    expect(() => validatePattern(pattern([DESIG_NONE, DESIG_NONE], [[0, 1, EDGE_DIRECT], [1, 0, EDGE_DIRECT]]))).not.toThrow();
    expect(() => validatePattern(pattern([DESIG_NONE, DESIG_NONE, DESIG_NONE], [[0, 1, EDGE_DIRECT], [2, 1, EDGE_DIRECT], [0, 1, EDGE_INDIRECT]]))).toThrow(
      /same ordered pair/,
    );
  });

  it('agrees with a recount over random designations and edges', () => {
    const rng = new Random(13);
    for (let trial = 0; trial < 500; trial++) {
      const n = 2 + rng.int(5);
      const desigs = Array.from({ length: n }, () => (rng.int(3) === 0 ? DESIG_NONE : exactDesig(rng.int(64))));
      const edges: [number, number, number][] = [];
      for (let e = rng.int(6); e > 0; e--) {
        const from = rng.int(n);
        const to = (from + 1 + rng.int(n - 1)) % n;
        edges.push([from, to, EDGE_DIRECT]);
      }
      const squares = desigs.filter((d) => d !== DESIG_NONE);
      const pairs = edges.map(([from, to]) => `${from}>${to}`);
      const valid = new Set(squares).size === squares.length && new Set(pairs).size === pairs.length;
      const subject = pattern(desigs, edges);
      if (valid) expect(() => validatePattern(subject)).not.toThrow();
      else expect(() => validatePattern(subject)).toThrow(/same square|same ordered pair/);
    }
  });
});
