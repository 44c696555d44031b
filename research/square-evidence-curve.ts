/**
 * Square values whose evidence accumulates (src/model/choiceEvaluation.ts, accumulateChoiceSquares), replayed over
 * one training run's games as `morph train` would rebuild them: a first fit on the first STEP games, then one
 * Laplace update per STEP games after. At each checkpoint (a game count), the checkpoint's own policy is copied to
 * OUT/pNNNNNN-evidence.db with these square values, so that its patterns stay those it played with
 * (docs/lab/2026-11.md, 2026-11-28 afternoon).
 *
 *   node bin/run-ts.js research/square-evidence-curve.ts DB STEP OUT CHECKPOINTS_DIR GAMES[,GAMES...]
 *
 * DB is the run's last checkpoint (its games include every earlier checkpoint's); CHECKPOINTS_DIR holds
 * games-NNNNNN.policy.db for each listed checkpoint.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { openDatabaseOfKind } from '../src/store/databaseKind.ts';
import { openMorphDatabase } from '../src/store/database.ts';
import { setMeta } from '../src/store/meta.ts';
import { partnerDecisions } from '../src/model/ownPolicy.ts';
import { accumulateChoiceSquares, type SquareEvidence } from '../src/model/choiceEvaluation.ts';
import { CHOICE_SQUARES_KEY } from '../src/model/opponentModel.ts';
import type { Decision } from '../src/model/decisions.ts';

const [dbPath, stepText, out, checkpointsDir, checkpointList] = process.argv.slice(2);
if (!dbPath || !stepText || !out || !checkpointsDir || !checkpointList) {
  process.stderr.write('usage: square-evidence-curve.ts DB STEP OUT CHECKPOINTS_DIR GAMES[,GAMES...]\n');
  process.exit(2);
}
const step = Number(stepText);
const checkpoints = checkpointList.split(',').map(Number);
mkdirSync(out, { recursive: true });
const db = openDatabaseOfKind(dbPath, 'value', { readonly: true, quickCheck: false });
const all = partnerDecisions(db, dbPath, Number.MAX_SAFE_INTEGER);
db.close();
// Decision.game numbers the games in the order read, 1-based: the k-th partner game.
const byGame: Decision[][] = Array.from({ length: all.games + 1 }, () => []);
for (const decision of all.decisions) byGame[decision.game].push(decision);
console.log(`${all.games} games, ${all.decisions.length} decisions`);

let evidence: SquareEvidence | null = null;
const started = performance.now();
for (let end = step; end <= Math.max(...checkpoints); end += step) {
  const decisions = byGame.slice(end - step + 1, end + 1).flat();
  const before = performance.now();
  const result = accumulateChoiceSquares(decisions, evidence);
  if (result === null) continue; // too few results yet to start from: the next step takes them with its own
  evidence = result.evidence;
  const seconds = (performance.now() - before) / 1000;
  console.log(
    `games ${end}: ${decisions.length} new decisions, ${evidence.decisions} in all, ${evidence.fits} fits, ${seconds.toFixed(1)} s ` +
      `(${((performance.now() - started) / 1000).toFixed(0)} s so far); piece values ${result.fit.values.map((v) => v.toFixed(3)).join(' ')}`,
  );
  if (checkpoints.includes(end)) {
    const label = String(end).padStart(6, '0');
    const file = `${out}/p${label}-evidence.db`;
    if (existsSync(file)) throw new Error(`${file} exists: give a new OUT`);
    copyFileSync(`${checkpointsDir}/games-${label}.policy.db`, file);
    const model = openMorphDatabase(file, { quickCheck: false });
    setMeta(model, CHOICE_SQUARES_KEY, result.fit);
    model.close();
    console.log(`written ${file}`);
  }
}
