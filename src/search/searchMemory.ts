/**
 * What the plies look (search.ts fullWidthValue) remembers over one game move's search, as chess engines do
 * (Stockfish's tt.cpp and killer moves, kept simple):
 * - a transposition table: the value each position was found to have with a given number of plies still to
 *   search, and the move that set it. The same position is reached by several orders of the same moves, most
 *   often under different root moves, and is then searched once;
 * - killer moves: at each depth, the last moves that cut the search off there. A reply that refutes one move
 *   (a piece left to be taken) mostly refutes its siblings too.
 * Both only change which positions are visited and in what order, never a value found inside the window.
 *
 * A position's value at a given depth does not depend on the path to it: the plies look asks no question of
 * repetition or of the fifty-move rule, and the values read only the pieces and the side to move. Only an entry
 * searched with the same plies remaining is reused, never a deeper one: a deeper search would give a different
 * value, and the look must find the very values it finds without the table. The memory is cleared for each game
 * move (the learned values may change between moves); nothing is evicted before (some tens of thousands of
 * positions a move).
 */
import type { CompactMove } from '../chess/board.ts';

/**
 * What a stored value says of the position's value. Alpha-beta values a position exactly only inside the window
 * it was searched with: a value at or below the window's low end is only an upper bound (a cut-off stopped the
 * search), one at or above its high end only a lower bound.
 */
export type Bound = 'exact' | 'at-most' | 'at-least';

export interface StoredValue {
  /** For the side that just moved into the position, as fullWidthValue's. */
  value: number;
  bound: Bound;
  /** The move that set the value, tried first when the position is searched again (undefined: none did). */
  best: CompactMove | undefined;
}

/** What `value`, found by a search of the window [low, high], says of the position's value. */
export function boundOf(value: number, low: number, high: number): Bound {
  if (value <= low) return 'at-most';
  if (value >= high) return 'at-least';
  return 'exact';
}

/**
 * The stored value when it answers a search of the window [low, high] as that search would (an exact value, or a
 * bound on the side of the window it proves), else undefined: the position must be searched again.
 */
export function reusableValue(stored: StoredValue, low: number, high: number): number | undefined {
  if (stored.bound === 'exact') return stored.value;
  if (stored.bound === 'at-most' && stored.value <= low) return stored.value;
  if (stored.bound === 'at-least' && stored.value >= high) return stored.value;
  return undefined;
}

/** Positions by their key (positionKey.ts) and the plies still searched from them. */
export class TranspositionTable {
  private readonly byPlies: Map<number, StoredValue>[] = [];

  get(key: number, plies: number): StoredValue | undefined {
    return this.byPlies[plies]?.get(key);
  }

  set(key: number, plies: number, stored: StoredValue): void {
    (this.byPlies[plies] ??= new Map()).set(key, stored);
  }

  /** How many positions are stored, at every depth. */
  get size(): number {
    return this.byPlies.reduce((sum, table) => sum + (table?.size ?? 0), 0);
  }

  clear(): void {
    this.byPlies.length = 0;
  }
}

/**
 * How many killer moves are kept at each depth. Measured on 100 scored positions (plies=3): one killer valued
 * 25,756 positions a move, two 23,076, three 23,829.
 */
export const KILLERS_PER_DEPTH = 2;

/** The moves that last cut the search off at each depth (plies remaining), the latest first. */
export class KillerMoves {
  private readonly byPlies: CompactMove[][] = [];

  at(plies: number): readonly CompactMove[] {
    return this.byPlies[plies] ?? [];
  }

  /** `move` cut the search off with `plies` remaining: it becomes the first killer there. */
  record(plies: number, move: CompactMove): void {
    const killers = (this.byPlies[plies] ??= []);
    const known = killers.findIndex((killer) => sameMove(killer, move));
    if (known >= 0) killers.splice(known, 1);
    killers.unshift(move);
    if (killers.length > KILLERS_PER_DEPTH) killers.pop();
  }

  clear(): void {
    this.byPlies.length = 0;
  }
}

/** The plies look's memory over one game move's search. */
export class SearchMemory {
  readonly table = new TranspositionTable();
  readonly killers = new KillerMoves();

  clear(): void {
    this.table.clear();
    this.killers.clear();
  }
}

/** Whether two moves are the same move (the same squares and promotion), whichever position generated them. */
export function sameMove(a: CompactMove, b: CompactMove): boolean {
  return a.from === b.from && a.to === b.to && a.promotion === b.promotion;
}
