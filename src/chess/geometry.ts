/**
 * Board geometry, computed once at load: slider rays, knight and king targets, and which squares share a line.
 * The one table of attack geometry, used by move generation (movegen.ts) and the position graph
 * (graph/positionGraph.ts), so the two can never disagree on what a piece reaches.
 */

/** Directions 0-3 are orthogonal (rook-like), 4-7 diagonal (bishop-like), as (file, rank) steps. */
const DIRECTION_STEPS: ReadonlyArray<readonly [number, number]> = [
  [0, 1], [0, -1], [1, 0], [-1, 0],
  [1, 1], [1, -1], [-1, 1], [-1, -1],
];
const KNIGHT_STEPS: ReadonlyArray<readonly [number, number]> = [
  [1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2],
];

/** First orthogonal and diagonal direction, and the end: rooks use [ORTHOGONAL_FIRST, DIAGONAL_FIRST), bishops the rest. */
export const ORTHOGONAL_FIRST = 0;
export const DIAGONAL_FIRST = 4;
export const DIRECTION_END = 8;

/** RAY_SQUARES[(sq * 8 + dir) * 7 + k] is the k-th square from sq in direction dir; RAY_LENGTH gives the count. */
export const RAY_SQUARES = new Int8Array(64 * 8 * 7);
export const RAY_LENGTH = new Uint8Array(64 * 8);
/** Knight and king targets: KNIGHT_TARGETS[sq * 8 + i] for i below KNIGHT_COUNT[sq]; the same for kings. */
export const KNIGHT_TARGETS = new Int8Array(64 * 8);
export const KNIGHT_COUNT = new Uint8Array(64);
export const KING_TARGETS = new Int8Array(64 * 8);
export const KING_COUNT = new Uint8Array(64);
/** ALIGNED[a * 64 + b] is 1 when a and b share a rank, file or diagonal (a piece on b may shield a king on a). */
export const ALIGNED = new Uint8Array(64 * 64);

for (let sq = 0; sq < 64; sq++) {
  const file = sq & 7;
  const rank = sq >> 3;
  for (let dir = 0; dir < 8; dir++) {
    const [df, dr] = DIRECTION_STEPS[dir];
    let f = file + df;
    let r = rank + dr;
    let length = 0;
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      const target = r * 8 + f;
      RAY_SQUARES[(sq * 8 + dir) * 7 + length++] = target;
      ALIGNED[sq * 64 + target] = 1;
      f += df;
      r += dr;
    }
    RAY_LENGTH[sq * 8 + dir] = length;
    const kf = file + df;
    const kr = rank + dr;
    if (kf >= 0 && kf < 8 && kr >= 0 && kr < 8) KING_TARGETS[sq * 8 + KING_COUNT[sq]++] = kr * 8 + kf;
    const [nf, nr] = [file + KNIGHT_STEPS[dir][0], rank + KNIGHT_STEPS[dir][1]];
    if (nf >= 0 && nf < 8 && nr >= 0 && nr < 8) KNIGHT_TARGETS[sq * 8 + KNIGHT_COUNT[sq]++] = nr * 8 + nf;
  }
}
