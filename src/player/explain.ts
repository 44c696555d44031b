/**
 * Why Morph values a move as it does: the most-specific patterns the resulting position matched, which of them
 * were mature enough to count, and the play function's combination step by step (most extreme weight first).
 */
import { combinePair } from '../eval/combine.ts';
import { describePattern } from '../pattern/pattern.ts';
import type { PatternRecord } from '../store/hierarchy.ts';
import type { RankedMove } from './morphPlayer.ts';

export interface ExplainedPattern {
  id: number;
  kind: 'graph' | 'material';
  weight: number;
  updates: number;
  origin: string;
  /** Counted in the value (has at least `maturity` updates). */
  used: boolean;
  description: string;
}

export interface MoveExplanation {
  move: string;
  san: string;
  value: number;
  source: string;
  maturity: number;
  patterns: ExplainedPattern[];
  /** The play function applied in order: each step combines the running value with one weight. */
  combination: { id: number; weight: number; runningValue: number }[];
}

const round = (v: number) => Math.round(v * 1e4) / 1e4;

/** The order the play function folds weights in: most extreme first, smaller value first among equals. */
function foldOrder(records: PatternRecord[]): PatternRecord[] {
  return [...records].sort(
    (a, b) => Math.abs(b.weight - 0.5) - Math.abs(a.weight - 0.5) || a.weight - b.weight,
  );
}

export function explainMove(ranked: RankedMove, san: string, maturity: number): MoveExplanation {
  const evaluation = ranked.evaluation;
  const matched = evaluation?.matched ?? [];
  const used = new Set(evaluation?.used ?? []);
  const combination: MoveExplanation['combination'] = [];
  let running = NaN;
  for (const record of foldOrder([...used])) {
    running = Number.isNaN(running) ? record.weight : combinePair(running, record.weight);
    combination.push({ id: record.id, weight: round(record.weight), runningValue: round(running) });
  }
  return {
    move: ranked.move,
    san,
    value: round(ranked.value),
    source: ranked.source,
    maturity,
    patterns: foldOrder(matched).map((record) => ({
      id: record.id,
      kind: record.kind,
      weight: round(record.weight),
      updates: record.updates,
      origin: record.origin,
      used: used.has(record),
      description: describePattern(record.pattern),
    })),
    combination,
  };
}

export function explanationText(explanation: MoveExplanation): string {
  const lines = [`${explanation.san} (${explanation.move}) is worth ${explanation.value.toFixed(4)} to the side moving`];
  if (explanation.source !== 'patterns') {
    lines.push(`  by the rules: ${explanation.source}`);
    return lines.join('\n');
  }
  if (explanation.patterns.length === 0) {
    lines.push('  no pattern matched the resulting position, so it is worth 0.5');
    return lines.join('\n');
  }
  lines.push(`  most-specific patterns matched after the move (maturity ${explanation.maturity}):`);
  for (const p of explanation.patterns) {
    lines.push(
      `  #${p.id} ${p.kind} w=${p.weight.toFixed(3)} updates=${p.updates}${p.used ? '' : ' (immature, ignored)'}: ${p.description}`,
    );
  }
  if (explanation.combination.length) {
    lines.push('  combined most extreme first:');
    for (const step of explanation.combination) {
      lines.push(`    #${step.id} (${step.weight.toFixed(3)}) -> ${step.runningValue.toFixed(4)}`);
    }
  }
  return lines.join('\n');
}
