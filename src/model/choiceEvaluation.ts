/**
 * What a player's own choices say its search values (material "two-ply" of the opponent models, and Morph's square
 * values from its partner's choices): each legal move's two-ply line is found at the current evaluation, and a
 * conditional logit over the legal moves, chosen against the rest, scores the material where the line ends and,
 * with square rounds, each piece type on each square.
 */
import { applyMove, cloneBoard, parseUciMove, uciMove, WHITE, type Board, type CompactMove } from '../chess/board.ts';
import { generateLegalMoves } from '../chess/movegen.ts';
import { fitPieceValues, solvePositiveDefinite, type MaterialEvidence } from '../eval/materialFit.ts';
import { materialDifference } from '../graph/positionGraph.ts';
import { decisionHistories, type Decision } from './decisions.ts';
import type { PositionHistory } from '../chess/history.ts';
import { officerShare, SQUARE_VALUES, squareValueIndex, TAPERED_SQUARE_VALUES, type LearnedSquares } from '../eval/squareValues.ts';
import { endByRule, twoPlyLine } from './opponentModel.ts';
import { Random } from '../util/random.ts';
import type { LineShape } from '../search/search.ts';

/** One successor's features for conditionalLogit: the nonzero ones, by index. */
export interface SparseRow {
  index: Int32Array;
  value: Float64Array;
}

export const sparseRow = (dense: Float64Array): SparseRow => {
  const index = Int32Array.from(dense.keys()).filter((k) => dense[k] !== 0);
  return { index, value: Float64Array.from(index, (k) => dense[k]) };
};

/** A Gaussian prior on a conditional logit's weights: its mean, and its precision (dims x dims, row-major). */
export interface LogitPrior {
  mean: Float64Array;
  precision: Float64Array;
}

/** The maximum-a-posteriori weights of a conditional logit, and their precision there (the prior's plus the data's). */
export interface LogitFit {
  weights: Float64Array;
  /** The log-posterior's negative Hessian at `weights` (dims x dims, row-major): a Laplace approximation's precision. */
  precision: Float64Array;
}

/** The ridge as a prior: mean 0, `ridge` on the diagonal. */
export function ridgePrior(dims: number, ridge: number): LogitPrior {
  const precision = new Float64Array(dims * dims);
  for (let k = 0; k < dims; k++) precision[k * dims + k] = ridge;
  return { mean: new Float64Array(dims), precision };
}

/**
 * The maximum-likelihood weights of a conditional logit with a few hundred features at most, by Newton's method:
 * `rows[i][s]` holds decision i's successor s's features, `chosen[i]` the successor chosen. A ridge keeps a
 * feature that separates the choices perfectly (a mate is always taken) finite. Rows are sparse; the Hessian is
 * dense (dims x dims).
 */
export function conditionalLogit(rows: readonly SparseRow[][], chosen: readonly number[], dims: number, ridge = 1): Float64Array {
  return conditionalLogitFit(rows, chosen, dims, ridgePrior(dims, ridge)).weights;
}

/**
 * conditionalLogit under a Gaussian prior, starting from its mean: with the last fit's weights and precision as the
 * prior (a Laplace update), new decisions add to the evidence of the old ones without fitting them again.
 */
export function conditionalLogitFit(rows: readonly SparseRow[][], chosen: readonly number[], dims: number, prior: LogitPrior): LogitFit {
  // Plain loops over typed arrays, and the Hessian flat (dims x dims, row-major): this is a policy rebuild's inner
  // loop, about one fifth of its time when written with closures over nested arrays.
  const mean = new Float64Array(dims);
  const inMean = new Uint8Array(dims);
  const touched = new Int32Array(dims);
  const offset = new Float64Array(dims);
  const scores = new Float64Array(rows.reduce((most, successors) => Math.max(most, successors.length), 1));
  const likelihood = (w: Float64Array, gradient?: Float64Array, hessian?: Float64Array): number => {
    // The prior: -(w - m)' P (w - m) / 2, its gradient -P (w - m) and Hessian -P.
    for (let k = 0; k < dims; k++) offset[k] = w[k] - prior.mean[k];
    let total = 0;
    for (let k = 0; k < dims; k++) {
      let pull = 0;
      for (let l = 0; l < dims; l++) pull += prior.precision[k * dims + l] * offset[l];
      total -= (offset[k] * pull) / 2;
      if (gradient) gradient[k] = -pull;
      if (hessian) for (let l = 0; l < dims; l++) hessian[k * dims + l] = -prior.precision[k * dims + l];
    }
    for (let i = 0; i < rows.length; i++) {
      const successors = rows[i];
      const count = successors.length;
      let top = -Infinity;
      for (let s = 0; s < count; s++) {
        const { index, value } = successors[s];
        let score = 0;
        for (let j = 0; j < index.length; j++) score += w[index[j]] * value[j];
        scores[s] = score;
        if (score > top) top = score;
      }
      let z = 0;
      for (let s = 0; s < count; s++) z += (scores[s] = Math.exp(scores[s] - top));
      total += Math.log(scores[chosen[i]] / z);
      if (!gradient || !hessian) continue;
      // H -= sum_s p_s x_s x_s' - m m', with m = sum_s p_s x_s over the features any successor has.
      let touchedCount = 0;
      for (let s = 0; s < count; s++) {
        const p = scores[s] / z;
        const { index, value } = successors[s];
        for (let a = 0; a < index.length; a++) {
          const k = index[a];
          if (!inMean[k]) {
            inMean[k] = 1;
            touched[touchedCount++] = k;
          }
          mean[k] += p * value[a];
          const row = k * dims;
          for (let b = 0; b < index.length; b++) hessian[row + index[b]] -= p * value[a] * value[b];
        }
      }
      const own = successors[chosen[i]];
      for (let a = 0; a < own.index.length; a++) gradient[own.index[a]] += own.value[a];
      for (let t = 0; t < touchedCount; t++) {
        const k = touched[t];
        gradient[k] -= mean[k];
        const row = k * dims;
        for (let u = 0; u < touchedCount; u++) hessian[row + touched[u]] += mean[k] * mean[touched[u]];
      }
      for (let t = 0; t < touchedCount; t++) mean[touched[t]] = inMean[touched[t]] = 0;
    }
    return total;
  };
  const weights = Float64Array.from(prior.mean);
  const gradient = new Float64Array(dims);
  const hessian = new Float64Array(dims * dims);
  let current = likelihood(weights, gradient, hessian);
  for (let iteration = 0; iteration < 30; iteration++) {
    // The Newton step: (-H) step = g; -H is the prior's precision plus the data's (positive semi-definite) curvature.
    const step = solvePositiveDefinite(hessian.map((v) => -v), gradient);
    // Halve the step until the likelihood does not fall (the full Newton step can overshoot far from the optimum).
    let trial = weights;
    let next = -Infinity;
    for (let scale = 1; scale > 1e-4 && next < current; scale /= 2) {
      trial = weights.map((w, k) => w + scale * step[k]);
      next = likelihood(trial);
    }
    if (next < current || next - current < 1e-6 * Math.max(1, Math.abs(current))) break;
    weights.set(trial);
    current = likelihood(weights, gradient, hessian);
  }
  return { weights, precision: hessian.map((v) => -v) };
}

/** The evaluation a two-ply search uses: piece values and, when learned, square values (opponentModel.ts learnedLogOdds). */
export interface LearnedEvaluation {
  values: number[];
  squareValues?: number[];
}

/**
 * The chosen move and `count - 1` others drawn evenly from the rest, in their order. A conditional logit fitted on
 * such subsets estimates the same weights as on every move (McFadden's sampling of alternatives: an even draw
 * leaves each subset's odds unchanged), at the cost of a few successors' lines per decision instead of every
 * move's, so more decisions fit in the same time.
 */
export function sampledAlternatives<T>(moves: readonly T[], chosen: T, count: number, random: Random): T[] {
  const others = moves.filter((m) => m !== chosen);
  for (let k = 0; k < count - 1; k++) {
    const j = k + random.int(others.length - k);
    [others[k], others[j]] = [others[j], others[k]];
  }
  const kept = new Set([chosen, ...others.slice(0, count - 1)]);
  return moves.filter((m) => kept.has(m));
}

/**
 * Each decision with two or more legal moves: its position and the moves a fit compares there (every legal move,
 * or past `alternatives` the chosen one and an even draw of the rest, sampledAlternatives), the chosen one's index
 * among them.
 */
export function* decisionChoices(
  decisions: readonly Decision[],
  alternatives: number,
  random: Random,
): Generator<{ history: PositionHistory; moves: CompactMove[]; chosen: number }> {
  for (const [decision, history] of decisionHistories(decisions)) {
    const legal = generateLegalMoves(history.board);
    if (legal.length < 2) continue;
    const chosenMove = legal.find((m) => uciMove(m) === decision.chosen)!;
    const moves = legal.length > alternatives ? sampledAlternatives(legal, chosenMove, alternatives, random) : legal;
    yield { history, moves, chosen: moves.indexOf(chosenMove) };
  }
}

/** Line-end features: P N B R Q, then whether the line mates, is mated or draws, then the square values. */
export const LINE_SQUARES = 8;
/**
 * Rounds of the square values' fit, each finding the lines again at the last round's evaluation, and its ridge.
 * Measured on ab:2,q's held-out moves ranked by the line alone (docs/lab/2026-11.md, 2026-11-25 evening): 84.5,
 * 91.1, 92.6 and 92.6% after one to four rounds at .001; a ridge of .01 a point lower, 1 held the values near 0.
 */
export const SQUARE_ROUNDS = 3;
const SQUARE_RIDGE = 0.001;

/**
 * `row` += where the pieces stand at `end` less where they stood at `root`, by square value index, +1 for the
 * mover's pieces and -1 for its opponent's (the squares that did not change cancel). With `tapered` tables each
 * piece counts its officer share (squareValues.ts) in the first table and the rest in the second; when the line
 * changes the share, every piece's weight changes, not only those that moved.
 */
export function addSquareChanges(root: Board, end: Board, moverIsWhite: boolean, row: Map<number, number>, tapered: boolean): void {
  const rootShare = tapered ? officerShare(root) : 1;
  const endShare = tapered ? officerShare(end) : 1;
  const add = (piece: number, sq: number, share: number, sign: number) => {
    const k = LINE_SQUARES + squareValueIndex(piece, sq);
    const signed = piece > 0 === moverIsWhite ? sign : -sign;
    row.set(k, (row.get(k) ?? 0) + signed * share);
    if (tapered) row.set(k + SQUARE_VALUES, (row.get(k + SQUARE_VALUES) ?? 0) + signed * (1 - share));
  };
  for (let sq = 0; sq < 64; sq++) {
    if (root.squares[sq] === end.squares[sq] && rootShare === endShare) continue;
    if (root.squares[sq] !== 0) add(root.squares[sq], sq, rootShare, -1);
    if (end.squares[sq] !== 0) add(end.squares[sq], sq, endShare, 1);
  }
  // A piece that stayed put while the share changed, or a square's endgame table at a share of 1, can leave zeros.
  if (tapered) for (const [k, v] of row) if (Math.abs(v) < 1e-12) row.delete(k);
}

/**
 * With material "two-ply": the evaluation the player's own choices imply. Each move's two-ply line is found at
 * the current evaluation (first `values`: from the games' results or the linear fit), and a conditional logit on
 * the material difference where the line ends (P N B R Q, beside whether it mates, is mated or draws) gives a score
 * per piece: what the player gives up, and goes for, in its search. `squareRounds` more rounds (SQUARE_ROUNDS in a model) also
 * score each piece type and square from where the pieces stand at the line's end, each round finding the lines
 * again with the last one's evaluation (a search's line depends on its evaluation); without `piecesFirst` the
 * first lines are found at `values` themselves, a round saved. Scaled so that the piece values
 * sum to the first values' total, keeping the two-ply balances on the logistic's readable range. Measured on
 * ab:2,q (held-out top-1): the pawn the results gave (.05, the floor) cost 9 points against textbook values given
 * by hand as a diagnostic.
 */
export function choiceEvaluation(
  decisions: readonly Decision[],
  values: readonly number[],
  squareRounds: number,
  { piecesFirst = true, alternatives = Infinity, seed = 1, tapered = false, line = 'quiescence' as LineShape } = {},
): LearnedEvaluation {
  return choiceEvaluationFit(decisions, values, squareRounds, { piecesFirst, alternatives, seed, tapered, line }).evaluation;
}

/** A choice evaluation's last round: its logit's fit, and how many successors' lines each feature took part in. */
interface ChoiceRound {
  fit: LogitFit;
  seen: Float64Array;
}

/** choiceEvaluation, with its last round's fit (what an accumulating square fit carries on, SquareEvidence). */
function choiceEvaluationFit(
  decisions: readonly Decision[],
  values: readonly number[],
  squareRounds: number,
  {
    piecesFirst,
    alternatives,
    seed,
    tapered,
    line = 'quiescence',
  }: { piecesFirst: boolean; alternatives: number; seed: number; tapered: boolean; line?: LineShape },
): { evaluation: LearnedEvaluation; last: ChoiceRound | null } {
  const random = new Random(seed);
  const total = values.reduce((a, b) => a + b, 0);
  let evaluation: LearnedEvaluation = { values: [...values] };
  let last: ChoiceRound | null = null;
  for (let round = piecesFirst ? 0 : 1; round <= squareRounds; round++) {
    const tables = round > 0 ? (tapered ? TAPERED_SQUARE_VALUES : SQUARE_VALUES) : 0;
    const { rows, chosen, seen } = choiceRows(decisions, evaluation, { tables, alternatives, random, line });
    const dims = LINE_SQUARES + tables;
    const fit = conditionalLogitFit(rows, chosen, dims, ridgePrior(dims, tables > 0 ? SQUARE_RIDGE : 1));
    evaluation = impliedEvaluation(fit.weights, seen, tables, total);
    last = { fit, seen };
  }
  return { evaluation, last };
}

/**
 * The conditional logit's rows for `decisions`: each decision's moves (the chosen one and, past `alternatives`, an
 * even draw of the rest), each with the features of its two-ply line at `evaluation`: the material where the line
 * ends, or whether it mates, is mated or draws, then with `tables` the square changes (addSquareChanges).
 */
function choiceRows(
  decisions: readonly Decision[],
  evaluation: LearnedEvaluation,
  { tables, alternatives, random, line = 'quiescence' }: { tables: number; alternatives: number; random: Random; line?: LineShape },
): { rows: SparseRow[][]; chosen: number[]; seen: Float64Array } {
  const seen = new Float64Array(LINE_SQUARES + tables);
  const rows: SparseRow[][] = [];
  const chosen: number[] = [];
  for (const { history, moves, chosen: chosenIndex } of decisionChoices(decisions, alternatives, random)) {
    const board = history.board;
    const next = cloneBoard(board);
    rows.push(
      moves.map((move) => {
        applyMove(board, move, next);
        const end = endByRule(history, next);
        const found = twoPlyLine(next, evaluation.values, end, evaluation.squareValues, line);
        const row = new Map<number, number>();
        if (found.difference) {
          found.difference.forEach((d, k) => d !== 0 && row.set(k, d));
          if (tables > 0) addSquareChanges(board, found.end, board.turn === WHITE, row, tables === TAPERED_SQUARE_VALUES);
        } else row.set(found.balance > 0 ? 5 : found.balance < 0 ? 6 : 7, 1);
        for (const k of row.keys()) seen[k]++;
        return { index: Int32Array.from(row.keys()), value: Float64Array.from(row.values()) };
      }),
    );
    chosen.push(chosenIndex);
  }
  return { rows, chosen, seen };
}

/**
 * The evaluation a logit's weights imply: piece values, then with `tables` square values centred (below), all
 * scaled so that the piece values sum to `total`.
 */
function impliedEvaluation(implied: Float64Array, seen: Float64Array, tables: number, total: number): LearnedEvaluation {
  const pieceValues = [...implied.subarray(0, 5)];
  const squareValues = tables > 0 ? [...implied.subarray(LINE_SQUARES)] : undefined;
  if (squareValues) {
    // A piece's value and its square's value only ever count as their sum (every piece stands on a square): centre
    // each piece type's square values on the squares its lines reached, weighted by how often, so that the piece
    // value is its mean worth, what the settled loss counts. A square never reached keeps that mean. Tapered
    // tables share one mean: a piece counts the two tables' blend, whose weights sum to 1.
    const halves = tables / SQUARE_VALUES;
    for (let type = 0; type < 6; type++) {
      let sum = 0;
      let count = 0;
      for (let half = 0; half < halves; half++) {
        for (let sq = 0; sq < 64; sq++) {
          const k = half * SQUARE_VALUES + type * 64 + sq;
          sum += seen[LINE_SQUARES + k] * squareValues[k];
          count += seen[LINE_SQUARES + k];
        }
      }
      const mean = count > 0 ? sum / count : 0;
      for (let half = 0; half < halves; half++) {
        for (let sq = 0; sq < 64; sq++) {
          const k = half * SQUARE_VALUES + type * 64 + sq;
          squareValues[k] = seen[LINE_SQUARES + k] > 0 ? squareValues[k] - mean : 0;
        }
      }
      if (type < 5) pieceValues[type] += mean; // the kings' means cancel: one each
    }
  }
  const scale = total / Math.max(1e-9, pieceValues.reduce((a, b) => a + Math.max(0, b), 0));
  return {
    values: pieceValues.map((v) => Math.max(LEAST_PIECE_VALUE, v * scale)),
    ...(squareValues ? { squareValues: squareValues.map((v) => v * scale) } : {}),
  };
}

/** The least value a piece gets in the settling quiescence: every piece is worth taking. */
export const LEAST_PIECE_VALUE = 0.05;

/**
 * Piece values for a settling search, each raised to LEAST_PIECE_VALUE: a piece valued at nothing or less would
 * make the quiescence's captures pointless, and its search explode.
 */
export const floorPieceValues = (values: readonly number[]): number[] => values.map((v) => Math.max(LEAST_PIECE_VALUE, v));
/** Decisions with a known game result needed before the piece values come from the results. */
const LEAST_SCORED_DECISIONS = 100;

/** The piece values fitted to the scores the player made, or null when too few of its games have a result. */
export function resultPieceValues(decisions: readonly Decision[]): number[] | null {
  const evidence = new Map<string, MaterialEvidence & { won: number }>();
  const difference = new Int8Array(5);
  let scored = 0;
  const add = (position: Board, score: number) => {
    const diff = materialDifference(position, difference);
    const key = diff.join(',');
    const entry = evidence.get(key) ?? { diff: diff.slice(), weight: 0, updates: 0, won: 0 };
    entry.updates++;
    entry.won += score;
    entry.weight = entry.won / entry.updates;
    evidence.set(key, entry);
  };
  for (const [decision, history] of decisionHistories(decisions)) {
    if (decision.score === undefined) continue;
    scored++;
    // The position the opponent moved into, and the one the player's choice leads to.
    add(history.board, 1 - decision.score);
    const next = cloneBoard(history.board);
    applyMove(history.board, parseUciMove(decision.chosen)!, next);
    add(next, decision.score);
  }
  return scored < LEAST_SCORED_DECISIONS ? null : [...fitPieceValues(evidence.values())];
}


/**
 * Square values for play (Morph's policy carries them, src/model/ownPolicy.ts): tapered by the officers' share
 * (squareValues.ts), fitted on at most CHOICE_SQUARE_DECISIONS decisions, an even sample, each with its chosen move
 * and CHOICE_SQUARE_ALTERNATIVES - 1 others drawn evenly (sampledAlternatives), in CHOICE_SQUARE_ROUNDS rounds whose
 * first lines are found at the piece values the games' results give. Each decision costs about 8 ms a round with
 * every move's line. Measured against ab:2,q, 400 games paired by opening (docs/lab/2026-11.md, 2026-11-28
 * morning): on a 10,000-game database, 150,000 decisions from all its games, eight alternatives, tapered, +.044
 * [+.000, +.087] a game over the former default (15,000 decisions of the last 1,000 games, every move, one
 * table); the same as one table +.025 [-.020, +.070]. Fitting took 935 s (727 s as one table). A policy's rebuilds
 * add their new games to the kept evidence instead (accumulateChoiceSquares): over the same run's 10,000 games,
 * 100 builds of 100 games took 20 s each (median, shared machine) and played level with the 150,000-decision fit,
 * -.015 [-.060, +.030] (2026-11-28 afternoon); the bound now applies to one build's new decisions.
 */
export const CHOICE_SQUARE_DECISIONS = 150_000;
export const CHOICE_SQUARE_ALTERNATIVES = 8;
export const CHOICE_SQUARE_ROUNDS = 2;

export interface ChoiceSquaresFit extends LearnedSquares {
  /** Decisions fitted on (of `of`), and rounds. */
  decisions: number;
  of: number;
  rounds: number;
  /** Moves a decision's fit looked at, the chosen one included (absent: every legal move), and whether tapered. */
  alternatives?: number;
  tapered: boolean;
  /** Fits whose evidence it holds, when more than one (accumulateChoiceSquares). */
  fits?: number;
}

/**
 * What a square-value fit carries into the next one, so that evidence accumulates over a database's life at a cost
 * bounded by the new games (a Laplace update): the logit's weights and their precision become the next fit's
 * prior, and its lines are found at the evaluation this fit implied. The fit of old and new decisions together is
 * approximated by a fit of the new ones alone under that prior; the old decisions' lines stay as they were found.
 */
export interface SquareEvidence {
  tapered: boolean;
  /** Moves a decision's fit looks at (Infinity: every legal move). */
  alternatives: number;
  /** Decisions whose evidence it holds (sampled from `offered`), and fits it has been through. */
  decisions: number;
  offered: number;
  fits: number;
  /** The piece values' total the evaluation is scaled to: the results' piece values, a mean weighted by decisions. */
  valueTotal: number;
  /** The evaluation the fit implied. */
  evaluation: Required<LearnedEvaluation>;
  /** The logit's weights (before centring and scaling), their precision (dims x dims), and each feature's lines. */
  weights: Float64Array;
  precision: Float64Array;
  seen: Float64Array;
}

export interface SquareFitResult {
  fit: ChoiceSquaresFit;
  evidence: SquareEvidence;
}

export interface SquareFitOptions {
  maxDecisions?: number;
  rounds?: number;
  alternatives?: number;
  tapered?: boolean;
}

/** The square values `decisions` imply (above), or null when too few of them have a game result to start from. */
export function fitChoiceSquares(decisions: readonly Decision[], options: SquareFitOptions = {}): ChoiceSquaresFit | null {
  return accumulateChoiceSquares(decisions, null, options)?.fit ?? null;
}

/**
 * fitChoiceSquares, adding `decisions` to the evidence of `previous` when there is one: a single round whose lines
 * are found at its evaluation, under its weights and precision as the prior, on at most `maxDecisions` of the new
 * decisions. Without `previous`, the fit above from the start, or null when too few decisions have a result. The
 * options must match `previous`'s (SquareEvidence.tapered and alternatives) or it is not used.
 */
export function accumulateChoiceSquares(
  decisions: readonly Decision[],
  previous: SquareEvidence | null,
  { maxDecisions = CHOICE_SQUARE_DECISIONS, rounds = CHOICE_SQUARE_ROUNDS, alternatives = CHOICE_SQUARE_ALTERNATIVES, tapered = true }: SquareFitOptions = {},
): SquareFitResult | null {
  const count = Math.min(decisions.length, maxDecisions);
  const sample = Array.from({ length: count }, (_, k) => decisions[Math.floor((k * decisions.length) / count)]);
  const byResult = resultPieceValues(decisions);
  const summary = (evidence: SquareEvidence, roundsRun: number): SquareFitResult => ({
    fit: {
      values: evidence.evaluation.values,
      squareValues: evidence.evaluation.squareValues,
      decisions: evidence.decisions,
      of: evidence.offered,
      rounds: roundsRun,
      ...(Number.isFinite(alternatives) ? { alternatives } : {}),
      tapered,
      ...(evidence.fits > 1 ? { fits: evidence.fits } : {}),
    },
    evidence,
  });
  if (previous === null || previous.tapered !== tapered || previous.alternatives !== alternatives) {
    if (byResult === null) return null;
    const start = floorPieceValues(byResult);
    const { evaluation, last } = choiceEvaluationFit(sample, start, rounds, { piecesFirst: false, alternatives, seed: 1, tapered });
    const evidence: SquareEvidence = {
      tapered,
      alternatives,
      decisions: sample.length,
      offered: decisions.length,
      fits: 1,
      valueTotal: start.reduce((a, b) => a + b, 0),
      evaluation: evaluation as Required<LearnedEvaluation>,
      weights: last!.fit.weights,
      precision: last!.fit.precision,
      seen: last!.seen,
    };
    return summary(evidence, rounds);
  }
  if (sample.length === 0) return summary(previous, 0); // nothing new: the evidence as it was
  const tables = tapered ? TAPERED_SQUARE_VALUES : SQUARE_VALUES;
  const random = new Random(previous.decisions + 1);
  const { rows, chosen, seen } = choiceRows(sample, previous.evaluation, { tables, alternatives, random });
  const fit = conditionalLogitFit(rows, chosen, LINE_SQUARES + tables, { mean: previous.weights, precision: previous.precision });
  seen.forEach((n, k) => (seen[k] = n + previous.seen[k]));
  const decided = previous.decisions + sample.length;
  const newTotal = byResult === null ? previous.valueTotal : floorPieceValues(byResult).reduce((a, b) => a + b, 0);
  const valueTotal = (previous.valueTotal * previous.decisions + newTotal * sample.length) / Math.max(1, decided);
  const evidence: SquareEvidence = {
    tapered,
    alternatives,
    decisions: decided,
    offered: previous.offered + decisions.length,
    fits: previous.fits + 1,
    valueTotal,
    evaluation: impliedEvaluation(fit.weights, seen, tables, valueTotal) as Required<LearnedEvaluation>,
    weights: fit.weights,
    precision: fit.precision,
    seen,
  };
  return summary(evidence, 1);
}
