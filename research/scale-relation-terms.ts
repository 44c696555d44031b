/**
 * Multiplies a database's stored relation terms (the settled and the static ones) by a factor, in place, to see in
 * games whether the ridge fit's size (penalty 300, chosen on held-out lessons) is what play wants. For a copy only:
 * training re-solves the terms and would undo it.
 *
 *   node bin/run-ts.js research/scale-relation-terms.ts COPY.db FACTOR
 */
import { openMorphDatabase } from '../src/store/database.ts';
import { storedRelationWeights, storeRelationWeights } from '../src/eval/relationTerms.ts';

const [file, factorText] = process.argv.slice(2);
const factor = Number(factorText);
if (!file || !Number.isFinite(factor)) {
  console.error('usage: scale-relation-terms.ts COPY.db FACTOR');
  process.exit(2);
}
const db = openMorphDatabase(file);
for (const kind of ['settled', 'static'] as const) {
  const weights = storedRelationWeights(db, kind);
  if (weights) storeRelationWeights(db, weights.map((w) => w * factor), kind);
  console.log(`${kind}: ${weights ? `scaled by ${factor}` : 'none stored'}`);
}
db.close();
