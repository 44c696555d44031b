/**
 * Morph as a UCI engine: the protocol state machine, fed one input line at a time and answering through a
 * callback, so it can be tested without a process (the `morph uci` command wires it to stdin/stdout).
 *
 * Morph searches one ply, so `go` answers at once whatever the time control; `go infinite` and `go ponder`
 * hold the answer until `stop` (or `ponderhit`), as the protocol requires. Unknown commands are ignored, a bad
 * or impossible `position` is reported with `info string` and leaves no position (the next `go` answers
 * `bestmove 0000` rather than a move for a position the GUI no longer means), and no exception ever leaves
 * handleLine: a GUI must never see the engine die.
 */
import { uciMove } from '../chess/board.ts';
import { checkFen, START_FEN } from '../chess/fen.ts';
import { GameHistory } from '../chess/history.ts';
import { gameStatus, generateLegalMoves } from '../chess/movegen.ts';
import { MorphPlayer, playingMaturity, type RankedMove } from '../player/morphPlayer.ts';
import type { PatternStore } from '../store/patternStore.ts';

export const ENGINE_NAME = 'Morph';
export const ENGINE_AUTHOR = 'Morph team';
export const MAX_MATURITY = 100_000;
export const MAX_SEED = 2_147_483_647;
/** Centipawn scores are clamped to this, well below the mate range GUIs reserve. */
export const MAX_CENTIPAWNS = 2_000;

export interface UciEngineConfig {
  /** The pattern database to play from; the engine owns it from now on (closes it on quit or replacement). */
  store: PatternStore;
  /** Shown as the Database option's default. */
  databasePath: string;
  /** Opens a database read-only for `setoption name Database value X` ('' = the default); throws on failure. */
  openDatabase: (path: string) => PatternStore;
  /** Overrides the maturity stored in the database (playingMaturity: one rule for every command). */
  maturity?: number;
  seed?: number;
  /** Receives every output line (without the newline). */
  write: (line: string) => void;
  /** Said as `info string` in answer to `uci` (e.g. that the database is still empty). */
  notice?: string;
  /** Called once, after `quit` (or the end of input, see end()). */
  onQuit?: () => void;
}

/** The protocol's commands; anything before the first of these on a line is ignored (UCI 2004, "unknown tokens"). */
const COMMANDS = new Set([
  'uci', 'debug', 'isready', 'setoption', 'register', 'ucinewgame', 'position', 'go', 'stop', 'ponderhit', 'quit',
]);

/** Maps a value in [0, 1] (for the side that moves) to centipawns: 0.5 -> 0, 0.75 -> 191, 0.9 -> 382. */
export function valueToCentipawns(value: number): number {
  const v = Math.min(Math.max(value, 1e-9), 1 - 1e-9);
  const cp = Math.round(400 * Math.log10(v / (1 - v)));
  return Math.min(Math.max(cp, -MAX_CENTIPAWNS), MAX_CENTIPAWNS) || 0; // `|| 0` turns -0 into 0
}

/** The `score ...` part of an info line for a ranked move. */
export function scoreText(best: RankedMove): string {
  return best.source === 'checkmate' ? 'score mate 1' : `score cp ${valueToCentipawns(best.value)}`;
}

export class UciEngine {
  private store: PatternStore;
  private player: MorphPlayer;
  /** Set by --maturity or `setoption name Maturity`; otherwise each database's own setting is used. */
  private maturity: number | undefined;
  private seed: number;
  /** Null after a refused `position` command, until the next good one. */
  private history: GameHistory | null;
  /** The bestmove line of a `go infinite` / `go ponder`, held until `stop` or `ponderhit`. */
  private pendingBestMove: string | null = null;
  private quitted = false;

  constructor(private readonly config: UciEngineConfig) {
    this.store = config.store;
    this.maturity = config.maturity;
    this.seed = config.seed ?? 1;
    this.player = this.makePlayer();
    this.history = new GameHistory(START_FEN);
  }

  /** True once `quit` was handled; later lines are ignored. */
  get hasQuit(): boolean {
    return this.quitted;
  }

  /** Handles one input line. Never throws: a failure is reported as `info string`. */
  handleLine(line: string): void {
    if (this.quitted) return;
    try {
      this.dispatch(line.trim().split(/\s+/).filter(Boolean), line);
    } catch (error) {
      try {
        this.info(`error: ${oneLine(error)}`);
      } catch {
        // Output itself failed (a closed pipe): nothing left to tell anyone.
      }
    }
  }

  /** The end of input: the same as `quit`. */
  end(): void {
    this.handleLine('quit');
  }

  private dispatch(tokens: string[], line: string): void {
    const start = tokens.findIndex((token) => COMMANDS.has(token));
    if (start < 0) return; // unknown command: ignored, as the protocol says
    const [command, ...args] = tokens.slice(start);
    switch (command) {
      case 'uci':
        return this.identify();
      case 'isready':
        return this.config.write('readyok');
      case 'setoption':
        return this.setOption(line);
      case 'ucinewgame':
        this.history = new GameHistory(START_FEN);
        return;
      case 'position':
        return this.setPosition(args);
      case 'go':
        return this.go(args);
      case 'stop':
      case 'ponderhit':
        return this.flushBestMove();
      case 'quit':
        return this.quit();
      default:
        return; // debug, register: nothing to do for Morph
    }
  }

  private identify(): void {
    const write = this.config.write;
    write(`id name ${ENGINE_NAME}`);
    write(`id author ${ENGINE_AUTHOR}`);
    write(`option name Database type string default ${this.config.databasePath}`);
    // The defaults shown are the values the engine was started with (morph uci --maturity/--seed).
    write(`option name Maturity type spin default ${playingMaturity(this.store, this.config.maturity)} min 0 max ${MAX_MATURITY}`);
    write(`option name Seed type spin default ${this.config.seed ?? 1} min 0 max ${MAX_SEED}`);
    if (this.config.notice) this.info(this.config.notice);
    write('uciok');
  }

  /** `setoption name <id> [value <x>]`: the name may contain spaces, the value is the rest of the line. */
  private setOption(line: string): void {
    const match = /\bsetoption\s+name\s+(.+?)(?:\s+value(?:\s+(.*?))?)?\s*$/.exec(line);
    if (!match) {
      this.info('setoption needs: setoption name <id> [value <x>]');
      return;
    }
    const name = match[1].trim();
    const value = (match[2] ?? '').trim();
    switch (name.toLowerCase()) {
      case 'database':
        return this.switchDatabase(value === '<empty>' ? '' : value);
      case 'maturity': {
        const maturity = this.spinValue(name, value, MAX_MATURITY);
        if (maturity === null) return;
        this.maturity = maturity;
        this.player = this.makePlayer();
        return;
      }
      case 'seed': {
        const seed = this.spinValue(name, value, MAX_SEED);
        if (seed === null) return;
        this.seed = seed;
        this.player = this.makePlayer();
        return;
      }
      default:
        this.info(`unknown option "${name}" (Morph has Database, Maturity, Seed)`);
    }
  }

  private spinValue(name: string, value: string, max: number): number | null {
    const number = Number(value);
    if (!/^\d+$/.test(value) || number > max) {
      this.info(`option ${name} needs a whole number from 0 to ${max}, got "${value}"`);
      return null;
    }
    return number;
  }

  /** Opens the new database before closing the old one, so a bad path keeps Morph playing as before. */
  private switchDatabase(path: string): void {
    let store: PatternStore;
    try {
      store = this.config.openDatabase(path);
    } catch (error) {
      this.info(`cannot open database "${path}": ${oneLine(error)}; still using ${this.store.path}`);
      return;
    }
    const old = this.store;
    this.store = store;
    this.player = this.makePlayer();
    if (old !== store) old.close();
    this.info(`database ${store.path}: ${store.size} patterns`);
  }

  private makePlayer(): MorphPlayer {
    return new MorphPlayer(this.store, { maturity: playingMaturity(this.store, this.maturity), seed: this.seed }, ENGINE_NAME);
  }

  /** `position startpos|fen <fen> [moves m1 m2 ...]`; on any problem no position is left. */
  private setPosition(args: string[]): void {
    this.history = null;
    const movesAt = args.indexOf('moves');
    const head = movesAt < 0 ? args : args.slice(0, movesAt);
    const moves = movesAt < 0 ? [] : args.slice(movesAt + 1);
    let fen: string;
    if (head[0] === 'startpos' && head.length === 1) {
      fen = START_FEN;
    } else if (head[0] === 'fen' && head.length > 1) {
      try {
        fen = checkFen(head.slice(1).join(' '));
      } catch (error) {
        this.info(`position ignored: ${oneLine(error)}`);
        return;
      }
    } else {
      this.info(`position ignored: expected "position startpos|fen <FEN> [moves ...]", got "${args.join(' ')}"`);
      return;
    }
    const history = new GameHistory(fen);
    for (let i = 0; i < moves.length; i++) {
      const move = moves[i].toLowerCase();
      const legal = generateLegalMoves(history.board).some((candidate) => uciMove(candidate) === move);
      if (!legal) {
        this.info(`position ignored: move ${i + 1} "${moves[i]}" is not legal in that position`);
        return;
      }
      history.play(move);
    }
    this.history = history;
  }

  private go(args: string[]): void {
    // A new search replaces one still held: its answer goes out first, so every go gets exactly one bestmove.
    this.flushBestMove();
    if (args.includes('searchmoves')) this.info('searchmoves is not supported: all legal moves are searched');
    const bestMove = this.search();
    if (args.includes('infinite') || args.includes('ponder')) this.pendingBestMove = bestMove;
    else this.config.write(bestMove);
  }

  /** One ply over the current position: writes the info line and returns the bestmove line. */
  private search(): string {
    if (this.history === null) {
      this.info('no move: the last position command was refused');
      return 'bestmove 0000';
    }
    const status = gameStatus(this.history.board);
    if (status !== 'ongoing') {
      this.config.write(`info depth 0 score ${status === 'checkmate' ? 'mate 0' : 'cp 0'}`);
      return 'bestmove 0000';
    }
    const chosen = this.player.choose(this.history);
    this.config.write(`info depth 1 ${scoreText(chosen)} nodes ${chosen.ranking.length} pv ${chosen.move}`);
    return `bestmove ${chosen.move}`;
  }

  private flushBestMove(): void {
    const line = this.pendingBestMove;
    this.pendingBestMove = null;
    if (line !== null) this.config.write(line);
  }

  private quit(): void {
    this.quitted = true;
    this.pendingBestMove = null;
    try {
      this.store.close();
    } finally {
      this.config.onQuit?.();
    }
  }

  private info(text: string): void {
    this.config.write(`info string ${text}`);
  }
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0];
}
