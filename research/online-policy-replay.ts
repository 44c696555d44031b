/**
 * Experiment (issue 69 item 3, issue 72): Morph's own policy learned online, one game at a time over every game
 * (src/model/policyLearner.ts), against the policy built whole from the last 1,000 games (4 passes). Replays the
 * partner games of DB oldest first into a fresh online policy, printing the prequential log-loss (how well the
 * policy foresaw each game's partner moves before learning them) and the time per game; then gives the online
 * policy the batch policy's square values (so the two differ only in their patterns) and measures both on the
 * scored positions, paired.
 *
 *   node bin/run-ts.js research/online-policy-replay.ts --db DB --batch DB.policy.db --out /tmp/online.policy.db
 */
import { existsSync, rmSync } from 'node:fs';
import { Command } from 'commander';
import { openMorphDatabase } from '../src/store/database.ts';
import { getMeta, getMetaJson, getMetaNumber, setMeta } from '../src/store/meta.ts';
import { gameDecisions, partnerGamesAfter, sampleDecisions } from '../src/model/ownPolicy.ts';
import { buildModel } from '../src/model/modelBuilder.ts';
import { PolicyLearner } from '../src/model/policyLearner.ts';
import { CHOICE_SQUARES_KEY } from '../src/model/opponentModel.ts';
import { readSquareEvidence, writeSquareEvidence } from '../src/model/squareEvidence.ts';
import { Random } from '../src/util/random.ts';
import { morphRanker } from '../src/agree/rankers.ts';
import { readInputLines } from '../src/util/inputLines.ts';
import { parseLabelledPositions } from '../src/agree/positions.ts';
import { meanWithInterval, positionQuality } from '../src/agree/metrics.ts';

const opts = new Command()
  .requiredOption('--db <file>')
  .requiredOption('--batch <file>', 'the policy built whole (morph model --from-db)')
  .requiredOption('--out <file>', 'the online policy to write (replaced)')
  .option('--positions <file>', 'scored positions', 'positions/move-scores.jsonl')
  .option('--games <n>', 'replay at most this many partner games', '1000000')
  .option('--measure-only', 'skip the replay: measure an existing --out')
  .option('--share <x>', "the share of each game's decisions the online policy learns from", '1')
  .parse()
  .opts();

const db = openMorphDatabase(opts.db, { readonly: true, quickCheck: false });
const created = getMeta(db, 'created_at') ?? '';
const seed = getMetaNumber(db, 'seed') ?? 1;
const games = partnerGamesAfter(db, 0).slice(0, Number(opts.games));
const partner = db.prepare('SELECT opponent FROM games WHERE id = ?').pluck().get(games[0]) as string;
const decisionsOf = (id: number) => gameDecisions(db, opts.db, id);

if (!opts.measureOnly) {
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(opts.out + suffix)) rmSync(opts.out + suffix);
  buildModel({
    out: opts.out, replace: true, player: partner, source: `${opts.db}, online`, games: 1,
    decisions: decisionsOf(games[0]), seed, lastGame: games[0], databaseCreated: created,
  });
  const learner = PolicyLearner.open(opts.out)!;
  const started = performance.now();
  let windowStart = performance.now();
  let loss = 0;
  let decisions = 0;
  for (let i = 1; i < games.length; i++) {
    const lesson = learner.learn(sampleDecisions(decisionsOf(games[i]), Number(opts.share), new Random(games[i])), games[i]);
    loss -= lesson.logLikelihood * lesson.decisions;
    decisions += lesson.decisions;
    if ((i + 1) % 250 === 0 || i === games.length - 1) {
      const now = performance.now();
      console.log(JSON.stringify({
        games: i + 1, logLoss: +(loss / decisions).toFixed(3), msPerGame: +((now - windowStart) / 250).toFixed(1),
        seconds: +((now - started) / 1000).toFixed(1),
      }));
      windowStart = now;
      loss = 0;
      decisions = 0;
    }
  }
  learner.close();
  // The batch policy's square values, so that the two policies differ in their patterns only.
  const batch = openMorphDatabase(opts.batch, { readonly: true, quickCheck: false });
  const squares = getMetaJson(batch, CHOICE_SQUARES_KEY);
  const evidence = readSquareEvidence(batch);
  batch.close();
  const online = openMorphDatabase(opts.out, { quickCheck: false });
  online.transaction(() => {
    if (squares) setMeta(online, CHOICE_SQUARES_KEY, squares);
    if (evidence) writeSquareEvidence(online, evidence);
  })();
  online.close();
}

db.close();

const positions = parseLabelledPositions(readInputLines(opts.positions)).positions.filter((p) => p.scores);
const losses = (policy: string | false) => {
  const ranker = morphRanker(opts.db, { policy });
  const result = positions.map((p) => positionQuality(ranker.score(p.fen), p.scores!).meanLoss);
  ranker.close();
  return result;
};
const batchLosses = losses(opts.batch);
const onlineLosses = losses(opts.out);
const f = (x: number) => +x.toFixed(3);
const diff = meanWithInterval(onlineLosses.map((l, i) => l - batchLosses[i]));
console.log(JSON.stringify({
  positions: positions.length,
  batch: f(meanWithInterval(batchLosses).mean),
  online: f(meanWithInterval(onlineLosses).mean),
  onlineMinusBatch: f(diff.mean),
  interval: diff.interval.map(f),
}));
