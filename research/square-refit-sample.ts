/**
 * Experiment (issue 69, the policy's upkeep in a run): do the square values lose anything when each refit during
 * `morph train` (every OWN_SQUARE_EVERY partner games) absorbs an even sample of the new games instead of all of
 * them? Replays the refit schedule over DB's partner games twice, from no evidence: once absorbing every game of
 * each block, once absorbing `--sample` games spread evenly over it; writes each result into a copy of POLICY
 * (the same patterns), and measures both on the scored positions, paired, with the time each took.
 *
 *   node bin/run-ts.js research/square-refit-sample.ts --db DB --policy DB.policy.db --work /tmp/squares
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { Command } from 'commander';
import { openMorphDatabase } from '../src/store/database.ts';
import { setMeta } from '../src/store/meta.ts';
import { partnerDecisions, partnerGamesAfter, OWN_SQUARE_EVERY } from '../src/model/ownPolicy.ts';
import { accumulateChoiceSquares, type SquareFitResult } from '../src/model/choiceEvaluation.ts';
import { CHOICE_SQUARES_KEY } from '../src/model/opponentModel.ts';
import { writeSquareEvidence } from '../src/model/squareEvidence.ts';
import { morphRanker } from '../src/agree/rankers.ts';
import { readInputLines } from '../src/util/inputLines.ts';
import { parseLabelledPositions } from '../src/agree/positions.ts';
import { meanWithInterval, positionQuality } from '../src/agree/metrics.ts';

const opts = new Command()
  .requiredOption('--db <file>')
  .requiredOption('--policy <file>', "the database's policy: its patterns are kept, its square values replaced")
  .requiredOption('--work <dir>', 'where the two policy copies are written')
  .option('--sample <games>', 'games absorbed from each block in the sampled arm', '100')
  .option('--positions <file>', 'scored positions', 'positions/move-scores.jsonl')
  .parse()
  .opts();

const db = openMorphDatabase(opts.db, { readonly: true, quickCheck: false });
const games = partnerGamesAfter(db, 0);
const blockEnds: number[] = [];
for (let k = OWN_SQUARE_EVERY - 1; k < games.length; k += OWN_SQUARE_EVERY) blockEnds.push(games[k]);
if (blockEnds.at(-1) !== games.at(-1)) blockEnds.push(games.at(-1)!);

/** The refit schedule over every block, each absorbing at most `perBlock` of its games (evenly spread). */
function refits(perBlock: number): { result: SquareFitResult | null; seconds: number; decisions: number } {
  const started = performance.now();
  let result = null as SquareFitResult | null;
  let after = 0;
  let decisions = 0;
  for (const end of blockEnds) {
    const block = partnerDecisions(db, opts.db, perBlock, { evenly: true, after, upTo: end });
    after = end;
    result = accumulateChoiceSquares(block.decisions, result?.evidence ?? null) ?? result;
    decisions += block.decisions.length;
  }
  return { result, seconds: (performance.now() - started) / 1000, decisions };
}

const positions = parseLabelledPositions(readInputLines(opts.positions)).positions.filter((p) => p.scores);
mkdirSync(opts.work, { recursive: true });
const arms = [
  { name: 'every game', perBlock: Number.MAX_SAFE_INTEGER },
  { name: `${opts.sample} games a block`, perBlock: Number(opts.sample) },
];
const losses: number[][] = [];
for (const [index, arm] of arms.entries()) {
  const { result, seconds, decisions } = refits(arm.perBlock);
  const out = `${opts.work}/arm${index}.policy.db`;
  copyFileSync(opts.policy, out);
  const policy = openMorphDatabase(out, { quickCheck: false });
  policy.transaction(() => {
    if (result) {
      setMeta(policy, CHOICE_SQUARES_KEY, result.fit);
      writeSquareEvidence(policy, result.evidence);
    }
  })();
  policy.close();
  const ranker = morphRanker(opts.db, { policy: out });
  losses.push(positions.map((p) => positionQuality(ranker.score(p.fen), p.scores!).meanLoss));
  ranker.close();
  const f = (x: number) => +x.toFixed(3);
  const diff = index === 0 ? null : meanWithInterval(losses[index].map((l, i) => l - losses[0][i]));
  console.log(JSON.stringify({
    arm: arm.name, refits: blockEnds.length, decisions, seconds: +seconds.toFixed(1),
    meanLoss: f(meanWithInterval(losses[index]).mean),
    ...(diff ? { minusEveryGame: f(diff.mean), interval: diff.interval.map(f) } : {}),
  }));
}
db.close();
