/**
 * Square values learned from game results (issue 12, a signal beyond the partner's choices; an experiment): a
 * logistic regression of each quiet position's result, for the side that just moved, on its material difference
 * (P N B R Q) and tapered square values (squareValues.ts: a middlegame and an endgame table, blended by the
 * officers' share), fitted by Newton's method with a ridge on the squares. This is Texel tuning: only the rules and
 * the results are used. Meant for games between equals (Morph against itself), where the result says what a
 * position is worth rather than who played it (2026-11-25's fit on games against the partner was confounded so).
 *
 * A position is quiet when its side to move is not in check and the game's next move is not a capture or a
 * promotion. Every 10th game is held out; the fit uses the first N of the rest. Prints the held-out log-likelihood a
 * position (material alone, and with square values) and, given --policy and --out, writes a copy of the policy
 * whose square values for play are the fitted ones.
 *
 *   node bin/run-ts.js research/result-squares.ts --pgn A.pgn[,B.pgn] [--games N] [--ridge R]
 *     [--lambda L [--rounds N]] [--policy POLICY.db --out OUT.db [--mode replace|add] [--scale S]] [--json]
 *
 * --lambda below 1 refits toward TD(lambda) targets at the last fit's values, --rounds times (TD-Leaf's targets).
 * --mode add adds the fitted values to the policy's own square values instead of replacing them; --scale multiplies them.
 */
import { copyFileSync, existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { BLACK, boardFromFen, parseUciMove, type Board } from '../src/chess/board.ts';
import { isInCheck } from '../src/chess/movegen.ts';
import { readPgnText, sideDecisions, decisionHistories, type Decision } from '../src/model/decisions.ts';
import { materialDifference } from '../src/graph/positionGraph.ts';
import { TAPERED_SQUARE_VALUES } from '../src/eval/squareValues.ts';
import { addSquareChanges, LINE_SQUARES } from '../src/model/choiceEvaluation.ts';
import { solvePositiveDefinite } from '../src/eval/materialFit.ts';
import { logistic } from '../src/eval/combine.ts';
import { isCapture } from '../src/search/search.ts';
import { openMorphDatabase } from '../src/store/database.ts';
import { getMetaJson, setMeta } from '../src/store/meta.ts';
import type { LearnedSquares } from '../src/eval/squareValues.ts';
import { CHOICE_SQUARES_KEY } from '../src/model/opponentModel.ts';

const MATERIAL = 5;
/** Material at 0-4, the square values from LINE_SQUARES (5-7 stay unused, held at 0 by the ridge). */
const DIMS = LINE_SQUARES + TAPERED_SQUARE_VALUES;
const emptyBoard = boardFromFen('8/8/8/8/8/8/8/8 w - - 0 1');
const HELD_OUT_EVERY = 10;

interface Row {
  index: Int32Array;
  value: Float64Array;
  /** The result for the side that just moved: 1, .5 or 0. */
  result: number;
  /** What the fit aims at for the side that just moved: the result, or with --lambda a TD(lambda) target. */
  target: number;
  whiteMoved: boolean;
}

/**
 * A quiet position's features for the side that just moved: its material difference, then where its pieces stand,
 * laid out as the choice fit's rows are (choiceEvaluation.ts: the square values from LINE_SQUARES on), so that the
 * square features are addSquareChanges' from an empty board.
 */
function featureRow(board: Board, result: number, difference: Int8Array): Row {
  const features = new Map<number, number>();
  materialDifference(board, difference);
  for (let k = 0; k < MATERIAL; k++) if (difference[k] !== 0) features.set(k, difference[k]);
  const whiteMoved = board.turn === BLACK;
  addSquareChanges(emptyBoard, board, whiteMoved, features, true);
  const entries = [...features].filter(([, x]) => x !== 0);
  return { index: Int32Array.from(entries, ([k]) => k), value: Float64Array.from(entries, ([, x]) => x), result, target: result, whiteMoved };
}

/**
 * Every quiet position after a move of the games, with the mover's score, split into fitting and held-out games.
 * Every ply is a decision (both sides'), so the position a decision is taken in is the one the game's previous
 * move led to, and its chosen move is the game's next move there.
 */
function quietRows(decisions: readonly Decision[]): { fit: Map<number, Row[]>; heldOut: Row[] } {
  const fit = new Map<number, Row[]>();
  const heldOut: Row[] = [];
  const difference = new Int8Array(MATERIAL);
  let previous: Decision | undefined;
  for (const [next, history] of decisionHistories(decisions)) {
    const mover = previous;
    previous = next;
    if (mover === undefined || mover.game !== next.game || mover.score === undefined) continue;
    const after = history.board;
    if (isInCheck(after) || isCapture(after, parseUciMove(next.chosen)!) || next.chosen.length === 5) continue;
    const row = featureRow(after, mover.score, difference);
    if (mover.game % HELD_OUT_EVERY === 0) heldOut.push(row);
    else {
      const rows = fit.get(mover.game) ?? [];
      rows.push(row);
      fit.set(mover.game, rows);
    }
  }
  return { fit, heldOut };
}

function score(row: Row, w: Float64Array, squares: boolean): number {
  let z = 0;
  for (let j = 0; j < row.index.length; j++) if (squares || row.index[j] < MATERIAL) z += w[row.index[j]] * row.value[j];
  return z;
}

/**
 * TD(lambda) targets at weights `w` (TD-Leaf's, with the quiet positions as the leaves): each position aims at
 * (1 - lambda) times the next quiet position's value plus lambda times that position's own target, the last at the
 * game's result; all for White, then turned to the side that just moved.
 */
function setTdTargets(games: Iterable<Row[]>, w: Float64Array, lambda: number): void {
  for (const rows of games) {
    const forWhite = (row: Row, x: number) => (row.whiteMoved ? x : 1 - x);
    let target = forWhite(rows[rows.length - 1], rows[rows.length - 1].result);
    for (let i = rows.length - 1; i >= 0; i--) {
      if (i < rows.length - 1) target = (1 - lambda) * forWhite(rows[i + 1], logistic(score(rows[i + 1], w, true))) + lambda * target;
      rows[i].target = forWhite(rows[i], target);
    }
  }
}

/** Mean log-likelihood a position (soft targets: a draw counts half a win and half a loss). */
function logLikelihood(rows: readonly Row[], w: Float64Array, squares: boolean): number {
  let total = 0;
  for (const row of rows) {
    const p = Math.min(1 - 1e-12, Math.max(1e-12, logistic(score(row, w, squares))));
    total += row.result * Math.log(p) + (1 - row.result) * Math.log(1 - p);
  }
  return total / Math.max(1, rows.length);
}

/** Newton's method on the ridge-penalised log-likelihood; `squares` false fits the material weights alone. */
function fitLogistic(rows: readonly Row[], ridge: number, squares: boolean, start?: Float64Array, iterations = 8): Float64Array {
  const w = start ? Float64Array.from(start) : new Float64Array(DIMS);
  const dims = squares ? DIMS : MATERIAL;
  for (let it = 0; it < iterations; it++) {
    const gradient = new Float64Array(dims);
    const hessian = new Float64Array(dims * dims);
    for (const row of rows) {
      const p = logistic(score(row, w, squares));
      const residual = row.target - p;
      const curvature = p * (1 - p);
      const n = row.index.length;
      for (let a = 0; a < n; a++) {
        const i = row.index[a];
        if (i >= dims) continue;
        const xi = row.value[a];
        gradient[i] += residual * xi;
        const base = i * dims;
        for (let b = 0; b < n; b++) {
          const j = row.index[b];
          if (j < dims) hessian[base + j] += curvature * xi * row.value[b];
        }
      }
    }
    // The ridge on the square values only (scaled by the positions): material is identified by the data.
    for (let k = MATERIAL; k < dims; k++) {
      gradient[k] -= ridge * rows.length * w[k];
      hessian[k * dims + k] += ridge * rows.length;
    }
    for (let k = 0; k < MATERIAL; k++) hessian[k * dims + k] += 1e-9 * rows.length;
    const step = solvePositiveDefinite(hessian, gradient);
    let largest = 0;
    for (let k = 0; k < dims; k++) {
      w[k] += step[k];
      largest = Math.max(largest, Math.abs(step[k]));
    }
    if (largest < 1e-6) break;
  }
  return w;
}

const { values: args } = parseArgs({
  options: {
    pgn: { type: 'string' },
    games: { type: 'string' },
    ridge: { type: 'string', default: '0.0001' },
    lambda: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '3' },
    policy: { type: 'string' },
    out: { type: 'string' },
    mode: { type: 'string', default: 'replace' },
    scale: { type: 'string', default: '1' },
    json: { type: 'boolean', default: false },
  },
});
if (!args.pgn) {
  process.stderr.write('usage: result-squares.ts --pgn A.pgn[,B.pgn] [--games N] [--ridge R] [--lambda L [--rounds N]] [--policy POLICY --out OUT [--mode replace|add] [--scale S]] [--json]\n');
  process.exit(2);
}
if (args.out && existsSync(args.out)) {
  process.stderr.write(`${args.out} exists: give a new file\n`);
  process.exit(2);
}
const started = performance.now();
const decisions: Decision[] = [];
let offset = 0;
for (const path of args.pgn.split(',')) {
  // Game numbers run on across files, so the held-out games are every 10th of them all.
  const found = sideDecisions(readPgnText(path), path, () => ['w', 'b']);
  for (const d of found.decisions) decisions.push({ ...d, game: d.game + offset });
  offset += found.games;
}
const { fit, heldOut } = quietRows(decisions);
const gameLimit = args.games ? Number(args.games) : Infinity;
const fitGames = [...fit.keys()].sort((a, b) => a - b).slice(0, gameLimit);
const rows = fitGames.flatMap((g) => fit.get(g)!);
const ridge = Number(args.ridge);
const material = fitLogistic(rows, ridge, false);
let full = fitLogistic(rows, ridge, true);
const lambda = Number(args.lambda);
if (lambda < 1) {
  for (let round = 0; round < Number(args.rounds); round++) {
    setTdTargets(fitGames.map((g) => fit.get(g)!), full, lambda);
    full = fitLogistic(rows, ridge, true, full);
  }
}
const seconds = (performance.now() - started) / 1000;
const summary = {
  games: fitGames.length,
  positions: rows.length,
  heldOutGames: Math.floor(offset / HELD_OUT_EVERY),
  heldOutPositions: heldOut.length,
  ridge,
  lambda,
  heldOutLogLikelihood: { material: logLikelihood(heldOut, material, false), squares: logLikelihood(heldOut, full, true) },
  fitLogLikelihood: { material: logLikelihood(rows, material, false), squares: logLikelihood(rows, full, true) },
  pieceValues: { material: [...material.subarray(0, MATERIAL)], squares: [...full.subarray(0, MATERIAL)] },
  seconds,
};
if (args.policy && args.out) {
  copyFileSync(args.policy, args.out);
  const model = openMorphDatabase(args.out, { quickCheck: false });
  // The player reads square values in their own piece values' units (morphPlayer.ts squareUnit); 'add' puts the
  // fitted ones into the policy's units and adds them to its own (from the partner's choices).
  const fitted = { values: [...full.subarray(0, MATERIAL)], squareValues: [...full.subarray(LINE_SQUARES)].map((v) => v * Number(args.scale)) };
  const own = getMetaJson<LearnedSquares>(model, CHOICE_SQUARES_KEY);
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
  const squares =
    args.mode === 'add' && own
      ? { values: own.values, squareValues: own.squareValues.map((v, k) => v + (fitted.squareValues[k] * sum(own.values)) / sum(fitted.values)) }
      : fitted;
  setMeta(model, CHOICE_SQUARES_KEY, {
    ...squares,
    decisions: rows.length,
    of: rows.length,
    rounds: 0,
    tapered: true,
    source: 'results',
  });
  model.close();
}
if (args.json) console.log(JSON.stringify(summary));
else {
  const f = (x: number) => x.toFixed(4);
  console.log(
    `${summary.games} games, ${summary.positions} quiet positions (held out: ${heldOut.length}); ridge ${ridge}, lambda ${lambda}; ` +
      `held-out log-likelihood a position: material ${f(summary.heldOutLogLikelihood.material)}, with squares ${f(summary.heldOutLogLikelihood.squares)}; ` +
      `piece values ${summary.pieceValues.squares.map((v) => v.toFixed(3)).join(' ')}; ${seconds.toFixed(0)} s` +
      (args.out ? `; written to ${args.out}` : ''),
  );
}
