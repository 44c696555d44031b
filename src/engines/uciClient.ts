/**
 * A UCI client for external engines (Stockfish, GNU Chess, any UCI binary). The process, its timeouts and its
 * failures (EngineError) are engineProcess.ts's; restart() brings up a fresh process after any failure.
 */
import { START_FEN } from '../chess/fen.ts';
import { badInput, quoteInput } from '../util/errors.ts';
import { EngineClient, EngineError, type EngineLaunch, type EngineProcess } from './engineProcess.ts';

/** Search limits for `go`. At least one of depth, nodes, movetime or wtime/btime must be given. */
export interface GoParams {
  depth?: number;
  nodes?: number;
  movetime?: number;
  wtime?: number;
  btime?: number;
  winc?: number;
  binc?: number;
  movestogo?: number;
}

export type UciOptionValue = string | number | boolean;

/** The limits a caller may set on an external engine's waits (uciClient.ts, engineProcess.ts). */
export type EngineTimeouts = Pick<UciClientConfig, 'handshakeTimeoutMs' | 'searchTimeoutMs' | 'hangTimeoutMs'>;

export interface UciClientConfig extends EngineLaunch {
  /** Sent as `setoption name X value Y` after the handshake. Names must be options the engine advertises. */
  options?: Record<string, UciOptionValue>;
  /** Limit for `uci`/`uciok` and `isready`/`readyok`. Default 10 s. */
  handshakeTimeoutMs?: number;
  /** Limit for a search. Default: the search's time budget plus searchGraceMs, or 30 s when it has none. */
  searchTimeoutMs?: number;
  /** Added to movetime (or the clock) to get the search limit. Default 10 s. */
  searchGraceMs?: number;
}

const DEFAULT_HANDSHAKE_TIMEOUT_MS = 10_000;
const DEFAULT_UNTIMED_SEARCH_TIMEOUT_MS = 30_000;
const DEFAULT_SEARCH_GRACE_MS = 10_000;
const INFO_LINES_KEPT = 200;
const UCI_MOVE = /^[a-h][1-8][a-h][1-8][qrbn]?$/;

export class UciClient extends EngineClient<GoParams> {
  private searching = false;
  private _engineId = '';
  private _optionNames: string[] = [];
  private _lastInfo: string[] = [];

  constructor(private readonly config: UciClientConfig) {
    super(config);
  }

  /** The engine's `id name`, known after start(). */
  get engineId(): string {
    return this._engineId;
  }

  /** The option names the engine advertised in its handshake. */
  get optionNames(): readonly string[] {
    return this._optionNames;
  }

  /** The `info` lines of the last search (for logs and tests). */
  get lastInfo(): readonly string[] {
    return this._lastInfo;
  }

  protected async handshake(engine: EngineProcess): Promise<void> {
    const timeout = this.limit(this.config.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS);
    let engineId = '';
    const optionNames: string[] = [];
    await engine.request('uci', 'uciok', timeout, (line) => {
      if (line.startsWith('id name ')) engineId = line.slice('id name '.length).trim();
      const option = /^option name (.+?) type /.exec(line);
      if (option) optionNames.push(option[1]);
      return line === 'uciok';
    });
    this._engineId = engineId;
    this._optionNames = optionNames;
    for (const [name, value] of Object.entries(this.config.options ?? {})) {
      // UCI option names are case-insensitive; send the engine's own spelling.
      const known = optionNames.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
      if (known === undefined) {
        throw badInput(
          `engine "${this.label}" has no option "${name}" (it has: ${optionNames.join(', ') || 'none'})`,
        );
      }
      engine.send(`setoption name ${known} value ${String(value)}`);
    }
    await this.isReady();
  }

  /** Tells the engine a new game starts (it may clear its hash) and waits until it is ready. */
  async newGame(): Promise<void> {
    this.runningProcess().send('ucinewgame');
    this.positions.reset();
    await this.isReady();
  }

  /**
   * The engine's move after `moves` (UCI notation) from `startFen` ('startpos' or a FEN). Returns null when
   * the engine reports it has no move (`bestmove (none)` or `0000`), which only a finished game should cause.
   * A move that is malformed or illegal in the position is a 'protocol' EngineError.
   */
  async bestMove(startFen: string, moves: readonly string[], go: GoParams): Promise<string | null> {
    const engine = this.runningProcess();
    if (this.searching) throw new Error(`engine "${this.label}" is already searching`);
    const goCommand = formatGo(go);
    const legalMoves = this.positions.legalMovesAfter(startFen, moves);
    const fen = this.positions.currentFen();
    this.searching = true;
    try {
      const info: string[] = [];
      this._lastInfo = info;
      let best: string | null = null;
      engine.send(formatPosition(startFen, moves));
      await engine.request(goCommand, 'bestmove', this.limit(this.searchTimeout(go)), (line) => {
        if (line.startsWith('info ')) {
          if (info.length < INFO_LINES_KEPT) info.push(line);
          return false;
        }
        if (line !== 'bestmove' && !line.startsWith('bestmove ')) return false;
        const move = line.split(/\s+/)[1] ?? '';
        if (move === '(none)' || move === '0000') return true;
        if (!UCI_MOVE.test(move)) {
          throw new EngineError('protocol', `engine "${this.label}" sent a malformed bestmove: "${quoteInput(line)}"`);
        }
        if (!legalMoves.has(move)) {
          throw new EngineError('protocol', `engine "${this.label}" played the illegal move ${move} in ${fen}`);
        }
        best = move;
        return true;
      });
      return best;
    } finally {
      this.searching = false;
    }
  }

  /** Same as close(): ends the engine process (it does not send UCI `stop`). */
  async stop(): Promise<void> {
    await this.close();
  }

  private async isReady(): Promise<void> {
    const timeout = this.limit(this.config.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS);
    await this.runningProcess().request('isready', 'readyok', timeout, (line) => line === 'readyok');
  }

  private searchTimeout(go: GoParams): number {
    if (this.config.searchTimeoutMs !== undefined) return this.config.searchTimeoutMs;
    const budget = go.movetime ?? maxDefined(go.wtime, go.btime);
    if (budget === undefined) return DEFAULT_UNTIMED_SEARCH_TIMEOUT_MS;
    return budget + (this.config.searchGraceMs ?? DEFAULT_SEARCH_GRACE_MS);
  }
}

function maxDefined(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.max(a, b);
}

export function formatGo(go: GoParams): string {
  const parts = ['go'];
  for (const key of ['depth', 'nodes', 'movetime', 'wtime', 'btime', 'winc', 'binc', 'movestogo'] as const) {
    const value = go[key];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value < 0) throw new Error(`go ${key} must be a whole number, got ${value}`);
    parts.push(key, String(value));
  }
  const limited = ['depth', 'nodes', 'movetime', 'wtime', 'btime'].some((key) => key in go);
  // A bare `go` means "search until told to stop" to most engines, which would hang a game.
  if (!limited) throw new Error('a search needs a limit: depth, nodes, movetime or wtime/btime');
  return parts.join(' ');
}

export function formatPosition(startFen: string, moves: readonly string[]): string {
  const start = startFen === 'startpos' || startFen === START_FEN ? 'startpos' : `fen ${startFen}`;
  return moves.length > 0 ? `position ${start} moves ${moves.join(' ')}` : `position ${start}`;
}
