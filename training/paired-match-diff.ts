/**
 * Two matches of different configurations against the same opponent with the same seed and openings, compared
 * opening by opening: the difference of the first player's points on each opening pair, with a 95% interval over
 * the pairs. Pairing by opening removes the openings' own variance, as paired positions do for move quality.
 *
 *   node bin/run-ts.js training/paired-match-diff.ts BASE.json OTHER.json...      (morph match --json outputs)
 */
import { readFileSync } from 'node:fs';
import { meanWithInterval } from '../src/agree/metrics.ts';

interface Game { opening: number; result: string; firstIsWhite: boolean }
const pointsByOpening = (file: string): Map<number, number> => {
  const { results } = JSON.parse(readFileSync(file, 'utf8')) as { results: Game[] };
  const points = new Map<number, number>();
  for (const game of results) {
    const won = game.result === '1/2-1/2' ? 0.5 : (game.result === '1-0') === game.firstIsWhite ? 1 : 0;
    points.set(game.opening, (points.get(game.opening) ?? 0) + won);
  }
  return points;
};
const [baseFile, ...others] = process.argv.slice(2);
const base = pointsByOpening(baseFile);
for (const file of others) {
  const other = pointsByOpening(file);
  const shared = [...base.keys()].filter((opening) => other.has(opening));
  // Per pair of games: the difference in points (-2..2), reported per game (halved).
  const { mean, interval } = meanWithInterval(shared.map((opening) => (other.get(opening)! - base.get(opening)!) / 2));
  console.log(JSON.stringify({
    base: baseFile, other: file, pairs: shared.length, scoreDifference: Number(mean.toFixed(3)),
    interval: interval.map((x) => Number(x.toFixed(3))),
  }));
}
