/**
 * Two matches of the same seed and openings (morph match --seed S --openings FILE) compared pair by pair from their
 * PGNs, for matches stopped before the end (a match's JSON is written only when it finishes): Morph's points in each
 * round, pairs of rounds (2p-1, 2p: one opening, both colours) complete in both, and the mean difference a game,
 * second less first, with a 95% interval over the pairs.
 *
 *   node bin/run-ts.js research/paired-pgns.ts FIRST.pgn SECOND.pgn
 */
import { readFileSync } from 'node:fs';
import { meanWithInterval } from '../src/agree/metrics.ts';

/** Morph's points by round. */
function morphPoints(path: string): Map<number, number> {
  const points = new Map<number, number>();
  for (const game of readFileSync(path, 'utf8').split('[Event ').slice(1)) {
    const tag = (name: string) => new RegExp(`\\[${name} "([^"]*)"\\]`).exec(game)?.[1] ?? '';
    const result = tag('Result');
    if (result === '*') continue;
    const white = result === '1-0' ? 1 : result === '0-1' ? 0 : 0.5;
    points.set(Number(tag('Round')), tag('White').startsWith('morph') ? white : 1 - white);
  }
  return points;
}

const [first, second] = process.argv.slice(2).map(morphPoints);
const differences: number[] = [];
let firstPoints = 0;
let secondPoints = 0;
const last = Math.max(...first.keys(), ...second.keys());
for (let round = 1; round < last; round += 2) {
  const rounds = [round, round + 1];
  if (!rounds.every((r) => first.has(r) && second.has(r))) continue;
  const a = first.get(round)! + first.get(round + 1)!;
  const b = second.get(round)! + second.get(round + 1)!;
  firstPoints += a;
  secondPoints += b;
  differences.push((b - a) / 2);
}
const games = 2 * differences.length;
const { mean, interval } = meanWithInterval(differences);
const f = (x: number) => Number(x.toFixed(3));
console.log(JSON.stringify({ pairs: differences.length, games, first: f(firstPoints / games), second: f(secondPoints / games), difference: f(mean), interval: interval.map(f) }));
