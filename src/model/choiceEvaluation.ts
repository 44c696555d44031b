/**
 * What a player's own choices say its search values (material "two-ply" of the opponent models, and Morph's square
 * values from its partner's choices): each legal move's two-ply line is found at the current evaluation, and a
 * conditional logit over the legal moves, chosen against the rest, scores the material where the line ends and,
 * with square rounds, each piece type on each square.
 */
import { applyMove, cloneBoard, parseUciMove, uciMove, WHITE, type Board } from '../chess/board.ts';
import { generateLegalMoves } from '../chess/movegen.ts';
import { fitPieceValues, solveLinearSystem, type MaterialEvidence } from '../eval/materialFit.ts';
import { materialDifference } from '../graph/positionGraph.ts';
import { decisionHistories, type Decision } from './decisions.ts';
import { officerShare, SQUARE_VALUES, squareValueIndex, TAPERED_SQUARE_VALUES, type LearnedSquares } from '../eval/squareValues.ts';
import { endByRule, twoPlyLine } from './opponentModel.ts';
import { Random } from '../util/random.ts';

/** One successor's features for conditionalLogit: the nonzero ones, by index. */
export interface SparseRow {
  index: Int32Array;
  value: Float64Array;
}

export const sparseRow = (dense: Float64Array): SparseRow => {
  const index = Int32Array.from(dense.keys()).filter((k) => dense[k] !== 0);
  return { index, value: Float64Array.from(index, (k) => dense[k]) };
};

/**
 * The maximum-likelihood weights of a conditional logit with a few hundred features at most, by Newton's method:
 * `rows[i][s]` holds decision i's successor s's features, `chosen[i]` the successor chosen. A ridge keeps a
 * feature that separates the choices perfectly (a mate is always taken) finite. Rows are sparse; the Hessian is
 * dense (dims x dims).
 */
export function conditionalLogit(rows: readonly SparseRow[][], chosen: readonly number[], dims: number, ridge = 1): Float64Array {
  const mean = new Float64Array(dims);
  const inMean = new Uint8Array(dims);
  const touched: number[] = [];
  const likelihood = (w: Float64Array, gradient?: Float64Array, hessian?: Float64Array[]): number => {
    let total = 0;
    for (let k = 0; k < dims; k++) total -= (ridge / 2) * w[k] * w[k];
    gradient?.forEach((_, k) => (gradient[k] = -ridge * w[k]));
    hessian?.forEach((row, k) => row.forEach((_, l) => (row[l] = k === l ? -ridge : 0)));
    rows.forEach((successors, i) => {
      const scores = successors.map((x) => x.index.reduce((sum, k, j) => sum + w[k] * x.value[j], 0));
      const top = Math.max(...scores);
      let z = 0;
      for (let s = 0; s < scores.length; s++) z += (scores[s] = Math.exp(scores[s] - top));
      total += Math.log(scores[chosen[i]] / z);
      if (!gradient || !hessian) return;
      // H -= sum_s p_s x_s x_s' - m m', with m = sum_s p_s x_s over the features any successor has.
      touched.length = 0;
      successors.forEach((x, s) => {
        const p = scores[s] / z;
        x.index.forEach((k, a) => {
          if (!inMean[k]) {
            inMean[k] = 1;
            touched.push(k);
          }
          mean[k] += p * x.value[a];
          x.index.forEach((l, b) => (hessian[k][l] -= p * x.value[a] * x.value[b]));
        });
      });
      const own = successors[chosen[i]];
      own.index.forEach((k, a) => (gradient[k] += own.value[a]));
      for (const k of touched) {
        gradient[k] -= mean[k];
        for (const l of touched) hessian[k][l] += mean[k] * mean[l];
      }
      for (const k of touched) mean[k] = inMean[k] = 0;
    });
    return total;
  };
  const weights = new Float64Array(dims);
  const gradient = new Float64Array(dims);
  const hessian = Array.from({ length: dims }, () => new Float64Array(dims));
  let current = likelihood(weights, gradient, hessian);
  for (let iteration = 0; iteration < 30; iteration++) {
    // The Newton step: (-H) step = g, as the rows of [-H | g].
    const step = solveLinearSystem(hessian.map((row, k) => Float64Array.from([...row.map((v) => -v), gradient[k]])));
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
  return weights;
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

/** Line-end features: P N B R Q, then whether the line mates, is mated or draws, then the square values. */
export const LINE_SQUARES = 8;
/**
 * Rounds of the square values' fit, each finding the lines again at the last round's evaluation, and its ridge.
 * Measured on ab:2,q's held-out moves ranked by the line alone (training/RESULTS.md, 2026-11-25 evening): 84.5,
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
  { piecesFirst = true, alternatives = Infinity, seed = 1, tapered = false } = {},
): LearnedEvaluation {
  const random = new Random(seed);
  let evaluation: LearnedEvaluation = { values: [...values] };
  for (let round = piecesFirst ? 0 : 1; round <= squareRounds; round++) {
    const withSquares = round > 0;
    const tables = withSquares ? (tapered ? TAPERED_SQUARE_VALUES : SQUARE_VALUES) : 0;
    const dims = LINE_SQUARES + tables;
    /** How many successors' lines each feature takes part in. */
    const seen = new Int32Array(dims);
    const rows: SparseRow[][] = [];
    const chosen: number[] = [];
    for (const [decision, history] of decisionHistories(decisions)) {
      const board = history.board;
      const legal = generateLegalMoves(board);
      if (legal.length < 2) continue;
      const chosenMove = legal.find((m) => uciMove(m) === decision.chosen)!;
      const moves = legal.length > alternatives ? sampledAlternatives(legal, chosenMove, alternatives, random) : legal;
      const next = cloneBoard(board);
      rows.push(
        moves.map((move) => {
          applyMove(board, move, next);
          const end = endByRule(history, next);
          const line = twoPlyLine(next, evaluation.values, end, evaluation.squareValues);
          const row = new Map<number, number>();
          if (line.difference) {
            line.difference.forEach((d, k) => d !== 0 && row.set(k, d));
            if (withSquares) addSquareChanges(board, line.end, board.turn === WHITE, row, tapered);
          } else row.set(line.balance > 0 ? 5 : line.balance < 0 ? 6 : 7, 1);
          for (const k of row.keys()) seen[k]++;
          return { index: Int32Array.from(row.keys()), value: Float64Array.from(row.values()) };
        }),
      );
      chosen.push(moves.indexOf(chosenMove));
    }
    const implied = conditionalLogit(rows, chosen, dims, withSquares ? SQUARE_RIDGE : 1);
    const pieceValues = [...implied.subarray(0, 5)];
    const squareValues = withSquares ? [...implied.subarray(LINE_SQUARES)] : undefined;
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
    const scale = values.reduce((a, b) => a + b, 0) / Math.max(1e-9, pieceValues.reduce((a, b) => a + Math.max(0, b), 0));
    evaluation = {
      values: pieceValues.map((v) => Math.max(LEAST_PIECE_VALUE, v * scale)),
      ...(squareValues ? { squareValues: squareValues.map((v) => v * scale) } : {}),
    };
  }
  return evaluation;
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
 * every move's line. Measured against ab:2,q, 400 games paired by opening (training/RESULTS.md, 2026-11-28
 * morning): on a 10,000-game database, 150,000 decisions from all its games, eight alternatives, tapered, +.044
 * [+.000, +.087] a game over the former default (15,000 decisions of the last 1,000 games, every move, one
 * table); the same as one table +.025 [-.020, +.070]. Fitting took 935 s (727 s as one table).
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
}

/** The square values `decisions` imply (above), or null when too few of them have a game result to start from. */
export function fitChoiceSquares(
  decisions: readonly Decision[],
  { maxDecisions = CHOICE_SQUARE_DECISIONS, rounds = CHOICE_SQUARE_ROUNDS, alternatives = CHOICE_SQUARE_ALTERNATIVES, tapered = true } = {},
): ChoiceSquaresFit | null {
  const byResult = resultPieceValues(decisions);
  if (byResult === null) return null;
  const start = floorPieceValues(byResult);
  const count = Math.min(decisions.length, maxDecisions);
  const sample = Array.from({ length: count }, (_, k) => decisions[Math.floor((k * decisions.length) / count)]);
  const { values, squareValues } = choiceEvaluation(sample, start, rounds, { piecesFirst: false, alternatives, tapered });
  return {
    values,
    squareValues: squareValues!,
    decisions: sample.length,
    of: decisions.length,
    rounds,
    ...(Number.isFinite(alternatives) ? { alternatives } : {}),
    tapered,
  };
}
