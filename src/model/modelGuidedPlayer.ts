/**
 * Morph with a model of its opponent (IAM's "adversary model as a coach"): for each own move it looks along
 * the replies the model finds likeliest and judges the positions they lead to with its value database.
 *
 * For own move m: a mate scores 1 and a draw by rule .5, as in the 1-ply player. Otherwise the model ranks the
 * opponent's replies; the `replies` likeliest are kept, with their softmax probabilities renormalised; each
 * reply's position is valued for Morph (1 - the value database's value for the opponent, who just moved; 0 if
 * the reply mates, .5 if it draws by rule), and m's value is the probability-weighted mean. The best value is
 * played, ties broken by a seeded random choice.
 */
import { applyMove, cloneBoard, parseUciMove, uciMove, type Board } from '../chess/board.ts';
import { GameHistory, repetitionKey } from '../chess/history.ts';
import { gameStatus, generateLegalMoves, isInsufficientMaterial } from '../chess/movegen.ts';
import { buildPositionGraph, PositionGraph } from '../graph/positionGraph.ts';
import type { GamePlayer, GamePosition } from '../engines/gamePlayer.ts';
import { evaluateGraph } from '../player/evaluate.ts';
import type { PatternStore } from '../store/patternStore.ts';
import { badInput } from '../util/errors.ts';
import { Random } from '../util/random.ts';
import { scoreSuccessors, type OpponentModel, type PositionHistory } from './opponentModel.ts';

export interface ModelGuidedOptions {
  maturity: number;
  seed: number;
  /** How many of the model's likeliest replies are looked at. */
  replies: number;
}

export const DEFAULT_REPLIES = 3;

export interface GuidedMove {
  move: string;
  value: number;
}

/** A position after one more move, seen through the game's repetition counts. */
function extendedHistory(history: PositionHistory, board: Board): PositionHistory {
  const key = repetitionKey(board);
  return { board, occurrences: (b) => history.occurrences(b) + (repetitionKey(b) === key ? 1 : 0) };
}

function isDrawByRule(history: PositionHistory, board: Board): boolean {
  return (
    gameStatus(board) === 'stalemate' ||
    isInsufficientMaterial(board.squares) ||
    history.occurrences(board) >= 2 ||
    board.halfmoveClock >= 100
  );
}

export class ModelGuidedPlayer implements GamePlayer {
  private readonly rng: Random;
  private readonly graph = new PositionGraph();

  constructor(
    readonly values: PatternStore,
    readonly model: OpponentModel,
    readonly options: ModelGuidedOptions,
    readonly name = `morph:${values.path}+model:${model.store.path}`,
  ) {
    this.rng = new Random(options.seed);
  }

  async newGame(): Promise<void> {}

  async chooseMove(position: GamePosition): Promise<string> {
    const ranking = this.rankMoves(new GameHistory(position.startFen, position.moves));
    if (ranking.length === 0) throw badInput('no legal moves: the game is over');
    const best = ranking[0].value;
    return this.rng.pick(ranking.filter((r) => r.value >= best - 1e-12)).move;
  }

  async close(): Promise<void> {}

  /** Every legal move with its value looking along the predicted replies, best first. */
  rankMoves(history: PositionHistory): GuidedMove[] {
    const board = history.board;
    const ranking: GuidedMove[] = [];
    for (const move of generateLegalMoves(board)) {
      const next = cloneBoard(board);
      applyMove(board, move, next);
      ranking.push({ move: uciMove(move), value: this.judge(history, next) });
    }
    return ranking.sort((a, b) => b.value - a.value || (a.move < b.move ? -1 : 1));
  }

  private judge(history: PositionHistory, next: Board): number {
    if (gameStatus(next) === 'checkmate') return 1;
    if (isDrawByRule(history, next)) return 0.5;
    const afterMove = extendedHistory(history, next);
    const replies = scoreSuccessors(this.model.successors(afterMove), this.model.terminal, this.model.scoreOf).slice(0, this.options.replies);
    const after = cloneBoard(next);
    let total = 0;
    let weighted = 0;
    for (const reply of replies) {
      applyMove(next, parseUciMove(reply.move)!, after);
      let value: number;
      if (gameStatus(after) === 'checkmate') value = 0;
      else if (isDrawByRule(afterMove, after)) value = 0.5;
      else value = 1 - evaluateGraph(this.values, buildPositionGraph(after, this.graph), this.options.maturity).value;
      weighted += reply.probability * value;
      total += reply.probability;
    }
    return total > 0 ? weighted / total : 0.5;
  }
}
