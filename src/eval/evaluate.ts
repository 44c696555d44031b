/**
 * Judging a position by the patterns it matches (reference sections 4-5): retrieve the most-specific matches,
 * keep the mature ones (at least M updates), and combine them with the evaluation function (eval/evaluation.ts;
 * the paper's play function by default). The value is for the side that just moved: 0 loss, .5 draw, 1 win.
 */
import { PAPER_EVALUATION, positionValue, type EvaluationSettings } from '../eval/evaluation.ts';
import { materialDifference, type PositionGraph } from '../graph/positionGraph.ts';
import { relationLogOdds } from '../eval/relationTerms.ts';
import type { PatternRecord } from '../store/patternRecord.ts';
import type { PatternStore } from '../store/patternStore.ts';
import type { Retrieval } from '../store/retrieval.ts';
import { materialKey } from '../pattern/canonical.ts';
import type { Board } from '../chess/board.ts';
import { blendedWeight, fitPieceValues, fittedLogOdds, type MaterialEvidence, type PieceValues } from '../eval/materialFit.ts';
import { logistic } from '../eval/combine.ts';
import { squareLogOdds } from '../eval/squareValues.ts';
import type { MaterialPattern } from '../pattern/pattern.ts';

/** Scratch for materialEvaluation (synchronous, never nested). */
const difference = new Int8Array(5);

export interface PositionEvaluation {
  value: number;
  /** The mature most-specific matches that were combined. */
  used: PatternRecord[];
  /** All most-specific matches, mature or not. */
  matched: PatternRecord[];
  tested: number;
  /**
   * A material value blended with the fitted piece values (materialEvaluation): the fitted weight and K, and the
   * fitted weight's log-odds in their parts, the piece values', the square values' and the relation terms' (0
   * without them).
   */
  blend?: { fitted: number; prior: number; material: number; squares: number; relations: number };
}

export function evaluateGraph(
  store: PatternStore,
  graph: PositionGraph,
  maturity: number,
  settings: EvaluationSettings = PAPER_EVALUATION,
): PositionEvaluation {
  return evaluationOf(store.retrieve(graph), maturity, settings);
}

/** A position's value from its retrieval (evaluateGraph, for positions retrieved together). */
export function evaluationOf({ matches, tested }: Retrieval, maturity: number, settings: EvaluationSettings = PAPER_EVALUATION): PositionEvaluation {
  // Every pattern is mature at maturity 0 (the default): no copy to make.
  const used = maturity <= 0 ? matches : matches.filter((record) => record.updates >= maturity);
  return { value: positionValue(used, settings), used, matched: matches, tested };
}

/**
 * A position judged by its material pattern alone (the material-* searches): the learned weight of its
 * material difference, .5 when the database has no mature pattern for it. With a material prior and the
 * database's fitted piece values (materialFit.ts), the weight blended with the fitted one, which stands alone
 * for a difference the database lacks; with `squares` (a policy's, morphPlayer.ts), the fitted log-odds also count
 * where the pieces stand, and with `relationWeights` the smallest graph patterns' weights (relationTerms.ts). No
 * retrieval, so a deep look stays cheap.
 */
export function materialEvaluation(
  store: PatternStore,
  board: Pick<Board, 'squares' | 'turn'>,
  maturity: number,
  settings: EvaluationSettings = PAPER_EVALUATION,
  pieceValues?: PieceValues,
  squares?: { squareValues: ArrayLike<number>; scale: number },
  relationWeights?: ArrayLike<number>,
): PositionEvaluation {
  const record = store.hierarchy.material.get(materialKey(materialDifference(board, difference)));
  const matched = record ? [record] : [];
  const used = record && record.updates >= maturity ? matched : [];
  const prior = settings.materialPrior ?? 0;
  if (prior > 0 && pieceValues !== undefined) {
    const material = fittedLogOdds(pieceValues, difference);
    const squareTerm = squares ? squares.scale * squareLogOdds(board, squares.squareValues) : 0;
    const relationTerm = relationWeights ? relationLogOdds(board, relationWeights) : 0;
    const fitted = logistic(material + squareTerm + relationTerm);
    const value = used.length > 0 ? blendedWeight(record!.weight, record!.updates, fitted, prior) : fitted;
    return { value, used, matched, tested: 0, blend: { fitted, prior, material, squares: squareTerm, relations: relationTerm } };
  }
  return { value: used.length > 0 ? positionValue(used, settings) : 0.5, used, matched, tested: 0 };
}

/**
 * The piece values fitted to the database's material patterns as they are now (materialFit.ts), starting from
 * `start` (an earlier fit) when given. The player asks before every move, and the patterns change only when a
 * game is learned: so the last fit is kept with the evidence it was fitted to, and returned (a copy) while that
 * evidence is unchanged. Comparing the evidence takes microseconds; the fit took about 3 ms at 100k patterns
 * (1,600 material patterns), nearly half of a training move's time (docs/lab/2026-12.md).
 */
export function databasePieceValues(store: PatternStore, start?: PieceValues): PieceValues {
  const records = [...store.hierarchy.material.values()];
  const last = lastFit.get(store);
  if (last && sameEvidence(last.evidence, records)) return Float64Array.from(last.values);
  const evidence: MaterialEvidence[] = records.map((record) => ({
    diff: (record.pattern as MaterialPattern).diff,
    weight: record.weight,
    updates: record.updates,
  }));
  const values = fitPieceValues(evidence, start);
  lastFit.set(store, { evidence: evidenceSnapshot(records), values: Float64Array.from(values) });
  return values;
}

/** Each store's last piece-value fit and what it was fitted to: each material record's id, weight and updates. */
const lastFit = new WeakMap<PatternStore, { evidence: Float64Array; values: PieceValues }>();

function evidenceSnapshot(records: readonly PatternRecord[]): Float64Array {
  const snapshot = new Float64Array(3 * records.length);
  records.forEach((record, i) => {
    snapshot[3 * i] = record.id;
    snapshot[3 * i + 1] = record.weight;
    snapshot[3 * i + 2] = record.updates;
  });
  return snapshot;
}

function sameEvidence(snapshot: Float64Array, records: readonly PatternRecord[]): boolean {
  if (snapshot.length !== 3 * records.length) return false;
  for (let i = 0; i < records.length; i++) {
    const record = records[i];
    if (snapshot[3 * i] !== record.id || snapshot[3 * i + 1] !== record.weight || snapshot[3 * i + 2] !== record.updates) return false;
  }
  return true;
}
