/**
 * What Morph's game move costs and what it loses under several searches on one database (issue 71 phase 2): for each
 * scored position the move the game path plays (MorphPlayer.bestRanked, with the database's own policy as in play),
 * the positions its search valued (lastValued), its time, and the played move's win-chance loss; per search the
 * median and mean of each, and the paired difference of nodes and loss from the FIRST search with 95% intervals.
 *
 *   node bin/run-ts.js research/search-nodes.ts --positions positions/move-scores.jsonl --db DB \
 *     [--move-patterns FILE|random:SEED] [--limit N] SEARCH...
 * `random:SEED` is the control for patterns=K: every move a seeded random score, so the look follows K quiet moves
 * drawn at random. A SEARCH written SEARCH@FILE (or @random:SEED) reads those move patterns instead of
 * --move-patterns', so that two sets of move patterns are paired on the same positions.
 */
import { Command } from 'commander';
import { GameHistory } from '../src/chess/history.ts';
import { parseLabelledPositions } from '../src/agree/positions.ts';
import { meanWithInterval, positionQuality } from '../src/agree/metrics.ts';
import { loadConfig } from '../src/learn/config.ts';
import { MovePatterns } from '../src/model/movePatterns.ts';
import { openPolicyModel } from '../src/model/ownPolicy.ts';
import { modelPolicy } from '../src/model/policy.ts';
import { MorphPlayer, playingMaturity, type MovePatternRanker } from '../src/player/morphPlayer.ts';
import { uciMove } from '../src/chess/board.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { Random } from '../src/util/random.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { readInputLines } from '../src/util/inputLines.ts';

const program = new Command()
  .requiredOption('--positions <file>')
  .requiredOption('--db <file>')
  .option('--move-patterns <file>')
  .option('--limit <n>')
  .argument('<searches...>')
  .parse();
const opts = program.opts<{ positions: string; db: string; movePatterns?: string; limit?: string }>();
const positions = parseLabelledPositions(readInputLines(opts.positions))
  .positions.filter((p) => p.scores)
  .slice(0, opts.limit === undefined ? undefined : Number(opts.limit));

const store = PatternStore.open(opts.db, { readonly: true });
const config = loadConfig(store.db);
const model = openPolicyModel(opts.db, undefined) ?? undefined;
/** Move patterns from a file, or random:SEED. */
function openMovePatterns(spec: string | undefined): (MovePatternRanker & { close(): void }) | undefined {
  if (spec === undefined) return undefined;
  return spec.startsWith('random:') ? randomRanker(Number(spec.slice('random:'.length))) : MovePatterns.open(spec);
}

/** Move patterns of no knowledge: a seeded random score for every move. */
function randomRanker(seed: number): MovePatternRanker & { close(): void } {
  const random = new Random(seed);
  return {
    name: `random:${seed}`,
    rankBoard: (board) => generateLegalMoves(board).map((m) => ({ move: uciMove(m), score: random.next() })),
    close: () => {},
  };
}

const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: readonly number[]) => sorted(xs)[xs.length >> 1];
const f = (x: number, digits: number) => Number(x.toFixed(digits));

const rows = program.args.map((text) => {
  const [search, own] = text.split('@');
  const movePatterns = openMovePatterns(own ?? opts.movePatterns);
  const player = new MorphPlayer(store, {
    maturity: playingMaturity(store),
    evaluation: { function: config.evaluation, prior: config.prior, materialPrior: config.materialPrior },
    search,
    policy: model === undefined ? undefined : modelPolicy(model),
    movePatterns,
    seed: 0,
  });
  const nodes: number[] = [];
  const ms: number[] = [];
  const losses: number[] = [];
  for (const position of positions) {
    const started = performance.now();
    const played = player.bestRanked(new GameHistory(position.fen));
    ms.push(performance.now() - started);
    nodes.push(player.lastValued);
    losses.push(positionQuality([{ move: played.move, value: 1 }], position.scores!).meanLoss);
  }
  movePatterns?.close();
  return { search: text, nodes, ms, losses };
});
const [base] = rows;
for (const { search, nodes, ms, losses } of rows) {
  const loss = meanWithInterval(losses);
  const lossDiff = meanWithInterval(losses.map((x, i) => x - base.losses[i]));
  const nodeDiff = meanWithInterval(nodes.map((x, i) => x - base.nodes[i]));
  console.log(
    JSON.stringify({
      search, positions: positions.length, movePatterns: opts.movePatterns,
      nodesMedian: median(nodes), nodesMean: f(meanWithInterval(nodes).mean, 0), nodesVsFirst: f(nodeDiff.mean, 0), nodesVsFirstInterval: nodeDiff.interval.map((x) => f(x, 0)),
      msMedian: f(median(ms), 1), msMean: f(meanWithInterval(ms).mean, 1),
      playedLoss: f(loss.mean, 2), playedLossInterval: loss.interval.map((x) => f(x, 2)),
      lossVsFirst: f(lossDiff.mean, 2), lossVsFirstInterval: lossDiff.interval.map((x) => f(x, 2)),
    }),
  );
}
model?.close();
store.close();
