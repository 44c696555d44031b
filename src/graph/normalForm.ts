/**
 * The normal form's square transform: positions with White to move are mirrored vertically (a1 <-> a8) and the
 * colours swapped, so a pattern always speaks of the side that just moved and the side to move.
 */
export const mirrorSquare = (sq: number): number => sq ^ 56;
