/**
 * Move quality as lichess judges it: a centipawn score becomes the mover's win chance (0-100 points) through
 * lichess's logistic curve, and a move's loss is the drop from the best move's win chance. Lichess clamps
 * scores to ±1000 cp and counts a mate as that ceiling; a loss of at least 10 / 20 / 30 points is an
 * inaccuracy / mistake / blunder.
 */

/** Lichess's fitted slope of the win chance against centipawns. */
const WIN_CHANCE_SLOPE = 0.00368208;
/** Scores are clamped to this many centipawns, and a mate counts as the ceiling. */
export const CENTIPAWN_CEILING = 1000;

export const INACCURACY = 10;
export const MISTAKE = 20;
export const BLUNDER = 30;

/** The mover's win chance in points (0-100) for a score in centipawns from the mover's side. */
export function winChance(centipawns: number): number {
  const cp = Math.max(-CENTIPAWN_CEILING, Math.min(CENTIPAWN_CEILING, centipawns));
  return 50 + 50 * (2 / (1 + Math.exp(-WIN_CHANCE_SLOPE * cp)) - 1);
}

/** A UCI `score mate N` (N > 0: the mover mates; N <= 0: the mover is mated) as centipawns. */
export function mateToCentipawns(movesToMate: number): number {
  return movesToMate > 0 ? CENTIPAWN_CEILING : -CENTIPAWN_CEILING;
}

/** Win-chance points lost by playing a move scored `chosen` instead of the best, scored `best` (>= 0). */
export function winChanceLoss(best: number, chosen: number): number {
  return Math.max(0, winChance(best) - winChance(chosen));
}
