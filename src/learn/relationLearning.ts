/**
 * Learning the relation terms (eval/relationTerms.ts) by TreeStrap (Veness, Silver, Uther and Blair 2009): a
 * position's static value, its capture-settled material plus its relation term, is fitted to the play search's
 * deeper value of it, so that the terms learn what the search's threat looks find (forks, pieces left en prise,
 * mates by checks) and the search, reading them at its leaves, sees some of that past its horizon.
 *
 * The fit is ridge least squares over every lesson of the run, solved exactly: the learner keeps the normal
 * equations' sums (a 469 x 469 matrix: a bounded summary of all the lessons, however long the run) and solves
 * them once the lessons since the last solve reach a hundredth of all it keeps (SOLVE_SHARE; every game early in a
 * run, every 40th game at 4,000 lessons and one a game), and at the end of a run. One pass of stochastic steps (AdaGrad, the learner before this one)
 * reached weights half the size of the exact fit's on the same lessons (docs/lab/2026-12.md). The lessons
 * themselves are kept in the database (table relation_lessons), so a resumed run rebuilds the sums from them.
 * Training's game actors search them (train/relationLessons.ts).
 */
import { boardFromFen, type Board } from '../chess/board.ts';
import { MAX_RELATION_FEATURES, RELATION_TERM_FEATURES, relationFeatures, storedRelationWeights, storeRelationWeights } from '../eval/relationTerms.ts';
import { solvePositiveDefinite } from '../eval/materialFit.ts';
import type { MorphDatabase } from '../store/database.ts';
import { deleteMeta, getMetaJson, setMeta } from '../store/meta.ts';
import { stmt } from '../store/statements.ts';

export interface RelationLearningSettings {
  /** The ridge penalty on each weight (the constant is not penalised), in squared log-odds per lesson's worth. */
  penalty: number;
  /** A gap (search value less settled material) counts at most this many log-odds either way. */
  clip: number;
  /**
   * The same for the static terms' gap (search value less static material): wider, since a piece en prise is a
   * gap of its whole value there.
   */
  staticClip: number;
  /** The ridge penalty of the static fit: smaller, since its gaps (whole pieces en prise) stand far above the noise. */
  staticPenalty: number;
}

/**
 * Chosen on seed 11's 3,000-game database: ridge on the gap of 15,600 positions of its first 180 games, the penalty
 * chosen among .3-3,000 on the next 20 games' (300; research/relation-terms.ts, docs/lab/2026-12.md). The static
 * clip was chosen among 1-3 by move quality of the one-ply player on Morph's own positions, a set apart from the
 * scored positions it is judged on, and its penalty among 1-1,000 on held-out lessons (research/one-ply-terms.ts,
 * docs/lab/2026-12.md).
 */
export const DEFAULT_RELATION_LEARNING: RelationLearningSettings = { penalty: 300, clip: 0.5, staticClip: 2, staticPenalty: 10 };

/**
 * The learner solves again once the lessons since its last solve reach this share of all it keeps: a lesson moves
 * the exact fit by about its share of the evidence, so the weights in play are never more than about 1% of the
 * evidence behind, and a long run stops paying two solves (about 45 ms) a game for a change of a few thousandths.
 */
export const SOLVE_SHARE = 0.01;

/** The normal equations' unknowns: a weight per feature, then the constant. */
const UNKNOWNS = RELATION_TERM_FEATURES + 1;
const CONSTANT = RELATION_TERM_FEATURES;

/** Scratch: a position's features, and each feature's count in it. */
const features = new Uint16Array(MAX_RELATION_FEATURES);
const counts = new Float64Array(RELATION_TERM_FEATURES);
const distinct = new Uint16Array(MAX_RELATION_FEATURES + 1);

/** The normal equations of one ridge fit over the relation features and a constant: sums of x x' and of x y. */
class RidgeSums {
  private readonly products = new Float64Array(UNKNOWNS * UNKNOWNS);
  private readonly moments = new Float64Array(UNKNOWNS);
  count = 0;

  /** Adds the position whose distinct features (and the constant) `distinct` holds, `held` of them, with value y. */
  add(held: number, y: number): void {
    const countOf = (f: number) => (f === CONSTANT ? 1 : counts[f]);
    for (let i = 0; i < held; i++) {
      const a = distinct[i];
      const xa = countOf(a);
      this.moments[a] += xa * y;
      const row = a * UNKNOWNS;
      for (let j = 0; j < held; j++) this.products[row + distinct[j]] += xa * countOf(distinct[j]);
    }
    this.count++;
  }

  /** The ridge solution: the weights, then the constant. */
  solve(penalty: number): Float64Array {
    const system = Float64Array.from(this.products);
    for (let f = 0; f < RELATION_TERM_FEATURES; f++) system[f * UNKNOWNS + f] += penalty;
    return solvePositiveDefinite(system, this.moments);
  }
}

export class RelationLearner {
  /** The weights as last solved (what the capture searches read: the gap over capture-settled material). */
  weights: Float64Array<ArrayBufferLike>;
  /**
   * The static terms as last solved: the same patterns fitted to the gap over static material, so that they also
   * learn what a piece left en prise costs (what the one-ply material player reads, having no capture search).
   */
  staticWeights: Float64Array<ArrayBufferLike>;
  /**
   * What every position's gap shares (the fit's constant): fitted beside the weights so that they carry only what
   * tells positions apart, and never read in play, where it would add the same to every position.
   */
  bias = 0;
  staticBias = 0;
  private readonly settledSums = new RidgeSums();
  /** Lessons kept before static material was (schema v7) have none, and teach only the settled terms. */
  private readonly staticSums = new RidgeSums();
  /** Lessons when the weights were last solved. */
  private solvedAt = 0;

  constructor(
    readonly settings: RelationLearningSettings = DEFAULT_RELATION_LEARNING,
    weights: Float64Array<ArrayBufferLike> = new Float64Array(RELATION_TERM_FEATURES),
    staticWeights: Float64Array<ArrayBufferLike> = new Float64Array(RELATION_TERM_FEATURES),
  ) {
    this.weights = weights;
    this.staticWeights = staticWeights;
  }

  /** Lessons taken. */
  get lessons(): number {
    return this.settledSums.count;
  }

  /** Lessons taken with their static material. */
  get staticLessons(): number {
    return this.staticSums.count;
  }

  /**
   * Adds a lesson to the sums: the position `board` (for the side that just moved into it), whose capture-settled
   * material is worth `settled`, its static material `staticValue` (null when unknown) and the search `target`,
   * all in log-odds. The weights change at the next solve().
   */
  add(board: Pick<Board, 'squares' | 'turn'>, settled: number, target: number, staticValue: number | null = null): void {
    const count = relationFeatures(board, features);
    let held = 0;
    for (let i = 0; i < count; i++) if (counts[features[i]]++ === 0) distinct[held++] = features[i];
    distinct[held++] = CONSTANT;
    const clipped = (gap: number, clip: number) => Math.max(-clip, Math.min(clip, gap));
    this.settledSums.add(held, clipped(target - settled, this.settings.clip));
    if (staticValue !== null) this.staticSums.add(held, clipped(target - staticValue, this.settings.staticClip));
    for (let i = 0; i < held - 1; i++) counts[distinct[i]] = 0;
  }

  /**
   * Solves the ridge fits of every lesson so far for the weights and biases (kept as they are before any lesson).
   * Tens of milliseconds each however many lessons there are: the system's size is the features', not the lessons'.
   */
  solve(): void {
    this.solvedAt = this.lessons;
    if (this.settledSums.count > 0) {
      const solution = this.settledSums.solve(this.settings.penalty);
      this.weights = solution.slice(0, RELATION_TERM_FEATURES);
      this.bias = solution[CONSTANT];
    }
    if (this.staticSums.count > 0) {
      const solution = this.staticSums.solve(this.settings.staticPenalty);
      this.staticWeights = solution.slice(0, RELATION_TERM_FEATURES);
      this.staticBias = solution[CONSTANT];
    }
  }

  /** Lessons added since the weights were last solved. */
  get unsolved(): number {
    return this.lessons - this.solvedAt;
  }

  /** Solves when the lessons since the last solve reach SOLVE_SHARE of all (at least one); true when it did. */
  solveWhenDue(): boolean {
    if (this.unsolved === 0 || this.unsolved < SOLVE_SHARE * this.lessons) return false;
    this.solve();
    return true;
  }
}

/**
 * One lesson: a position (FEN: lessons travel from game workers to the learner as messages), its capture-settled
 * and static material and the play search's value of it, in log-odds (static null in lessons kept before schema v8).
 */
export interface RelationLesson {
  fen: string;
  settled: number;
  static: number | null;
  target: number;
}

/** Where a database keeps the learner's progress beside its weights (eval/relationTerms.ts RELATION_WEIGHTS_KEYS). */
const PROGRESS_KEY = 'relation_learning';

/**
 * The database's relation learner as its last game left it: the sums rebuilt from every lesson it keeps, and the
 * weights solved from them (a fresh learner when it keeps none; then any weights it has, from an older learner
 * that kept no lessons, stay until the first solve).
 */
export function loadRelationLearner(db: MorphDatabase, settings: RelationLearningSettings = DEFAULT_RELATION_LEARNING): RelationLearner {
  const learner = new RelationLearner(settings, storedRelationWeights(db), storedRelationWeights(db, 'static'));
  for (const lesson of storedRelationLessons(db)) learner.add(boardFromFen(lesson.fen), lesson.settled, lesson.target, lesson.static);
  if (learner.lessons > 0) learner.solve();
  return learner;
}

/** How far a database's relation learner has come: lessons, and the shared biases of its two fits. */
export interface RelationProgress {
  lessons: number;
  bias: number;
  /** Absent in databases from before the static terms. */
  staticLessons?: number;
  staticBias?: number;
}

/** The lessons a database's relation terms have learned from, and their shared bias; undefined before any. */
export function relationProgress(db: MorphDatabase): RelationProgress | undefined {
  return getMetaJson<RelationProgress>(db, PROGRESS_KEY);
}

/** Writes the learner's progress, and its weights when they changed (call inside the game's transaction). */
export function saveRelationLearner(db: MorphDatabase, learner: RelationLearner, weightsChanged = true): void {
  if (weightsChanged) {
    storeRelationWeights(db, learner.weights);
    if (learner.staticLessons > 0) storeRelationWeights(db, learner.staticWeights, 'static');
  }
  const progress: RelationProgress = { lessons: learner.lessons, bias: learner.bias, staticLessons: learner.staticLessons, staticBias: learner.staticBias };
  setMeta(db, PROGRESS_KEY, progress);
  // The per-weight step sizes of the AdaGrad learner before ridge (2026-12-05), which nothing reads any more.
  deleteMeta(db, 'relation_squares');
}

/** Keeps a game's lessons (call inside the game's transaction): the learner refits to every lesson of the run. */
export function recordRelationLessons(db: MorphDatabase, game: number, lessons: readonly RelationLesson[]): void {
  const insert = stmt(db, 'INSERT INTO relation_lessons (game, fen, settled, static, target) VALUES (?, ?, ?, ?, ?)');
  for (const lesson of lessons) insert.run(game, lesson.fen, lesson.settled, lesson.static, lesson.target);
}

/** Every lesson the database keeps, in the order they were learned. */
export function* storedRelationLessons(db: MorphDatabase): Generator<RelationLesson & { game: number }> {
  yield* stmt(db, 'SELECT game, fen, settled, static, target FROM relation_lessons ORDER BY id').iterate() as Iterable<RelationLesson & { game: number }>;
}
