/**
 * Morph's move choice (reference section 5): one ply. Every legal move is played on the compact board and the
 * resulting position judged: a mate scores 1; stalemate, insufficient material, threefold repetition and the
 * 50-move rule score .5; anything else is valued by its patterns. The best move is played, ties broken by a
 * seeded random choice.
 */
import { Chess } from 'chess.js';
import { applyMove, cloneBoard, uciMove, type Board, type CompactMove } from '../chess/board.ts';
import { generateLegalMoves } from '../chess/movegen.ts';
import { gameEnd, type GameEnd } from '../chess/gameEnd.ts';
import { GameHistory } from '../chess/history.ts';
import { buildPositionGraph, PositionGraph } from '../graph/positionGraph.ts';
import type { GamePlayer, GamePosition } from '../engines/gamePlayer.ts';
import type { PatternStore } from '../store/patternStore.ts';
import { Random } from '../util/random.ts';
import { badInput } from '../util/errors.ts';
import { evaluateGraph, type PositionEvaluation } from './evaluate.ts';
import type { EvaluationSettings } from '../eval/evaluation.ts';
import { evaluationSettings, loadConfig } from '../learn/config.ts';

/** Why a move got its value. */
export type ValueSource = GameEnd | 'patterns';

export interface RankedMove {
  move: string;
  value: number;
  source: ValueSource;
  /** The pattern evaluation, when the value came from patterns. */
  evaluation?: PositionEvaluation;
}

export interface MorphPlayerOptions {
  /** Patterns with fewer updates are ignored in play (reference section 6, maturity). */
  maturity: number;
  seed: number;
  /** How matched patterns combine into a value; default: the database's learning config. */
  evaluation?: EvaluationSettings;
}

/**
 * The maturity Morph plays with, the one rule for every command (move, play, uci, match, agree): the value
 * given, else the setting stored in the database (what training used).
 */
export function playingMaturity(store: PatternStore, override?: number): number {
  return override ?? loadConfig(store.db).maturity;
}

export class MorphPlayer implements GamePlayer {
  readonly name: string;
  private readonly rng: Random;
  private readonly graph = new PositionGraph();
  readonly evaluation: EvaluationSettings;
  /** Patterns tested in the last call to rankMoves (for benchmarks and --explain). */
  lastTested = 0;

  constructor(
    readonly store: PatternStore,
    readonly options: MorphPlayerOptions,
    name = `morph:${store.path}`,
  ) {
    this.name = name;
    this.rng = new Random(options.seed);
    this.evaluation = options.evaluation ?? evaluationSettings(loadConfig(store.db));
  }

  async newGame(): Promise<void> {}

  async chooseMove(position: GamePosition): Promise<string> {
    return this.choose(new GameHistory(position.startFen, position.moves)).move;
  }

  async close(): Promise<void> {}

  /** Every legal move with its value, best first (equal values in move order). */
  rankMoves(history: GameHistory, keepEvaluations = false): RankedMove[] {
    const board = history.board;
    const next = cloneBoard(board);
    const ranking: RankedMove[] = [];
    this.lastTested = 0;
    for (const move of generateLegalMoves(board)) {
      applyMove(board, move, next);
      const ranked = this.judge(history, next, move, keepEvaluations);
      ranking.push(ranked);
    }
    ranking.sort((a, b) => b.value - a.value || (a.move < b.move ? -1 : 1));
    return ranking;
  }

  /** The move to play: the best value, a seeded random one among equals. */
  choose(history: GameHistory, keepEvaluations = false): RankedMove & { ranking: RankedMove[] } {
    const ranking = this.rankMoves(history, keepEvaluations);
    if (ranking.length === 0) throw badInput('no legal moves: the game is over');
    const best = ranking[0].value;
    const tied = ranking.filter((r) => r.value >= best - 1e-12);
    return { ...this.rng.pick(tied), ranking };
  }

  private judge(history: GameHistory, next: Board, move: CompactMove, keep: boolean): RankedMove {
    const uci = uciMove(move);
    // The position after the move has occurred once more than the history has seen it so far.
    const end = gameEnd(next, history.occurrences(next) + 1);
    if (end === 'checkmate') return { move: uci, value: 1, source: end };
    if (end !== null) return { move: uci, value: 0.5, source: end };
    const evaluation = evaluateGraph(this.store, buildPositionGraph(next, this.graph), this.options.maturity, this.evaluation);
    this.lastTested += evaluation.tested;
    return { move: uci, value: evaluation.value, source: 'patterns', ...(keep ? { evaluation } : {}) };
  }
}

/** SAN of a UCI move in a position (chess.js, at the edge: for output only). */
export function sanOf(fen: string, uci: string): string {
  const chess = new Chess(fen);
  return chess.move({ from: uci.slice(0, 2), to: uci.slice(2, 4), promotion: uci[4] }).san;
}
