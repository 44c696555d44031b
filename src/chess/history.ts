/**
 * A game's positions on the compact board, for the rules the player must know beyond one position:
 * threefold repetition and the 50-move rule. chess.js knows these too, but replaying a game through it on every
 * move would cost milliseconds; this costs microseconds.
 */
import { applyMove, boardFromFen, cloneBoard, parseUciMove, type Board } from './board.ts';
import { badInput } from '../util/errors.ts';
import { gameEnd, type GameEnd } from './gameEnd.ts';
import { positionKey } from './positionKey.ts';

/** A position and how often each position occurred in its game so far (a GameHistory is one). */
export interface PositionHistory {
  readonly board: Board;
  occurrences(board: Board): number;
}

/** The game of `history` with one more position, `next`, reached (for looking ahead without copying). */
export function historyAfter(history: PositionHistory, next: Board): PositionHistory {
  const key = positionKey(next);
  return { board: next, occurrences: (b) => history.occurrences(b) + (positionKey(b) === key ? 1 : 0) };
}

export class GameHistory implements PositionHistory {
  readonly board: Board;
  private readonly seen = new Map<number, number>();

  constructor(startFen: string, moves: readonly string[] = []) {
    this.board = boardFromFen(startFen);
    this.count(this.board);
    for (const move of moves) this.play(move);
  }

  /** Plays a UCI move (assumed legal: the caller checked it). */
  play(uci: string): void {
    const move = parseUciMove(uci);
    if (!move) throw badInput(`bad move "${uci}"`);
    applyMove(this.board, move);
    this.count(this.board);
  }

  /** This game with `moves` played on, as a new history (for looking along a line; this one is unchanged). */
  continued(moves: readonly string[]): GameHistory {
    const copy: GameHistory = Object.assign(Object.create(GameHistory.prototype), { board: cloneBoard(this.board), seen: new Map(this.seen) });
    for (const move of moves) copy.play(move);
    return copy;
  }

  /** How often the position has occurred so far. */
  occurrences(board: Board): number {
    return this.seen.get(positionKey(board)) ?? 0;
  }

  /** Why the game is over in the current position, or null. */
  verdict(): GameEnd | null {
    return gameEnd(this.board, this.occurrences(this.board));
  }

  copyBoard(): Board {
    return cloneBoard(this.board);
  }

  private count(board: Board): void {
    const key = positionKey(board);
    this.seen.set(key, (this.seen.get(key) ?? 0) + 1);
  }
}
