/**
 * Learning the graph patterns' terms (eval/graphTerms.ts) from one game, by TD-Leaf(lambda) (Baxter, Tridgell and
 * Weaver's KnightCap): each position Morph moved to is valued as the play search values it, its material settled
 * by the capture search (the leaf of its principal line) plus its graph term, and that value moves toward the
 * values of the positions Morph reached after it and, at the end, the game's result. Every move of every game is
 * a lesson, and the term learns what the settled material missed: the threats, king danger and other patterns that
 * decided what happened next, beyond the capture search's horizon.
 *
 * The error is taken in the value's probability (the gradient of the log-loss in log-odds) and shared among the
 * matches the position reads (normalised least mean squares), so a position's log-odds move by at most
 * GRAPH_TERM_RATE times its error however many patterns it reads; each pattern's share shrinks as its own
 * updates grow (Morph's annealing: a well-tested term moves less).
 */
import { cloneBoard, type Board } from '../chess/board.ts';
import { gameEnd } from '../chess/gameEnd.ts';
import { logistic, logit } from '../eval/combine.ts';
import type { GraphTerms } from '../eval/graphTerms.ts';
import { QUIESCENCE, worstCaptureReply } from '../search/search.ts';
import type { PatternRecord } from '../store/patternRecord.ts';

/** How far a position's log-odds move toward its target per unit of error in probability (before annealing). */
export const GRAPH_TERM_RATE = 1;
/** TD-Leaf's lambda: how far a target looks past the next position (KnightCap used .7). */
export const GRAPH_TERM_LAMBDA = 0.7;
/** Updates after which a term's step is half its first (annealing k / (n + k)). */
export const GRAPH_TERM_ANNEALING = 50;
/** The bias is a running mean of the errors of about this many recent positions at most. */
const BIAS_MEMORY = 2000;

/**
 * The settled value, for the side that just moved into `board`, of its material: the position's own value, or less
 * when the other side's captures (followed in turn, each side free to stop) leave it less; 1 and .5 where the game
 * is over. `valueForMover` values a position for the side that just moved, by material (and square values).
 */
export function settledMaterialValue(board: Board, valueForMover: (after: Board) => number): number {
  const end = gameEnd(board, 1);
  if (end === 'checkmate') return 1;
  if (end !== null) return 0.5;
  const standPat = valueForMover(board);
  return worstCaptureReply(board, standPat, valueForMover, QUIESCENCE)?.value ?? standPat;
}

export interface TermLesson {
  /** A position Morph moved to. */
  board: Board;
  /** Its most-specific matches (retrieval). */
  matches: readonly PatternRecord[];
}

export interface TermLearningSettings {
  rate: number;
  lambda: number;
  annealing: number;
}

export const DEFAULT_TERM_LEARNING: TermLearningSettings = {
  rate: GRAPH_TERM_RATE,
  lambda: GRAPH_TERM_LAMBDA,
  annealing: GRAPH_TERM_ANNEALING,
};

/**
 * Moves the terms of one side's positions of a game (in order) toward their TD-Leaf(lambda) targets, `result` the
 * game's result for that side. Returns the mean absolute error before the updates (for progress and tests).
 */
export function learnGraphTerms(
  terms: GraphTerms,
  lessons: readonly TermLesson[],
  result: number,
  valueForMover: (after: Board) => number,
  settings: TermLearningSettings = DEFAULT_TERM_LEARNING,
): number {
  const n = lessons.length;
  if (n === 0) return 0;
  // Every value first, from the terms as they were before the game (TD-Leaf's targets are the old evaluation's).
  const base = new Float64Array(n);
  const values = new Float64Array(n);
  const over = new Uint8Array(n);
  for (let t = 0; t < n; t++) {
    const board = cloneBoard(lessons[t].board);
    const end = gameEnd(board, 1);
    over[t] = end === null ? 0 : 1;
    const settled = settledMaterialValue(board, valueForMover);
    base[t] = logit(settled);
    values[t] = over[t] ? settled : logistic(base[t] + terms.bias + terms.sum(lessons[t].matches));
  }
  let target = result;
  let errorSum = 0;
  for (let t = n - 1; t >= 0; t--) {
    if (t < n - 1) target = (1 - settings.lambda) * values[t + 1] + settings.lambda * target;
    if (over[t]) continue;
    const error = target - values[t];
    errorSum += Math.abs(error);
    // The bias takes the error every position shares (a running mean), the terms what is left of it.
    terms.biasUpdates++;
    terms.bias += (settings.rate * error) / Math.min(terms.biasUpdates, BIAS_MEMORY);
    const read = terms.read(lessons[t].matches);
    if (read.length === 0) continue;
    const share = (settings.rate * error) / read.length;
    // read() returns a scratch list: take the ids before add() can be called again with another position's.
    for (const record of [...read]) {
      const updates = terms.get(record.id)?.updates ?? 0;
      terms.add(record.id, (share * settings.annealing) / (updates + settings.annealing));
    }
  }
  return errorSum / n;
}
