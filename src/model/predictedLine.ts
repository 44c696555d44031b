/**
 * Morph with a model of its opponent, looking one move further along the line the model predicts (the "line"
 * model mode). The worst-reply look (predictedReplies.ts) can only lower a move's value, so it never lets Morph
 * play for what the opponent will likely do, only guard against it. Here, for each of Morph's few best moves,
 * the model's likeliest reply is played and Morph's own best answer searched (its whole play search, one ply
 * and its looks) in the position it leaves: the move is worth, with the model's probability p of that reply,
 *
 *     p x (Morph's best answer's value) + (1 - p) x (the move's own value, its search's)
 *
 * so a move whose likely reply walks into something Morph's search sees from there rises, and one whose likely
 * reply leaves Morph worse than its search found falls. A reply that mates Morph is 0, one that draws by rule
 * Morph's draw value.
 */
import { applyMove, cloneBoard, parseUciMove } from '../chess/board.ts';
import { gameStatus } from '../chess/movegen.ts';
import { historyAfter, type GameHistory } from '../chess/history.ts';
import { MorphPlayer, type MorphPlayerOptions, type RankedMove } from '../player/morphPlayer.ts';
import type { PatternStore } from '../store/patternStore.ts';
import { badInput } from '../util/errors.ts';
import { isDrawnByRule, type OpponentModel } from './opponentModel.ts';

/** How many of Morph's best moves are followed along the predicted line. */
export const LINE_CANDIDATES = 4;

export class PredictedLinePlayer extends MorphPlayer {
  constructor(
    store: PatternStore,
    options: MorphPlayerOptions,
    readonly model: OpponentModel,
    readonly candidates = LINE_CANDIDATES,
    name?: string,
  ) {
    super(store, options, name);
  }

  override bestMove(history: GameHistory): string {
    return this.bestAlongLine(history).move;
  }

  /** The best move once the best few are followed along the model's likeliest reply. */
  bestAlongLine(history: GameHistory): RankedMove {
    const ranking = this.rankMoves(history);
    if (ranking.length === 0) throw badInput('no legal moves: the game is over');
    const board = history.board;
    const next = cloneBoard(board);
    const after = cloneBoard(board);
    const followed = ranking.slice(0, this.candidates).map((ranked) => ({ ...ranked }));
    for (const ranked of followed) {
      if (ranked.source !== 'patterns' || ranked.refutation?.source === 'checkmate') continue;
      applyMove(board, parseUciMove(ranked.move)!, next);
      const afterMove = historyAfter(history, next);
      const [reply] = this.model.rank(afterMove, 'one-ply');
      if (reply === undefined) continue;
      applyMove(next, parseUciMove(reply.move)!, after);
      let answer: number;
      if (gameStatus(after) === 'checkmate') answer = 0;
      else if (isDrawnByRule(afterMove, after)) answer = this.drawValue;
      else answer = super.bestRanked(history.continued([ranked.move, reply.move])).value;
      ranked.value = reply.probability * answer + (1 - reply.probability) * ranked.value;
    }
    return this.pickAmongBest([...followed].sort(this.byScoreThenMove));
  }
}
