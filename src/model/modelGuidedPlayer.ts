/**
 * Morph with a model of its opponent as IAM used one (the "adversary model as a coach"; the "coach" model mode):
 * for each own move it looks along the replies the model finds likeliest and judges the positions they lead to
 * with its value database. Not the default way to use a model: the worst-reply look (predictedReplies.ts)
 * measured far stronger (docs/lab/).
 *
 * For own move m: a mate scores 1 and a draw by rule .5, as in the 1-ply player. Otherwise the model ranks the
 * opponent's replies (one ply, whatever the model's search, for speed); the `replies` likeliest are kept, with
 * their softmax probabilities renormalised; each reply's position is valued for Morph (1 - the value database's
 * value for the opponent, who just moved; 0 if the reply mates, .5 if it draws by rule), and m's value is the
 * probability-weighted mean. The best value is played, ties broken by a seeded random choice.
 */
import { applyMove, cloneBoard, parseUciMove, uciMove, type Board } from '../chess/board.ts';
import { historyAfter, type GameHistory } from '../chess/history.ts';
import { generateLegalMoves } from '../chess/movegen.ts';
import { buildPositionGraph, PositionGraph } from '../graph/positionGraph.ts';
import { MorphPlayer, type RankedMove } from '../player/morphPlayer.ts';
import { evaluateGraph } from '../eval/evaluate.ts';
import type { PatternStore } from '../store/patternStore.ts';
import { endByRule, type OpponentModel, type PositionHistory } from './opponentModel.ts';

export interface ModelGuidedOptions {
  maturity: number;
  seed: number;
  /** How many of the model's likeliest replies are looked at. */
  replies: number;
}

/**
 * A MorphPlayer whose ranking looks along the model's predicted replies; choosing (best value, seeded random
 * tie-break), game play, `morph play` and UCI are the 1-ply player's own.
 */
export class ModelGuidedPlayer extends MorphPlayer {
  private readonly lookGraph = new PositionGraph();

  constructor(
    readonly values: PatternStore,
    readonly model: OpponentModel,
    readonly guidance: ModelGuidedOptions,
    name = `morph:${values.path}+model:${model.store.path}`,
  ) {
    super(values, { maturity: guidance.maturity, seed: guidance.seed }, name);
  }

  /** The game move (bestMove, UCI) is the move `choose` plays: the 1-ply player's shortcut for search "captures" does not apply here. */
  override bestRanked(history: GameHistory): RankedMove {
    return this.choose(history);
  }

  /** Every legal move with its value looking along the predicted replies, best first. */
  override rankMoves(history: PositionHistory): RankedMove[] {
    const board = history.board;
    const ranking: RankedMove[] = [];
    for (const move of generateLegalMoves(board)) {
      const next = cloneBoard(board);
      applyMove(board, move, next);
      ranking.push({ move: uciMove(move), value: this.judgeAlongReplies(history, next), source: 'patterns' });
    }
    return ranking.sort((a, b) => b.value - a.value || (a.move < b.move ? -1 : 1));
  }

  private judgeAlongReplies(history: PositionHistory, next: Board): number {
    const end = endByRule(history, next);
    if (end !== null) return end === 'checkmate' ? 1 : 0.5;
    const afterMove = historyAfter(history, next);
    // One ply whatever the model's search: the guided player ranks the replies to every own move, and the
    // captures look made that four times slower (4.7 s a move against 1.2 at load 8), beyond blitz.
    const replies = this.model.rank(afterMove, 'one-ply').slice(0, this.guidance.replies);
    const after = cloneBoard(next);
    let total = 0;
    let weighted = 0;
    for (const reply of replies) {
      applyMove(next, parseUciMove(reply.move)!, after);
      const end = endByRule(afterMove, after);
      let value: number;
      if (end === 'checkmate') value = 0;
      else if (end === 'draw') value = 0.5;
      else value = 1 - evaluateGraph(this.values, buildPositionGraph(after, this.lookGraph), this.guidance.maturity).value;
      weighted += reply.probability * value;
      total += reply.probability;
    }
    return total > 0 ? weighted / total : 0.5;
  }
}
