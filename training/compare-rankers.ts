/**
 * Paired move-quality comparison of rankers on the same scored positions: for each ranker its mean win-chance
 * loss and blunder share, and its difference from the FIRST ranker with a 95% interval computed over the
 * per-position differences (pairing removes most of the positions' own variance, so small differences show).
 *
 *   node bin/run-ts.js training/compare-rankers.ts --positions positions/move-scores.jsonl \
 *     'db=tmp/a.db' 'db=tmp/a.db;evaluation=shrunk' 'db=tmp/a.db;maturity=25' 'db=tmp/b.db' 'ranker=ab:2,q'
 */
import { Command } from 'commander';
import { readInputLines } from '../src/util/inputLines.ts';
import { parseLabelledPositions } from '../src/agree/positions.ts';
import { meanWithInterval, positionQuality } from '../src/agree/metrics.ts';
import { rankerFromText } from './ranker-text.ts';

const program = new Command().requiredOption('--positions <file>').argument('<rankers...>').parse();
const positions = parseLabelledPositions(readInputLines(program.opts().positions)).positions.filter((p) => p.scores);

const rows = program.args.map((text) => {
  // Move quality reads only the chosen move and its ties: the game move's search, not a full ranking.
  const ranker = rankerFromText(text, { bestOnly: true });
  const started = performance.now();
  const qualities = positions.map((p) => positionQuality(ranker.score(p.fen), p.scores!));
  const seconds = (performance.now() - started) / 1000;
  ranker.close();
  return { text, qualities, seconds };
});
const [base] = rows;
for (const { text, qualities, seconds } of rows) {
  const loss = meanWithInterval(qualities.map((q) => q.meanLoss));
  const blunder = meanWithInterval(qualities.map((q) => q.blunder));
  const lossDiff = meanWithInterval(qualities.map((q, i) => q.meanLoss - base.qualities[i].meanLoss));
  const blunderDiff = meanWithInterval(qualities.map((q, i) => q.blunder - base.qualities[i].blunder));
  const f = (x: number, digits: number) => Number(x.toFixed(digits));
  console.log(JSON.stringify({
    ranker: text, positions: qualities.length, meanLoss: f(loss.mean, 2), lossInterval: loss.interval.map((x) => f(x, 2)),
    blunder: f(blunder.mean, 3), lossVsFirst: f(lossDiff.mean, 2), lossVsFirstInterval: lossDiff.interval.map((x) => f(x, 2)),
    blunderVsFirst: f(blunderDiff.mean, 3), blunderVsFirstInterval: blunderDiff.interval.map((x) => f(x, 3)),
    seconds: f(seconds, 1),
  }));
}
