/**
 * Morph as a UCI engine: the protocol state machine, fed one input line at a time and answering through a
 * callback, so it can be tested without a process (the `morph uci` command wires it to stdin/stdout).
 *
 * Morph looks one ply and then at captures and threats (at worst about a second a move on the databases
 * measured: docs/lab/, "the material searches ordered"), so `go` answers without a clock, whatever the
 * time control; `go infinite` and `go ponder`
 * hold the answer until `stop` (or `ponderhit`), as the protocol requires. Unknown commands are ignored, a bad
 * or impossible `position` is reported with `info string` and leaves no position (the next `go` answers
 * `bestmove 0000` rather than a move for a position the GUI no longer means), and no exception ever leaves
 * handleLine: a GUI must never see the engine die.
 *
 * Scores. Morph's value of a move is the expected outcome E for the side to move (0 loss, ½ draw, 1 win), as its
 * patterns learned it. GUIs want centipawns, so E goes through the Elo logistic:
 *   score cp = 400 · log10(E / (1 − E)),
 * the rating edge whose expected score is E (E = .64 is +100, .76 is +200, .5 is 0), clamped to ±2000 so it
 * never reads as a mate. A move that mates is `score mate 1`. With UCI_ShowWDL the same E is split into win,
 * draw and loss per mille as two independent half-games would split it: W = E², D = 2E(1 − E), L = (1 − E)²
 * (so W + D/2 = E exactly; an even position is 250/500/250); a draw by rule (stalemate, repetition, ...) is
 * 0/1000/0. With a move policy, the score shown is the one Morph chose by: the value with the policy's term
 * added (in log-odds with the material searches, where cp is then that sum in centipawns; to the value itself
 * with the others), so the line played has the best score shown (shownValue). MultiPV N prints the move played,
 * then the N - 1 best of the others Morph ranked anyway, ordered by the score they show. Contempt is in the same
 * centipawns: c centipawns make a draw worth 1 / (1 + 10^(c/400)) to Morph (MorphPlayerOptions.contempt).
 */
import packageJson from '../../package.json' with { type: 'json' };
import { checkFen, START_FEN } from '../chess/fen.ts';
import { GameHistory } from '../chess/history.ts';
import { findLegalMove, gameStatus } from '../chess/movegen.ts';
import { MorphPlayer, playingMaturity, valueOfScaled, type RankedMove } from '../player/morphPlayer.ts';
import { defaultContempt, extensionsOf, movePatternsNeeded, normalizeSearch, SEARCH_PRESETS, type SearchSpec } from '../search/extensions.ts';
import { DEFAULT_CONFIG, evaluationWithMaterialPrior, loadConfig } from '../learn/config.ts';
import { MATERIAL_FIT_ALONE } from '../eval/materialFit.ts';
import type { EvaluationSettings } from '../eval/evaluation.ts';
import { PatternStore } from '../store/patternStore.ts';
import { MorphError, oneLineMessage } from '../util/errors.ts';

export const ENGINE_NAME = 'Morph';
export const ENGINE_VERSION: string = packageJson.version;
export const ENGINE_AUTHOR = 'Morph team';
export const MAX_MATURITY = 100_000;
export const MAX_SEED = 2_147_483_647;
export const MAX_MULTIPV = 256;
/** Scores go out as 400·log10(E/(1-E)) centipawns (scoreText), so one unit of log-odds is 400/ln 10 of them. */
const CENTIPAWNS_PER_LOG_ODDS = 400 / Math.LN10;
/** The Contempt option's bound in centipawns (about 4.6 in log-odds: a draw worth .01 to .99). */
const MAX_CONTEMPT = 800;
/** Centipawn scores are clamped to this, well below the mate range GUIs reserve. */
export const MAX_CENTIPAWNS = 2_000;

export interface UciEngineConfig {
  /**
   * The pattern database to play from, or how to open it: a function is called on the first command that needs
   * the database (normally `isready`, where the protocol expects slow initialisation), so `uci` answers at once
   * however large the database. The engine owns the store (closes it on quit or replacement). When opening
   * fails, the engine says so with `info string` and plays from an empty database.
   */
  store: PatternStore | (() => PatternStore);
  /** Shown as the Database option's default. */
  databasePath: string;
  /** Opens a database read-only for `setoption name Database value X` ('' = the default); throws on failure. */
  openDatabase: (path: string) => PatternStore;
  /** Overrides the database's stored maturity (morph uci --maturity). */
  maturity?: number;
  /** The stored maturity of the database at start-up, shown as the Maturity option's default without opening it. */
  databaseMaturity?: number;
  /** Overrides the database's stored play search (morph uci --search). */
  search?: SearchSpec;
  /** The stored play search of the database at start-up, shown as the Search option's default. */
  databaseSearch?: SearchSpec;
  /** The stored material prior of the database at start-up (config materialPrior), the MaterialPrior option's default. */
  databaseMaterialPrior?: number;
  seed?: number;
  /** Whether a move-pattern database was given (morph uci --move-patterns): a search with patterns=K needs one. */
  movePatterns?: boolean;
  /** Receives every output line (without the newline). */
  write: (line: string) => void;
  /** Said as `info string` in answer to `uci` (e.g. that the database is still empty). */
  notice?: string;
  /** Called once, after `quit` (or the end of input, see end()). */
  onQuit?: () => void;
  /**
   * The OpponentModel option (shown only when given): the model of the opponent Morph starts with ('' none), and
   * how to change it ('' none); `select` throws on a file that is not an opponent model and then changes nothing.
   */
  opponentModel?: { path: string; select: (path: string) => void };
  /** Builds the player over the store (default: the 1-ply MorphPlayer); e.g. a model-guided player. */
  createPlayer?: (
    store: PatternStore,
    options: { maturity: number; seed: number; search?: SearchSpec; evaluation?: EvaluationSettings },
    name: string,
  ) => MorphPlayer;
}

/** The protocol's commands; anything before the first of these on a line is ignored (UCI 2004, "unknown tokens"). */
const COMMANDS = new Set([
  'uci', 'debug', 'isready', 'setoption', 'register', 'ucinewgame', 'position', 'go', 'stop', 'ponderhit', 'quit',
]);

/** The expected outcome E (for the side to move) in centipawns: 400·log10(E/(1−E)), clamped to ±2000. */
export function valueToCentipawns(value: number): number {
  const v = Math.min(Math.max(value, 1e-9), 1 - 1e-9);
  const cp = Math.round(400 * Math.log10(v / (1 - v)));
  return Math.min(Math.max(cp, -MAX_CENTIPAWNS), MAX_CENTIPAWNS) || 0; // `|| 0` turns -0 into 0
}

/** Win, draw and loss per mille for an expected outcome E: E², 2E(1−E), (1−E)², rounded to sum to 1000. */
export function valueToWdl(value: number): [number, number, number] {
  const e = Math.min(Math.max(value, 0), 1);
  const win = Math.round(1000 * e * e);
  const loss = Math.round(1000 * (1 - e) * (1 - e));
  return [win, 1000 - win - loss, loss];
}

/**
 * The mate a ranked move shows, in Morph's moves: positive when Morph mates (at once, or by checks in n of its
 * moves, MorphPlayer.ownMate), negative when the mate look proved the move lost (the opponent mates with its n-th
 * move, 2n plies on, which UCI writes as mate -n: Stockfish's count, the plies to mate halved); else undefined.
 */
function shownMate(move: RankedMove): number | undefined {
  if (move.source === 'checkmate') return 1;
  if (move.mateIn !== undefined) return move.mateIn;
  if (move.refutation?.source === 'checkmate') return -(move.refutation.mateIn ?? 1);
  return undefined;
}

/**
 * The `score ...` part of an info line for a ranked move (with ` wdl W D L` when asked for): its mate, else the
 * expected outcome `value` (default the move's own value) in centipawns.
 */
export function scoreText(move: RankedMove, showWdl = false, value = move.value): string {
  const mate = shownMate(move);
  if (mate !== undefined) return showWdl ? `score mate ${mate} wdl ${mate > 0 ? '1000 0 0' : '0 0 1000'}` : `score mate ${mate}`;
  const score = `score cp ${valueToCentipawns(value)}`;
  if (!showWdl) return score;
  const wdl = move.source === 'patterns' ? valueToWdl(value) : [0, 1000, 0]; // a draw by rule is certain
  return `${score} wdl ${wdl.join(' ')}`;
}

/**
 * A number that orders info lines as GUIs read their scores: any mate Morph gives above every centipawn score
 * (a shorter one higher), any mate Morph suffers below (a longer one higher), centipawns in between.
 */
function scoreOrder(move: RankedMove, value = move.value): number {
  const MATE_BASE = 1_000_000;
  const mate = shownMate(move);
  if (mate === undefined) return valueToCentipawns(value);
  return mate > 0 ? MATE_BASE - mate : -MATE_BASE - mate;
}

export class UciEngine {
  private loadedStore: PatternStore | null;
  private loadedPlayer: MorphPlayer | null = null;
  /** Set by --maturity or `setoption name Maturity`; otherwise each database's own setting is used. */
  private maturity: number | undefined;
  /** Set by --search or `setoption name Search`; otherwise each database's own setting is used. */
  private searchMode: SearchSpec | undefined;
  /** Set by `setoption name MaterialPrior`; otherwise each database's own setting is used. */
  private materialPrior: number | undefined;
  /** Set by `setoption name Contempt`, in centipawns; otherwise the search's default (extensions.ts defaultContempt). */
  private contemptCentipawns: number | undefined;
  private seed: number;
  private multiPv = 1;
  private showWdl = false;
  /** Null after a refused `position` command, until the next good one. */
  private history: GameHistory | null;
  /** The bestmove line of a `go infinite` / `go ponder`, held until `stop` or `ponderhit`. */
  private pendingBestMove: string | null = null;
  private quitted = false;

  constructor(private readonly config: UciEngineConfig) {
    this.loadedStore = typeof config.store === 'function' ? null : config.store;
    this.maturity = config.maturity;
    this.searchMode = config.search;
    this.seed = config.seed ?? 1;
    this.history = new GameHistory(START_FEN);
  }

  /** The database, opened on first use. */
  private get store(): PatternStore {
    if (this.loadedStore === null) {
      const open = this.config.store as () => PatternStore;
      try {
        this.loadedStore = open();
      } catch (error) {
        this.info(`cannot open the database: ${oneLine(error)}; every move values 0.5`);
        this.loadedStore = PatternStore.open(':memory:');
      }
    }
    return this.loadedStore;
  }

  private get player(): MorphPlayer {
    const create = this.config.createPlayer ?? ((store, options, name) => new MorphPlayer(store, options, name));
    if (this.loadedPlayer === null) {
      // The database's settings are read only when the player is built, not on every use.
      const evaluation = evaluationWithMaterialPrior(this.store.db, this.materialPrior);
      const contempt = this.contemptCentipawns === undefined ? undefined : this.contemptCentipawns / CENTIPAWNS_PER_LOG_ODDS;
      const options = { maturity: playingMaturity(this.store, this.maturity), seed: this.seed, search: this.searchMode, evaluation, contempt };
      this.loadedPlayer = create(this.store, options, ENGINE_NAME);
    }
    return this.loadedPlayer;
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
        // The slow part of starting, where the protocol expects it: the database, and the player with its models (a
        // move policy is a database of its own), so that the first `go` answers as fast as the next ones.
        void this.player;
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
    write(`id name ${ENGINE_NAME} ${ENGINE_VERSION}`);
    write(`id author ${ENGINE_AUTHOR}`);
    write(`option name Database type string default ${this.config.databasePath}`);
    // The defaults shown are the values the engine was started with (morph uci --maturity/--seed); without
    // --maturity, the database's own setting, so a GUI that sends every default back changes nothing.
    const maturity =
      this.config.maturity ?? this.config.databaseMaturity ?? (this.loadedStore ? playingMaturity(this.loadedStore) : 0);
    write(`option name Maturity type spin default ${maturity} min 0 max ${MAX_MATURITY}`);
    const search = this.config.search ?? this.config.databaseSearch ?? (this.loadedStore ? loadConfig(this.loadedStore.db).playSearch : DEFAULT_CONFIG.playSearch);
    // The presets, and the search started with when it is a list of extensions (a combo's default is one of its
    // vars); `setoption` also takes any other list.
    const presets: readonly string[] = SEARCH_PRESETS;
    const searches = presets.includes(search) ? presets : [...presets, search];
    write(`option name Search type combo default ${search} ${searches.map((known) => `var ${known}`).join(' ')}`);
    const materialPrior =
      this.config.databaseMaterialPrior ?? (this.loadedStore ? loadConfig(this.loadedStore.db).materialPrior : DEFAULT_CONFIG.materialPrior);
    write(`option name MaterialPrior type spin default ${materialPrior} min 0 max ${MATERIAL_FIT_ALONE}`);
    const contempt = Math.round(defaultContempt(extensionsOf(search)) * CENTIPAWNS_PER_LOG_ODDS);
    write(`option name Contempt type spin default ${contempt} min -${MAX_CONTEMPT} max ${MAX_CONTEMPT}`);
    if (this.config.opponentModel) write(`option name OpponentModel type string default ${this.config.opponentModel.path || '<empty>'}`);
    write(`option name Seed type spin default ${this.config.seed ?? 1} min 0 max ${MAX_SEED}`);
    write(`option name MultiPV type spin default 1 min 1 max ${MAX_MULTIPV}`);
    write('option name UCI_ShowWDL type check default false');
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
      case 'maturity':
        return this.setPlayerSpin(name, value, MAX_MATURITY, (number) => (this.maturity = number));
      case 'search': {
        let search: SearchSpec;
        try {
          search = normalizeSearch(value.toLowerCase(), `option ${name}`);
        } catch (error) {
          if (!(error instanceof MorphError)) throw error;
          return this.info(error.message);
        }
        if (extensionsOf(search).patterns > 0 && !this.config.movePatterns) {
          return this.info(`option ${name}: ${movePatternsNeeded(search, 'start morph uci with --move-patterns FILE')}`);
        }
        this.searchMode = search;
        this.loadedPlayer = null;
        return;
      }
      case 'materialprior':
        return this.setPlayerSpin(name, value, MATERIAL_FIT_ALONE, (number) => (this.materialPrior = number));
      case 'contempt':
        return this.setPlayerSpin(name, value, MAX_CONTEMPT, (number) => (this.contemptCentipawns = number), -MAX_CONTEMPT);
      case 'opponentmodel':
        if (!this.config.opponentModel) break;
        return this.switchOpponentModel(value === '<empty>' ? '' : value);
      case 'seed':
        return this.setPlayerSpin(name, value, MAX_SEED, (number) => (this.seed = number));
      case 'multipv': {
        const lines = this.spinValue(name, value, MAX_MULTIPV);
        if (lines === null) return;
        if (lines < 1) return this.info(`option ${name} needs a whole number from 1 to ${MAX_MULTIPV}, got "${value}"`);
        this.multiPv = lines;
        return;
      }
      case 'uci_showwdl':
        if (value !== 'true' && value !== 'false') return this.info(`option ${name} is true or false, got "${value}"`);
        this.showWdl = value === 'true';
        return;
    }
    const model = this.config.opponentModel ? ' OpponentModel,' : '';
    this.info(`unknown option "${name}" (Morph has Database, Maturity, Search, MaterialPrior, Contempt,${model} Seed, MultiPV, UCI_ShowWDL)`);
  }

  /** A spin option the player is built with: set it, and build the player afresh at the next `go`. */
  private setPlayerSpin(name: string, value: string, max: number, set: (number: number) => void, min = 0): void {
    const number = this.spinValue(name, value, max, min);
    if (number === null) return;
    set(number);
    this.loadedPlayer = null;
  }

  private spinValue(name: string, value: string, max: number, min = 0): number | null {
    const number = Number(value);
    const whole = min < 0 ? /^-?\d+$/ : /^\d+$/;
    if (!whole.test(value) || number < min || number > max) {
      this.info(`option ${name} needs a whole number from ${min} to ${max}, got "${value}"`);
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
    const old = this.loadedStore;
    this.loadedStore = store;
    this.loadedPlayer = null;
    if (old !== null && old !== store) old.close();
    this.info(`database ${store.path}: ${store.size} patterns`);
  }

  /** A bad model file keeps Morph playing as before, with the model it had. */
  private switchOpponentModel(path: string): void {
    try {
      this.config.opponentModel!.select(path);
    } catch (error) {
      this.info(`cannot use opponent model "${path}": ${oneLine(error)}; the opponent model is unchanged`);
      return;
    }
    this.loadedPlayer = null;
    this.info(path === '' ? 'no opponent model' : `opponent model ${path}`);
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
      if (!findLegalMove(history.board, move)) {
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

  /** Searches the current position: writes the info lines (one per MultiPV line) and returns the bestmove line. */
  private search(): string {
    if (this.history === null) {
      this.info('no move: the last position command was refused');
      return 'bestmove 0000';
    }
    const status = gameStatus(this.history.board);
    if (status !== 'ongoing') {
      const wdl = this.showWdl ? (status === 'checkmate' ? ' wdl 0 0 1000' : ' wdl 0 1000 0') : '';
      this.config.write(`info depth 0 score ${status === 'checkmate' ? 'mate 0' : 'cp 0'}${wdl}`);
      return 'bestmove 0000';
    }
    const player = this.player;
    const started = performance.now();
    // One line to show: the game move's search (bestRanked), which cuts short the moves that cannot be best. A full
    // ranking values every move exactly, several times the work under a full-width search (seconds a move).
    const chosen = this.multiPv === 1 ? { ...player.bestRanked(this.history), ranking: [] as RankedMove[] } : player.choose(this.history);
    // The depth every move is followed to: the move, then the plies look's plies (captures and checks may go further).
    const depth = 1 + player.extensions.plies;
    const work = `nodes ${player.lastValued} time ${Math.round(performance.now() - started)}`;
    // Against a bare king the rules' move is played whatever the values say (bestRanked values it 1).
    const shown = (ranked: RankedMove) => ('chosenBy' in chosen && chosen.chosenBy === 'bare-king' && ranked.move === chosen.move ? 1 : shownValue(player, ranked));
    // The move played leads (GUIs take line 1's score as the played move's), and it has the best score shown
    // wherever Morph chose it by that score (a tie-break may pick another of equal score than the ranking's
    // first); only a model's line (predictedLine.ts) chooses among the few moves it followed, so a move it did not
    // follow may show more. The others follow by the score they show, which a ranking need not be in (the
    // followed moves come first there). The sort is stable: equal scores keep the ranking's order.
    const others = chosen.ranking
      .filter((ranked) => ranked.move !== chosen.move)
      .map((ranked) => ({ ranked, value: shown(ranked) }))
      .sort((a, b) => scoreOrder(b.ranked, b.value) - scoreOrder(a.ranked, a.value));
    const lines = [{ ranked: chosen as RankedMove, value: shown(chosen) }, ...others].slice(0, this.multiPv);
    for (let k = 0; k < lines.length; k++) {
      const { ranked, value } = lines[k];
      this.config.write(`info depth ${depth} multipv ${k + 1} ${scoreText(ranked, this.showWdl, value)} ${work} pv ${ranked.move}`);
    }
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
      this.loadedStore?.close();
    } finally {
      this.config.onQuit?.();
    }
  }

  /** Bad input may be repeated in the text: it is cut to one bounded line, escaped, so a GUI's log stays readable. */
  private info(text: string): void {
    this.config.write(`info string ${oneLineMessage(text)}`);
  }
}

/**
 * The expected outcome a move's info line shows: the score Morph chose it by (MorphPlayer.choiceScore), as an
 * outcome. Without a policy that is the move's value. With one, the value plus the policy's term: on the
 * log-odds scale the outcome whose log-odds the sum is (so the centipawns are the sum's), on the probability
 * scale the sum itself, within [0, 1]. Either way a higher choice score never shows a lower score.
 */
export function shownValue(player: MorphPlayer, move: RankedMove): number {
  if (move.policy === undefined) return move.value;
  const score = player.choiceScore({ ...move, refutation: undefined }); // a proven loss shows as a mate, not by this
  return Math.min(1, Math.max(0, valueOfScaled(score, player.valueScale)));
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0];
}
