/**
 * An external engine's process, whatever protocol it speaks (UCI, or xboard's CECP): its lines, one pending
 * wait at a time, and its end.
 *
 * External engines are the least trustworthy part of a long training run: they crash, hang, print nonsense or
 * play illegal moves. So every wait here has a timeout, a dead process fails the pending wait at once, and
 * every failure is an EngineError (kind 'crashed' | 'timeout' | 'hung' | 'protocol') with a one-line message. Faults
 * are told apart: a dead engine fails the wait at once; one that owes an answer but sends nothing and uses no CPU
 * for hangTimeoutMs is hung and given up on then (processActivity.ts, Linux), long before the wait's limit; one
 * still computing at the limit is slow ('timeout'), and its client waits twice as long for the next process, up to
 * MAX_PATIENCE times the limit. After any
 * EngineError the process has been killed. No 'error' event or rejected promise is ever left unhandled, so a
 * misbehaving engine cannot take the Node process down with it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { basename, isAbsolute } from 'node:path';
import { applyMove, boardToFen, uciMove, type Board } from '../chess/board.ts';
import { START_FEN, parseFen } from '../chess/fen.ts';
import { findLegalMove, generateLegalMoves } from '../chess/movegen.ts';
import { MorphError, quoteInput } from '../util/errors.ts';
import { processTreeActivity } from './processActivity.ts';

/** crashed: the process died; timeout: still at work at the limit (slow); hung: silent and idle; protocol: nonsense. */
export type EngineErrorKind = 'crashed' | 'timeout' | 'hung' | 'protocol';

export class EngineError extends MorphError {
  constructor(
    readonly kind: EngineErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

const STDERR_LINES_KEPT = 5;
/**
 * The longest line accepted from an engine. Real protocol lines are short (a UCI `info` line with a long principal
 * variation is a few kilobytes); without a bound one endless line would grow until Node runs out of memory.
 */
export const MAX_LINE_LENGTH = 1 << 20;

/** How to start an engine, whatever its protocol. */
export interface EngineLaunch {
  command: string;
  args?: string[];
  /** Used in messages; defaults to the command's file name. */
  label?: string;
  cwd?: string;
  /** How long close() waits after `quit` before killing the process. Default 1 s. */
  quitGraceMs?: number;
  /**
   * An engine that owes an answer and neither sends a line nor uses CPU for this long is hung: it is killed then,
   * whatever the wait's own limit. Default DEFAULT_HANG_TIMEOUT_MS; needs Linux's /proc (elsewhere only the limit).
   */
  hangTimeoutMs?: number;
}

const DEFAULT_QUIT_GRACE_MS = 1_000;
/**
 * A UCI or xboard engine that is working either talks (info lines) or uses the CPU; five seconds of neither, while
 * a reply is owed, is far beyond a busy machine's pauses (a starved process still gets some CPU every second).
 */
export const DEFAULT_HANG_TIMEOUT_MS = 5_000;
/** A slow engine's limits double after each timeout, up to this many times the configured ones. */
export const MAX_PATIENCE = 8;

/**
 * What a protocol's client shares: one process at a time, started with the protocol's handshake, closed with
 * `quit`, and replaced by restart() after any failure.
 */
export abstract class EngineClient<Limits> {
  private process: EngineProcess | null = null;
  /** What the configured limits are multiplied by: doubled after each timeout of a slow (not hung) engine. */
  private patience = 1;
  /** The legal moves of the position searched, to catch illegal engine moves. */
  protected readonly positions = new PositionTracker();
  readonly label: string;

  constructor(private readonly launch: EngineLaunch) {
    this.label = launch.label ?? basename(launch.command);
  }

  /** True between a successful start() and close() or a failure. */
  get isRunning(): boolean {
    return this.process !== null && this.process.isAlive;
  }

  /** Spawns the engine and does the protocol's handshake. */
  async start(): Promise<void> {
    if (this.process?.isAlive) throw new Error(`engine "${this.label}" is already started`);
    // A process that failed has been killed already; it only needs forgetting.
    this.process?.kill();
    const engine = new EngineProcess(this.launch.command, this.launch.args ?? [], this.label, this.launch.cwd, {
      hangTimeoutMs: this.launch.hangTimeoutMs ?? DEFAULT_HANG_TIMEOUT_MS,
      onSlow: () => (this.patience = Math.min(MAX_PATIENCE, this.patience * 2)),
    });
    this.process = engine;
    try {
      await this.handshake(engine);
    } catch (error) {
      engine.kill();
      this.process = null;
      throw error;
    }
  }

  protected abstract handshake(engine: EngineProcess): Promise<void>;

  /** Tells the engine a new game starts (it may clear its tables). */
  abstract newGame(): Promise<void>;

  /** The engine's move (UCI notation) after `moves` from `startFen`; null when it says it has none. */
  abstract bestMove(startFen: string, moves: readonly string[], limits: Limits): Promise<string | null>;

  /** Sends `quit`, gives the engine quitGraceMs to exit, then kills it. Safe to call at any time, twice. */
  async close(): Promise<void> {
    const engine = this.process;
    this.process = null;
    this.positions.reset();
    if (engine) await engine.shutdown(this.launch.quitGraceMs ?? DEFAULT_QUIT_GRACE_MS);
  }

  /** Closes whatever is left of the engine and starts a fresh process. */
  async restart(): Promise<void> {
    await this.close();
    await this.start();
  }

  /** A wait's limit for this engine: the configured one, longer once the engine has shown itself slow. */
  protected limit(ms: number): number {
    return ms * this.patience;
  }

  protected runningProcess(): EngineProcess {
    if (!this.process) throw new EngineError('crashed', `engine "${this.label}" is not running (start it first)`);
    return this.process;
  }
}

/**
 * Knows the legal moves of the position being searched, to catch illegal engine moves. Keeps the last game's
 * position and only applies the new moves, so a game costs one replay rather than one per move. On the compact
 * board and our move generator: chess.js's verbose move list (every move's SAN) took two fifths of a training
 * process's time against the embedded Stockfish (profiled).
 */
export class PositionTracker {
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

  /** The position after the last legalMovesAfter(), for reading only; null before the first. */
  currentBoard(): Readonly<Board> | null {
    return this.board;
  }
}

interface Waiter {
  what: string;
  onLine: (line: string) => boolean;
  resolve: () => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  /** Checks the engine for signs of life while it owes the answer (hang detection). */
  watch?: NodeJS.Timeout;
}

export interface ProcessWatch {
  /** See EngineLaunch.hangTimeoutMs; undefined: no hang detection. */
  hangTimeoutMs?: number;
  /** Called when a wait ran out its limit with the engine still at work: it is slow. */
  onSlow?: () => void;
}

/**
 * One engine process: its lines, the single pending wait, and its end. Events of a process that has been
 * replaced by restart() only ever touch this object, never its successor.
 */
export class EngineProcess {
  private readonly child: ChildProcess;
  private waiter: Waiter | null = null;
  /** Why the process can no longer be used, once it cannot. */
  private goneReason: string | null = null;
  private readonly stderrTail: string[] = [];
  /** Lines the engine has sent, a sign of life for hang detection. */
  private linesSeen = 0;
  /** Resolves once the process has ended (or never started). Never rejects. */
  readonly ended: Promise<void>;

  constructor(
    private readonly command: string,
    args: string[],
    private readonly label: string,
    cwd: string | undefined,
    private readonly watch: ProcessWatch = {},
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
      if (!lines.push(chunk, (line) => {
        this.linesSeen++;
        this.onLine(line.trim());
      })) this.overflow();
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
   * to reject the wait. Any failure (timeout, death, protocol) kills the process, except a timeout with
   * `timeoutEnds`: then the wait simply ends (an xboard engine of protocol 1 never says its handshake is done).
   */
  request(
    command: string | null,
    what: string,
    timeoutMs: number,
    onLine: (line: string) => boolean,
    timeoutEnds = false,
  ): Promise<void> {
    if (this.goneReason !== null) {
      return Promise.reject(new EngineError('crashed', `${this.goneReason} (before ${what})`));
    }
    if (this.waiter) throw new Error(`engine "${this.label}": already waiting for ${this.waiter.what}`);
    const waiting = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (timeoutEnds) {
          this.waiter = null;
          resolve();
          return;
        }
        this.watch.onSlow?.();
        this.failWait(new EngineError('timeout', `engine "${this.label}" sent no ${what} within ${timeoutMs} ms`));
        this.kill();
      }, timeoutMs);
      this.waiter = { what, onLine, resolve, reject, timer, watch: timeoutEnds ? undefined : this.watchForHang(what) };
    });
    if (command !== null) this.send(command);
    return waiting;
  }

  /**
   * While `what` is owed: every quarter of the hang timeout (at most every second), has the engine sent a line or
   * used CPU (itself or a child: a wrapper script's engine) since the last look? Neither for the hang timeout: hung.
   */
  private watchForHang(what: string): NodeJS.Timeout | undefined {
    const hangMs = this.watch.hangTimeoutMs;
    const pid = this.child.pid;
    if (hangMs === undefined || pid === undefined) return undefined;
    let activity = processTreeActivity(pid);
    if (activity === null) return undefined; // no /proc: the wait's limit alone
    let lines = this.linesSeen;
    let lastSign = Date.now();
    return setInterval(() => {
      const now = processTreeActivity(pid);
      if (now !== activity || this.linesSeen !== lines) {
        activity = now;
        lines = this.linesSeen;
        lastSign = Date.now();
      } else if (Date.now() - lastSign >= hangMs) {
        const seconds = (hangMs / 1000).toFixed(hangMs % 1000 === 0 ? 0 : 1);
        this.failWait(new EngineError('hung', `engine "${this.label}" sent no ${what} and used no CPU for ${seconds} s (hung)`));
        this.kill();
      }
    }, Math.max(50, Math.min(1_000, hangMs / 4)));
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
      clearInterval(waiter.watch);
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
    clearInterval(waiter.watch);
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
