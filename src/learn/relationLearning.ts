/**
 * Learning the relation terms (eval/relationTerms.ts) by TreeStrap (Veness, Silver, Uther and Blair 2009): a
 * position's static value, its capture-settled material plus its relation term, is fitted to the play search's
 * deeper value of it, so that the terms learn what the search's threat looks find (forks, pieces left en prise,
 * mates by checks) and the search, reading them at its leaves, sees some of that past its horizon.
 *
 * The fit is ridge least squares over every lesson of the run, solved exactly: the learner keeps the normal
 * equations' sums (a 469 x 469 matrix: a bounded summary of all the lessons, however long the run) and solves
 * them after every game that brought lessons. One pass of stochastic steps (AdaGrad, the learner before this one)
 * reached weights half the size of the exact fit's on the same lessons (docs/lab/2026-12.md). The lessons
 * themselves are kept in the database (table relation_lessons), so a resumed run rebuilds the sums from them.
 * Training's game actors search them (train/relationLessons.ts).
 */
import { boardFromFen, type Board } from '../chess/board.ts';
import { MAX_RELATION_FEATURES, RELATION_TERM_FEATURES, relationFeatures, storedRelationWeights, storeRelationWeights } from '../eval/relationTerms.ts';
import { solvePositiveDefinite } from '../eval/materialFit.ts';
import type { PatternStore } from '../store/patternStore.ts';
import type { MorphDatabase } from '../store/database.ts';
import { getMetaJson, setMeta } from '../store/meta.ts';
import { stmt } from '../store/statements.ts';

export interface RelationLearningSettings {
  /** The ridge penalty on each weight (the constant is not penalised), in squared log-odds per lesson's worth. */
  penalty: number;
  /** A gap (search value less settled material) counts at most this many log-odds either way. */
  clip: number;
}

/**
 * Chosen on seed 11's 3,000-game database: ridge on the gap of 15,600 positions of its first 180 games, the penalty
 * chosen among .3-3,000 on the next 20 games' (300; research/relation-terms.ts, docs/lab/2026-12.md).
 */
export const DEFAULT_RELATION_LEARNING: RelationLearningSettings = { penalty: 300, clip: 0.5 };

/** The normal equations' unknowns: a weight per feature, then the constant. */
const UNKNOWNS = RELATION_TERM_FEATURES + 1;
const CONSTANT = RELATION_TERM_FEATURES;

/** Scratch: a position's features, and each feature's count in it. */
const features = new Uint16Array(MAX_RELATION_FEATURES);
const counts = new Float64Array(RELATION_TERM_FEATURES);
const distinct = new Uint16Array(MAX_RELATION_FEATURES + 1);

export class RelationLearner {
  /** The weights as last solved (what play reads). */
  weights: Float64Array<ArrayBufferLike>;
  /** Lessons taken. */
  lessons = 0;
  /**
   * What every position's gap shares (the fit's constant): fitted beside the weights so that they carry only what
   * tells positions apart, and never read in play, where it would add the same to every position.
   */
  bias = 0;
  /** Sums of x x' and of x y over the lessons (x a lesson's feature counts and a 1, y its clipped gap). */
  private readonly products = new Float64Array(UNKNOWNS * UNKNOWNS);
  private readonly moments = new Float64Array(UNKNOWNS);

  constructor(
    readonly settings: RelationLearningSettings = DEFAULT_RELATION_LEARNING,
    weights: Float64Array<ArrayBufferLike> = new Float64Array(RELATION_TERM_FEATURES),
  ) {
    this.weights = weights;
  }

  /**
   * Adds a lesson to the sums: the position `board` (for the side that just moved into it), whose capture-settled
   * material is worth `settled` and the search `target`, both in log-odds. The weights change at the next solve().
   */
  add(board: Pick<Board, 'squares' | 'turn'>, settled: number, target: number): void {
    const count = relationFeatures(board, features);
    let held = 0;
    for (let i = 0; i < count; i++) if (counts[features[i]]++ === 0) distinct[held++] = features[i];
    distinct[held++] = CONSTANT;
    const { clip } = this.settings;
    const gap = Math.max(-clip, Math.min(clip, target - settled));
    const countOf = (f: number) => (f === CONSTANT ? 1 : counts[f]);
    for (let i = 0; i < held; i++) {
      const a = distinct[i];
      const xa = countOf(a);
      this.moments[a] += xa * gap;
      const row = a * UNKNOWNS;
      for (let j = 0; j < held; j++) this.products[row + distinct[j]] += xa * countOf(distinct[j]);
    }
    for (let i = 0; i < held - 1; i++) counts[distinct[i]] = 0;
    this.lessons++;
  }

  /**
   * Solves the ridge fit of every lesson so far for the weights and bias (kept as they are before any lesson).
   * Tens of milliseconds however many lessons there are: the system's size is the features', not the lessons'.
   */
  solve(): void {
    if (this.lessons === 0) return;
    const system = Float64Array.from(this.products);
    for (let f = 0; f < RELATION_TERM_FEATURES; f++) system[f * UNKNOWNS + f] += this.settings.penalty;
    const solution = solvePositiveDefinite(system, this.moments);
    this.weights = solution.slice(0, RELATION_TERM_FEATURES);
    this.bias = solution[CONSTANT];
  }
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

/** Where a database keeps the learner's progress beside its weights (eval/relationTerms.ts RELATION_WEIGHTS_KEY). */
const PROGRESS_KEY = 'relation_learning';

/**
 * The database's relation learner as its last game left it: the sums rebuilt from every lesson it keeps, and the
 * weights solved from them (a fresh learner when it keeps none; then any weights it has, from an older learner
 * that kept no lessons, stay until the first solve).
 */
export function loadRelationLearner(db: MorphDatabase, settings: RelationLearningSettings = DEFAULT_RELATION_LEARNING): RelationLearner {
  const learner = new RelationLearner(settings, storedRelationWeights(db));
  for (const lesson of storedRelationLessons(db)) learner.add(boardFromFen(lesson.fen), lesson.settled, lesson.target);
  if (learner.lessons > 0) learner.solve();
  return learner;
}

/** The lessons a database's relation terms have learned from, and their shared bias; undefined before any. */
export function relationProgress(db: MorphDatabase): { lessons: number; bias: number } | undefined {
  return getMetaJson<{ lessons: number; bias: number }>(db, PROGRESS_KEY);
}

/** Writes the learner's weights and progress (call inside the game's transaction). */
export function saveRelationLearner(db: MorphDatabase, learner: RelationLearner): void {
  storeRelationWeights(db, learner.weights);
  setMeta(db, PROGRESS_KEY, { lessons: learner.lessons, bias: learner.bias });
}

/** Keeps a game's lessons (call inside the game's transaction): the learner refits to every lesson of the run. */
export function recordRelationLessons(db: MorphDatabase, game: number, lessons: readonly RelationLesson[]): void {
  const insert = stmt(db, 'INSERT INTO relation_lessons (game, fen, settled, target) VALUES (?, ?, ?, ?)');
  for (const lesson of lessons) insert.run(game, lesson.fen, lesson.settled, lesson.target);
}

/** Every lesson the database keeps, in the order they were learned. */
export function* storedRelationLessons(db: MorphDatabase): Generator<RelationLesson & { game: number }> {
  yield* stmt(db, 'SELECT game, fen, settled, target FROM relation_lessons ORDER BY id').iterate() as Iterable<RelationLesson & { game: number }>;
}
