/**
 * Judging a position by the patterns it matches (reference sections 4-5): retrieve the most-specific matches,
 * keep the mature ones (at least M updates), and combine them with the evaluation function (eval/evaluation.ts;
 * the paper's play function by default). The value is for the side that just moved: 0 loss, .5 draw, 1 win.
 */
import { PAPER_EVALUATION, positionValue, type EvaluationSettings } from '../eval/evaluation.ts';
import { materialDifference, type PositionGraph } from '../graph/positionGraph.ts';
import type { PatternRecord } from '../store/patternRecord.ts';
import type { PatternStore } from '../store/patternStore.ts';
import { materialKey } from '../pattern/canonical.ts';
import type { Board } from '../chess/board.ts';

/** Scratch for materialEvaluation (synchronous, never nested). */
const difference = new Int8Array(5);

export interface PositionEvaluation {
  value: number;
  /** The mature most-specific matches that were combined. */
  used: PatternRecord[];
  /** All most-specific matches, mature or not. */
  matched: PatternRecord[];
  tested: number;
}

export function evaluateGraph(
  store: PatternStore,
  graph: PositionGraph,
  maturity: number,
  settings: EvaluationSettings = PAPER_EVALUATION,
): PositionEvaluation {
  const { matches, tested } = store.retrieve(graph);
  // Every pattern is mature at maturity 0 (the default): no copy to make.
  const used = maturity <= 0 ? matches : matches.filter((record) => record.updates >= maturity);
  return { value: positionValue(used, settings), used, matched: matches, tested };
}

/**
 * A position judged by its material pattern alone (search material-quiescence): the learned weight of its
 * material difference, .5 when the database has no mature pattern for it. No retrieval, so a deep look stays
 * cheap.
 */
export function materialEvaluation(
  store: PatternStore,
  board: Pick<Board, 'squares' | 'turn'>,
  maturity: number,
  settings: EvaluationSettings = PAPER_EVALUATION,
): PositionEvaluation {
  const record = store.hierarchy.material.get(materialKey(materialDifference(board, difference)));
  const matched = record ? [record] : [];
  const used = record && record.updates >= maturity ? matched : [];
  return { value: used.length > 0 ? positionValue(used, settings) : 0.5, used, matched, tested: 0 };
}
