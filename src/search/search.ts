/**
 * How far Morph looks before judging a move: the looks a search is made of (extensions.ts: any combination of
 * them, written as a preset's name or a list), here as each preset added one, in the order they were measured.
 *
 * - one-ply:  the paper's player. Every legal move's position is valued by its patterns, nothing more.
 * - captures: one ply, then the opponent's captures. A move is worth the least of its own position's value
 *             and the value, for the mover, of each position an opponent capture leads to. The opponent may
 *             also decline to capture, so the position's own value bounds it from above (a "stand pat", as in
 *             a quiescence search one capture deep).
 *
 * - captures-mates: captures, and then every other reply too, for one that mates at once: a move that allows
 *             a mate in one is worth 0, as a move that mates is worth 1.
 * - material-quiescence: captures-mates, with the captures followed to the end: after the opponent's capture
 *             Morph may capture back, and so on, each side free to stop (stand pat), at most
 *             QUIESCENCE_DEPTH captures deep. A promotion counts as a capture here and in the looks below
 *             (extensions.ts captureLook): a pawn one step from promoting is a threat like a piece left to be taken. Every
 *             position, the move's own included, is valued by its material pattern alone (the learned weight
 *             of its material difference; .5 when the database has none): measured on the 2-hour run's
 *             database, the graph patterns' values added nothing to play beside the material patterns'
 *             (docs/lab/2026-11.md, 2026-11-24), and one material lookup instead of a retrieval makes a deep
 *             look cheap. The graph patterns still choose through the move policy.
 * - material-threats: material-quiescence, and then the opponent's quiet replies that threaten two things at
 *             once: those that check, and those after which the opponent, were Morph to pass, could take two
 *             different pieces each at a profit (settled as above). Each such reply is answered by Morph's best
 *             move, followed by the opponent's captures; a move is worth no more than the worst of them. This is
 *             the fork and the double attack, which a look at captures alone cannot see (docs/lab/,
 *             "threat knowledge": a quiet reply is where a third of material-quiescence's losses first show).
 * - material-forks: material-threats, and Morph's own threats. A move after which Morph, were the opponent to
 *             pass, could take something at a profit (or that checks) is followed by every reply: it is worth
 *             the least of what each leaves Morph (its captures settled, free to stop; replies that capture,
 *             check or threaten two pieces judged as above), when that is more than its own value. A fork, a
 *             pin or a trapped piece is worth what it wins, which no look at the opponent's moves alone can see.
 *             The opponent's quiet replies that threaten a single piece are answered too (threats=1).
 *
 * - material-full-width: material-quiescence with the mates look of material-forks, and in place of its threat
 *             looks every move of each side followed three plies past the move (plies=3, fullWidthValue): a
 *             full-width alpha-beta over the learned values, each line settled by the captures. The hand-written
 *             looks follow the moves a rule picks (a threat of two pieces, a check); this follows every move and lets
 *             the values judge, so a defence, a quiet move that prepares a threat and a threat one ply later are all
 *             seen. Against material-forks on the same database (session 75's seed-14 database, each with its policy,
 *             docs/lab/2026-12.md, session 77): mean win-chance loss on the scored positions 1.68 against 2.16, -0.48
 *             [-0.82, -0.15]; head to head +280 Elo [+196, +404] (66 games, paired). Two plies: 2.02 and +49 [-13, +114]; one ply: worse on
 *             the positions (2.49). Its move takes a median of about 85 ms, as material-forks' (mean 186 against
 *             297 ms; 100 scored positions, back to back on a shared machine): the look remembers what it found over a
 *             game move and tries first the moves likeliest to cut it off (searchMemory.ts), 18,106 positions valued
 *             a move against 63,204 without (then a median of 184 ms, mean 428, measured alongside), the same moves.
 * - material-five-plies: material-four-plies a ply further (plies=5) with null-move pruning (null=2): +95 Elo
 *             [+31, +165] head to head, at 2.2 times the time of a game move (docs/lab/2026-12.md, session 83).
 * - material-four-plies: material-full-width a ply further (plies=4), for about twice its work by a late-move
 *             reduction (late=3): at a node with two plies or more to go, the quiet moves after the three tried
 *             first are searched a ply shallower, and again in full only if they would be chosen. On the same
 *             database and policy, against material-full-width: +163 Elo [+93, +248] head to head (seed 21's
 *             5,000-game database, 96 games), and against gnuchess at depth 2 .650 against .520 (a fresh 3,000-game
 *             database, paired +.13 a game [+.008, +.252]; docs/lab/2026-12.md, sessions 81 and 82).
 *
 * Why captures: nine in ten of the one-ply player's blunders left a piece to be taken (docs/lab/).
 * The one-ply player sees the position before the capture, where material is still level and only patterns
 * such as "queen en prise" hint at the loss. After the capture its material patterns see the loss itself.
 * A capture is a rule of the game, not chess knowledge: the values are still all learned.
 */
import { applyMove, cloneBoard, KING, passTurn, PAWN, uciMove, WHITE, type Board, type Color, type CompactMove } from '../chess/board.ts';
import { gameEnd, type GameEnd } from '../chess/gameEnd.ts';
import { positionKey } from '../chess/positionKey.ts';
import { boundOf, reusableValue, sameMove, type SearchMemory } from './searchMemory.ts';
import { generateLegalCaptures, generateLegalMaterialMoves, generateLegalMoves, hasLegalMove, isInCheck } from '../chess/movegen.ts';

/**
 * Values closer than this are the same value, rounded differently: a line of captures that comes back to the
 * same material gives 1 - (1 - x), which need not be x in floating point. A look lowers (or raises) a move's
 * value only by more than this, so which of two equal lines it meets first cannot decide what it finds.
 */
const ROUNDING = 1e-9;

/** How many captures deep material-quiescence looks at most (both sides' together). */
export const QUIESCENCE_DEPTH = 8;

/**
 * How far a capture look follows the moves that change material: at most `depth` of them in a line (1: the
 * opponent's captures only), and, with `promotions`, a pawn's promotion as well as a capture (quiet or not).
 */
export interface CaptureLook {
  depth: number;
  promotions: boolean;
}

/** The opponent's captures, one deep (a search's `captures`). */
export const ONE_CAPTURE: CaptureLook = Object.freeze({ depth: 1, promotions: false });
/**
 * The material searches follow promotions too: a pawn one step from promoting is a threat as real as a piece
 * left to be taken, and a capture look blind to it let passed pawns run (docs/lab/2026-11.md, 2026-11-25).
 */
export const QUIESCENCE: CaptureLook = Object.freeze({ depth: QUIESCENCE_DEPTH, promotions: true });

/** How far an opponent model looks (src/model): its look is fitted to captures, so no mates look. */
export const MODEL_SEARCH_MODES = ['one-ply', 'captures'] as const;
export type ModelSearchMode = (typeof MODEL_SEARCH_MODES)[number];

/** True when the move takes a piece (en passant included). */
export function isCapture(board: Board, move: CompactMove): boolean {
  if (board.squares[move.to] !== 0) return true;
  return move.to === board.epSquare && Math.abs(board.squares[move.from]) === PAWN;
}

/** True when the move is one a capture look with `look` follows: a capture, or a promotion when it follows those. */
export function isFollowed(board: Board, move: CompactMove, look: CaptureLook): boolean {
  return isCapture(board, move) || (look.promotions && move.promotion !== 0);
}

/** The opponent's capture that sets a move's value. */
export interface Refutation {
  move: string;
  /** The value for the side that made the move being judged. */
  value: number;
  source: GameEnd | 'patterns';
  /** A mate's length in the opponent's moves, when the mate look found it (absent: a mate at once). */
  mateIn?: number;
}

/**
 * The opponent capture that leaves the side that just moved worse off than `standPat`, the worst of them, or
 * undefined when no capture does. With `look.depth` > 1 each capture is followed by the other side's captures
 * in turn, each side free to stop, up to that many captures in all (a quiescence search); with
 * `look.promotions` a promotion counts as a capture. `valueForMover(board)` values a position after a capture
 * for the side that made the capture (the side that just moved there), as the one-ply player values its own
 * successors; `valuesForMover`, when given, values the positions after the first captures all at once (the
 * player retrieves them together: retrieval.ts), with the same values.
 */
export function worstCaptureReply(
  position: Board,
  standPat: number,
  valueForMover: (after: Board) => number,
  look: CaptureLook = ONE_CAPTURE,
  valuesForMover?: (afters: readonly Board[]) => number[],
): Refutation | undefined {
  let worst: Refutation | undefined;
  let bound = standPat;
  for (const capture of capturesBestFirst(position, valueForMover, look.promotions, valuesForMover)) {
    // Exact below the worst found so far; above it, only that it is above.
    const value = captureValue(capture.after, look.depth, -Infinity, bound, valueForMover, look.promotions, capture.valueForCapturer);
    if (value < bound - ROUNDING) {
      bound = value;
      worst = { move: uciMove(capture.move), value, source: gameEnd(capture.after, 1) ?? 'patterns' };
    }
  }
  return worst;
}

/** A capture (or, in the plies look, any move), the position it leads to, and that position's learned value for the mover. */
interface Capture {
  move: CompactMove;
  after: Board;
  valueForCapturer: number;
}

/**
 * The legal captures of the side to move (and its promotions, with `promotions`), the best for it first by the
 * learned value of the position each leads to: the quiescence search's move ordering, so that alpha-beta's cut-offs come as early as they can. Learned
 * values order them, not piece values: Morph knows none. The order changes which positions are visited, never
 * a value found inside the search window (measured: about three times fewer positions valued, the same moves
 * chosen). Whether a capture ends the game is left to captureValue: most captures are never visited, and
 * asking costs a move generation.
 */
function capturesBestFirst(
  position: Board,
  valueForMover: (after: Board) => number,
  promotions: boolean,
  valuesForMover?: (afters: readonly Board[]) => number[],
): Capture[] {
  return bestFirst(position, promotions ? generateLegalMaterialMoves(position) : generateLegalCaptures(position), valueForMover, valuesForMover);
}

/** `moves` of the side to move with the positions they lead to, the best for it first by their learned values. */
function bestFirst(
  position: Board,
  moves: readonly CompactMove[],
  valueForMover: (after: Board) => number,
  valuesForMover?: (afters: readonly Board[]) => number[],
): Capture[] {
  const afters = moves.map((move) => {
    const after = cloneBoard(position);
    applyMove(position, move, after);
    return after;
  });
  const values = valuesForMover && afters.length > 0 ? valuesForMover(afters) : afters.map(valueForMover);
  const captures = moves.map((move, i): Capture => ({ move, after: afters[i], valueForCapturer: values[i] }));
  return captures.sort((a, b) => b.valueForCapturer - a.valueForCapturer);
}

/**
 * Moves in the order a search tries them: `first` (the likeliest to cut the search off) as they are, then the rest
 * best first (bestFirst), whose positions are valued for their order only once every one of `first` has been
 * tried without a cut-off. With no `first`, bestFirst's order. A class, not a closure: made at every node, a closure
 * was named at every node too (tsx keeps names), 3% of a move's time.
 */
class TryOrder {
  private rest: Capture[] | undefined;
  private index = 0;

  constructor(
    private readonly position: Board,
    private readonly moves: readonly CompactMove[],
    private readonly first: readonly CompactMove[],
    private readonly valueForMover: (after: Board) => number,
  ) {}

  /** The next move to try, its position, and that position's value for the mover when it was valued; undefined after the last. */
  next(): { move: CompactMove; after: Board; valueForCapturer: number | undefined } | undefined {
    const i = this.index++;
    if (i < this.first.length) {
      const move = this.first[i];
      const after = cloneBoard(this.position);
      applyMove(this.position, move, after);
      return { move, after, valueForCapturer: undefined };
    }
    this.rest ??= bestFirst(this.position, this.first.length === 0 ? this.moves : this.moves.filter((move) => !this.first.includes(move)), this.valueForMover);
    return this.rest[i - this.first.length];
  }
}

/**
 * The value, for the side that moved before it, of the position `after` a capture: 0 when the capture mates,
 * .5 when it ends the game otherwise, else one minus what the capturer is left after the other side's own
 * captures (`depth` - 1 more at most). Values below `low` or above `high` need not be exact (alpha-beta): a
 * value at or below `low` is returned as soon as it is found. `valueForCapturer`, the position's own value for
 * the capturer, when already known (capturesBestFirst). With `line`, where the line valued ends is written to it.
 * With `recaptureOn`, the capture onto the square this one landed on is tried first (settledValue).
 */
function captureValue(
  after: Board,
  depth: number,
  low: number,
  high: number,
  valueForMover: (after: Board) => number,
  promotions: boolean,
  valueForCapturer?: number,
  line?: LineEnd,
  recaptureOn?: number,
): number {
  // A capture (or a promotion) changes the material, so the position after it cannot repeat an earlier one.
  const end = gameEnd(after, 1);
  if (end !== null) {
    if (line !== undefined) line.board = after;
    return end === 'checkmate' ? 0 : 0.5;
  }
  return 1 - settledValue(after, valueForCapturer ?? valueForMover(after), depth - 1, 1 - high, 1 - low, valueForMover, promotions, line, recaptureOn);
}

/**
 * What the side that just moved into `position` is left after the side to move's captures, each side capturing
 * in turn or stopping, at most `depth` captures deep (the minimax value, pruned by alpha-beta outside
 * [low, high]). `standPat` is the position's own value for that side. With `line`, where the line valued ends is
 * written to it. With `recaptureOn` (the plies look's: the square the last move landed on, -1 when unknown), the
 * capture onto that square, when there is one, is tried before the other captures' positions are valued for their
 * order: where it cuts the search off, they never are (on 100 scored positions, plies=3: 15% fewer positions
 * valued). The value is the same.
 */
function settledValue(
  position: Board,
  standPat: number,
  depth: number,
  low: number,
  high: number,
  valueForMover: (after: Board) => number,
  promotions: boolean,
  line?: LineEnd,
  recaptureOn?: number,
): number {
  let value = standPat;
  let end = position;
  if (depth > 0 && value > low) {
    if (value < high) high = value;
    const moves = promotions ? generateLegalMaterialMoves(position) : generateLegalCaptures(position);
    const recapture = recaptureOn === undefined ? undefined : moves.find((move) => move.to === recaptureOn);
    const order = new TryOrder(position, moves, recapture === undefined ? [] : [recapture], valueForMover);
    for (let capture = order.next(); capture !== undefined; capture = order.next()) {
      const recaptureNext = recaptureOn === undefined ? undefined : capture.move.to;
      const replyValue = captureValue(capture.after, depth, low, high, valueForMover, promotions, capture.valueForCapturer, line, recaptureNext);
      if (replyValue < value) {
        value = replyValue;
        if (line !== undefined) end = line.board;
        if (value <= low) break;
        if (value < high) high = value;
      }
    }
  }
  if (line !== undefined) line.board = end;
  return value;
}

/**
 * The plies look (plies=N): the value, for the side that just moved into `position`, of a full-width alpha-beta
 * search `plies` plies deep from there (every legal move of each side, the side to move first), every line then
 * settled by the captures look (`look`, each side free to stop), as chess engines search. Where the selective looks
 * (captures, threats, own-threats) follow the moves a rule picks, this one follows every move and lets the learned
 * values judge: a quiet move that threatens, a defence, a fork are all found at the depth they occur. A side with
 * no legal move is mated (0 for it) or stalemated (.5); a leaf is asked only whether it is mate (a check with no
 * reply). Values below `low` or above `high` need not be exact, as settledValue's. Each side's moves are tried best
 * first by the learned value of the position each leads to (the captures look's ordering). `standPat`, the
 * position's own value when known.
 *
 * With `memory` (one per game move: searchMemory.ts) a position already searched as deep is not searched again
 * when what was found answers this window, and the moves likeliest to cut the search off (likelyCutOffs) are tried
 * before the others' positions are valued for their order: where one of them cuts, the others never are. The
 * captures look then tries each recapture first too (settledValue). `lastMoveTo`, the square the move into
 * `position` landed on, when known. The values inside the window are the same.
 */
export function fullWidthValue(
  position: Board,
  plies: number,
  low: number,
  high: number,
  valueForMover: (after: Board) => number,
  look: CaptureLook,
  standPat?: number,
  memory?: SearchMemory,
  lastMoveTo = -1,
  lateAfter = 0,
  nullReduction = 0,
): number {
  if (plies <= 0) {
    if (isInCheck(position) && !hasLegalMove(position)) return 1;
    const recaptureOn = memory === undefined ? undefined : lastMoveTo;
    return settledValue(position, standPat ?? valueForMover(position), look.depth, low, high, valueForMover, look.promotions, undefined, recaptureOn);
  }
  const key = memory === undefined ? 0 : positionKey(position);
  const stored = memory?.table.get(key, plies);
  if (stored !== undefined) {
    const reused = reusableValue(stored, low, high);
    if (reused !== undefined) return reused;
  }
  if (nullReduction > 0 && plies >= 3 && low > 0 && low < 1 && !isInCheck(position) && hasPieces(position)) {
    const replierAfterPass = fullWidthValue(passTurn(position), plies - 1 - nullReduction, 1 - low - 1e-9, 1 - low, valueForMover, look, undefined, memory, -1, lateAfter, nullReduction);
    if (1 - replierAfterPass <= low) return 1 - replierAfterPass;
  }
  const moves = generateLegalMoves(position);
  if (moves.length === 0) return isInCheck(position) ? 1 : 0.5;
  let value = Infinity;
  let best = moves[0]; // set by the first reply tried: its value is below Infinity
  let cut = false;
  const first = memory === undefined ? [] : likelyCutOffs(moves, stored?.best, memory.killers.at(plies), lastMoveTo);
  const order = new TryOrder(position, moves, first, valueForMover);
  // A move tried first reaches a leaf unvalued: the leaf values itself (a mate needs no value).
  let tried = 0;
  for (let reply = order.next(); reply !== undefined; reply = order.next()) {
    // Late quiet moves a ply shallower, and again at full depth only if they would be chosen (lateAfter > 0).
    // No closure for the two calls: one made at every node costs time in this hot path (TryOrder's note).
    const reduced = lateAfter > 0 && plies >= 2 && tried++ >= lateAfter && isQuietMove(position, reply.move, reply.after);
    const replierLow = 1 - Math.min(high, value);
    const replierHigh = 1 - low;
    let replierValue = fullWidthValue(reply.after, reduced ? plies - 2 : plies - 1, replierLow, replierHigh, valueForMover, look, reply.valueForCapturer, memory, reply.move.to, lateAfter, nullReduction);
    if (reduced && 1 - replierValue < value) {
      replierValue = fullWidthValue(reply.after, plies - 1, replierLow, replierHigh, valueForMover, look, reply.valueForCapturer, memory, reply.move.to, lateAfter, nullReduction);
    }
    if (1 - replierValue < value) {
      value = 1 - replierValue;
      best = reply.move;
      if (value <= low) {
        cut = true;
        break;
      }
    }
  }
  if (memory !== undefined) {
    if (cut) memory.killers.record(plies, best);
    memory.table.set(key, plies, { value, bound: boundOf(value, low, high), best });
  }
  return value;
}

/** Whether the side to move has a piece other than its king and pawns (a pass is then rarely its best move). */
function hasPieces(position: Board): boolean {
  const squares = position.squares;
  const sign = position.turn === WHITE ? 1 : -1;
  for (let sq = 0; sq < 64; sq++) {
    const piece = squares[sq] * sign;
    if (piece > PAWN && piece !== KING) return true;
  }
  return false;
}

/** A move that neither captures, promotes nor gives check: what a late-move reduction may search shallower. */
function isQuietMove(position: Board, move: CompactMove, after: Board): boolean {
  return !isCapture(position, move) && move.promotion === 0 && !isInCheck(after);
}

/**
 * The moves of `moves` to try before the others' positions are valued for their order, each once: the best move
 * found before in this position (`stored`), the killers, then a capture of the piece that just moved (onto
 * `lastMoveTo`). Measured on 100 scored positions (plies=3), positions valued a move: 54,407 with the table alone
 * (63,204 without it), about the same trying its move first; 25,756 with one killer, 23,074 with two, 23,829 with
 * three; with the capture of the piece that moved and the captures look's recaptures (settledValue), 18,106.
 */
function likelyCutOffs(moves: readonly CompactMove[], stored: CompactMove | undefined, killers: readonly CompactMove[], lastMoveTo: number): CompactMove[] {
  const first: CompactMove[] = [];
  for (const hint of stored === undefined ? killers : [stored, ...killers]) {
    const move = moves.find((m) => sameMove(m, hint));
    if (move !== undefined && !first.includes(move)) first.push(move);
  }
  const capture = moves.find((move) => move.to === lastMoveTo);
  if (capture !== undefined && !first.includes(capture)) first.push(capture);
  return first;
}

/**
 * Where the line a capture look valued ends: its principal variation's last position when the value is exact
 * (inside the window), else only where a bound came from. The caller that wants it (bestReplyLine) makes one and
 * passes it down, so that nothing outlives its search and two searches never share it.
 */
interface LineEnd {
  board: Board;
}

/** A two-ply search's value of a move and the position its principal variation ends in. */
export interface ReplyLine {
  /** For the side that made the move: 0 when a reply mates, .5 when one draws, else the position's value. */
  value: number;
  /** Where the line ends: after the mating or drawing reply, or after the last capture that settles it. */
  end: Board;
}

/**
 * What a two-ply search with a quiescence sees of the move that led to `position`: the value, for the side that
 * just moved there, after the opponent's best reply (any legal move) and then its own captures, each side free
 * to stop (`look`, as worstCaptureReply), and where that line ends. A reply that mates is 0, one that ends the
 * game otherwise .5; with no legal reply, 1 for a mate given, .5 for a stalemate. Only captures and checks are
 * asked whether they end the game: a quiet reply that stalemates the mover is too rare to pay a move generation
 * per reply for.
 */
export function bestReplyLine(position: Board, valueForMover: (after: Board) => number, look: CaptureLook): ReplyLine {
  // Every reply is valued on one board; only the few the search goes on with are played again onto their own.
  // (A board a reply for each was a tenth of a square-value fit's time in allocation alone.)
  const replies: { move: CompactMove; drawn: boolean; valueForCapturer: number }[] = [];
  const after = cloneBoard(position);
  for (const move of generateLegalMoves(position)) {
    applyMove(position, move, after);
    const end = isCapture(position, move) || isInCheck(after) ? gameEnd(after, 1) : null;
    if (end === 'checkmate') return { value: 0, end: after };
    const drawn = end !== null;
    replies.push({ move, drawn, valueForCapturer: drawn ? 0.5 : valueForMover(after) });
  }
  if (replies.length === 0) return { value: isInCheck(position) ? 1 : 0.5, end: position };
  // The replier maximises, and the mover's captures only lower a reply's value: once a reply's own value is no
  // better than the best found, neither is any after it (alpha-beta, the replies best first).
  replies.sort((a, b) => b.valueForCapturer - a.valueForCapturer);
  let best = -Infinity;
  let bestEnd = position;
  const line: LineEnd = { board: position };
  for (const reply of replies) {
    if (reply.valueForCapturer <= best) break;
    const replied = cloneBoard(position);
    applyMove(position, reply.move, replied);
    const value = reply.drawn
      ? 0.5
      : settledValue(replied, reply.valueForCapturer, look.depth, best, Infinity, valueForMover, look.promotions, line);
    if (value > best) {
      best = value;
      bestEnd = reply.drawn ? replied : line.board;
    }
  }
  return { value: 1 - best, end: bestEnd };
}

/**
 * The shapes of a model's reply line (opponentModel.ts twoPlyLine), after the searches engines run:
 * - `quiescence`: the opponent's best reply, then the mover's captures, each side free to stop (bestReplyLine);
 * - `plain`: the two plies and nothing after, an alpha-beta at depth 2 without a quiescence;
 * - `checks`: plain, and a ply more, the mover's best move, after either ply gives check (a check extension).
 */
export const LINE_SHAPES = ['quiescence', 'plain', 'checks'] as const;
export type LineShape = (typeof LINE_SHAPES)[number];

const NO_CAPTURES: CaptureLook = Object.freeze({ depth: 0, promotions: false });

/** The reply line of the move that led to `position`, in the given shape; value and end as bestReplyLine's. */
export function replyLine(position: Board, valueForMover: (after: Board) => number, shape: LineShape): ReplyLine {
  if (shape === 'quiescence') return bestReplyLine(position, valueForMover, QUIESCENCE);
  if (shape === 'plain') return bestReplyLine(position, valueForMover, NO_CAPTURES);
  return checkExtendedLine(position, valueForMover);
}

/**
 * Two plies with a check extension: after a move that gives check every reply is answered, and after a reply
 * that gives check that one is, by the mover's best move, valued where it stands; other replies are valued where
 * they stand. Checks are the few moves an engine's extension follows, so this stays near a plain line's cost.
 * Ends of the game are asked as bestReplyLine asks them: of captures and checks only.
 */
function checkExtendedLine(position: Board, valueForMover: (after: Board) => number): ReplyLine {
  const moverChecks = isInCheck(position);
  const after = cloneBoard(position);
  let worst = Infinity;
  let worstEnd: Board = position;
  for (const reply of generateLegalMoves(position)) {
    applyMove(position, reply, after);
    const checks = isInCheck(after);
    const end = isCapture(position, reply) || checks ? gameEnd(after, 1) : null;
    if (end === 'checkmate') return { value: 0, end: after };
    let line: ReplyLine;
    if (end !== null) line = { value: 0.5, end: after };
    else if (moverChecks || checks) line = bestStaticAnswer(after, valueForMover);
    else line = { value: 1 - valueForMover(after), end: after };
    if (line.value < worst) [worst, worstEnd] = [line.value, line.end === after ? cloneBoard(after) : line.end];
  }
  if (worst === Infinity) return { value: isInCheck(position) ? 1 : 0.5, end: position };
  return { value: worst, end: worstEnd };
}

/** The best one-ply value for the side to move in `position`, valued where each move stands: mates 1, draws .5. */
function bestStaticAnswer(position: Board, valueForMover: (after: Board) => number): ReplyLine {
  const next = cloneBoard(position);
  let best = -Infinity;
  let bestEnd: Board = position;
  for (const move of generateLegalMoves(position)) {
    applyMove(position, move, next);
    const end = isCapture(position, move) || isInCheck(next) ? gameEnd(next, 1) : null;
    const value = end === 'checkmate' ? 1 : end !== null ? 0.5 : valueForMover(next);
    if (value > best) [best, bestEnd] = [value, cloneBoard(next)];
    if (best === 1) break;
  }
  if (best === -Infinity) return { value: isInCheck(position) ? 0 : 0.5, end: position };
  return { value: best, end: bestEnd };
}

/**
 * The shortest mate by checks within `depth` moves (mateByChecks) the side to move in `position` forces: its
 * first move and length, or undefined. Shorter lengths are tried only once the longest finds one.
 */
export function shortestMateByChecks(
  position: Board,
  depth: number,
  boards = new MateLookBoards(),
): { move: string; mateIn: number } | undefined {
  const longest = mateByChecks(position, depth, boards);
  if (longest === undefined) return undefined;
  for (let n = 1; n < depth; n++) {
    const move = mateByChecks(position, n, boards);
    if (move !== undefined) return { move, mateIn: n };
  }
  return { move: longest, mateIn: depth };
}

/** An opponent reply that mates at once (the first found), or undefined. */
export function matingReply(position: Board, boards = new MateLookBoards()): string | undefined {
  return mateByChecks(position, 1, boards);
}


/**
 * The boards a mate look (mateByChecks) plays its line on, a pair for each move of the line, made the first time
 * a look goes that deep and reused by every later look given them: the look is made for every move of every
 * position, and a board each time was allocation for nothing. Whoever looks often (a player) keeps its own, so
 * that no two searches share a board; a look given none makes its own.
 */
export class MateLookBoards {
  private readonly levels: { afterAttack: Board; afterDefence: Board }[] = [];

  /** The pair for the line's move at `level` (0 first), made like `position` when new. */
  at(level: number, position: Board): { afterAttack: Board; afterDefence: Board } {
    while (this.levels.length <= level) this.levels.push({ afterAttack: cloneBoard(position), afterDefence: cloneBoard(position) });
    return this.levels[level];
  }
}

/**
 * A mate the side to move in `position` forces within `depth` of its moves, each of them a check, whatever the
 * other side replies: the line's first move, or undefined. Checks only, because they leave the defender a few
 * replies each and keep the look cheap at depth 4; a mate in one is always a check, so depth 1 finds every
 * reply that mates at once. Draws by rule along the line are not looked for (a line the defender could
 * draw by repetition counts as a mate), which errs toward avoiding it.
 */
export function mateByChecks(position: Board, depth: number, boards = new MateLookBoards()): string | undefined {
  return mateWithin(position, depth, 0, boards);
}

/** mateByChecks at `level` of its line (each level has its own boards). */
function mateWithin(position: Board, depth: number, level: number, boards: MateLookBoards): string | undefined {
  const { afterAttack, afterDefence } = boards.at(level, position);
  for (const attack of generateLegalMoves(position)) {
    applyMove(position, attack, afterAttack);
    if (!isInCheck(afterAttack)) continue;
    if (!hasLegalMove(afterAttack)) return uciMove(attack);
    if (depth === 1) continue;
    let escaped = false;
    for (const defence of generateLegalMoves(afterAttack)) {
      applyMove(afterAttack, defence, afterDefence);
      if (mateWithin(afterDefence, depth - 1, level + 1, boards) === undefined) {
        escaped = true;
        break;
      }
    }
    if (!escaped) return uciMove(attack);
  }
  return undefined;
}

/**
 * The threats look (threats=N, first in material-threats): the opponent's quiet reply to the move that led to
 * `position` (the opponent to move) that leaves the side that just moved worst off, below `value`, or undefined
 * when none does. Only replies that threaten are looked at: a check, or at least `fewest` of the mover's pieces (by default 2, a double threat)
 * the opponent could then take at a profit (threatenedPieces). Each is answered by the mover's best move, followed
 * by the opponent's captures as `look` follows them, as worstCaptureReply settles them. `valueForMover` as in
 * worstCaptureReply.
 */
export function worstThreatReply(
  position: Board,
  value: number,
  valueForMover: (after: Board) => number,
  look: CaptureLook,
  fewest = 2,
): Refutation | undefined {
  let worst: Refutation | undefined;
  let bound = value;
  const after = cloneBoard(position);
  const answered = cloneBoard(position);
  for (const reply of generateLegalMoves(position)) {
    if (isFollowed(position, reply, look)) continue; // the capture look's
    applyMove(position, reply, after);
    if (gameEnd(after, 1) !== null) continue; // a mate is the mate look's; a draw threatens nothing
    if (!isThreatReply(after, valueForMover, look, fewest)) continue;
    const answer = bestAnswer(after, bound, valueForMover, look, answered);
    if (answer < bound - ROUNDING) {
      bound = answer;
      worst = { move: uciMove(reply), value: answer, source: 'patterns' };
    }
  }
  return worst;
}

/**
 * The own-threats look (own-threats, first in material-forks): what the side that just moved into `position` (the
 * opponent to move) is sure to win with a threat no reply parries: the least, over every reply, of what the mover
 * is then left (a capture settled as in worstCaptureReply; a quiet reply that checks or threatens two pieces
 * answered as in worstThreatReply; any other quiet reply followed by the mover's captures, each side free to
 * stop). Undefined when some reply leaves the mover no more than `standPat`, the position's own value, or when the
 * move neither checks nor threatens anything (threatenedPieces, as if the opponent passed).
 */
export function unparriedThreat(
  position: Board,
  standPat: number,
  valueForMover: (after: Board) => number,
  look: CaptureLook,
): number | undefined {
  if (!threatensAnything(position, valueForMover, look)) return undefined;
  return followedThroughReplies(position, standPat, valueForMover, look);
}

/**
 * The move that led to `position` (the opponent to move) followed through every reply, as unparriedThreat follows a
 * threat, whether or not the move threatens anything: the least, over every reply, of what the side that just moved
 * is then left, or undefined when some reply leaves it no more than `standPat`. What the patterns look (patterns=K)
 * finds for the quiet moves the move patterns rank highest, and what the move patterns' search lessons label
 * (train/moveLessons.ts).
 */
export function followedThroughReplies(
  position: Board,
  standPat: number,
  valueForMover: (after: Board) => number,
  look: CaptureLook,
): number | undefined {
  let value = Infinity;
  const after = cloneBoard(position);
  const answered = cloneBoard(position);
  for (const reply of generateLegalMoves(position)) {
    applyMove(position, reply, after);
    let replyValue: number;
    if (isFollowed(position, reply, look)) replyValue = captureValue(after, look.depth, standPat, value, valueForMover, look.promotions);
    else {
      const end = gameEnd(after, 1);
      if (end === 'checkmate') return undefined;
      if (end !== null) replyValue = 0.5;
      else if (isThreatReply(after, valueForMover, look, 2)) {
        replyValue = bestAnswer(after, value, valueForMover, look, answered);
      } else {
        // The mover's captures in turn, as worstCaptureReply settles the opponent's, here for the mover.
        replyValue = 1 - settledValue(after, valueForMover(after), look.depth, 1 - value, 1 - standPat, valueForMover, look.promotions);
      }
    }
    if (replyValue <= standPat + ROUNDING) return undefined;
    if (replyValue < value) value = replyValue;
  }
  return value === Infinity ? undefined : value;
}

/**
 * Whether the quiet reply that led to `after` threatens what worstThreatReply answers: a check, or at least
 * `fewest` pieces the side to move could lose (threatenedPieces).
 */
function isThreatReply(after: Board, valueForMover: (after: Board) => number, look: CaptureLook, fewest: number): boolean {
  return isInCheck(after) || threatenedPieces(after, valueForMover, look, fewest) >= fewest;
}

/**
 * Whether the side that just moved into `position` gives check or, were the other side to pass, could take
 * something at a profit: the moves whose own threat unparriedThreat may find worth more than their position.
 */
export function threatensAnything(position: Board, valueForMover: (after: Board) => number, look: CaptureLook): boolean {
  return isInCheck(position) || threatenedPieces(position, valueForMover, look, 1) > 0;
}

/**
 * The best the side to move can do in `position`: each of its moves followed by the other side's captures, for
 * the side to move. Stops as soon as one reaches `enough` (the caller needs only to know it is not below). The
 * captures can only lower a move's own value, so moves are followed best first by that value, and none is
 * followed once its own value is no better than the best found: the same answer, found with fewer positions.
 */
function bestAnswer(position: Board, enough: number, valueForMover: (after: Board) => number, look: CaptureLook, scratch: Board): number {
  let best = 0;
  const unfinished: { move: CompactMove; standPat: number }[] = []; // the moves that do not end the game
  for (const move of generateLegalMoves(position)) {
    applyMove(position, move, scratch);
    const end = gameEnd(scratch, 1);
    if (end === null) unfinished.push({ move, standPat: valueForMover(scratch) });
    else best = Math.max(best, end === 'checkmate' ? 1 : 0.5);
  }
  if (best >= enough) return best;
  unfinished.sort((a, b) => b.standPat - a.standPat);
  for (const { move, standPat } of unfinished) {
    if (standPat <= best) break;
    applyMove(position, move, scratch);
    const value = worstCaptureReply(scratch, standPat, valueForMover, look)?.value ?? standPat;
    if (value > best) {
      best = value;
      if (best >= enough) return best;
    }
  }
  return best;
}

/**
 * How many pieces of the side to move in `position` the other side could take at a profit if it moved again
 * (the side to move passing): captures whose settled value, for the side to move, is below its stand pat, counted
 * by the square taken, up to `enough` (a caller that needs one or two stops there). Two or more is a double
 * threat: one move can rarely answer both. With `look.promotions` a pawn that could promote at a profit counts
 * too, by the square it would promote on.
 */
export function threatenedPieces(position: Board, valueForMover: (after: Board) => number, look: CaptureLook, enough = Infinity): number {
  const passed = cloneBoard(position);
  passed.turn = (1 - passed.turn) as Color;
  passed.epSquare = -1;
  const standPat = valueForMover(passed);
  // Below the stand pat, not level with it: a capture that changes nothing is no threat. Only whether a capture
  // is below matters, so the window is that one value: the quiescence stops as soon as it knows.
  const threshold = standPat - ROUNDING;
  const taken = new Set<number>();
  for (const capture of capturesBestFirst(passed, valueForMover, look.promotions)) {
    if (taken.has(capture.move.to)) continue;
    if (captureValue(capture.after, look.depth, threshold - ROUNDING, threshold, valueForMover, look.promotions, capture.valueForCapturer) < threshold) {
      taken.add(capture.move.to);
      if (taken.size >= enough) break;
    }
  }
  return taken.size;
}
