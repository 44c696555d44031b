/**
 * How well move patterns choose the quiet moves the patterns=K look follows (issue 71 phase 2), on positions Morph
 * did not learn from (the scored set): each position's quiet moves are labelled as the search lessons label them
 * (train/moveLessons.ts: followed through every reply, a positive above the gap), with DB's values; then, for each
 * move-pattern file, the share of the positives among its K highest-ranked quiet moves (recall at K, over positions
 * with a positive), beside what K quiet moves drawn at random would find; and, where the reference engine's best
 * move is quiet, how often it is among the K.
 *
 *   node bin/run-ts.js research/move-lesson-recall.ts --positions positions/move-scores.jsonl --db DB FILE...
 */
import { Command } from 'commander';
import { boardFromFen } from '../src/chess/board.ts';
import { parseLabelledPositions } from '../src/agree/positions.ts';
import { loadConfig } from '../src/learn/config.ts';
import { MovePatterns } from '../src/model/movePatterns.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { DEFAULT_MOVE_LESSON_GAP, searchQuietMoves } from '../src/train/moveLessons.ts';
import { readInputLines } from '../src/util/inputLines.ts';
import { Random } from '../src/util/random.ts';

const program = new Command().requiredOption('--positions <file>').requiredOption('--db <file>').option('--gap <x>').argument('<files...>').parse();
const opts = program.opts<{ positions: string; db: string; gap?: string }>();
const gap = opts.gap === undefined ? DEFAULT_MOVE_LESSON_GAP : Number(opts.gap);
const positions = parseLabelledPositions(readInputLines(opts.positions)).positions;
const store = PatternStore.open(opts.db, { readonly: true });
const started = performance.now();
const labelled = searchQuietMoves(
  store,
  loadConfig(store.db),
  positions.map((p, i) => ({ game: i + 1, startFen: p.fen, before: [], chosen: p.best ?? '' })),
  1,
  new Random(1),
);
store.close();
const quietMoves = labelled.reduce((s, p) => s + p.quiet.length, 0);
const positives = labelled.reduce((s, p) => s + p.quiet.filter((q) => q.gap > gap).length, 0);
console.log(JSON.stringify({ positions: labelled.length, quietMoves, positives, withPositive: labelled.filter((p) => p.quiet.some((q) => q.gap > gap)).length, seconds: Math.round((performance.now() - started) / 1000) }));
const KS = [1, 2, 4, 8];
for (const file of program.args) {
  const patterns = MovePatterns.open(file);
  const found = KS.map(() => 0);
  const chance = KS.map(() => 0);
  const best = KS.map(() => 0);
  let bestQuiet = 0;
  let withPositive = 0;
  labelled.forEach((position, i) => {
    const quiet = new Set(position.quiet.map((q) => q.move));
    const ranked = patterns.rankBoard(boardFromFen(position.fen)).filter((m) => quiet.has(m.move));
    ranked.sort((a, b) => b.score - a.score || (a.move < b.move ? -1 : 1));
    const good = new Set(position.quiet.filter((q) => q.gap > gap).map((q) => q.move));
    const engineBest = positions[i].best;
    const bestIsQuiet = engineBest !== undefined && quiet.has(engineBest);
    if (bestIsQuiet) bestQuiet++;
    if (good.size > 0) withPositive++;
    KS.forEach((k, j) => {
      const top = ranked.slice(0, k).map((m) => m.move);
      if (good.size > 0) {
        found[j] += top.filter((m) => good.has(m)).length / good.size;
        chance[j] += Math.min(k, quiet.size) / quiet.size;
      }
      if (bestIsQuiet && top.includes(engineBest!)) best[j]++;
    });
  });
  patterns.close();
  const r = (x: number, n: number) => Number((x / n).toFixed(3));
  console.log(JSON.stringify({
    file,
    recall: Object.fromEntries(KS.map((k, j) => [k, r(found[j], withPositive)])),
    randomRecall: Object.fromEntries(KS.map((k, j) => [k, r(chance[j], withPositive)])),
    engineBestQuiet: bestQuiet,
    engineBestInTopK: Object.fromEntries(KS.map((k, j) => [k, r(best[j], bestQuiet)])),
  }));
}
