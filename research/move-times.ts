/**
 * Time and work of Morph's game move (`bestMove`) with material-forks (or SEARCH) on a database (issue 12; measurement only):
 * mean, median and worst milliseconds a move, and how many positions the search valued. The positions are
 * Morph's own (research/sets/own-positions-scores.jsonl) unless FENS names another JSONL with a "fen" field.
 *
 *   DB=path.db [N=60] [K=20] [MOVES=1] node bin/run-ts.js research/move-times.ts
 * K is the material prior (config materialPrior); MOVES=1 also prints the moves chosen, to compare two builds.
 */
import { readFileSync } from 'node:fs';
import { PatternStore } from '../src/store/patternStore.ts';
import { MorphPlayer } from '../src/player/morphPlayer.ts';
import { GameHistory } from '../src/chess/history.ts';

const path = process.env.DB;
if (!path) {
  console.error('move-times: DB must name a Morph database');
  process.exit(2);
}
const store = PatternStore.open(path, { readonly: true });
const fens = readFileSync(process.env.FENS ?? 'research/sets/own-positions-scores.jsonl', 'utf8')
  .trim()
  .split('\n')
  .slice(0, Number(process.env.N ?? 60))
  .map((line) => JSON.parse(line).fen as string);
// The player's evaluations counted from outside: the one private method every look goes through.
let evaluations = 0;
const player = new MorphPlayer(store, {
  maturity: 0,
  seed: 1,
  search: process.env.SEARCH ?? 'material-forks',
  evaluation: { function: 'paper', prior: 20, materialPrior: Number(process.env.K ?? 20) },
});
const counted = player as unknown as { evaluate(board: unknown): unknown };
const evaluate = counted.evaluate.bind(player);
counted.evaluate = (board) => {
  evaluations++;
  return evaluate(board);
};
const rows = fens.map((fen) => {
  evaluations = 0;
  const started = performance.now();
  const move = player.bestMove(new GameHistory(fen));
  return { ms: performance.now() - started, evaluations, move };
});
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const ms = sorted(rows.map((r) => r.ms));
const valued = sorted(rows.map((r) => r.evaluations));
console.log(
  `${fens.length} positions, K ${process.env.K ?? 20}: ms mean ${mean(ms).toFixed(0)}, median ${ms[ms.length >> 1].toFixed(0)}, ` +
    `worst ${ms.at(-1)!.toFixed(0)}; positions valued mean ${mean(valued).toFixed(0)}, median ${valued[valued.length >> 1]}, most ${valued.at(-1)}`,
);
if (process.env.MOVES) console.log(rows.map((r) => r.move).join(' '));
