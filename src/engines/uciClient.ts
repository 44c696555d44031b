/**
 * A UCI client for external engines (Stockfish, GNU Chess, any UCI binary).
 *
 * External engines are the least trustworthy part of a long training run: they crash, hang, print nonsense or
 * play illegal moves. So every wait here has a timeout, a dead process fails the pending wait at once, and
 * every failure is an EngineError (kind 'crashed' | 'timeout' | 'protocol') with a one-line message. After any
 * EngineError the process has been killed; restart() brings up a fresh one. No 'error' event or rejected
 * promise is ever left unhandled, so a misbehaving engine cannot take the Node process down with it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { basename, isAbsolute } from 'node:path';
import { applyMove, boardToFen, uciMove, type Board } from '../chess/board.ts';
import { START_FEN, parseFen } from '../chess/fen.ts';
import { findLegalMove, generateLegalMoves } from '../chess/movegen.ts';
import { MorphError, badInput, quoteInput } from '../util/errors.ts';

export type EngineErrorKind = 'crashed' | 'timeout' | 'protocol';

export class EngineError extends MorphError {
  constructor(
    readonly kind: EngineErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

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

export interface UciClientConfig {
  command: string;
  args?: string[];
  /** Used in messages; defaults to the command's file name. */
  label?: string;
  /** Sent as `setoption name X value Y` after the handshake. Names must be options the engine advertises. */
  options?: Record<string, UciOptionValue>;
  cwd?: string;
  /** Limit for `uci`/`uciok` and `isready`/`readyok`. Default 10 s. */
  handshakeTimeoutMs?: number;
  /** Limit for a search. Default: the search's time budget plus searchGraceMs, or 30 s when it has none. */
  searchTimeoutMs?: number;
  /** Added to movetime (or the clock) to get the search limit. Default 10 s. */
  searchGraceMs?: number;
  /** How long close() waits after `quit` before killing the process. Default 1 s. */
  quitGraceMs?: number;
}

const DEFAULT_HANDSHAKE_TIMEOUT_MS = 10_000;
const DEFAULT_UNTIMED_SEARCH_TIMEOUT_MS = 30_000;
const DEFAULT_SEARCH_GRACE_MS = 10_000;
const DEFAULT_QUIT_GRACE_MS = 1_000;
const STDERR_LINES_KEPT = 5;
const INFO_LINES_KEPT = 200;
const UCI_MOVE = /^[a-h][1-8][a-h][1-8][qrbn]?$/;
/**
 * The longest line accepted from an engine. Real UCI lines are short (an `info` line with a long principal
 * variation is a few kilobytes); without a bound one endless line would grow until Node runs out of memory.
 */
export const MAX_LINE_LENGTH = 1 << 20;

export class UciClient {
  private process: EngineProcess | null = null;
  private searching = false;
  private readonly positions = new PositionTracker();
  private _engineId = '';
  private _optionNames: string[] = [];
  private _lastInfo: string[] = [];
  readonly label: string;

  constructor(private readonly config: UciClientConfig) {
    this.label = config.label ?? basename(config.command);
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

  /** True between a successful start() and close() or a failure. */
  get isRunning(): boolean {
    return this.process !== null && this.process.isAlive;
  }

  /** Spawns the engine, does the `uci` handshake, applies the options and waits until it is ready. */
  async start(): Promise<void> {
    if (this.process?.isAlive) throw new Error(`engine "${this.label}" is already started`);
    // A process that failed has been killed already; it only needs forgetting.
    this.process?.kill();
    const engine = new EngineProcess(this.config.command, this.config.args ?? [], this.label, this.config.cwd);
    this.process = engine;
    try {
      await this.handshake(engine);
    } catch (error) {
      engine.kill();
      this.process = null;
      throw error;
    }
  }

  private async handshake(engine: EngineProcess): Promise<void> {
    const timeout = this.config.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS;
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
      await engine.request(goCommand, 'bestmove', this.searchTimeout(go), (line) => {
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

  /** Sends `quit`, gives the engine quitGraceMs to exit, then kills it. Safe to call at any time, twice. */
  async close(): Promise<void> {
    const engine = this.process;
    this.process = null;
    this.positions.reset();
    if (engine) await engine.shutdown(this.config.quitGraceMs ?? DEFAULT_QUIT_GRACE_MS);
  }

  /** Same as close(): ends the engine process (it does not send UCI `stop`). */
  async stop(): Promise<void> {
    await this.close();
  }

  /** Closes whatever is left of the engine and starts a fresh process. */
  async restart(): Promise<void> {
    await this.close();
    await this.start();
  }

  private async isReady(): Promise<void> {
    const timeout = this.config.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS;
    await this.runningProcess().request('isready', 'readyok', timeout, (line) => line === 'readyok');
  }

  private runningProcess(): EngineProcess {
    if (!this.process) throw new EngineError('crashed', `engine "${this.label}" is not running (start it first)`);
    return this.process;
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

/**
 * Knows the legal moves of the position being searched, to catch illegal engine moves. Keeps the last game's
 * position and only applies the new moves, so a game costs one replay rather than one per move. On the compact
 * board and our move generator: chess.js's verbose move list (every move's SAN) took two fifths of a training
 * process's time against the embedded Stockfish (profiled).
 */
class PositionTracker {
  private board: Board | null = null;
  private startFen = '';
  private applied: string[] = [];

  reset(): void {
    this.board = null;
    this.applied = [];
  }

  legalMovesAfter(startFen: string, moves: readonly string[]): Set<string> {
    const continues =
      this.board !== null &&
      startFen === this.startFen &&
      moves.length >= this.applied.length &&
      this.applied.every((move, i) => move === moves[i]);
    if (!continues) {
      this.board = parseFen(startFen === 'startpos' ? START_FEN : startFen);
      this.startFen = startFen;
      this.applied = [];
    }
    const board = this.board!;
    for (const move of moves.slice(this.applied.length)) {
      const legal = findLegalMove(board, move);
      if (!legal) {
        this.reset();
        throw new Error(`move ${move} of the game record is illegal (after ${this.applied.join(' ') || 'the start'})`);
      }
      applyMove(board, legal);
      this.applied.push(move);
    }
    return new Set(generateLegalMoves(board).map(uciMove));
  }

  currentFen(): string {
    return this.board ? boardToFen(this.board) : '';
  }
}

interface Waiter {
  what: string;
  onLine: (line: string) => boolean;
  resolve: () => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * One engine process: its lines, the single pending wait, and its end. Events of a process that has been
 * replaced by restart() only ever touch this object, never its successor.
 */
class EngineProcess {
  private readonly child: ChildProcess;
  private waiter: Waiter | null = null;
  /** Why the process can no longer be used, once it cannot. */
  private goneReason: string | null = null;
  private readonly stderrTail: string[] = [];
  /** Resolves once the process has ended (or never started). Never rejects. */
  readonly ended: Promise<void>;

  constructor(
    private readonly command: string,
    args: string[],
    private readonly label: string,
    cwd: string | undefined,
  ) {
    let markEnded!: () => void;
    this.ended = new Promise((resolve) => (markEnded = resolve));
    const [program, programArgs] = diesWithParent(command, args);
    this.child = spawn(program, programArgs, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.on('error', (error: NodeJS.ErrnoException) => {
      const reason = this.describeSpawnError(error);
      if (this.goneReason === null) this.goneReason = reason;
      this.failWait(new EngineError('crashed', reason));
      // A spawn failure may never emit 'close'.
      if (this.child.pid === undefined) markEnded();
    });
    this.child.on('close', (code, signal) => {
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      this.gone(`engine "${this.label}" ${how}`);
      markEnded();
    });
    // Writing to an engine that just died fails with EPIPE; the 'close' handler reports the death itself.
    this.child.stdin!.on('error', () => {});
    this.child.stdout!.on('error', () => {});
    this.child.stderr!.on('error', () => {});
    const lines = new LineSplitter(MAX_LINE_LENGTH);
    this.child.stdout!.on('data', (chunk: Buffer) => {
      if (!lines.push(chunk, (line) => this.onLine(line.trim()))) this.overflow();
    });
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) {
        if (line.trim() === '') continue;
        this.stderrTail.push(line.trim().slice(0, MAX_LINE_LENGTH));
        if (this.stderrTail.length > STDERR_LINES_KEPT) this.stderrTail.shift();
      }
    });
  }

  get isAlive(): boolean {
    return this.goneReason === null;
  }

  send(line: string): void {
    if (this.goneReason === null) this.child.stdin!.write(line + '\n');
  }

  /**
   * Sends `command` (if any) and waits until onLine returns true for a line. onLine may throw an EngineError
   * to reject the wait. Any failure (timeout, death, protocol) kills the process.
   */
  request(command: string | null, what: string, timeoutMs: number, onLine: (line: string) => boolean): Promise<void> {
    if (this.goneReason !== null) {
      return Promise.reject(new EngineError('crashed', `${this.goneReason} (before ${what})`));
    }
    if (this.waiter) throw new Error(`engine "${this.label}": already waiting for ${this.waiter.what}`);
    const waiting = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.failWait(new EngineError('timeout', `engine "${this.label}" sent no ${what} within ${timeoutMs} ms`));
        this.kill();
      }, timeoutMs);
      this.waiter = { what, onLine, resolve, reject, timer };
    });
    if (command !== null) this.send(command);
    return waiting;
  }

  kill(): void {
    if (this.goneReason === null) this.goneReason = `engine "${this.label}" was stopped`;
    if (this.child.exitCode === null && this.child.signalCode === null && this.child.pid !== undefined) {
      this.child.kill('SIGKILL');
    }
  }

  /**
   * Fails a pending wait, sends `quit`, and kills the process if it has not exited after graceMs. An engine
   * closed in the middle of a request (a stop during a search) is killed at once: it may be hanging.
   */
  async shutdown(graceMs: number): Promise<void> {
    const busy = this.waiter !== null;
    this.failWait(new EngineError('crashed', `engine "${this.label}" was closed`));
    if (this.goneReason === null && !busy) {
      this.send('quit');
      this.goneReason = `engine "${this.label}" was closed`;
      const graceOver = await raceTimeout(this.ended, graceMs);
      if (graceOver) this.kill();
    } else {
      this.kill();
    }
    // SIGKILL cannot be refused; the bound only guards against a process stuck in the kernel.
    await raceTimeout(this.ended, 2_000);
  }

  private onLine(line: string): void {
    const waiter = this.waiter;
    if (!waiter || line === '') return;
    let done: boolean;
    try {
      done = waiter.onLine(line);
    } catch (error) {
      this.failWait(error instanceof Error ? error : new Error(String(error)));
      this.kill();
      return;
    }
    if (done) {
      clearTimeout(waiter.timer);
      this.waiter = null;
      waiter.resolve();
    }
  }

  /** A line too long to be UCI: the engine is broken (or hostile), and keeping its output would exhaust memory. */
  private overflow(): void {
    if (this.goneReason !== null) return;
    const error = new EngineError(
      'protocol',
      `engine "${this.label}" sent a line longer than ${MAX_LINE_LENGTH} bytes`,
    );
    this.goneReason = error.message;
    this.failWait(error);
    this.kill();
  }

  private gone(reason: string): void {
    if (this.goneReason === null) this.goneReason = reason;
    const stderr = this.stderrTail.length > 0 ? `: ${quoteInput(this.stderrTail[this.stderrTail.length - 1])}` : '';
    const what = this.waiter?.what;
    this.failWait(new EngineError('crashed', `${reason} while waiting for ${what}${stderr}`));
  }

  private failWait(error: Error): void {
    const waiter = this.waiter;
    if (!waiter) return;
    this.waiter = null;
    clearTimeout(waiter.timer);
    waiter.reject(error);
  }

  private describeSpawnError(error: NodeJS.ErrnoException): string {
    if (error.code === 'ENOENT') return `engine "${this.label}" could not be started: ${this.command} was not found`;
    if (error.code === 'EACCES') {
      return `engine "${this.label}" could not be started: ${this.command} is not executable`;
    }
    return `engine "${this.label}" failed: ${error.message}`;
  }
}

const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find(isExecutable);

/**
 * The command that starts an engine so that it dies with Morph: on Linux, under `setpriv --pdeathsig KILL`,
 * the kernel kills the engine the moment Morph's process ends, even by `kill -9`. Left alone, an engine may
 * run on: the embedded Stockfish kept running 2-3 s, and one stuck in a computation never reads its closed
 * input at all. Without setpriv (or for a command that is not an executable file's absolute path, whose
 * spawn errors must stay Node's), the engine is started directly and ends when it reads the end of its input.
 */
function diesWithParent(command: string, args: string[]): [string, string[]] {
  if (SETPRIV === undefined || !isAbsolute(command) || !isExecutable(command)) return [command, args];
  return [SETPRIV, ['--pdeathsig', 'KILL', '--', command, ...args]];
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Waits for `promise` at most `ms`; true when the time ran out first. */
async function raceTimeout(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), ms)));
  try {
    return await Promise.race([promise.then(() => false), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Cuts an engine's byte stream into lines (LF or CRLF), holding at most `limit` bytes of an unfinished line.
 * Decoding per line keeps a multi-byte character split across chunks intact.
 */
class LineSplitter {
  private pending: Buffer[] = [];
  private pendingLength = 0;

  constructor(private readonly limit: number) {}

  /** Delivers each complete line; false once an unfinished line exceeds the limit (nothing more is delivered). */
  push(chunk: Buffer, onLine: (line: string) => void): boolean {
    if (this.pendingLength > this.limit) return false;
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, end);
      const line = this.pending.length > 0 ? Buffer.concat([...this.pending, piece]) : piece;
      this.pending = [];
      this.pendingLength = 0;
      start = end + 1;
      if (line.length > this.limit) {
        this.pendingLength = line.length;
        return false;
      }
      onLine(line.toString('utf8').replace(/\r$/, ''));
    }
    if (start < chunk.length) {
      this.pending.push(chunk.subarray(start));
      this.pendingLength += chunk.length - start;
    }
    return this.pendingLength <= this.limit;
  }
}
