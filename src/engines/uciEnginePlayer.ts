/**
 * An external engine as a GamePlayer, over either protocol's client (UCI, or xboard's CECP). The process is
 * started on first use and brought back by the next newGame() (or move) after it crashed, hung or misbehaved,
 * so one bad game does not end a training run.
 */
import type { GamePlayer, GamePosition } from './gamePlayer.ts';
import { EngineError, type EngineClient } from './engineProcess.ts';
import { UciClient, type GoParams, type UciClientConfig } from './uciClient.ts';
import { XboardClient, type XboardClientConfig, type XboardLimits } from './xboardClient.ts';

class EnginePlayer<Limits> implements GamePlayer {
  constructor(
    readonly name: string,
    private readonly client: EngineClient<Limits>,
    /** The search limits of every move. */
    private readonly limits: Limits,
  ) {}

  async newGame(): Promise<void> {
    await this.ensureRunning();
    await this.client.newGame();
  }

  async chooseMove(position: GamePosition): Promise<string> {
    await this.ensureRunning();
    const move = await this.client.bestMove(position.startFen, position.moves, this.limits);
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

export interface UciEnginePlayerConfig extends Omit<UciClientConfig, 'label'> {
  /** The player's name for PGN headers and logs, e.g. "stockfish:skill=0,depth=1". */
  name: string;
  go: GoParams;
}

export class UciEnginePlayer extends EnginePlayer<GoParams> {
  constructor({ name, go, ...clientConfig }: UciEnginePlayerConfig) {
    super(name, new UciClient({ ...clientConfig, label: name }), go);
  }
}

export interface XboardEnginePlayerConfig extends Omit<XboardClientConfig, 'label'> {
  name: string;
  limits: XboardLimits;
}

export class XboardEnginePlayer extends EnginePlayer<XboardLimits> {
  constructor({ name, limits, ...clientConfig }: XboardEnginePlayerConfig) {
    super(name, new XboardClient({ ...clientConfig, label: name }), limits);
  }
}
