/**
 * A copy of a policy model whose square values for play are fitted afresh on a value database's last N partner
 * games (src/model/choiceEvaluation.ts, fitChoiceSquares): to measure how the square values depend on the games
 * they come from while the policy's patterns stay the same (docs/lab/2026-11.md, 2026-11-28 night).
 *
 *   node bin/run-ts.js research/square-values-from-games.ts DB POLICY GAMES OUT [MAX_DECISIONS] [ROUNDS] [ALTERNATIVES] [tapered]
 *
 * Unless given, the fit is the one these recipes were first run with, not today's default: at most 15,000
 * decisions, every legal move, one table (ALTERNATIVES 'all' is every move).
 */
import { copyFileSync, existsSync } from 'node:fs';
import { openDatabaseOfKind } from '../src/store/databaseKind.ts';
import { openMorphDatabase } from '../src/store/database.ts';
import { setMeta } from '../src/store/meta.ts';
import { partnerDecisions } from '../src/model/ownPolicy.ts';
import { fitChoiceSquares } from '../src/model/choiceEvaluation.ts';
import { CHOICE_SQUARES_KEY } from '../src/model/opponentModel.ts';

const [dbPath, policy, games, out, maxDecisions, rounds, alternatives, tapered] = process.argv.slice(2);
if (!dbPath || !policy || !games || !out) {
  process.stderr.write('usage: square-values-from-games.ts DB POLICY GAMES OUT [MAX_DECISIONS] [ROUNDS] [ALTERNATIVES] [tapered]\n');
  process.exit(2);
}
if (existsSync(out)) {
  process.stderr.write(`${out} exists: give a new file\n`);
  process.exit(2);
}
const db = openDatabaseOfKind(dbPath, 'value', { readonly: true, quickCheck: false });
const found = partnerDecisions(db, dbPath, Number(games));
db.close();
const started = performance.now();
const fit = fitChoiceSquares(found.decisions, {
  maxDecisions: maxDecisions ? Number(maxDecisions) : 15_000,
  ...(rounds ? { rounds: Number(rounds) } : {}),
  alternatives: alternatives && alternatives !== 'all' ? Number(alternatives) : Infinity,
  tapered: tapered === 'tapered',
});
if (fit === null) {
  process.stderr.write(`${dbPath}: too few partner decisions with a result to fit square values\n`);
  process.exit(2);
}
const seconds = (performance.now() - started) / 1000;
copyFileSync(policy, out);
const model = openMorphDatabase(out, { quickCheck: false });
setMeta(model, CHOICE_SQUARES_KEY, fit);
model.close();
console.log(
  `games ${found.firstGame}-${found.lastGame}: ${fit.decisions} of ${fit.of} decisions, ${fit.rounds} round(s), ${seconds.toFixed(0)} s; ` +
    `piece values ${fit.values.map((v) => v.toFixed(3)).join(' ')}; written to ${out}`,
);
