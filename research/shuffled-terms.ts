/**
 * The random-reassignment control of the graph-term experiments (issue 69): the same learned terms (each with its
 * update count) given to other patterns at random, so that what a learned set of terms does in play can be told
 * from what any set of terms of the same sizes does. Research only.
 */
import { GraphTerms } from '../src/eval/graphTerms.ts';
import { Random } from '../src/util/random.ts';

/** A copy of `terms` whose terms and update counts are shuffled among the same pattern ids (Fisher-Yates, `seed`). */
export function shuffledTerms(terms: GraphTerms, seed = 1): GraphTerms {
  const entries = [...terms.entries()].map(([id, t]) => [id, t.term, t.updates] as const);
  const random = new Random(seed);
  const values = entries.map(([, term, updates]) => [term, updates] as const);
  for (let i = values.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [values[i], values[j]] = [values[j], values[i]];
  }
  const shuffled = new GraphTerms();
  entries.forEach(([id], i) => shuffled.set(id, values[i][0], values[i][1]));
  shuffled.bias = terms.bias;
  shuffled.biasUpdates = terms.biasUpdates;
  return shuffled;
}
