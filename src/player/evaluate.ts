/**
 * Judging a position by the patterns it matches (reference sections 4-5): retrieve the most-specific matches,
 * keep the mature ones (at least M updates), and combine their weights with the play function. The value is
 * for the side that just moved: 0 loss, .5 draw, 1 win.
 */
import { playValue } from '../eval/combine.ts';
import type { PositionGraph } from '../graph/positionGraph.ts';
import type { PatternRecord } from '../store/hierarchy.ts';
import type { PatternStore } from '../store/patternStore.ts';

export interface PositionEvaluation {
  value: number;
  /** The mature most-specific matches that were combined. */
  used: PatternRecord[];
  /** All most-specific matches, mature or not. */
  matched: PatternRecord[];
  tested: number;
}

const weights = new Float64Array(256);
const scratch = new Float64Array(256);

export function evaluateGraph(store: PatternStore, graph: PositionGraph, maturity: number): PositionEvaluation {
  const { matches, tested } = store.retrieve(graph);
  const used: PatternRecord[] = [];
  for (const record of matches) if (record.updates >= maturity) used.push(record);
  const buffer = used.length <= weights.length ? weights : new Float64Array(used.length);
  for (let i = 0; i < used.length; i++) buffer[i] = used[i].weight;
  const value = playValue(buffer.subarray(0, used.length), used.length <= scratch.length ? scratch : undefined);
  return { value, used, matched: matches, tested };
}
