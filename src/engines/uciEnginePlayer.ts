/**
 * An external UCI engine as a GamePlayer. The process is started on first use and brought back by the next
 * newGame() (or move) after it crashed, hung or misbehaved, so one bad game does not end a training run.
 */
import type { GamePlayer, GamePosition } from './gamePlayer.ts';
import { EngineError, UciClient, type GoParams, type UciClientConfig } from './uciClient.ts';

export interface UciEnginePlayerConfig extends Omit<UciClientConfig, 'label'> {
  /** The player's name for PGN headers and logs, e.g. "stockfish:skill=0,depth=1". */
  name: string;
  /** The search limits of every move. */
  go: GoParams;
}

export class UciEnginePlayer implements GamePlayer {
  readonly name: string;
  private readonly client: UciClient;
  private readonly go: GoParams;

  constructor(config: UciEnginePlayerConfig) {
    const { name, go, ...clientConfig } = config;
    this.name = name;
    this.go = go;
    this.client = new UciClient({ ...clientConfig, label: name });
  }

  async newGame(): Promise<void> {
    await this.ensureRunning();
    await this.client.newGame();
  }

  async chooseMove(position: GamePosition): Promise<string> {
    await this.ensureRunning();
    const move = await this.client.bestMove(position.startFen, position.moves, this.go);
    if (move === null) {
      throw new EngineError('protocol', `engine "${this.name}" reported no move (bestmove (none)) in ${position.fen}`);
    }
    return move;
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private async ensureRunning(): Promise<void> {
    // restart() also clears away the remains of a process that failed.
    if (!this.client.isRunning) await this.client.restart();
  }
}
