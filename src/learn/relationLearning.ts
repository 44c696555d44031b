/**
 * Learning the relation terms (eval/relationTerms.ts) by TreeStrap (Veness, Silver, Uther and Blair 2009): a
 * position's static value, its capture-settled material plus its relation term, moves toward the play search's
 * deeper value of it, so that the terms learn what the search's threat looks find (forks, pieces left en prise,
 * mates by checks) and the search, reading them at its leaves, sees some of that past its horizon.
 *
 * The error is in log-odds, clipped (a mate's error would otherwise swamp every quieter lesson), and each feature
 * the position holds steps by AdaGrad (its step shrinks with the squared gradients it has had, so common features
 * settle and rare ones still move), with a pull toward 0 like a ridge penalty. The state (weights and squared
 * gradients) is a few thousand numbers, so every lesson of a run accumulates in it.
 */
import { boardToFen, cloneBoard, type Board } from '../chess/board.ts';
import { MAX_RELATION_FEATURES, RELATION_TERM_FEATURES, relationFeatures, storedRelationWeights, storeRelationWeights } from '../eval/relationTerms.ts';
import { settledMaterialValue } from './graphTermLearning.ts';
import { MorphPlayer, scaledValue } from '../player/morphPlayer.ts';
import { databasePieceValues, materialEvaluation } from '../player/evaluate.ts';
import { valuesByMaterial } from '../player/search.ts';
import { GameHistory } from '../chess/history.ts';
import type { PatternStore } from '../store/patternStore.ts';
import type { MorphDatabase } from '../store/database.ts';
import { getMetaBytes, getMetaJson, setMeta, setMetaBytes } from '../store/meta.ts';
import { MorphError } from '../util/errors.ts';
import type { Random } from '../util/random.ts';
import { evaluationSettings, type LearningConfig } from './config.ts';

export interface RelationLearningSettings {
  /** AdaGrad's rate, in log-odds. */
  rate: number;
  /** Pull of each weight toward 0 per lesson it takes part in (a ridge penalty's gradient). */
  pull: number;
  /** An error counts at most this many log-odds. */
  clip: number;
}

/**
 * Chosen on seed 11's 3,000-game database, one pass over 15,600 positions of its first 180 games in order (as a run
 * learns), held-out games after: rate .001 explained .27 of the gap's variance (.0003 .19, .003 .17, .01 and
 * above less than nothing); a ridge fit of the same features .31 (research/relation-terms.ts, docs/lab/2026-12.md).
 */
export const DEFAULT_RELATION_LEARNING: RelationLearningSettings = { rate: 0.001, pull: 0.001, clip: 0.5 };

/** The bias is a running mean of the errors of about this many recent lessons at most. */
const BIAS_MEMORY = 2000;

/** Scratch: a position's features. */
const features = new Uint16Array(MAX_RELATION_FEATURES);
const counts = new Float64Array(RELATION_TERM_FEATURES);

export class RelationLearner {
  readonly weights: Float64Array<ArrayBufferLike>;
  /** Each feature's squared gradients so far (AdaGrad). */
  readonly squares: Float64Array<ArrayBufferLike>;
  /** Lessons taken. */
  lessons = 0;
  /**
   * What every position's gap shares (a running mean of the errors): learned beside the weights so that they
   * carry only what tells positions apart, and never read in play, where it would add the same to every position.
   */
  bias = 0;

  constructor(
    readonly settings: RelationLearningSettings = DEFAULT_RELATION_LEARNING,
    weights: Float64Array<ArrayBufferLike> = new Float64Array(RELATION_TERM_FEATURES),
    squares: Float64Array<ArrayBufferLike> = new Float64Array(RELATION_TERM_FEATURES),
  ) {
    this.weights = weights;
    this.squares = squares;
  }

  /**
   * One lesson: the position `board` (for the side that just moved into it), whose capture-settled material is
   * worth `settled` and the search `target`, both in log-odds. Returns the error before the step (clipped).
   */
  learn(board: Pick<Board, 'squares' | 'turn'>, settled: number, target: number): number {
    const count = relationFeatures(board, features);
    let term = 0;
    for (let i = 0; i < count; i++) term += this.weights[features[i]];
    const { rate, pull, clip } = this.settings;
    const error = Math.max(-clip, Math.min(clip, target - settled - this.bias - term));
    this.bias += error / Math.min(this.lessons + 1, BIAS_MEMORY);
    for (let i = 0; i < count; i++) counts[features[i]]++;
    for (let i = 0; i < count; i++) {
      const f = features[i];
      if (counts[f] === 0) continue; // a feature held several times steps once, by its count
      const gradient = error * counts[f] - pull * this.weights[f];
      counts[f] = 0;
      this.squares[f] += gradient * gradient;
      if (this.squares[f] > 0) this.weights[f] += (rate * gradient) / Math.sqrt(this.squares[f]);
    }
    this.lessons++;
    return error;
  }
}

/**
 * A position's capture-settled material in log-odds for the side that just moved into it (the static value the
 * terms are added to), in the play search's log-odds (a mate's 1 clamped as there).
 */
export function settledLogOdds(board: Board, valueForMover: (after: Board) => number): number {
  return scaledValue(settledMaterialValue(cloneBoard(board), valueForMover), 'log-odds');
}

/**
 * One lesson: a position (FEN: lessons travel from game workers to the learner as messages), its capture-settled
 * material and the play search's value of it, in log-odds.
 */
export interface RelationLesson {
  fen: string;
  settled: number;
  target: number;
}

/**
 * Up to `count` positions of a game (both sides', drawn by `rng` without repeats; none where the game is over),
 * each valued one ply deeper by the play search: every reply searched, the position worth 1 minus the best reply's
 * value. The search reads no relation terms and no policy (graphPatterns false), so a target is what material and
 * the search's looks find, not what the terms already say. Costs a search a lesson (tens of milliseconds).
 */
export function relationLessons(
  store: PatternStore,
  game: { startFen: string; moves: readonly string[] },
  count: number,
  rng: Random,
  config: LearningConfig,
): RelationLesson[] {
  if (count <= 0 || !valuesByMaterial(config.playSearch)) return [];
  const plies = Array.from({ length: game.moves.length }, (_, i) => i + 1);
  for (let i = plies.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [plies[i], plies[j]] = [plies[j], plies[i]];
  }
  const chosen = new Set(plies.slice(0, count));
  const evaluation = evaluationSettings(config);
  const searcher = new MorphPlayer(store, { maturity: config.maturity, evaluation, search: config.playSearch, seed: 0, contempt: 0, graphPatterns: false });
  const pieceValues = databasePieceValues(store);
  const valueForMover = (board: Board) => materialEvaluation(store, board, config.maturity, evaluation, pieceValues).value;
  const history = new GameHistory(game.startFen);
  const lessons: RelationLesson[] = [];
  game.moves.forEach((move, i) => {
    history.play(move);
    if (!chosen.has(i + 1) || history.verdict() !== null) return;
    const best = searcher.bestRanked(history);
    lessons.push({ fen: boardToFen(history.board), settled: settledLogOdds(history.board, valueForMover), target: scaledValue(1 - best.value, 'log-odds') });
  });
  return lessons;
}

/** Where a database keeps the learner's state beside its weights (eval/relationTerms.ts RELATION_WEIGHTS_KEY). */
const SQUARES_KEY = 'relation_squares';
const PROGRESS_KEY = 'relation_learning';

/** The database's relation learner as its last game left it (a fresh one when it has none). */
export function loadRelationLearner(db: MorphDatabase, settings: RelationLearningSettings = DEFAULT_RELATION_LEARNING): RelationLearner {
  const weights = storedRelationWeights(db);
  const squares = getMetaBytes(db, SQUARES_KEY);
  const progress = relationProgress(db);
  if (weights === undefined || squares === undefined || progress === undefined) return new RelationLearner(settings);
  if (squares.byteLength !== weights.byteLength) throw new MorphError(`meta ${SQUARES_KEY} holds ${squares.byteLength} bytes, not ${weights.byteLength}`);
  const learner = new RelationLearner(settings, weights, new Float64Array(Uint8Array.from(squares).buffer));
  learner.lessons = progress.lessons;
  learner.bias = progress.bias;
  return learner;
}

/** The lessons a database's relation terms have learned from, and their shared bias; undefined before any. */
export function relationProgress(db: MorphDatabase): { lessons: number; bias: number } | undefined {
  return getMetaJson<{ lessons: number; bias: number }>(db, PROGRESS_KEY);
}

/** Writes the learner's state (call inside the game's transaction). */
export function saveRelationLearner(db: MorphDatabase, learner: RelationLearner): void {
  storeRelationWeights(db, learner.weights);
  setMetaBytes(db, SQUARES_KEY, new Uint8Array(learner.squares.buffer, learner.squares.byteOffset, learner.squares.byteLength));
  setMeta(db, PROGRESS_KEY, { lessons: learner.lessons, bias: learner.bias });
}
