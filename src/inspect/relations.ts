/**
 * `morph inspect relations`: the relation terms a database has learned (eval/relationTerms.ts), the smallest graph
 * patterns that act in default play. Two sets, fitted to the same kept lessons (learn/relationLearning.ts): the
 * settled terms, which the capture searches read, and the static terms, which the one-ply material player reads.
 * Each listed by size, strongest first, in log-odds for the side that just moved.
 */
import type { MorphDatabase } from '../store/database.ts';
import { storedRelationWeights, strongestRelationWeights, type RelationWeightsKind } from '../eval/relationTerms.ts';
import { relationProgress } from '../learn/relationLearning.ts';
import { signed } from '../util/format.ts';

export interface RelationTermSet {
  kind: RelationWeightsKind;
  /** Lessons the set was fitted to; null when the database does not say (weights from an older learner). */
  lessons: number | null;
  /** The constant every lesson's gap shared (fitted, never read in play). */
  bias: number | null;
  /** How many of the weights are not 0. */
  nonZero: number;
  /** The strongest, by size. */
  strongest: { pattern: string; weight: number }[];
}

export interface RelationTerms {
  /** Each set the database holds (none before its first game with lessons). */
  sets: RelationTermSet[];
}

/** The database's relation terms, the `limit` strongest of each set. */
export function readRelationTerms(db: MorphDatabase, limit: number): RelationTerms {
  const progress = relationProgress(db);
  const sets: RelationTermSet[] = [];
  for (const kind of ['settled', 'static'] as const) {
    const weights = storedRelationWeights(db, kind);
    if (weights === undefined) continue;
    const lessons = kind === 'settled' ? progress?.lessons : progress?.staticLessons;
    const bias = kind === 'settled' ? progress?.bias : progress?.staticBias;
    sets.push({
      kind,
      lessons: lessons ?? null,
      bias: bias ?? null,
      nonZero: weights.reduce((n, w) => n + (w !== 0 ? 1 : 0), 0),
      strongest: strongestRelationWeights(weights, limit).filter(({ weight }) => weight !== 0),
    });
  }
  return { sets };
}

const READS: Record<RelationWeightsKind, string> = {
  settled: 'the gap over capture-settled material, read by the capture searches',
  static: 'the gap over static material, read by the one-ply material player (--search material-one-ply)',
};

export function relationTermsText(terms: RelationTerms): string {
  if (terms.sets.length === 0) return 'no relation terms yet: training learns them from its games (morph train --relation-lessons N, default 6)';
  return terms.sets
    .map((set) => {
      const fitted = set.lessons === null ? 'fitted by an older learner' : `${set.lessons} lessons${set.bias === null ? '' : `, shared bias ${signed(set.bias, 3)}`}`;
      const rows = set.strongest.map(({ pattern, weight }) => `  ${signed(weight, 3)}  ${pattern}`);
      return [`${set.kind} terms: ${READS[set.kind]}; ${fitted}; ${set.nonZero} weights not 0, the strongest:`, ...rows].join('\n');
    })
    .join('\n\n')
    .concat('\n\nIn log-odds for the side that just moved; "moved" is that side, "toMove" the other; "A > B" an attack or defence of B by A.');
}

