/**
 * Two matches of different configurations against the same opponent with the same seed and openings, compared
 * opening by opening: the difference of the first player's points on each opening pair, with a 95% interval over
 * the pairs. Pairing by opening removes the openings' own variance, as paired positions do for move quality.
 *
 *   node bin/run-ts.js training/paired-match-diff.ts BASE.json OTHER.json...      (morph match --json outputs)
 *
 * A configuration measured in several matches (seeds) is given as a comma-separated list, in the same order for
 * every configuration: `BASE-s1.json,BASE-s2.json OTHER-s1.json,OTHER-s2.json`. Each match's opening pairs are
 * paired with the same match of the base, and all the pairs go into one mean and interval.
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
const [baseFiles, ...others] = process.argv.slice(2);
const bases = baseFiles.split(',').map(pointsByOpening);
for (const files of others) {
  const matches = files.split(',');
  if (matches.length !== bases.length) throw new Error(`${files}: ${matches.length} matches where the base has ${bases.length}`);
  // Per pair of games: the difference in points (-2..2), reported per game (halved).
  const differences = matches.flatMap((file, k) => {
    const [base, other] = [bases[k], pointsByOpening(file)];
    return [...base.keys()].filter((opening) => other.has(opening)).map((opening) => (other.get(opening)! - base.get(opening)!) / 2);
  });
  const { mean, interval } = meanWithInterval(differences);
  console.log(JSON.stringify({
    base: baseFiles, other: files, pairs: differences.length, scoreDifference: Number(mean.toFixed(3)),
    interval: interval.map((x) => Number(x.toFixed(3))),
  }));
}
