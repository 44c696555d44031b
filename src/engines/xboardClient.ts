/**
 * A client for engines that speak xboard's Chess Engine Communication Protocol (CECP, versions 1 and 2), as
 * Fairy-Max, Phalanx, Sjeng and HoiChess do: Debian's sparring partners that have no UCI mode.
 *
 * CECP engines keep the game's state themselves, and versions differ in how a position is given (`setboard`, or
 * the older `edit` mode) and how moves are written. So every search starts from scratch, as UCI's `position`
 * does: `new`, `force`, the start position, the game's moves, the depth or time limit, then `go`, and the
 * engine's `move ...` is checked against the legal moves. With `ping` the client waits for the matching `pong`
 * before `go`, so an engine's complaint about the set-up ("Illegal move", "Error") is caught as a protocol error
 * rather than taken for an answer. The process, its timeouts and failures are engineProcess.ts's.
 *
 * Limits of the `edit` set-up (engines without `setboard`, such as Fairy-Max): castling rights are what the
 * kings and rooks on their original squares imply, and an en-passant capture at the first move is not known.
 */
import { PIECE_LETTERS, squareName, typeOf, uciMove, WHITE, type Board } from '../chess/board.ts';
import { START_FEN, parseFen } from '../chess/fen.ts';
import { generateLegalMoves } from '../chess/movegen.ts';
import { sanOf } from '../chess/san.ts';
import { quoteInput } from '../util/errors.ts';
import { EngineClient, EngineError, type EngineLaunch, type EngineProcess } from './engineProcess.ts';

export interface XboardLimits {
  /** `sd N`: search N plies. */
  depth?: number;
  /** `st S`: S seconds a move (CECP counts whole seconds: milliseconds are rounded up). */
  movetime?: number;
  /**
   * The engine's clock in milliseconds: every search tells the engine it has this long left for the rest of the
   * game (`level 0 M:SS 0`, then `time` and `otim` in centiseconds), so it moves in the fraction of it its own
   * time management gives one move. For engines that take neither `sd` nor `st` below a second (Phalanx).
   */
  clock?: number;
}

export interface XboardClientConfig extends EngineLaunch {
  /** Limit for the handshake and for `ping`/`pong`. Default 10 s. */
  handshakeTimeoutMs?: number;
  /**
   * How long to wait for a first `feature` line before taking the engine for one of protocol 1, which sends
   * none. Default 2 s, as xboard does.
   */
  featureWaitMs?: number;
  /** Limit for a search. Default: the move time plus 10 s, or 30 s for a depth limit. */
  searchTimeoutMs?: number;
}

const DEFAULT_HANDSHAKE_TIMEOUT_MS = 10_000;
const DEFAULT_FEATURE_WAIT_MS = 2_000;
const DEFAULT_DEPTH_SEARCH_TIMEOUT_MS = 30_000;
const SEARCH_GRACE_MS = 10_000;
/** Features this client uses; every other one is accepted and ignored, except `san`, refused (moves in coordinates). */
const REFUSED_FEATURES = new Set(['san']);

/** What the engine said it can do in its `feature` lines. */
interface EngineFeatures {
  setboard: boolean;
  usermove: boolean;
  ping: boolean;
  name: string;
}

export class XboardClient extends EngineClient<XboardLimits> {
  private searching = false;
  private pings = 0;
  private features: EngineFeatures = { setboard: false, usermove: false, ping: false, name: '' };

  constructor(private readonly config: XboardClientConfig) {
    super(config);
  }

  /** The engine's `myname` feature, known after start() (empty if it sent none). */
  get engineName(): string {
    return this.features.name;
  }

  protected async handshake(engine: EngineProcess): Promise<void> {
    const features: EngineFeatures = { setboard: false, usermove: false, ping: false, name: '' };
    engine.send('xboard');
    let seenFeature = false;
    let done = false;
    const onLine = (line: string): boolean => {
      if (!line.startsWith('feature ')) return false;
      seenFeature = true;
      for (const [name, value] of parseFeatures(line.slice('feature '.length))) {
        if (name === 'done') {
          done = value === '1';
          // done=0 asks for as long as the engine needs: the handshake limit then.
          if (done) return true;
          continue;
        }
        if (name === 'setboard') features.setboard = value === '1';
        else if (name === 'usermove') features.usermove = value === '1';
        else if (name === 'ping') features.ping = value === '1';
        else if (name === 'myname') features.name = value;
        engine.send(`${REFUSED_FEATURES.has(name) ? 'rejected' : 'accepted'} ${name}`);
      }
      return false;
    };
    // Up to featureWaitMs for the whole handshake; an engine that has begun it gets the handshake limit to end it.
    await engine.request('protover 2', 'feature done=1', this.config.featureWaitMs ?? DEFAULT_FEATURE_WAIT_MS, onLine, true);
    if (seenFeature && !done) {
      await engine.request(null, 'feature done=1', this.limit(this.config.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS), onLine);
    }
    this.features = features;
    // No thinking output, no pondering: only the move is wanted, and nothing while the other side thinks.
    engine.send('nopost');
    engine.send('easy');
    await this.sync(engine);
  }

  /** Starts a new game in the engine (which may clear its tables). */
  async newGame(): Promise<void> {
    const engine = this.runningProcess();
    engine.send('new');
    engine.send('force');
    this.positions.reset();
    await this.sync(engine);
  }

  /**
   * The engine's move after `moves` (UCI notation) from `startFen` ('startpos' or a FEN), in UCI notation.
   * A move that cannot be read or is illegal in the position, a resignation, or a complaint about the set-up
   * is a 'protocol' EngineError.
   */
  async bestMove(startFen: string, moves: readonly string[], limits: XboardLimits): Promise<string> {
    const engine = this.runningProcess();
    if (this.searching) throw new Error(`engine "${this.label}" is already searching`);
    if (limits.depth === undefined && limits.movetime === undefined && limits.clock === undefined) {
      throw new Error('a search needs a limit: depth, movetime or clock');
    }
    const legalMoves = this.positions.legalMovesAfter(startFen, moves);
    const fen = this.positions.currentFen();
    const board = this.positions.currentBoard()!;
    this.searching = true;
    try {
      engine.send('new');
      engine.send('force');
      const start = startFen === 'startpos' ? START_FEN : startFen;
      if (start !== START_FEN) for (const line of this.setupLines(start)) engine.send(line);
      for (const move of moves) engine.send(this.features.usermove ? `usermove ${move}` : move);
      if (limits.depth !== undefined) engine.send(`sd ${limits.depth}`);
      if (limits.movetime !== undefined) engine.send(`st ${Math.max(1, Math.ceil(limits.movetime / 1000))}`);
      if (limits.clock !== undefined) for (const line of clockLines(limits.clock)) engine.send(line);
      await this.sync(engine, fen);
      let best = '';
      await engine.request('go', 'move', this.limit(this.searchTimeout(limits)), (line) => {
        complainedAbout(line, this.label, fen);
        if (/^resign\b/i.test(line) || /\bresigns\b/i.test(line)) {
          throw new EngineError('protocol', `engine "${this.label}" resigned in ${fen}`);
        }
        const text = moveText(line);
        if (text === null) return false;
        const move = readMove(text, board, legalMoves);
        if (move === null) {
          throw new EngineError('protocol', `engine "${this.label}" played "${quoteInput(text)}", not a legal move in ${fen}`);
        }
        best = move;
        return true;
      });
      // The engine has made its move on its own board; force mode keeps it from thinking on.
      engine.send('force');
      return best;
    } finally {
      this.searching = false;
    }
  }

  /**
   * Waits until the engine has read everything sent so far (`ping N` answered by `pong N`), failing on a
   * complaint about it. An engine without `ping` is trusted to keep up.
   */
  private async sync(engine: EngineProcess, fen = ''): Promise<void> {
    if (!this.features.ping) return;
    const id = ++this.pings;
    await engine.request(`ping ${id}`, `pong ${id}`, this.limit(this.config.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS), (line) => {
      complainedAbout(line, this.label, fen);
      return line === `pong ${id}`;
    });
  }

  /** The commands that set up `fen` after `new` and `force`: `setboard`, or `edit` mode when the engine lacks it. */
  private setupLines(fen: string): string[] {
    return this.features.setboard ? [`setboard ${fen}`] : editModeLines(parseFen(fen));
  }

  private searchTimeout(limits: XboardLimits): number {
    if (this.config.searchTimeoutMs !== undefined) return this.config.searchTimeoutMs;
    if (limits.movetime !== undefined) return Math.ceil(limits.movetime / 1000) * 1000 + SEARCH_GRACE_MS;
    if (limits.clock !== undefined) return limits.clock + SEARCH_GRACE_MS;
    return DEFAULT_DEPTH_SEARCH_TIMEOUT_MS;
  }
}

/**
 * A clock of `ms` for the rest of the game, no increment: `level`'s base time is in whole minutes and seconds
 * (rounded up), `time` and `otim` in centiseconds (both sides alike, as the opponent's clock does not matter here).
 */
function clockLines(ms: number): string[] {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  const base = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  const centiseconds = Math.max(1, Math.round(ms / 10));
  return [`level 0 ${base} 0`, `time ${centiseconds}`, `otim ${centiseconds}`];
}

/**
 * CECP's `edit` mode, which keeps the side to move: black to move is reached by a white move first, as xboard
 * itself does (`a2a3`), then `#` clears the board, pieces are placed as "Pe4", `c` switches to black's, `.` ends.
 */
export function editModeLines(board: Readonly<Board>): string[] {
  const lines = board.turn === WHITE ? [] : ['a2a3'];
  lines.push('edit', '#');
  for (const white of [true, false]) {
    if (!white) lines.push('c');
    for (let square = 0; square < 64; square++) {
      const piece = board.squares[square];
      if (piece === 0 || piece > 0 !== white) continue;
      lines.push(PIECE_LETTERS[typeOf(piece)] + squareName(square));
    }
  }
  lines.push('.');
  return lines;
}

/** `name=value` pairs of a feature line; values may be quoted ("Fairy-Max 5.0b"). */
export function parseFeatures(text: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const match of text.matchAll(/(\w+)=(?:"([^"]*)"|(\S+))/g)) pairs.push([match[1], match[2] ?? match[3]]);
  return pairs;
}

/** The move in an engine's answer: `move e2e4` (protocol 2) or `My move is: e2e4` (protocol 1); else null. */
export function moveText(line: string): string | null {
  const match = /^move\s+(\S+)/.exec(line) ?? /^my move is\s*:?\s*(\S+)/i.exec(line);
  return match ? match[1] : null;
}

/**
 * A legal move in UCI notation for an engine's move text: coordinates in any case with or without "=" before a
 * promotion piece ("e7e8q", "e7e8=Q"), or SAN ("Nf3", "O-O"); null when it is none of the legal moves.
 */
export function readMove(text: string, board: Readonly<Board>, legalMoves: ReadonlySet<string>): string | null {
  const coordinates = text.toLowerCase().replace('=', '');
  if (legalMoves.has(coordinates)) return coordinates;
  const wanted = text.replace(/[+#!?]+$/, '').replace(/0/g, 'O');
  const legal = generateLegalMoves(board as Board);
  for (const move of legal) {
    if (sanOf(board as Board, move, legal).replace(/[+#]$/, '') === wanted) return uciMove(move);
  }
  return null;
}

/** Throws when a line is the engine's complaint about what it was sent ("Illegal move: ...", "Error (...): ..."). */
function complainedAbout(line: string, label: string, fen: string): void {
  if (/^illegal move/i.test(line) || /^error\b/i.test(line)) {
    const where = fen === '' ? '' : ` (setting up ${fen})`;
    throw new EngineError('protocol', `engine "${label}" refused a command${where}: "${quoteInput(line)}"`);
  }
}
