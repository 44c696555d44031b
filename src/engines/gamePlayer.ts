/**
 * What every move-chooser looks like to the game loop: Morph itself, the built-in baselines (random, greedy,
 * ab:D) and external UCI engines. Async because external engines are separate processes.
 */
export interface GamePosition {
  /** The FEN the game started from. */
  startFen: string;
  /** Moves played since, in UCI notation. */
  moves: string[];
  /** The current position's FEN (derived from the two above; given for convenience). */
  fen: string;
}

export interface GamePlayer {
  /** A short name for PGN headers and logs, e.g. "stockfish:skill=0,depth=1". */
  readonly name: string;
  /** Called before each game. */
  newGame(): Promise<void>;
  /** The move to play, in UCI notation (e.g. "e2e4", "e7e8q"). */
  chooseMove(position: GamePosition): Promise<string>;
  /** Releases processes and files. Safe to call twice. */
  close(): Promise<void>;
}
