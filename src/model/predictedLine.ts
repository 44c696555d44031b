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
import { historyAfter, type GameHistory } from '../chess/history.ts';
import { MorphPlayer, type MorphPlayerOptions, type RankedMove } from '../player/morphPlayer.ts';
import type { PatternStore } from '../store/patternStore.ts';
import { endByRule, type OpponentModel } from './opponentModel.ts';

/** How many of Morph's best moves are followed along the predicted line. */
export const LINE_CANDIDATES = 4;

export class PredictedLinePlayer extends MorphPlayer {
  /** While Morph's answers along a line are searched: they are its plain choices, not followed further. */
  private answering = false;

  constructor(
    store: PatternStore,
    options: MorphPlayerOptions,
    readonly model: OpponentModel,
    readonly candidates = LINE_CANDIDATES,
    name?: string,
  ) {
    super(store, options, name);
  }

  /** The game move (bestMove, UCI): the line's choice; Morph's answers along a line are its plain game moves. */
  override bestRanked(history: GameHistory): RankedMove {
    return this.answering ? super.bestRanked(history) : this.choose(history);
  }

  /**
   * The plain ranking's best few moves followed along the line, best first, then the others as the plain ranking
   * has them; the move played is the best of those followed (a mate Morph forces by checks is played, and a bare
   * king mated by the rules' order, as without a model). Every command that plays (match, play, uci) chooses through here.
   */
  override choose(history: GameHistory, keepEvaluations = false): ReturnType<MorphPlayer['choose']> {
    const plain = super.choose(history, keepEvaluations);
    if (this.answering || plain.chosenBy !== 'value') return plain; // a forced mate, or a bare king mated by the rules
    const followed = plain.ranking.slice(0, this.candidates).map((ranked) => this.alongLine(history, ranked));
    followed.sort(this.byScoreThenMove);
    const ranking = [...followed, ...plain.ranking.slice(this.candidates)];
    return { ...this.pickAmongBest(followed), ranking, chosenBy: 'value' };
  }

  /** `ranked` with its value mixed with that of Morph's best answer to the model's likeliest reply. */
  private alongLine(history: GameHistory, ranked: RankedMove): RankedMove {
    if (ranked.source !== 'patterns' || ranked.refutation?.source === 'checkmate' || ranked.mateIn !== undefined) return ranked;
    const board = history.board;
    const next = cloneBoard(board);
    applyMove(board, parseUciMove(ranked.move)!, next);
    const afterMove = historyAfter(history, next);
    const [reply] = this.model.rank(afterMove, 'one-ply');
    if (reply === undefined) return ranked;
    const after = cloneBoard(next);
    applyMove(next, parseUciMove(reply.move)!, after);
    const end = endByRule(afterMove, after);
    let answer: number;
    if (end === 'checkmate') answer = 0;
    else if (end === 'draw') answer = this.drawValue;
    else {
      this.answering = true;
      try {
        answer = this.bestRanked(history.continued([ranked.move, reply.move])).value;
      } finally {
        this.answering = false;
      }
    }
    return { ...ranked, value: reply.probability * answer + (1 - reply.probability) * ranked.value };
  }
}
