/**
 * Precomputed board geometry: knight and king target lists and slider rays, per square. Computed once at load
 * so graph building and move generation walk plain arrays.
 */
import { fileOf, rankOf } from '../chess/board.ts';

function targets(offsets: readonly [number, number][]): number[][] {
  const out: number[][] = [];
  for (let sq = 0; sq < 64; sq++) {
    const list: number[] = [];
    for (const [df, dr] of offsets) {
      const f = fileOf(sq) + df;
      const r = rankOf(sq) + dr;
      if (f >= 0 && f < 8 && r >= 0 && r < 8) list.push(r * 8 + f);
    }
    out.push(list);
  }
  return out;
}

export const KNIGHT_TARGETS = targets([
  [1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2],
]);
export const KING_TARGETS = targets([
  [1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1],
]);

export const ORTHOGONAL: readonly [number, number][] = [[1, 0], [-1, 0], [0, 1], [0, -1]];
export const DIAGONAL: readonly [number, number][] = [[1, 1], [1, -1], [-1, 1], [-1, -1]];

/** RAYS[sq][d]: the squares from sq outward in direction d (0-3 orthogonal, 4-7 diagonal), nearest first. */
export const RAYS: number[][][] = [];
for (let sq = 0; sq < 64; sq++) {
  const rays: number[][] = [];
  for (const [df, dr] of [...ORTHOGONAL, ...DIAGONAL]) {
    const ray: number[] = [];
    let f = fileOf(sq) + df;
    let r = rankOf(sq) + dr;
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      ray.push(r * 8 + f);
      f += df;
      r += dr;
    }
    rays.push(ray);
  }
  RAYS.push(rays);
}

/** Mirror a square vertically (a1 <-> a8), the normal-form transform for positions with White to move. */
export const mirrorSquare = (sq: number): number => sq ^ 56;
