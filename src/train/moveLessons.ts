/**
 * The move patterns' lessons from Morph's own search (issue 71, phase 2; SYLPH's second statistic): in positions
 * of a value database's games, each quiet move (not a capture, not a promotion: the capture look's) is followed,
 * through every reply (or the play search's value of the position it leads to, one ply deeper: searchedLesson, as
 * the relation terms' lessons are valued), and what it finds is compared with that position's capture-settled
 * material (MOVE_LESSON_LOOKS). A quiet move whose followed
 * value is above its settled material by more than a gap is one the search finds worth more than material says
 * (a threat no reply parries, a fork, a mate by checks): a positive, what the move patterns learn to predict. Here,
 * beside relationLessons.ts, because a lesson needs a player's search.
 */
import { boardFromFen, boardToFen, cloneBoard, uciMove, type Board } from '../chess/board.ts';
import { GameHistory } from '../chess/history.ts';
import { generateLegalMoves } from '../chess/movegen.ts';
import type { LearningConfig } from '../learn/config.ts';
import type { Decision } from '../model/decisions.ts';
import type { MoveLesson } from '../model/movePatterns.ts';
import { followedThroughReplies, isFollowed, QUIESCENCE } from '../search/search.ts';
import { settledMaterialValue } from '../learn/graphTermLearning.ts';
import { scaledValue } from '../player/morphPlayer.ts';
import type { PatternStore } from '../store/patternStore.ts';
import { badInput } from '../util/errors.ts';
import type { Random } from '../util/random.ts';
import { lessonSearch, samplePlies, searchedLesson, type LessonSearch } from './relationLessons.ts';

/**
 * How far, in log-odds for the mover, a quiet move's searched value must stand above its settled material to count
 * as a positive: about half a pawn at level material (a pawn is about .8), well above rounding, below any piece.
 */
export const DEFAULT_MOVE_LESSON_GAP = 0.5;

/**
 * How a quiet move is followed for its lesson:
 * - followed: through every reply, each settled by the captures (followedThroughReplies, what the patterns look does
 *   with the moves the move patterns rank highest), against its capture-settled material: cheap, and the look's own
 *   question;
 * - deeper: the play search one ply deeper (searchedLesson, as the relation terms' lessons), against the same.
 */
export const MOVE_LESSON_LOOKS = ['followed', 'deeper'] as const;
export type MoveLessonLook = (typeof MOVE_LESSON_LOOKS)[number];

/** One position's quiet moves, each with its gap: the searched value less the capture-settled material (log-odds). */
export interface SearchedPosition {
  fen: string;
  quiet: { move: string; gap: number }[];
}

/**
 * Up to `perGame` positions of each game (`decisions`: both sides' moves of the games, in order, as
 * partnerDecisions gives them with bothSides), drawn by `rng`, each quiet move of each searched. A quiet move
 * after which the game is over is left out (the rules value it). Costs a search a quiet move.
 */
export function searchQuietMoves(
  store: PatternStore,
  config: LearningConfig,
  decisions: readonly Decision[],
  perGame: number,
  rng: Random,
  look: MoveLessonLook = 'followed',
  onProgress?: (text: string) => void,
): SearchedPosition[] {
  const search = lessonSearch(store, config);
  if (search === undefined) throw badInput(`the database's play search (${config.playSearch}) does not value positions by material: no search lessons`);
  const byGame = new Map<number, Decision[]>();
  for (const decision of decisions) {
    const game = byGame.get(decision.game) ?? [];
    game.push(decision);
    byGame.set(decision.game, game);
  }
  const positions: SearchedPosition[] = [];
  let searched = 0;
  for (const game of byGame.values()) {
    const chosen = samplePlies(game.length, perGame, rng);
    for (const [k, decision] of game.entries()) {
      if (!chosen.has(k + 1)) continue;
      const history = new GameHistory(decision.startFen, decision.before);
      const board = history.board;
      const quiet: SearchedPosition['quiet'] = [];
      for (const move of generateLegalMoves(board)) {
        if (isFollowed(board, move, QUIESCENCE)) continue;
        const uci = uciMove(move);
        const after = history.continued([uci]);
        if (after.verdict() !== null) continue;
        quiet.push({ move: uci, gap: look === 'deeper' ? deeperGap(search, after) : followedGap(search, after.board) });
        searched++;
      }
      positions.push({ fen: boardToFen(board), quiet });
    }
    if (onProgress !== undefined && positions.length % 50 < perGame) onProgress(`${positions.length} positions, ${searched} quiet moves searched`);
  }
  return positions;
}

/** The play search one ply deeper less the capture-settled material, in log-odds for the mover. */
function deeperGap(search: LessonSearch, after: GameHistory): number {
  const lesson = searchedLesson(search, after);
  return lesson.target - lesson.settled;
}

/** What following the move through every reply finds above its capture-settled material (0: nothing), in log-odds. */
function followedGap({ valueForMover }: LessonSearch, after: Board): number {
  const settled = settledMaterialValue(cloneBoard(after), valueForMover);
  const followed = followedThroughReplies(after, settled, valueForMover, QUIESCENCE);
  return followed === undefined ? 0 : scaledValue(followed, 'log-odds') - scaledValue(settled, 'log-odds');
}

/** The positions as the move patterns' lessons: a quiet move whose gap exceeds `gap` is a positive among the quiet moves. */
export function quietMoveLessons(positions: readonly SearchedPosition[], gap = DEFAULT_MOVE_LESSON_GAP): () => Iterable<MoveLesson> {
  return function* () {
    for (const { fen, quiet } of positions) {
      yield {
        board: boardFromFen(fen),
        positives: quiet.filter((q) => q.gap > gap).map((q) => q.move),
        considered: new Set(quiet.map((q) => q.move)),
      };
    }
  };
}
