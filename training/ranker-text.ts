/**
 * A ranker written as text, for the measurement scripts: 'ranker=SPEC' (a built-in: greedy, random, ab:D[,q]), or
 * 'db=FILE' with optional ';evaluation=FN', ';maturity=N', ';prior=N', ';materialPrior=K', ';search=MODE', ';policy=MODEL|none',
 * ';weight=X', ';graphPatterns=false', ';movePatterns=FILE' (for a search with patterns=K), ';movePolicy=FILE' (move patterns as a
 * policy, joined to the model policy times ';movePolicyScale=X'), ';relationScale=X' (the relation terms times X) (default: the database's own settings and policy, if built).
 * `scoring.bestOnly`: a Morph ranker scores only the moves its game move chooses among (enough for move quality, and
 * several times cheaper under a full-width search than ranking every move).
 */
import { createRanker, morphRanker, type MoveRanker } from '../src/agree/rankers.ts';
import type { EvaluationFunction } from '../src/eval/evaluation.ts';
import type { SearchSpec } from '../src/search/extensions.ts';

export function rankerFromText(text: string, scoring: { bestOnly?: boolean } = {}): MoveRanker {
  const fields = Object.fromEntries(text.split(';').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
  if (fields.ranker) return createRanker(fields.ranker);
  return morphRanker(fields.db, {
    evaluation: fields.evaluation as EvaluationFunction | undefined,
    maturity: fields.maturity !== undefined ? Number(fields.maturity) : undefined,
    prior: fields.prior !== undefined ? Number(fields.prior) : undefined,
    materialPrior: fields.materialPrior !== undefined ? Number(fields.materialPrior) : undefined,
    search: fields.search as SearchSpec | undefined,
    policy: fields.policy === 'none' ? false : fields.policy,
    policyWeight: fields.weight !== undefined ? Number(fields.weight) : undefined,
    graphPatterns: fields.graphPatterns === 'false' ? false : undefined,
    movePatterns: fields.movePatterns,
    movePolicy: fields.movePolicy,
    movePolicyScale: fields.movePolicyScale !== undefined ? Number(fields.movePolicyScale) : undefined,
    relationScale: fields.relationScale !== undefined ? Number(fields.relationScale) : undefined,
    bestOnly: scoring.bestOnly,
  });
}
