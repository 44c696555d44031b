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
import { applyMove, cloneBoard, parseUciMove, uciMove } from '../chess/board.ts';
import { generateLegalMoves } from '../chess/movegen.ts';
import { buildPositionGraph, PositionGraph } from '../graph/positionGraph.ts';
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
import { decisionHistories, type Decision } from './decisions.ts';
import { writeSquareEvidence } from './squareEvidence.ts';
import {
  accumulateChoiceSquares, choiceEvaluation, conditionalLogit, floorPieceValues, resultPieceValues, sparseRow, SQUARE_ROUNDS, type LearnedEvaluation, type SquareEvidence,
} from './choiceEvaluation.ts';
import {
  CHOICE_SQUARES_KEY, endByRule, MATERIAL_SCORES_KEY, TERMINAL_SQUARES_KEY, mobilityAfter, settledLoss, successorsOf, twoPlyBalance, TERMINAL_SCORES_KEY, weightOfScore, type FeatureSet, type MaterialMode, type MaterialScores,
  type SettleScores,
  type ModelInfo, type ModelPosition, type TerminalScores,
} from './opponentModel.ts';
import type { LineShape, ModelSearchMode } from '../search/search.ts';

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
  /**
   * With material "settled" or "two-ply": whether each move also scores learned weights on the mover's and its
   * opponent's mobility after it (opponentModel.ts mobilityAfter), as a classical engine's evaluation counts it.
   */
  mobility: boolean;
  /**
   * With material "two-ply": the shape of its line (search.ts LINE_SHAPES): "quiescence" for a player whose search
   * settles captures, "plain" or "checks" for one that stops after two plies (with a check extension).
   */
  line: LineShape;
  /**
   * With material "two-ply", when not empty (`--line auto`): the shapes to choose `line` among, by how well each
   * shape's line alone, fitted on four games in five, names the player's moves in the fifth (chooseLine).
   */
  lineCandidates: readonly LineShape[];
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
  mobility: false,
  line: 'quiescence',
  lineCandidates: [],
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
  /** With line candidates: each shape's top-1 on the held-out games' decisions, by its line alone. */
  lineChoice?: LineChoice;
  /** With squareDecisions, when the decisions had results to start from: the square values' sample and fitting time. */
  squares?: { decisions: number; of: number; fits: number; seconds: number };
}

export interface ShrinkageChoice {
  heldOutDecisions: number;
  trials: ShrinkageTrial[];
}

function inducePatterns(store: PatternStore, decisions: readonly Decision[], settings: ModelSettings, rng: Random): void {
  store.transaction(() => {
    for (const pattern of allSeedPatterns()) store.insert(pattern, 'seed', 0);
    if (settings.language === 'safety') for (const pattern of safetySeedPatterns()) store.insert(pattern, 'seed', 0);
  });
  induceFromDecisions(store, decisions, settings, rng);
}

/**
 * The patterns `decisions` add to a model: every legal move's material pattern, and node-ordered subgraphs grown
 * from the piece each chosen move moved (`createdGame` records when, for an online learner).
 */
export function induceFromDecisions(
  store: PatternStore,
  decisions: readonly Decision[],
  settings: Pick<ModelSettings, 'patternsPerDecision' | 'maxSize' | 'language'>,
  rng: Random,
  createdGame = 0,
): void {
  const graph = new PositionGraph();
  store.transaction(() => {
    for (const [decision, history] of decisionHistories(decisions)) {
      const board = history.board;
      const next = cloneBoard(board);
      for (const move of generateLegalMoves(board)) {
        applyMove(board, move, next);
        store.insert(materialPattern(buildPositionGraph(next, graph).material), 'material', createdGame);
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
        if (pattern.labels.length >= 2) store.insert(pattern, 'forward', createdGame);
      }
    }
  });
}

export const CHECKMATE_FEATURE = 0;
export const DRAW_FEATURE = 1;
/** Pattern ids are shifted past the two terminal features. */
export const FIRST_PATTERN_FEATURE = 2;

/**
 * One decision as the fitting sees it. Successor s has the feature lists [listStart[s], listStart[s+1]): its own
 * position's, then, with capture replies (search "captures"), the declined position's and each reply's. List l
 * is features[featureStart[l] .. featureStart[l+1]). A feature in every own list of the decision adds the same
 * to every score there and says nothing about the choice: it is left out. So is a feature in a successor's
 * declined list and in all its reply lists, which cancels in every gain.
 */
export interface FittingCase {
  listStart: Int32Array;
  featureStart: Int32Array;
  features: Int32Array;
  chosen: number;
  /**
   * In the second fit of material "settled" or "two-ply": real-valued features, each with a value per successor
   * (the settled loss, opponentModel.ts settledLoss; with "two-ply", the two-ply balance, twoPlyBalance; with
   * mobility, the mover's and its opponent's mobility, mobilityAfter).
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

export function fittingCases(
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
 * The conditional logit's AdaGrad state, by feature: scores, squared-gradient sums, and each feature's pull towards
 * indifference. It grows (`ensure`) when an online learner (policyLearner.ts) adds features between steps.
 */
export class AdagradState {
  scores: Float64Array;
  squares: Float64Array;
  shrinkage: Float64Array;
  private gradient: Float64Array;
  private stamp: Int32Array;
  private stampNow = 0;

  constructor(
    count: number,
    private readonly pull: number,
    readonly learningRate: number,
  ) {
    this.scores = new Float64Array(count);
    this.squares = new Float64Array(count);
    this.shrinkage = new Float64Array(count).fill(pull);
    this.gradient = new Float64Array(count);
    this.stamp = new Int32Array(count);
  }

  get size(): number {
    return this.scores.length;
  }

  /** Room for features 0..count-1 (new ones at score 0 with the usual pull). */
  ensure(count: number): void {
    if (count <= this.scores.length) return;
    const size = Math.max(count, Math.ceil(this.scores.length * 1.5));
    const grown = (old: Float64Array) => {
      const array = new Float64Array(size);
      array.set(old);
      return array;
    };
    this.scores = grown(this.scores);
    this.squares = grown(this.squares);
    this.gradient = grown(this.gradient);
    const shrinkage = new Float64Array(size).fill(this.pull);
    shrinkage.set(this.shrinkage);
    this.shrinkage = shrinkage;
    const stamp = new Int32Array(size);
    stamp.set(this.stamp);
    this.stamp = stamp;
  }

  /**
   * One AdaGrad step on decision `c` (its largest capture gains found again at the current scores; when one lowers
   * a successor's score, the declined and reply positions that make it take the gradient too); returns the
   * decision's log-likelihood before the step.
   */
  step(c: FittingCase, realFeatures: readonly number[] = []): number {
    const { listStart, featureStart, features, chosen } = c;
    const { scores, gradient } = this;
    const reals = realFeatures.length ? c.reals : undefined;
    const n = listStart.length - 1;
    const values = new Float64Array(n);
    /** The list of the reply whose gain lowers each successor's score, or -1. */
    const refutation = new Int32Array(n).fill(-1);
    const top = successorScores(c, scores, realFeatures, values, refutation);
    let total = 0;
    for (let s = 0; s < n; s++) total += (values[s] = Math.exp(values[s] - top));
    const logLikelihood = Math.log(values[chosen] / total);
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
    this.stampNow++;
    if (reals) realFeatures.forEach((f) => this.stepFeature(f));
    const stepList = (list: number) => {
      for (let k = featureStart[list]; k < featureStart[list + 1]; k++) this.stepFeature(features[k]);
    };
    for (let s = 0; s < n; s++) {
      stepList(listStart[s]);
      if (refutation[s] >= 0) {
        stepList(listStart[s] + 1);
        stepList(refutation[s]);
      }
    }
    return logLikelihood;
  }

  private stepFeature(f: number): void {
    if (this.stamp[f] === this.stampNow) return; // a feature of several successors is stepped once
    this.stamp[f] = this.stampNow;
    const g = this.gradient[f];
    this.gradient[f] = 0;
    const change = g - this.shrinkage[f] * this.scores[f];
    this.squares[f] += change * change;
    if (this.squares[f] > 0) this.scores[f] += (this.learningRate * change) / Math.sqrt(this.squares[f]);
  }
}

/**
 * AdaGrad on the conditional logit over `settings.passes` shuffled passes; returns the scores by feature, the
 * AdaGrad state they end in, and the final mean log-likelihood.
 */
function fitScores(
  cases: FittingCase[],
  featureCount: number,
  settings: ModelSettings,
  rng: Random,
  realFeatures: readonly number[] = [],
): { scores: Float64Array; uses: Int32Array; logLikelihood: number; state: AdagradState } {
  const state = new AdagradState(featureCount, settings.shrinkage, settings.learningRate);
  if (realFeatures.length) realScoresAlone(cases, realFeatures).forEach((score, k) => (state.scores[realFeatures[k]] = score));
  const uses = new Int32Array(featureCount);
  for (const c of cases) {
    const seen = new Set<number>(c.features);
    for (const f of seen) uses[f]++;
  }
  const order = cases.map((_, i) => i);
  let logLikelihood = 0;
  // The evidence shrinkage is for patterns, each stepped only in the decisions it appears in. A real-valued
  // feature is stepped in every decision, so the same pull there would hold its weight near 0 thousands of
  // times over: it goes unshrunk.
  for (const f of realFeatures) state.shrinkage[f] = 0;
  for (let pass = 0; pass < settings.passes; pass++) {
    rng.shuffle(order);
    logLikelihood = 0;
    for (const index of order) logLikelihood += state.step(cases[index], realFeatures);
  }
  return { scores: state.scores, uses, logLikelihood: cases.length ? logLikelihood / cases.length : 0, state };
}

export const SHRINKAGE_CANDIDATES: readonly number[] = [0.01, 0.1, 1, 10, 100];
/** Every VALIDATION_EVERY-th game's decisions judge the candidates (split by game: a game's moves are alike). */
const VALIDATION_EVERY = 5;

export interface LineChoice {
  heldOutDecisions: number;
  trials: { line: LineShape; top1: number }[];
}

/**
 * The line shape (search.ts LINE_SHAPES) that predicts the player best: each candidate's evaluation fitted along
 * its own line on four games in five (choiceEvaluation), then the moves of the fifth ranked by that line's balance
 * alone (ties at their expectation). The line alone, not the whole model: it carries most of a searcher's choices,
 * and the patterns' fit is the same for every shape. The first candidate wins a tie.
 */
function chooseLine(
  decisions: readonly Decision[],
  values: readonly number[],
  squareRounds: number,
  candidates: readonly LineShape[],
): LineChoice & { chosen: LineShape } {
  const held = decisions.filter((d) => d.game % VALIDATION_EVERY === VALIDATION_EVERY - 1);
  const fitted = decisions.filter((d) => d.game % VALIDATION_EVERY !== VALIDATION_EVERY - 1);
  if (held.length === 0 || fitted.length === 0) return { chosen: candidates[0], heldOutDecisions: 0, trials: [] };
  const judged = candidates.map((line) => {
    const evaluation = choiceEvaluation(fitted, values, squareRounds, { line });
    let hits = 0;
    let decided = 0;
    for (const [decision, history] of decisionHistories(held)) {
      const board = history.board;
      const moves = generateLegalMoves(board);
      if (moves.length < 2) continue;
      decided++;
      const next = cloneBoard(board);
      const balances = moves.map((move) => {
        applyMove(board, move, next);
        return twoPlyBalance(next, evaluation.values, endByRule(history, next), evaluation.squareValues, line);
      });
      const best = Math.max(...balances);
      const tied = moves.filter((_, k) => balances[k] >= best - 1e-9);
      if (tied.some((m) => uciMove(m) === decision.chosen)) hits += 1 / tied.length;
    }
    return { trial: { line, top1: decided ? hits / decided : 0 }, decided };
  });
  const trials = judged.map((j) => j.trial);
  const best = trials.reduce((a, b) => (b.top1 > a.top1 ? b : a));
  return { chosen: best.line, heldOutDecisions: judged[0].decided, trials };
}

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
 * judged by how often it names the move chosen in the held-out games (top-1, what a model is for and what its
 * players, the line and the look, use), the log-likelihood breaking ties. How much a player's choices owe to
 * patterns rather than to the material search differs by player (docs/lab/2026-11.md, 2026-11-25), so one fixed
 * pull suits some players only. Judged by the log-likelihood instead (until 2026-12-02), the choice was .1 for
 * Fairy-Max and HoiChess, whose held-out top-1 is 7.9 and 4.5 points higher at 10 (docs/lab/).
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
  const best = trials.reduce((a, b) => (b.top1 > a.top1 || (b.top1 === a.top1 && b.logLikelihood > a.logLikelihood) ? b : a));
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

/**
 * Piece values for the settling quiescence. From the games' results when they are known: the piece values that
 * best explain the player's score by the material after each of its moves (maximum likelihood, as Morph's value
 * database fits its own, eval/materialFit.ts). Otherwise from the first, linear fit: per piece type, half the
 * score of having one more less the score of having one fewer. The second come out compressed (a
 * rook worth about a pawn in a model of ab:2,q), so the quiescence would take a bishop for a pawn as a gain; in
 * prediction the two measured alike (docs/lab/2026-11.md, 2026-11-25 late morning).
 */
function settleValues(scores: Float64Array, materialBase: number, decisions: readonly Decision[]): number[] {
  const byResult = resultPieceValues(decisions);
  const values = byResult ?? [0, 1, 2, 3, 4].map((k) => (scores[materialBase + k] - scores[materialBase + 5 + k]) / 2);
  return floorPieceValues(values);
}

/**
 * Each fitting case's successors' settled losses and, with `twoPly`, their two-ply balances, and with `mobility`
 * the two sides' mobility after the move, in the order fittingCases made them (every legal move, in the move
 * generator's order; forced decisions have no case). Mates and draws by rule have their own scores: 0 here.
 */
function addSettledFeatures(
  cases: FittingCase[],
  decisions: readonly Decision[],
  evaluation: LearnedEvaluation,
  { twoPly, mobility, line }: { twoPly: boolean; mobility: boolean; line: LineShape },
): void {
  const { values, squareValues } = evaluation;
  let index = 0;
  for (const [, history] of decisionHistories(decisions)) {
    const board = history.board;
    const moves = generateLegalMoves(board);
    if (moves.length < 2) continue;
    const next = cloneBoard(board);
    const losses = new Float64Array(moves.length);
    const changes = new Float64Array(twoPly ? moves.length : 0);
    const own = new Float64Array(mobility ? moves.length : 0);
    const opponent = new Float64Array(mobility ? moves.length : 0);
    moves.forEach((move, s) => {
      applyMove(board, move, next);
      const end = endByRule(history, next);
      if (end === null) losses[s] = settledLoss(next, values);
      if (twoPly) changes[s] = twoPlyBalance(next, values, end, squareValues, line);
      if (mobility && end === null) [own[s], opponent[s]] = mobilityAfter(next);
    });
    cases[index++].reals = [losses, ...(twoPly ? [changes] : []), ...(mobility ? [own, opponent] : [])];
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
  /** For a value database's own policy: when that database was created (ModelInfo.databaseCreated). */
  databaseCreated?: string;
  /** Whether an existing `out` is replaced (a database's own policy); otherwise it is refused. */
  replace?: boolean;
  /**
   * Decisions to fit square values for play on, stored with the model (a database's own policy, ownPolicy.ts):
   * they may come from more games than the patterns' decisions.
   */
  squareDecisions?: readonly Decision[];
  /**
   * With squareDecisions: the evidence of the square values already fitted on earlier games (the policy this build
   * replaces, squareEvidence.ts). The fit adds the new decisions to it; without it, the fit starts afresh.
   */
  squareEvidence?: SquareEvidence | null;
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
    let lineChoice: LineChoice | undefined;
    /** Before the last fit, with candidates: the pull chosen by validation becomes the model's. */
    const choosePull = (count: number, reals: readonly number[]) => {
      if (settings.shrinkageCandidates.length === 0) return;
      const choice = chooseShrinkage(cases, caseGames, count, settings, request.seed, reals);
      settings.shrinkage = choice.chosen;
      shrinkageChoice = { heldOutDecisions: choice.heldOutDecisions, trials: choice.trials };
      const tried = choice.trials.map((t) => `${t.shrinkage}: ${(100 * t.top1).toFixed(1)}%, ${t.logLikelihood.toFixed(3)}`).join('; ');
      request.onProgress?.(`shrinkage ${choice.chosen} chosen by held-out top-1 (top-1, log-likelihood: ${tried})`);
    };
    const settles = settings.material === 'settled' || settings.material === 'two-ply';
    if (!settles) choosePull(featureCount, []);
    let { scores, uses, logLikelihood, state } = fitScores(cases, featureCount, settings, rng);
    let settle: SettleScores | undefined;
    if (settles) {
      // The first fit's per-piece scores value the quiescence; the second fits everything again beside the loss
      // (and the two-ply balance).
      const twoPly = settings.material === 'two-ply';
      const firstValues = settleValues(scores, materialBase, request.decisions);
      const rounds = settings.squareValues ? SQUARE_ROUNDS : 0;
      if (twoPly && settings.lineCandidates.length > 0) {
        const choice = chooseLine(request.decisions, firstValues, rounds, settings.lineCandidates);
        settings.line = choice.chosen;
        lineChoice = { heldOutDecisions: choice.heldOutDecisions, trials: choice.trials };
        const tried = choice.trials.map((t) => `${t.line}: ${(100 * t.top1).toFixed(1)}%`).join('; ');
        request.onProgress?.(`line ${choice.chosen} chosen by held-out top-1 of the line alone (${tried})`);
      }
      const line = settings.line;
      const evaluation = twoPly ? choiceEvaluation(request.decisions, firstValues, rounds, { line }) : { values: firstValues };
      const mobility = settings.mobility;
      addSettledFeatures(cases, request.decisions, evaluation, { twoPly, mobility, line });
      request.onProgress?.(`settled${twoPly ? ' and two-ply' : ''} material in ${((performance.now() - induced) / 1000).toFixed(1)} s; fitting again`);
      // The real-valued features after the patterns', in addSettledFeatures's order.
      const lossFeature = featureCount;
      const twoPlyFeature = featureCount + 1;
      const ownMobility = featureCount + (twoPly ? 2 : 1);
      const opponentMobility = ownMobility + 1;
      const reals = [lossFeature, ...(twoPly ? [twoPlyFeature] : []), ...(mobility ? [ownMobility, opponentMobility] : [])];
      choosePull(featureCount + reals.length, reals);
      ({ scores, uses, logLikelihood, state } = fitScores(cases, featureCount + reals.length, settings, rng, reals));
      settle = {
        ...evaluation,
        lossWeight: scores[lossFeature],
        ...(twoPly ? { twoPlyWeight: scores[twoPlyFeature] } : {}),
        ...(mobility ? { mobilityWeights: [scores[ownMobility], scores[opponentMobility]] as [number, number] } : {}),
        ...(twoPly && line !== 'quiescence' ? { line } : {}),
      };
    }
    const scored = performance.now();
    if (request.squareDecisions) request.onProgress?.(`fitting square values for play to ${request.squareDecisions.length} choices`);
    const squareFit = request.squareDecisions ? accumulateChoiceSquares(request.squareDecisions, request.squareEvidence ?? null) : null;
    const choiceSquares = squareFit?.fit ?? null;
    const squared = performance.now();
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
      ...(request.databaseCreated !== undefined ? { databaseCreated: request.databaseCreated } : {}),
    };
    store.transaction(() => {
      for (const record of store.hierarchy.byId.values()) {
        const f = record.id + FIRST_PATTERN_FEATURE;
        if (uses[f] === 0) continue;
        record.weight = weightOfScore(scores[f]);
        record.updates = uses[f];
        // The AdaGrad sum, so that an online learner (policyLearner.ts) continues the fit where it ended.
        record.variance = state.squares[f];
        store.saveStats(record);
      }
      recordDatabaseKind(store.db, 'opponent-model');
      setMeta(store.db, TERMINAL_SCORES_KEY, terminal);
      setMeta(store.db, TERMINAL_SQUARES_KEY, [state.squares[CHECKMATE_FEATURE], state.squares[DRAW_FEATURE]]);
      if (material) setMeta(store.db, MATERIAL_SCORES_KEY, material);
      if (squareFit) {
        setMeta(store.db, CHOICE_SQUARES_KEY, squareFit.fit);
        writeSquareEvidence(store.db, squareFit.evidence);
      }
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
      seconds: { patterns: (induced - started) / 1000, fitting: (scored - induced + fitted - squared) / 1000 },
      settings,
      ...(choiceSquares
        ? { squares: { decisions: choiceSquares.decisions, of: choiceSquares.of, fits: choiceSquares.fits ?? 1, seconds: (squared - scored) / 1000 } }
        : {}),
      ...(shrinkageChoice ? { shrinkageChoice } : {}),
      ...(lineChoice ? { lineChoice } : {}),
    };
  } finally {
    store.close();
  }
}
