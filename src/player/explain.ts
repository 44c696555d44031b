/**
 * Why Morph values a move as it does: the most-specific patterns the resulting position matched, which of them
 * were mature enough to count, and the evaluation function's combination step by step, in the very order the
 * player folds them (eval/evaluation.ts, combinationSteps).
 */
import { combinationSteps, PAPER_EVALUATION, type EvaluationSettings } from '../eval/evaluation.ts';
import { describePattern } from '../pattern/pattern.ts';
import type { PatternRecord } from '../store/patternRecord.ts';
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
  evaluation: EvaluationSettings;
  patterns: ExplainedPattern[];
  /** The combination applied in order: each step adds one pattern (with the weight it counts with). */
  combination: { id: number; weight: number; runningValue: number }[];
  /** A material value blended with the piece values fitted to all material patterns (materialFit.ts). */
  blend?: { fitted: number; prior: number; value: number };
  /** Search "captures": the opponent capture that set the value; the patterns above value the position before it. */
  refutation?: { move: string; san: string; value: number; source: string; positionValue: number; mateIn?: number };
  /** The move begins a mate by checks Morph forces in this many of its moves (MorphPlayer.ownMate). */
  mateIn?: number;
}

const round = (v: number) => Math.round(v * 1e4) / 1e4;

/** Most extreme weight first (the order the paper's fold takes), for listing the matches. */
function byExtremeness(records: PatternRecord[]): PatternRecord[] {
  return [...records].sort((a, b) => Math.abs(b.weight - 0.5) - Math.abs(a.weight - 0.5) || a.weight - b.weight);
}

export function explainMove(
  ranked: RankedMove,
  san: string,
  maturity: number,
  evaluation: EvaluationSettings = PAPER_EVALUATION,
  refutationSan?: string,
): MoveExplanation {
  const matched = ranked.evaluation?.matched ?? [];
  const used = ranked.evaluation?.used ?? [];
  const blend = ranked.evaluation?.blend;
  const usedSet = new Set(used);
  const combination = combinationSteps(used, evaluation).map((step) => ({
    id: used[step.index].id,
    weight: round(step.weight),
    runningValue: round(step.runningValue),
  }));
  return {
    move: ranked.move,
    san,
    value: round(ranked.value),
    source: ranked.source,
    maturity,
    evaluation,
    patterns: byExtremeness(matched).map((record) => ({
      id: record.id,
      kind: record.kind,
      weight: round(record.weight),
      updates: record.updates,
      origin: record.origin,
      used: usedSet.has(record),
      description: describePattern(record.pattern),
    })),
    combination,
    ...(ranked.mateIn !== undefined ? { mateIn: ranked.mateIn } : {}),
    ...(blend ? { blend: { fitted: round(blend.fitted), prior: blend.prior, value: round(ranked.evaluation!.value) } } : {}),
    ...(ranked.refutation
      ? {
        refutation: {
          move: ranked.refutation.move,
          san: refutationSan ?? ranked.refutation.move,
          value: round(ranked.refutation.value),
          source: ranked.refutation.source,
          positionValue: round(ranked.evaluation?.value ?? 0.5),
          ...(ranked.refutation.mateIn !== undefined ? { mateIn: ranked.refutation.mateIn } : {}),
        },
      }
      : {}),
  };
}

export function explanationText(explanation: MoveExplanation): string {
  const lines = [`${explanation.san} (${explanation.move}) is worth ${explanation.value.toFixed(4)} to the side moving`];
  if (explanation.source === 'repetition') {
    lines.push('  it returns to a position already seen in this game: counted as the draw the opponent can claim by repeating it');
    return lines.join('\n');
  }
  if (explanation.source !== 'patterns') {
    lines.push(`  by the rules: ${explanation.source}`);
    return lines.join('\n');
  }
  if (explanation.mateIn !== undefined) {
    lines.push(`  by the rules: it begins a mate by checks in ${explanation.mateIn}, whatever the opponent replies`);
    return lines.join('\n');
  }
  const refutation = explanation.refutation;
  if (refutation) {
    const how = refutation.source === 'patterns'
      ? 'by its patterns'
      : refutation.mateIn !== undefined && refutation.mateIn > 1
        ? `by the rules: it begins a mate by checks in ${refutation.mateIn}`
        : `by the rules: ${refutation.source}`;
    lines.push(
      `  after the opponent's best reply ${refutation.san} (${refutation.move}), worth ${refutation.value.toFixed(4)} to the side moving (${how});`,
      `  the position after the move itself is worth ${refutation.positionValue.toFixed(4)}:`,
    );
  }
  const blend = explanation.blend;
  if (explanation.patterns.length === 0) {
    lines.push(blend
      ? `  the database has no pattern of its material difference: the piece values fitted to the others give ${blend.value.toFixed(4)}`
      : '  no pattern matched the resulting position, so it is worth 0.5');
    return lines.join('\n');
  }
  lines.push(`  most-specific patterns matched after the move (maturity ${explanation.maturity}):`);
  for (const p of explanation.patterns) {
    lines.push(
      `  #${p.id} ${p.kind} w=${p.weight.toFixed(3)} updates=${p.updates}${p.used ? '' : ' (immature, ignored)'}: ${p.description}`,
    );
  }
  if (explanation.combination.length) {
    const { function: fn, prior } = explanation.evaluation;
    const how = fn === 'paper' ? "the paper's play function, most extreme first"
      : fn === 'shrunk' ? `the paper's play function over weights shrunk by ${prior} draws, most extreme first`
      : fn === 'logodds' ? `log-odds of weights shrunk by ${prior} draws, added`
      : 'jointly learned log-odds, added';
    lines.push(`  combined by ${how}:`);
    for (const step of explanation.combination) {
      lines.push(`    #${step.id} (${step.weight.toFixed(3)}) -> ${step.runningValue.toFixed(4)}`);
    }
  }
  if (blend && explanation.patterns.some((p) => p.used)) {
    lines.push(
      `  blended with the piece values fitted to all material patterns, ${blend.fitted.toFixed(4)} for this difference, ` +
        `as ${blend.prior} updates: ${blend.value.toFixed(4)}`,
    );
  } else if (blend) {
    lines.push(`  its pattern being immature, the piece values fitted to the others give ${blend.value.toFixed(4)}`);
  }
  return lines.join('\n');
}
