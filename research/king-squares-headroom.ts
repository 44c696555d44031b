/**
 * Would square values that depend on where the kings stand keep learning where today's stop? (issue 12, the curve;
 * an experiment, 2026-12-04.) Morph's square values (src/model/choiceEvaluation.ts) are one tapered table per piece
 * type, 776 weights, and they stop improving at about 3,000 games. Engines' evaluations, and NNUE's first layer,
 * read a piece's square together with its own king's: a table per king square has room for what a longer run
 * teaches. This asks, before building anything, whether the partner's choices say so.
 *
 * Every decision's lines are found once, at the evaluation of a given policy (its square values), and then:
 * - base: the conditional logit of choiceEvaluation's last round (P N B R Q where the line ends, whether it mates,
 *   is mated or draws, and the tapered square changes), fitted by Newton's method as a policy build fits it;
 * - kings: beside the base fit's score, a weight per piece type and square for each square of its own king, and
 *   another for each square of the enemy king (files mirrored so that the king stands on files e-h: 2 x 32 x 384
 *   weights), learned by AdaGrad from zero with an L2 pull back to zero, so that what few decisions say stays small.
 * Each is fitted on the decisions of the first SMALL games and on those of every game but the last HELD_OUT, and
 * judged on the last HELD_OUT games (every legal move): top-1 (ties at their expectation) and log-likelihood per
 * decision.
 *
 *   node bin/run-ts.js research/king-squares-headroom.ts DB POLICY SMALL HELD_OUT [SMALL_DECISIONS LARGE_DECISIONS]
 */
import { applyMove, cloneBoard, KING, WHITE, type Board } from '../src/chess/board.ts';
import { openDatabaseOfKind } from '../src/store/databaseKind.ts';
import { getMetaJson } from '../src/store/meta.ts';
import { openMorphDatabase } from '../src/store/database.ts';
import { partnerDecisions } from '../src/model/ownPolicy.ts';
import type { Decision } from '../src/model/decisions.ts';
import { addSquareChanges, conditionalLogit, decisionChoices, LINE_SQUARES, type SparseRow } from '../src/model/choiceEvaluation.ts';
import { CHOICE_SQUARES_KEY, endByRule, twoPlyLine } from '../src/model/opponentModel.ts';
import { TAPERED_SQUARE_VALUES, type LearnedSquares } from '../src/eval/squareValues.ts';
import { Random } from '../src/util/random.ts';

const [dbPath, policyPath, smallText, heldOutText, smallDecisionsText = '150000', largeDecisionsText = '400000'] = process.argv.slice(2);
if (!dbPath || !policyPath || !smallText || !heldOutText) {
  process.stderr.write('usage: king-squares-headroom.ts DB POLICY SMALL HELD_OUT [SMALL_DECISIONS LARGE_DECISIONS]\n');
  process.exit(2);
}
const started = performance.now();
const log = (text: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(0)} s] ${text}`);

const policy = openMorphDatabase(policyPath, { readonly: true, quickCheck: false });
const evaluation = getMetaJson<LearnedSquares>(policy, CHOICE_SQUARES_KEY);
policy.close();
if (!evaluation) throw new Error(`${policyPath} has no square values`);
const db = openDatabaseOfKind(dbPath, 'value', { readonly: true, quickCheck: false });
const all = partnerDecisions(db, dbPath, Number.MAX_SAFE_INTEGER);
db.close();
const games = all.games;
const heldOutFrom = games - Number(heldOutText) + 1;
log(`${games} partner games, ${all.decisions.length} decisions; held out: games ${heldOutFrom}-${games}`);

/** Where the kings stand: 2 tables (own king, enemy king) x 32 king squares x 6 piece types x 64 squares. */
const KING_TABLE = 6 * 64;
const KING_DIMS = 2 * 32 * KING_TABLE;

/** A piece's king-square features, as its own side sees the board, with the king's files mirrored to e-h. */
function kingFeatures(board: Board, moverIsWhite: boolean, out: Map<number, number>): void {
  const kings = [-1, -1]; // White's, Black's
  for (let sq = 0; sq < 64; sq++) {
    if (board.squares[sq] === KING) kings[0] = sq;
    else if (board.squares[sq] === -KING) kings[1] = sq;
  }
  for (let sq = 0; sq < 64; sq++) {
    const piece = board.squares[sq];
    if (piece === 0) continue;
    const white = piece > 0;
    const type = Math.abs(piece) - 1;
    const flip = white ? 0 : 56;
    const sign = white === moverIsWhite ? 1 : -1;
    for (let table = 0; table < 2; table++) {
      const king = kings[table === 0 ? (white ? 0 : 1) : white ? 1 : 0];
      if (king < 0) continue;
      let kingSq = king ^ flip;
      let pieceSq = sq ^ flip;
      if ((kingSq & 7) < 4) {
        kingSq ^= 7;
        pieceSq ^= 7;
      }
      const kingIndex = (kingSq >> 3) * 4 + (kingSq & 7) - 4;
      const k = table * 32 * KING_TABLE + kingIndex * KING_TABLE + type * 64 + pieceSq;
      out.set(k, (out.get(k) ?? 0) + sign);
    }
  }
}

interface Decided {
  base: SparseRow[];
  kings: SparseRow[];
  chosen: number;
}

const toRow = (row: Map<number, number>): SparseRow => ({ index: Int32Array.from(row.keys()), value: Float64Array.from(row.values()) });

/** Each decision's moves (all, or the chosen one and alternatives - 1 others), with the features of their lines. */
function decide(decisions: readonly Decision[], alternatives: number, random: Random): Decided[] {
  const out: Decided[] = [];
  for (const { history, moves, chosen } of decisionChoices(decisions, alternatives, random)) {
    const board = history.board;
    const next = cloneBoard(board);
    const moverIsWhite = board.turn === WHITE;
    const base: SparseRow[] = [];
    const kings: SparseRow[] = [];
    // Features every move shares cancel in the logit: each line's king features less the root's, mostly zeros.
    const rootKings = new Map<number, number>();
    kingFeatures(board, moverIsWhite, rootKings);
    for (const move of moves) {
      applyMove(board, move, next);
      const found = twoPlyLine(next, evaluation!.values, endByRule(history, next), evaluation!.squareValues);
      const row = new Map<number, number>();
      const kingRow = new Map<number, number>();
      if (found.difference) {
        found.difference.forEach((d, k) => d !== 0 && row.set(k, d));
        addSquareChanges(board, found.end, moverIsWhite, row, true);
        kingFeatures(found.end, moverIsWhite, kingRow);
        for (const [k, v] of rootKings) kingRow.set(k, (kingRow.get(k) ?? 0) - v);
        for (const [k, v] of kingRow) if (v === 0) kingRow.delete(k);
      } else {
        row.set(found.balance > 0 ? 5 : found.balance < 0 ? 6 : 7, 1);
        for (const [k, v] of rootKings) kingRow.set(k, -v); // no king features where the game ends
      }
      base.push(toRow(row));
      kings.push(toRow(kingRow));
    }
    out.push({ base, kings, chosen });
  }
  return out;
}

const evenSample = (decisions: readonly Decision[], count: number): Decision[] => {
  const n = Math.min(count, decisions.length);
  return Array.from({ length: n }, (_, k) => decisions[Math.floor((k * decisions.length) / n)]);
};

const dot = (row: SparseRow, w: Float64Array): number => {
  let s = 0;
  for (let j = 0; j < row.index.length; j++) s += w[row.index[j]] * row.value[j];
  return s;
};

/** AdaGrad on the king tables beside the base score; returns the tables. */
function fitKings(train: readonly Decided[], baseWeights: Float64Array, { rate, pull, epochs }: { rate: number; pull: number; epochs: number }): Float64Array {
  const w = new Float64Array(KING_DIMS);
  const squares = new Float64Array(KING_DIMS).fill(1e-8);
  const random = new Random(7);
  const order = Array.from(train.keys());
  const gradient = new Map<number, number>();
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = random.int(i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const i of order) {
      const { base, kings, chosen } = train[i];
      const scores = base.map((row, s) => dot(row, baseWeights) + dot(kings[s], w));
      const top = Math.max(...scores);
      const exps = scores.map((s) => Math.exp(s - top));
      const z = exps.reduce((a, b) => a + b, 0);
      gradient.clear();
      kings.forEach((row, s) => {
        const p = exps[s] / z - (s === chosen ? 1 : 0); // the loss's gradient: sum_s p_s x_s - x_chosen
        if (p === 0) return;
        for (let j = 0; j < row.index.length; j++) gradient.set(row.index[j], (gradient.get(row.index[j]) ?? 0) + p * row.value[j]);
      });
      for (const [k, g0] of gradient) {
        const g = g0 + pull * w[k];
        squares[k] += g * g;
        w[k] -= (rate * g) / Math.sqrt(squares[k]);
      }
    }
  }
  return w;
}

/** Top-1 (ties at their expectation) and mean log-likelihood on `decided`, each move scored by `score`. */
function judge(decided: readonly Decided[], score: (d: Decided, s: number) => number): { top1: number; logLikelihood: number } {
  let top1 = 0;
  let logLikelihood = 0;
  for (const d of decided) {
    const scores = d.base.map((_, s) => score(d, s));
    const top = Math.max(...scores);
    const tied = scores.filter((s) => s >= top - 1e-12).length;
    if (scores[d.chosen] >= top - 1e-12) top1 += 1 / tied;
    const z = scores.reduce((a, s) => a + Math.exp(s - top), 0);
    logLikelihood += scores[d.chosen] - top - Math.log(z);
  }
  return { top1: top1 / decided.length, logLikelihood: logLikelihood / decided.length };
}

const heldOut = decide(all.decisions.filter((d) => d.game >= heldOutFrom), Infinity, new Random(1));
log(`held out: ${heldOut.length} decisions, every move`);
const settings = [
  { rate: 0.02, pull: 1e-3, epochs: 2 },
  { rate: 0.01, pull: 1e-3, epochs: 2 },
  { rate: 0.005, pull: 1e-3, epochs: 3 },
];
const smallGames = Number(smallText);
for (const [name, upTo, count] of [
  ['small', smallGames, Number(smallDecisionsText)],
  ['large', heldOutFrom - 1, Number(largeDecisionsText)],
] as const) {
  const offered = all.decisions.filter((d) => d.game <= upTo);
  const train = decide(evenSample(offered, count), 8, new Random(2));
  log(`${name}: games 1-${upTo}, ${train.length} of ${offered.length} decisions (8 moves each), lines found`);
  const baseWeights = conditionalLogit(
    train.map((d) => d.base),
    train.map((d) => d.chosen),
    LINE_SQUARES + TAPERED_SQUARE_VALUES,
    1e-3,
  );
  const base = judge(heldOut, (d, s) => dot(d.base[s], baseWeights));
  log(`${name} base: top-1 ${(100 * base.top1).toFixed(2)}%, log-likelihood ${base.logLikelihood.toFixed(4)}`);
  for (const setting of settings) {
    const kings = fitKings(train, baseWeights, setting);
    const withKings = judge(heldOut, (d, s) => dot(d.base[s], baseWeights) + dot(d.kings[s], kings));
    log(
      `${name} + kings ${JSON.stringify(setting)}: top-1 ${(100 * withKings.top1).toFixed(2)}%, ` +
        `log-likelihood ${withKings.logLikelihood.toFixed(4)} (${(withKings.logLikelihood - base.logLikelihood).toFixed(4)} on base)`,
    );
  }
}
