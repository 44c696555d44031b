/**
 * Where Morph's material losses come from (issue 12; measurement only), on the positions where the first player
 * of a `morph match --json` had to move. Every legal move is scored by material alpha-beta with a captures
 * quiescence (src/engines/alphabeta.ts). A move "loses" when it scores at least 150 centipawns (or a mate) below
 * the best move.
 *
 * - The moves played: the share that lose at depth DEPTH, each classed by the shallowest depth whose search
 *   already shows the loss (depth 1 with quiescence sees pieces left en prise and exchanges; depth 2 the
 *   opponent's quiet replies, forks and mates; deeper, combinations).
 * - Each ranker given ('db=FILE;search=...;policy=none', as training/ranker-text.ts reads them): on the same
 *   positions, leaving out those already lost (best score at DEPTH <= -300), the share of its choices (ties
 *   shared) that lose at depth 1 and at DEPTH, with 95% intervals.
 *
 *   node bin/run-ts.js research/loss-depths.ts MATCH.json [--depth 3] [--every N] [--list D] [RANKER...]
 */
import { Command } from 'commander';
import { boardFromFen, uciMove } from '../src/chess/board.ts';
import { rankMoves } from '../src/engines/alphabeta.ts';
import { meanWithInterval } from '../src/agree/metrics.ts';
import { rankerFromText } from '../training/ranker-text.ts';
import { readMatchGames } from '../training/match-games.ts';

const program = new Command()
  .argument('<match>')
  .argument('[rankers...]')
  .option('--depth <n>', 'the deepest search', '3')
  .option('--every <n>', 'every Nth of the first player\'s moves only', '1')
  .option('--list <d>', 'print the position and move of every loss first shown at this depth')
  .parse();
const options = program.opts();
const deepest = Number(options.depth);
const LOSS = 150;
const ALREADY_LOST = -300;

interface Decision { fen: string; played: string }
const decisions: Decision[] = [];
let counter = 0;
for (const { game, firstColor } of readMatchGames(program.args[0])) {
  for (const move of game.history({ verbose: true })) {
    if (move.color === firstColor && counter++ % Number(options.every) === 0) {
      decisions.push({ fen: move.before, played: move.from + move.to + (move.promotion ?? '') });
    }
  }
}

/** Each move's loss in centipawns against the best, at a depth (mates capped at 100000). */
function lossesAt(fen: string, depth: number): { best: number; loss: Map<string, number> } {
  const ranked = rankMoves(boardFromFen(fen), { depth, quiescence: true, tolerancePawns: 0, seed: 0 });
  const best = ranked[0].score;
  return { best, loss: new Map(ranked.map((r) => [uciMove(r.move), Math.min(best - r.score, 100_000)])) };
}

const started = Date.now();
const shownAt = new Array<number>(deepest + 1).fill(0);
const deep = decisions.map((d) => lossesAt(d.fen, deepest));
const shallow = decisions.map((d) => lossesAt(d.fen, 1));
decisions.forEach((decision, i) => {
  if (deep[i].loss.get(decision.played)! < LOSS) return;
  for (let depth = 1; depth <= deepest; depth++) {
    const loss = depth === 1 ? shallow[i] : depth === deepest ? deep[i] : lossesAt(decision.fen, depth);
    if (loss.loss.get(decision.played)! >= LOSS) {
      shownAt[depth]++;
      if (options.list === String(depth)) console.log(`${decision.fen}\t${decision.played}`);
      break;
    }
  }
});
const share = (n: number) => Number((n / decisions.length).toFixed(3));
console.log(JSON.stringify({
  match: program.args[0], moves: decisions.length, losing: share(shownAt.reduce((a, b) => a + b, 0)),
  shownFirstAt: Object.fromEntries(shownAt.slice(1).map((n, d) => [`depth${d + 1}`, share(n)])),
}));

const open = decisions.map((_, i) => i).filter((i) => deep[i].best > ALREADY_LOST);
for (const text of program.args.slice(1)) {
  const ranker = rankerFromText(text);
  const atOne: number[] = [];
  const atDeepest: number[] = [];
  for (const i of open) {
    const scored = ranker.score(decisions[i].fen);
    const top = Math.max(...scored.map((s) => s.value));
    const chosen = scored.filter((s) => s.value >= top - 1e-12).map((s) => s.move);
    const lossShare = (losses: Map<string, number>) => chosen.filter((m) => losses.get(m)! >= LOSS).length / chosen.length;
    atOne.push(lossShare(shallow[i].loss));
    atDeepest.push(lossShare(deep[i].loss));
  }
  ranker.close();
  const f = (x: { mean: number; interval: [number, number] }) => [x.mean, ...x.interval].map((v) => Number(v.toFixed(3)));
  console.log(JSON.stringify({ ranker: text, positions: open.length, losingAtDepth1: f(meanWithInterval(atOne)), [`losingAtDepth${deepest}`]: f(meanWithInterval(atDeepest)) }));
}
console.error(`${Math.round((Date.now() - started) / 1000)} s`);
