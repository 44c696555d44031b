/**
 * Building an opponent model from one player's decisions (see opponentModel.ts for how a model ranks moves).
 *
 * 1. Patterns. The seed patterns of a value database (one-node exact-square and two-node patterns) give every
 *    position something to match. Then, as IAM induced its chunks from the adversary's own positions, each
 *    position the player CHOSE gives node-ordered induced subgraphs grown from the piece it moved (the value
 *    learner's forward creation), and every legal move's position gives its material pattern.
 * 2. Weights. With the hierarchy fixed, the scores are fitted to the choices: a conditional logit (softmax over
 *    each position's legal moves), maximising the likelihood of the chosen move against its alternatives, by
 *    AdaGrad over a few seeded passes, with an L2 pull towards indifference (score 0, weight .5) as evidence
 *    shrinkage: a pattern seen in few decisions keeps a weight near .5. A pattern found after every legal move
 *    of a position says nothing about the choice there and is left out of that decision. A pattern's `updates`
 *    is the number of decisions it took part in.
 *
 * The model is built in memory and written to its file only at the end, whole (src/store/wholeFile.ts: a
 * temporary renamed into place, one writer at a time), so a failure leaves no file behind.
 */
import { writeFileSync } from 'node:fs';
import { applyMove, cloneBoard, parseUciMove, uciMove, WHITE, type Board } from '../chess/board.ts';
import { GameHistory } from '../chess/history.ts';
import { generateLegalMoves } from '../chess/movegen.ts';
import { buildPositionGraph, materialDifference, PositionGraph } from '../graph/positionGraph.ts';
import { fitPieceValues, solveLinearSystem, type MaterialEvidence } from '../eval/materialFit.ts';
import { nodeAtSquare } from '../learn/learningGame.ts';
import { orderedSubpattern } from '../learn/nodeOrder.ts';
import { allSeedPatterns, safetySeedPatterns } from '../learn/seeding.ts';
import type { PatternLanguage } from '../learn/config.ts';
import { materialPattern, withoutSafety } from '../pattern/pattern.ts';
import { setMeta } from '../store/meta.ts';
import { PatternStore } from '../store/patternStore.ts';
import { writeWholeFile } from '../store/wholeFile.ts';
import { badInput } from '../util/errors.ts';
import { Random } from '../util/random.ts';
import { recordDatabaseKind } from '../store/databaseKind.ts';
import type { Decision } from './decisions.ts';
import {
  endByRule, MATERIAL_SCORES_KEY, settledLoss, SQUARE_VALUES, squareValueIndex, successorsOf, twoPlyBalance, twoPlyLine, TERMINAL_SCORES_KEY, weightOfScore, type FeatureSet, type MaterialMode, type MaterialScores,
  type SettleScores,
  type ModelInfo, type ModelPosition, type TerminalScores,
} from './opponentModel.ts';
import type { ModelSearchMode } from '../player/search.ts';

export interface ModelSettings {
  /** Induced patterns per chosen position. */
  patternsPerDecision: number;
  /** Induced patterns have 2..maxSize nodes. */
  maxSize: number;
  /** Passes of the fitting. */
  passes: number;
  learningRate: number;
  /** L2 pull towards score 0 (per decision a pattern takes part in). */
  shrinkage: number;
  /**
   * When not empty, the pull is chosen among these by validation on held-out games (chooseShrinkage), and
   * `shrinkage` records the one chosen.
   */
  shrinkageCandidates: readonly number[];
  /** Which of a position's matching patterns score its move. */
  features: FeatureSet;
  /** The pattern language (learn/config.ts): "safety" adds the en-prise seeds and keeps en prise in induced patterns. */
  language: PatternLanguage;
  /** How far a move is looked at when the model ranks (opponentModel.ts): its own position, or also the opponent's capture replies. */
  search: ModelSearchMode;
  /**
   * Whether the fitting looks as far as `search` (each move's deciding gain found again at every visit) or one
   * ply. Decided, measured: one ply. Fitting through the captures look predicted less well on held-out games
   * than fitting one ply and looking at the captures only when ranking (docs/opponent-models.md), at four
   * times the building time.
   */
  fitThroughSearch: boolean;
  /**
   * "exact": material counts only through the exact material pattern; "linear": also a score per piece of
   * difference; "settled": also a learned weight on each move's settled loss (opponentModel.ts).
   */
  material: MaterialMode;
  /** With material "two-ply": whether its search's evaluation also learns square values (choiceEvaluation). */
  squareValues: boolean;
}

export const DEFAULT_MODEL_SETTINGS: ModelSettings = {
  patternsPerDecision: 2,
  maxSize: 5,
  passes: 4,
  learningRate: 0.3,
  shrinkage: 0.01,
  shrinkageCandidates: [],
  features: 'all',
  language: 'paper',
  search: 'captures',
  fitThroughSearch: false,
  material: 'exact',
  squareValues: false,
};

export interface BuildSummary extends ModelInfo {
  patterns: number;
  /** Decisions with a single legal move (nothing to learn). */
  forced: number;
  /** Mean log-likelihood per decision after fitting (0 is perfect; -log(legal) is random). */
  logLikelihood: number;
  seconds: { patterns: number; fitting: number };
  settings: ModelSettings;
  /** With shrinkage candidates: how each predicted the held-out games' decisions (those with a choice). */
  shrinkageChoice?: ShrinkageChoice;
}

export interface ShrinkageChoice {
  heldOutDecisions: number;
  trials: ShrinkageTrial[];
}

/** Replays decisions in order, reusing one history while they follow each other within a game. */
export function* decisionHistories(decisions: readonly Decision[]): Generator<[Decision, GameHistory]> {
  let history: GameHistory | null = null;
  let game = -1;
  let played = 0;
  let startFen = '';
  for (const decision of decisions) {
    if (history === null || decision.game !== game || decision.startFen !== startFen || decision.before.length < played) {
      history = new GameHistory(decision.startFen);
      game = decision.game;
      startFen = decision.startFen;
      played = 0;
    }
    for (; played < decision.before.length; played++) history.play(decision.before[played]);
    yield [decision, history];
  }
}

function inducePatterns(store: PatternStore, decisions: readonly Decision[], settings: ModelSettings, rng: Random): void {
  store.transaction(() => {
    for (const pattern of allSeedPatterns()) store.insert(pattern, 'seed', 0);
    if (settings.language === 'safety') for (const pattern of safetySeedPatterns()) store.insert(pattern, 'seed', 0);
  });
  const graph = new PositionGraph();
  store.transaction(() => {
    for (const [decision, history] of decisionHistories(decisions)) {
      const board = history.board;
      const next = cloneBoard(board);
      for (const move of generateLegalMoves(board)) {
        applyMove(board, move, next);
        store.insert(materialPattern(buildPositionGraph(next, graph).material), 'material', 0);
      }
      const chosen = parseUciMove(decision.chosen)!;
      applyMove(board, chosen, next);
      buildPositionGraph(next, graph);
      const start = nodeAtSquare(graph, chosen.to);
      if (start < 0) continue;
      for (let i = 0; i < settings.patternsPerDecision; i++) {
        const size = 2 + rng.int(settings.maxSize - 1);
        const induced = orderedSubpattern(graph, start, size, rng);
        const pattern = settings.language === 'paper' ? withoutSafety(induced) : induced;
        if (pattern.labels.length >= 2) store.insert(pattern, 'forward', 0);
      }
    }
  });
}

const CHECKMATE_FEATURE = 0;
const DRAW_FEATURE = 1;
/** Pattern ids are shifted past the two terminal features. */
const FIRST_PATTERN_FEATURE = 2;

/**
 * One decision as the fitting sees it. Successor s has the feature lists [listStart[s], listStart[s+1]): its own
 * position's, then, with capture replies (search "captures"), the declined position's and each reply's. List l
 * is features[featureStart[l] .. featureStart[l+1]). A feature in every own list of the decision adds the same
 * to every score there and says nothing about the choice: it is left out. So is a feature in a successor's
 * declined list and in all its reply lists, which cancels in every gain.
 */
interface FittingCase {
  listStart: Int32Array;
  featureStart: Int32Array;
  features: Int32Array;
  chosen: number;
  /**
   * In the second fit of material "settled" or "two-ply": real-valued features, each with a value per successor
   * (the settled loss, opponentModel.ts settledLoss; with "two-ply", the two-ply balance, twoPlyBalance).
   */
  reals?: Float64Array[];
}

/**
 * A position's features. With material "linear" (materialBase >= 0), the surplus feature of piece type k
 * (materialBase + k) appears once per piece of difference, the deficit feature (materialBase + 5 + k) likewise.
 */
function featureList(position: ModelPosition, materialBase: number): number[] {
  if (position.kind === 'checkmate') return [CHECKMATE_FEATURE];
  if (position.kind === 'draw') return [DRAW_FEATURE];
  const list = position.patterns.map((r) => r.id + FIRST_PATTERN_FEATURE);
  if (materialBase >= 0 && position.material) {
    for (let k = 0; k < 5; k++) {
      const d = position.material[k];
      for (let i = 0; i < Math.abs(d); i++) list.push(materialBase + (d > 0 ? k : 5 + k));
    }
  }
  return list;
}

/**
 * `lists` without the features found in every one of them. Repeating features (the material ones, from `kept`
 * on) are kept: they may repeat a different number of times in each list.
 */
function withoutCommon(lists: number[][], counts: Map<number, number>, kept: number): number[][] {
  counts.clear();
  for (const list of lists) for (const f of list) counts.set(f, (counts.get(f) ?? 0) + 1);
  const common = (f: number) => f < kept && counts.get(f)! === lists.length;
  if (!lists.some((list) => list.some(common))) return lists;
  return lists.map((list) => list.filter((f) => !common(f)));
}

function fittingCases(
  store: PatternStore,
  decisions: readonly Decision[],
  settings: Pick<ModelSettings, 'features' | 'search'>,
  materialBase: number,
): { cases: FittingCase[]; caseGames: number[]; forced: number } {
  const cases: FittingCase[] = [];
  const caseGames: number[] = [];
  let forced = 0;
  const graph = new PositionGraph();
  const counts = new Map<number, number>();
  for (const [decision, history] of decisionHistories(decisions)) {
    const successors = successorsOf(store, history, graph, settings.features, settings.search);
    if (successors.length < 2) {
      forced++;
      continue;
    }
    const kept = materialBase >= 0 ? materialBase : Infinity;
    const own = withoutCommon(successors.map((s) => featureList(s, materialBase)), counts, kept);
    const listStart = new Int32Array(successors.length + 1);
    const lists: number[][] = [];
    successors.forEach((s, i) => {
      lists.push(own[i]);
      if (s.declined) {
        lists.push(...withoutCommon([s.declined, ...s.replies].map((p) => featureList(p, materialBase)), counts, kept));
      }
      listStart[i + 1] = lists.length;
    });
    const featureStart = new Int32Array(lists.length + 1);
    lists.forEach((list, i) => (featureStart[i + 1] = featureStart[i] + list.length));
    const features = new Int32Array(featureStart[lists.length]);
    lists.forEach((list, i) => features.set(list, featureStart[i]));
    const chosen = successors.findIndex((s) => s.move === decision.chosen);
    if (chosen < 0) throw badInput(`game ${decision.game}: ${decision.chosen} is not legal in the replayed position`);
    cases.push({ listStart, featureStart, features, chosen });
    caseGames.push(decision.game);
  }
  return { cases, caseGames, forced };
}

/** The sum of the scores of list `list`'s features. */
function listSum(c: FittingCase, scores: Float64Array, list: number): number {
  let sum = 0;
  for (let k = c.featureStart[list]; k < c.featureStart[list + 1]; k++) sum += scores[c.features[k]];
  return sum;
}

/**
 * Each successor's score in `values` at the current scores, and in `refutation` the list of the capture reply whose
 * gain lowers it (-1: none); returns the highest score.
 */
function successorScores(c: FittingCase, scores: Float64Array, realFeatures: readonly number[], values: Float64Array, refutation: Int32Array): number {
  const { listStart } = c;
  const reals = realFeatures.length ? c.reals : undefined;
  let top = -Infinity;
  for (let s = 0; s < listStart.length - 1; s++) {
    const first = listStart[s];
    let v = listSum(c, scores, first);
    if (listStart[s + 1] - first > 1) {
      const declined = listSum(c, scores, first + 1);
      let largest = 0;
      for (let r = first + 2; r < listStart[s + 1]; r++) {
        const gain = listSum(c, scores, r) - declined;
        if (gain > largest) {
          largest = gain;
          refutation[s] = r;
        }
      }
      v -= largest;
    }
    if (reals) realFeatures.forEach((f, k) => (v += scores[f] * reals[k][s]));
    values[s] = v;
    if (v > top) top = v;
  }
  return top;
}

/**
 * AdaGrad on the conditional logit; returns the scores by feature and the final mean log-likelihood. Each time
 * a decision is visited, each successor's largest capture gain is found again at the current scores; when it
 * lowers the successor's score, the declined and reply positions that make it take the gradient too.
 */
function fitScores(
  cases: FittingCase[],
  featureCount: number,
  settings: ModelSettings,
  rng: Random,
  realFeatures: readonly number[] = [],
): { scores: Float64Array; uses: Int32Array; logLikelihood: number } {
  const scores = new Float64Array(featureCount);
  if (realFeatures.length) realScoresAlone(cases, realFeatures).forEach((score, k) => (scores[realFeatures[k]] = score));
  const squares = new Float64Array(featureCount);
  const gradient = new Float64Array(featureCount);
  const uses = new Int32Array(featureCount);
  const stamp = new Int32Array(featureCount);
  let stampNow = 0;
  for (const c of cases) {
    const seen = new Set<number>(c.features);
    for (const f of seen) uses[f]++;
  }
  const order = cases.map((_, i) => i);
  let logLikelihood = 0;
  // The evidence shrinkage is for patterns, each stepped only in the decisions it appears in. A real-valued
  // feature is stepped in every decision, so the same pull there would hold its weight near 0 thousands of
  // times over: it goes unshrunk.
  const shrinkage = new Float64Array(featureCount).fill(settings.shrinkage);
  for (const f of realFeatures) shrinkage[f] = 0;
  const step = (f: number) => {
    if (stamp[f] === stampNow) return; // a feature of several successors is stepped once
    stamp[f] = stampNow;
    const g = gradient[f];
    gradient[f] = 0;
    const change = g - shrinkage[f] * scores[f];
    squares[f] += change * change;
    if (squares[f] > 0) scores[f] += (settings.learningRate * change) / Math.sqrt(squares[f]);
  };
  for (let pass = 0; pass < settings.passes; pass++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    logLikelihood = 0;
    for (const index of order) {
      const { listStart, featureStart, features, chosen } = cases[index];
      const reals = realFeatures.length ? cases[index].reals : undefined;
      const n = listStart.length - 1;
      const values = new Float64Array(n);
      /** The list of the reply whose gain lowers each successor's score, or -1. */
      const refutation = new Int32Array(n).fill(-1);
      const top = successorScores(cases[index], scores, realFeatures, values, refutation);
      let total = 0;
      for (let s = 0; s < n; s++) total += (values[s] = Math.exp(values[s] - top));
      logLikelihood += Math.log(values[chosen] / total);
      const add = (list: number, pull: number) => {
        for (let k = featureStart[list]; k < featureStart[list + 1]; k++) gradient[features[k]] += pull;
      };
      for (let s = 0; s < n; s++) {
        const pull = (s === chosen ? 1 : 0) - values[s] / total;
        add(listStart[s], pull);
        if (reals) realFeatures.forEach((f, k) => (gradient[f] += pull * reals[k][s]));
        if (refutation[s] >= 0) {
          add(listStart[s] + 1, pull);
          add(refutation[s], -pull);
        }
      }
      stampNow++;
      if (reals) realFeatures.forEach(step);
      const stepList = (list: number) => {
        for (let k = featureStart[list]; k < featureStart[list + 1]; k++) step(features[k]);
      };
      for (let s = 0; s < n; s++) {
        stepList(listStart[s]);
        if (refutation[s] >= 0) {
          stepList(listStart[s] + 1);
          stepList(refutation[s]);
        }
      }
    }
  }
  return { scores, uses, logLikelihood: cases.length ? logLikelihood / cases.length : 0 };
}

/** The pulls `--shrinkage auto` chooses among (ModelSettings.shrinkageCandidates). */
export const SHRINKAGE_CANDIDATES: readonly number[] = [0.01, 0.1, 1, 10];
/** Every VALIDATION_EVERY-th game's decisions judge the candidates (split by game: a game's moves are alike). */
const VALIDATION_EVERY = 5;

/** How one candidate pull predicted the decisions held out of its fit. */
export interface ShrinkageTrial {
  shrinkage: number;
  /** Mean log-likelihood of the chosen move. */
  logLikelihood: number;
  /** Share of decisions whose chosen move scored highest (a tie of k counts 1/k). */
  top1: number;
}

/** Held-out log-likelihood and top-1 of the decisions `held`, at `scores`. */
function heldOutFit(cases: readonly FittingCase[], held: readonly number[], scores: Float64Array, realFeatures: readonly number[]): Omit<ShrinkageTrial, 'shrinkage'> {
  let logLikelihood = 0;
  let top1 = 0;
  for (const index of held) {
    const c = cases[index];
    const n = c.listStart.length - 1;
    const values = new Float64Array(n);
    const top = successorScores(c, scores, realFeatures, values, new Int32Array(n).fill(-1));
    let total = 0;
    let tied = 0;
    for (let s = 0; s < n; s++) {
      if (values[s] === top) tied++;
      total += Math.exp(values[s] - top);
    }
    logLikelihood += values[c.chosen] - top - Math.log(total);
    if (values[c.chosen] === top) top1 += 1 / tied;
  }
  return { logLikelihood: held.length ? logLikelihood / held.length : 0, top1: held.length ? top1 / held.length : 0 };
}

/**
 * Chooses the patterns' pull towards indifference by validation: each candidate is fitted on four games in five and
 * judged by the held-out games' log-likelihood. How much a player's choices owe to patterns rather than to the
 * material search differs by player (training/RESULTS.md, 2026-11-25), so one fixed pull suits some players only.
 */
function chooseShrinkage(
  cases: FittingCase[],
  caseGames: readonly number[],
  featureCount: number,
  settings: ModelSettings,
  seed: number,
  realFeatures: readonly number[],
): ShrinkageChoice & { chosen: number } {
  const fitted: FittingCase[] = [];
  const held: number[] = [];
  caseGames.forEach((game, i) => (game % VALIDATION_EVERY === VALIDATION_EVERY - 1 ? held.push(i) : fitted.push(cases[i])));
  const candidates = settings.shrinkageCandidates;
  if (held.length === 0 || fitted.length === 0) return { chosen: settings.shrinkage, heldOutDecisions: held.length, trials: [] };
  const trials = candidates.map((shrinkage) => {
    const { scores } = fitScores(fitted, featureCount, { ...settings, shrinkage }, new Random(seed), realFeatures);
    return { shrinkage, ...heldOutFit(cases, held, scores, realFeatures) };
  });
  if (trials.length === 0) return { chosen: settings.shrinkage, heldOutDecisions: held.length, trials };
  const best = trials.reduce((a, b) => (b.logLikelihood > a.logLikelihood ? b : a));
  return { chosen: best.shrinkage, heldOutDecisions: held.length, trials };
}

/**
 * Starting scores for the real-valued features: the conditional logit of those features alone (beside the
 * mate and draw scores), fitted by Newton's method. AdaGrad, stepping a feature of every decision, shrinks its
 * steps so fast that from 0 it stays below its fit (measured on ab:2,q's held-out moves: a two-ply weight of 6.7
 * and top-1 65.9% from 0, 10.4 and 68.2% from this start; paired +2.3 [+1.0, +3.6] points).
 */
function realScoresAlone(cases: readonly FittingCase[], realFeatures: readonly number[]): number[] {
  const dims = realFeatures.length + 2;
  const rows = cases.map((c) =>
    Array.from({ length: c.listStart.length - 1 }, (_, s) => {
      const row = new Float64Array(dims);
      c.reals!.forEach((values, k) => (row[k] = values[s]));
      const list = c.features.subarray(c.featureStart[c.listStart[s]], c.featureStart[c.listStart[s] + 1]);
      row[dims - 2] = list.length === 1 && list[0] === CHECKMATE_FEATURE ? 1 : 0;
      row[dims - 1] = list.length === 1 && list[0] === DRAW_FEATURE ? 1 : 0;
      return sparseRow(row);
    }),
  );
  return [...conditionalLogit(rows, cases.map((c) => c.chosen), dims).subarray(0, realFeatures.length)];
}

/** One successor's features for conditionalLogit: the nonzero ones, by index. */
interface SparseRow {
  index: Int32Array;
  value: Float64Array;
}

const sparseRow = (dense: Float64Array): SparseRow => {
  const index = Int32Array.from(dense.keys()).filter((k) => dense[k] !== 0);
  return { index, value: Float64Array.from(index, (k) => dense[k]) };
};

/**
 * The maximum-likelihood weights of a conditional logit with a few hundred features at most, by Newton's method:
 * `rows[i][s]` holds decision i's successor s's features, `chosen[i]` the successor chosen. A ridge keeps a
 * feature that separates the choices perfectly (a mate is always taken) finite. Rows are sparse; the Hessian is
 * dense (dims x dims).
 */
function conditionalLogit(rows: readonly SparseRow[][], chosen: readonly number[], dims: number, ridge = 1): Float64Array {
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
interface LearnedEvaluation {
  values: number[];
  squareValues?: number[];
}

/** Line-end features: P N B R Q, then whether the line mates, is mated or draws, then the square values. */
const LINE_SQUARES = 8;
/**
 * Rounds of the square values' fit, each finding the lines again at the last round's evaluation, and its ridge.
 * Measured on ab:2,q's held-out moves ranked by the line alone (training/RESULTS.md, 2026-11-25 evening): 84.5,
 * 91.1, 92.6 and 92.6% after one to four rounds at .001; a ridge of .01 a point lower, 1 held the values near 0.
 */
const SQUARE_ROUNDS = 3;
const SQUARE_RIDGE = 0.001;

/**
 * `row` += where the pieces stand at `end` less where they stood at `root`, by square value index, +1 for the
 * mover's pieces and -1 for its opponent's (the squares that did not change cancel).
 */
function addSquareChanges(root: Board, end: Board, moverIsWhite: boolean, row: Map<number, number>): void {
  const add = (piece: number, sq: number, sign: number) => {
    const k = LINE_SQUARES + squareValueIndex(piece, sq);
    row.set(k, (row.get(k) ?? 0) + (piece > 0 === moverIsWhite ? sign : -sign));
  };
  for (let sq = 0; sq < 64; sq++) {
    if (root.squares[sq] === end.squares[sq]) continue;
    if (root.squares[sq] !== 0) add(root.squares[sq], sq, -1);
    if (end.squares[sq] !== 0) add(end.squares[sq], sq, 1);
  }
}

/**
 * With material "two-ply": the evaluation the player's own choices imply. Each move's two-ply line is found at
 * the current evaluation (first `values`: from the games' results or the linear fit), and a conditional logit on
 * the material difference where the line ends (P N B R Q, beside whether it mates, is mated or draws) gives a score
 * per piece: what the player gives up, and goes for, in its search. With `squares`, SQUARE_ROUNDS more rounds also
 * score each piece type and square from where the pieces stand at the line's end, each round finding the lines
 * again with the last one's evaluation (a search's line depends on its evaluation). Scaled so that the piece values
 * sum to the first values' total, keeping the two-ply balances on the logistic's readable range. Measured on
 * ab:2,q (held-out top-1): the pawn the results gave (.05, the floor) cost 9 points against textbook values given
 * by hand as a diagnostic.
 */
function choiceEvaluation(decisions: readonly Decision[], values: readonly number[], squares: boolean): LearnedEvaluation {
  let evaluation: LearnedEvaluation = { values: [...values] };
  for (let round = 0; round <= (squares ? SQUARE_ROUNDS : 0); round++) {
    const withSquares = round > 0;
    const dims = LINE_SQUARES + (withSquares ? SQUARE_VALUES : 0);
    /** How many successors' lines each feature takes part in. */
    const seen = new Int32Array(dims);
    const rows: SparseRow[][] = [];
    const chosen: number[] = [];
    for (const [decision, history] of decisionHistories(decisions)) {
      const board = history.board;
      const moves = generateLegalMoves(board);
      if (moves.length < 2) continue;
      const next = cloneBoard(board);
      rows.push(
        moves.map((move) => {
          applyMove(board, move, next);
          const end = endByRule(history, next);
          const line = twoPlyLine(next, evaluation.values, end, evaluation.squareValues);
          const row = new Map<number, number>();
          if (line.difference) {
            line.difference.forEach((d, k) => d !== 0 && row.set(k, d));
            if (withSquares) addSquareChanges(board, line.end, board.turn === WHITE, row);
          } else row.set(line.balance > 0 ? 5 : line.balance < 0 ? 6 : 7, 1);
          for (const k of row.keys()) seen[k]++;
          return { index: Int32Array.from(row.keys()), value: Float64Array.from(row.values()) };
        }),
      );
      chosen.push(moves.findIndex((m) => uciMove(m) === decision.chosen));
    }
    const implied = conditionalLogit(rows, chosen, dims, withSquares ? SQUARE_RIDGE : 1);
    const pieceValues = [...implied.subarray(0, 5)];
    const squareValues = withSquares ? [...implied.subarray(LINE_SQUARES)] : undefined;
    if (squareValues) {
      // A piece's value and its square's value only ever count as their sum (every piece stands on a square): centre
      // each piece type's square values on the squares its lines reached, weighted by how often, so that the piece
      // value is its mean worth, what the settled loss counts. A square never reached keeps that mean.
      for (let type = 0; type < 6; type++) {
        let sum = 0;
        let count = 0;
        for (let sq = 0; sq < 64; sq++) {
          const n = seen[LINE_SQUARES + type * 64 + sq];
          sum += n * squareValues[type * 64 + sq];
          count += n;
        }
        const mean = count > 0 ? sum / count : 0;
        for (let sq = 0; sq < 64; sq++) {
          squareValues[type * 64 + sq] = seen[LINE_SQUARES + type * 64 + sq] > 0 ? squareValues[type * 64 + sq] - mean : 0;
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
const LEAST_PIECE_VALUE = 0.05;
/** Decisions with a known game result needed before the piece values come from the results. */
const LEAST_SCORED_DECISIONS = 100;

/**
 * Piece values for the settling quiescence. From the games' results when they are known: the piece values that
 * best explain the player's score by the material after each of its moves (maximum likelihood, as Morph's value
 * database fits its own, eval/materialFit.ts). Otherwise from the first, linear fit: per piece type, half the
 * score of having one more less the score of having one fewer. The second come out compressed (a
 * rook worth about a pawn in a model of ab:2,q), so the quiescence would take a bishop for a pawn as a gain; in
 * prediction the two measured alike (training/RESULTS.md, 2026-11-25 late morning).
 */
function settleValues(scores: Float64Array, materialBase: number, decisions: readonly Decision[]): number[] {
  const byResult = resultPieceValues(decisions);
  const values = byResult ?? [0, 1, 2, 3, 4].map((k) => (scores[materialBase + k] - scores[materialBase + 5 + k]) / 2);
  return values.map((v) => Math.max(LEAST_PIECE_VALUE, v));
}

/** The piece values fitted to the scores the player made, or null when too few of its games have a result. */
function resultPieceValues(decisions: readonly Decision[]): number[] | null {
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
 * Each fitting case's successors' settled losses and, with `twoPly`, their two-ply balances, in the order
 * fittingCases made them (every legal move, in the move generator's order; forced decisions have no case).
 * Mates and draws by rule have their own scores: 0 here.
 */
function addSettledFeatures(cases: FittingCase[], decisions: readonly Decision[], evaluation: LearnedEvaluation, twoPly: boolean): void {
  const { values, squareValues } = evaluation;
  let index = 0;
  for (const [, history] of decisionHistories(decisions)) {
    const board = history.board;
    const moves = generateLegalMoves(board);
    if (moves.length < 2) continue;
    const next = cloneBoard(board);
    const losses = new Float64Array(moves.length);
    const changes = new Float64Array(twoPly ? moves.length : 0);
    moves.forEach((move, s) => {
      applyMove(board, move, next);
      const end = endByRule(history, next);
      if (end === null) losses[s] = settledLoss(next, values);
      if (twoPly) changes[s] = twoPlyBalance(next, values, end, squareValues);
    });
    cases[index++].reals = twoPly ? [losses, changes] : [losses];
  }
  if (index !== cases.length) throw new Error(`settled losses for ${index} of ${cases.length} decisions`);
}

export interface BuildRequest {
  out: string;
  player: string;
  /** What the decisions came from (a PGN file, or the watched specs). */
  source: string;
  games: number;
  decisions: readonly Decision[];
  seed: number;
  /** For a value database's own policy: the last of its games used. */
  lastGame?: number;
  /** Whether an existing `out` is replaced (a database's own policy); otherwise it is refused. */
  replace?: boolean;
  settings?: Partial<ModelSettings>;
  onProgress?: (message: string) => void;
}

/** The commands that write model files, named when a second writer of the same file is refused. */
const MODEL_WRITERS = 'morph model, or morph train rebuilding its policy';

/**
 * Builds the model and writes it to `request.out` (src/store/wholeFile.ts): the file appears, or replaces the
 * old one, only when complete, and a second build of the same file at the same time is refused in one line.
 */
export function buildModel(request: BuildRequest): BuildSummary {
  return writeWholeFile(request.out, { replace: request.replace === true, writers: MODEL_WRITERS }, (temporary) =>
    buildModelInto(temporary, request),
  );
}

function buildModelInto(file: string, request: BuildRequest): BuildSummary {
  const settings = { ...DEFAULT_MODEL_SETTINGS, ...request.settings };
  const rng = new Random(request.seed);
  const store = PatternStore.open(':memory:');
  try {
    const started = performance.now();
    inducePatterns(store, request.decisions, settings, rng);
    const induced = performance.now();
    request.onProgress?.(`${store.size} patterns in ${((induced - started) / 1000).toFixed(1)} s; fitting`);
    let maxId = 0;
    for (const record of store.hierarchy.byId.values()) maxId = Math.max(maxId, record.id);
    const materialBase = settings.material !== 'exact' ? maxId + FIRST_PATTERN_FEATURE + 1 : -1;
    const fitting = { features: settings.features, search: settings.fitThroughSearch ? settings.search : 'one-ply' } as const;
    const { cases, caseGames, forced } = fittingCases(store, request.decisions, fitting, materialBase);
    const featureCount = maxId + FIRST_PATTERN_FEATURE + 1 + (materialBase >= 0 ? 10 : 0);
    let shrinkageChoice: ShrinkageChoice | undefined;
    /** Before the last fit, with candidates: the pull chosen by validation becomes the model's. */
    const choosePull = (count: number, reals: readonly number[]) => {
      if (settings.shrinkageCandidates.length === 0) return;
      const choice = chooseShrinkage(cases, caseGames, count, settings, request.seed, reals);
      settings.shrinkage = choice.chosen;
      shrinkageChoice = { heldOutDecisions: choice.heldOutDecisions, trials: choice.trials };
      const tried = choice.trials.map((t) => `${t.shrinkage}: ${t.logLikelihood.toFixed(3)}`).join(', ');
      request.onProgress?.(`shrinkage ${choice.chosen} chosen by held-out log-likelihood (${tried})`);
    };
    const settles = settings.material === 'settled' || settings.material === 'two-ply';
    if (!settles) choosePull(featureCount, []);
    let { scores, uses, logLikelihood } = fitScores(cases, featureCount, settings, rng);
    let settle: SettleScores | undefined;
    if (settles) {
      // The first fit's per-piece scores value the quiescence; the second fits everything again beside the loss
      // (and the two-ply balance).
      const twoPly = settings.material === 'two-ply';
      const firstValues = settleValues(scores, materialBase, request.decisions);
      const evaluation = twoPly ? choiceEvaluation(request.decisions, firstValues, settings.squareValues) : { values: firstValues };
      addSettledFeatures(cases, request.decisions, evaluation, twoPly);
      request.onProgress?.(`settled${twoPly ? ' and two-ply' : ''} material in ${((performance.now() - induced) / 1000).toFixed(1)} s; fitting again`);
      const [lossFeature, twoPlyFeature] = [featureCount, featureCount + 1];
      const reals = twoPly ? [lossFeature, twoPlyFeature] : [lossFeature];
      choosePull(featureCount + reals.length, reals);
      ({ scores, uses, logLikelihood } = fitScores(cases, featureCount + reals.length, settings, rng, reals));
      settle = { ...evaluation, lossWeight: scores[lossFeature], ...(twoPly ? { twoPlyWeight: scores[twoPlyFeature] } : {}) };
    }
    const terminal: TerminalScores = { checkmate: scores[CHECKMATE_FEATURE], draw: scores[DRAW_FEATURE] };
    const material: MaterialScores | null =
      materialBase < 0
        ? null
        : {
            surplus: [...scores.slice(materialBase, materialBase + 5)],
            deficit: [...scores.slice(materialBase + 5, materialBase + 10)],
            ...(settle ? { settle } : {}),
          };
    const info: ModelInfo = {
      player: request.player,
      source: request.source,
      games: request.games,
      decisions: request.decisions.length,
      seed: request.seed,
      ...(request.lastGame !== undefined ? { lastGame: request.lastGame } : {}),
    };
    store.transaction(() => {
      for (const record of store.hierarchy.byId.values()) {
        const f = record.id + FIRST_PATTERN_FEATURE;
        if (uses[f] === 0) continue;
        record.weight = weightOfScore(scores[f]);
        record.updates = uses[f];
        store.saveStats(record);
      }
      recordDatabaseKind(store.db, 'opponent-model');
      setMeta(store.db, TERMINAL_SCORES_KEY, terminal);
      if (material) setMeta(store.db, MATERIAL_SCORES_KEY, material);
      setMeta(store.db, 'model_info', info);
      setMeta(store.db, 'model_settings', settings);
      setMeta(store.db, 'seed', request.seed);
      setMeta(store.db, 'created_at', new Date().toISOString());
    });
    const fitted = performance.now();
    writeFileSync(file, store.db.serialize());
    return {
      ...info,
      patterns: store.size,
      forced,
      logLikelihood,
      seconds: { patterns: (induced - started) / 1000, fitting: (fitted - induced) / 1000 },
      settings,
      ...(shrinkageChoice ? { shrinkageChoice } : {}),
    };
  } finally {
    store.close();
  }
}
