/**
 * Where the relation terms' lessons come from (learn/relationLearning.ts learns from them): positions of a played
 * game, each valued one ply deeper by the play search. Here, beside the game actors that search them, because a
 * lesson needs a player's search and learning does not otherwise depend on the player.
 */
import { boardToFen, cloneBoard, type Board } from '../chess/board.ts';
import { GameHistory } from '../chess/history.ts';
import { databasePieceValues, materialEvaluation } from '../eval/evaluate.ts';
import { evaluationSettings, type LearningConfig } from '../learn/config.ts';
import { settledMaterialValue } from '../learn/graphTermLearning.ts';
import type { RelationLesson } from '../learn/relationLearning.ts';
import { MorphPlayer, scaledValue } from '../player/morphPlayer.ts';
import { extensionsOf, formatSearch, type SearchSpec } from '../search/extensions.ts';
import type { PatternStore } from '../store/patternStore.ts';
import type { Random } from '../util/random.ts';

/**
 * A position's capture-settled material in log-odds for the side that just moved into it (the static value the
 * terms are added to), in the play search's log-odds (a mate's 1 clamped as there).
 */
export function settledLogOdds(board: Board, valueForMover: (after: Board) => number): number {
  return scaledValue(settledMaterialValue(cloneBoard(board), valueForMover), 'log-odds');
}

/**
 * How many lessons a game gives when the database keeps `kept` of them: config.relationLessons while the fit is
 * young, then one a game (config.relationLessonsFullAt), so that every game still teaches the terms.
 */
export function lessonsForGame(config: Pick<LearningConfig, 'relationLessons' | 'relationLessonsFullAt'>, kept: number): number {
  return kept >= config.relationLessonsFullAt ? Math.min(1, config.relationLessons) : config.relationLessons;
}

/**
 * What a lesson's search needs: the play search without relation terms or policy (graphPatterns false), so that a
 * target is what material and the search's looks find, not what the terms already say; and the capture-settled
 * material it is compared with. Undefined when the play search does not value positions by material.
 */
export interface LessonSearch {
  searcher: MorphPlayer;
  valueForMover: (board: Board) => number;
}

export function lessonSearch(
  store: PatternStore,
  config: LearningConfig,
  search = lessonSearchFor(config.playSearch),
  readTerms = false,
): LessonSearch | undefined {
  if (!extensionsOf(config.playSearch).materialValues) return undefined;
  const evaluation = evaluationSettings(config);
  // readTerms: the search's leaves read the relation terms as they stand (TreeStrap's bootstrapped target; no policy).
  const searcher = new MorphPlayer(store, { maturity: config.maturity, evaluation, search, seed: 0, contempt: 0, graphPatterns: readTerms });
  const pieceValues = databasePieceValues(store);
  const valueForMover = (board: Board) => materialEvaluation(store, board, config.maturity, evaluation, pieceValues).value;
  return { searcher, valueForMover };
}

/**
 * The search a lesson is valued by: the play search, but two plies past the move for a full-width one (plies=N, N > 2;
 * its other extensions kept, but not a late-move reduction: the lessons' targets stay those measured). Measured on seed 21's 5,000-game database (docs/lab/2026-12.md, session 80): its 7,936
 * lessons valued again this way gave gaps that correlate .98 with material-forks' (the lessons' search before) and
 * terms that choose as well (move quality +0.02 [-0.08, +0.12]), at a fifth of a lesson's time (about 30 ms against
 * 150 loaded), so a game affords several times the lessons; and the terms keep improving with lessons (37,550
 * lessons -0.19 [-0.38, 0.00] against 7,936, not by their larger size alone).
 * Before: material-forks, whose threat looks the terms were first measured learning (session 77).
 */
export function lessonSearchFor(playSearch: SearchSpec): SearchSpec {
  const extensions = extensionsOf(playSearch);
  return extensions.plies > LESSON_PLIES ? formatSearch({ ...extensions, plies: LESSON_PLIES, late: 0, nullMove: 0 }) : playSearch;
}

/** How many plies past the move a full-width lesson search looks (lessonSearchFor). */
export const LESSON_PLIES = 2;

/**
 * The position at the end of `history` (not over) valued one ply deeper by the play search: every reply searched,
 * the position worth 1 minus the best reply's value; beside it its capture-settled and static material, all in
 * log-odds for the side that just moved into it. Costs a search (tens of milliseconds).
 */
export function searchedLesson({ searcher, valueForMover }: LessonSearch, history: GameHistory): RelationLesson {
  const best = searcher.bestRanked(history);
  return {
    fen: boardToFen(history.board),
    settled: settledLogOdds(history.board, valueForMover),
    static: scaledValue(valueForMover(history.board), 'log-odds'),
    target: scaledValue(1 - best.value, 'log-odds'),
  };
}

/** `count` distinct plies among 1..`plies` (all when there are no more), drawn by `rng`. */
export function samplePlies(plies: number, count: number, rng: Random): Set<number> {
  return new Set(rng.shuffle(Array.from({ length: plies }, (_, i) => i + 1)).slice(0, count));
}

/**
 * Up to `count` positions of a game (both sides', drawn by `rng` without repeats; none where the game is over),
 * each a searchedLesson by `searchSpec` (training's: lessonSearchFor).
 */
export function relationLessons(
  store: PatternStore,
  game: { startFen: string; moves: readonly string[] },
  count: number,
  rng: Random,
  config: LearningConfig,
  searchSpec: SearchSpec = lessonSearchFor(config.playSearch),
): RelationLesson[] {
  if (count <= 0) return [];
  const search = lessonSearch(store, config, searchSpec, config.bootstrapLessons);
  if (search === undefined) return [];
  const chosen = samplePlies(game.moves.length, count, rng);
  const history = new GameHistory(game.startFen);
  const lessons: RelationLesson[] = [];
  game.moves.forEach((move, i) => {
    history.play(move);
    if (!chosen.has(i + 1) || history.verdict() !== null) return;
    lessons.push(searchedLesson(search, history));
  });
  return lessons;
}
