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
import { extensionsOf, type SearchSpec } from '../search/extensions.ts';
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

export function lessonSearch(store: PatternStore, config: LearningConfig, search = lessonSearchFor(config.playSearch)): LessonSearch | undefined {
  if (!extensionsOf(config.playSearch).materialValues) return undefined;
  const evaluation = evaluationSettings(config);
  const searcher = new MorphPlayer(store, { maturity: config.maturity, evaluation, search, seed: 0, contempt: 0, graphPatterns: false });
  const pieceValues = databasePieceValues(store);
  const valueForMover = (board: Board) => materialEvaluation(store, board, config.maturity, evaluation, pieceValues).value;
  return { searcher, valueForMover };
}

/**
 * The search a lesson is valued by: the play search, but material-forks for a full-width one (plies=N). The relation
 * terms were measured learning the gap material-forks' threat looks find beyond the captures (docs/lab/2026-12.md),
 * and material-full-width played +280 Elo over material-forks with terms learned so (session 77). Lessons valued by
 * the full-width search itself (session 78, the same 4,983 positions valued again, research/recipes/lesson-search.sh)
 * gave terms that correlate .97 with these and chose no better (move quality +0.03 [-0.10, +0.15]), at two to three
 * times a lesson's search.
 */
export function lessonSearchFor(playSearch: SearchSpec): SearchSpec {
  return extensionsOf(playSearch).plies > 0 ? 'material-forks' : playSearch;
}

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
 * each a searchedLesson.
 */
export function relationLessons(
  store: PatternStore,
  game: { startFen: string; moves: readonly string[] },
  count: number,
  rng: Random,
  config: LearningConfig,
): RelationLesson[] {
  if (count <= 0) return [];
  const search = lessonSearch(store, config);
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
