/**
 * The classical baseline opponent `ab:D[,q][,t=T]`, in the shape of the Chess0 classic engine (paper 003):
 * negamax alpha-beta to depth D over material plus a small piece-square term, MVV/LVA move ordering,
 * optional quiescence search (captures only, with stand-pat), mate scores that prefer shorter mates, and
 * Chess0's root randomisation: any root move scoring within T pawns of the best may be played, chosen
 * uniformly with a seeded Random (T = 0 plays only best moves, breaking ties at random).
 *
 * It knows mate, stalemate, insufficient material and the 50-move rule, but not repetition (it sees no history).
 */
import { PIECE_VALUE } from '../chess/pieceValues.ts';
import {
  applyMove,
  BISHOP,
  boardFromFen,
  cloneBoard,
  KING,
  KNIGHT,
  PAWN,
  QUEEN,
  ROOK,
  WHITE,
  uciMove,
  type Board,
  type CompactMove,
} from '../chess/board.ts';
import {
  decodeMove,
  generateLegalMoveCodes,
  hasLegalMove,
  isInCheck,
  isInsufficientMaterial,
  MAX_MOVES,
} from '../chess/movegen.ts';
import { badInput, MorphError } from '../util/errors.ts';
import { Random } from '../util/random.ts';
import type { GamePlayer, GamePosition } from './gamePlayer.ts';

export interface AlphaBetaOptions {
  /** Search depth in plies (>= 1). */
  depth: number;
  /** Extend leaves with a captures-only quiescence search. */
  quiescence: boolean;
  /** Root moves within this many pawns of the best are equally eligible. */
  tolerancePawns: number;
  seed: number;
}

export interface SearchResult {
  move: CompactMove;
  /** Centipawns from the mover's point of view; mates are near ±MATE_SCORE. */
  score: number;
  /** Positions visited, quiescence included. */
  nodes: number;
}

export interface RankedMove {
  move: CompactMove;
  score: number;
}

/** Being mated at ply p scores -(MATE_SCORE - p), so a mate found sooner scores higher for the winner. */
export const MATE_SCORE = 100_000;
const MAX_ALPHA_BETA_DEPTH = 8;
const INFINITE = 1_000_000;

// ---------------------------------------------------------------------------------------------------------------
// Evaluation

/** Centipawns by piece type (index PAWN..KING): P1 N3 B3 R5 Q9. */
/** Centipawns: the textbook values (chess/pieceValues.ts) times 100. */
const PIECE_VALUES = PIECE_VALUE.map((pawns) => pawns * 100);

/**
 * Piece-square bonuses in centipawns, written as White sees the board (rank 8 first) and kept small so that
 * material dominates: pawns advance and hold the centre, minor pieces centralise, rooks like the 7th rank,
 * the king stays sheltered. Black uses the vertical mirror.
 */
const PIECE_SQUARE_ROWS: Record<number, number[]> = {
  [PAWN]: [
    0, 0, 0, 0, 0, 0, 0, 0,
    50, 50, 50, 50, 50, 50, 50, 50,
    10, 10, 20, 30, 30, 20, 10, 10,
    5, 5, 10, 25, 25, 10, 5, 5,
    0, 0, 0, 20, 20, 0, 0, 0,
    5, -5, -10, 0, 0, -10, -5, 5,
    5, 10, 10, -20, -20, 10, 10, 5,
    0, 0, 0, 0, 0, 0, 0, 0,
  ],
  [KNIGHT]: [
    -50, -40, -30, -30, -30, -30, -40, -50,
    -40, -20, 0, 0, 0, 0, -20, -40,
    -30, 0, 10, 15, 15, 10, 0, -30,
    -30, 5, 15, 20, 20, 15, 5, -30,
    -30, 0, 15, 20, 20, 15, 0, -30,
    -30, 5, 10, 15, 15, 10, 5, -30,
    -40, -20, 0, 5, 5, 0, -20, -40,
    -50, -40, -30, -30, -30, -30, -40, -50,
  ],
  [BISHOP]: [
    -20, -10, -10, -10, -10, -10, -10, -20,
    -10, 0, 0, 0, 0, 0, 0, -10,
    -10, 0, 5, 10, 10, 5, 0, -10,
    -10, 5, 5, 10, 10, 5, 5, -10,
    -10, 0, 10, 10, 10, 10, 0, -10,
    -10, 10, 10, 10, 10, 10, 10, -10,
    -10, 5, 0, 0, 0, 0, 5, -10,
    -20, -10, -10, -10, -10, -10, -10, -20,
  ],
  [ROOK]: [
    0, 0, 0, 0, 0, 0, 0, 0,
    5, 10, 10, 10, 10, 10, 10, 5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    0, 0, 0, 5, 5, 0, 0, 0,
  ],
  [QUEEN]: [
    -20, -10, -10, -5, -5, -10, -10, -20,
    -10, 0, 0, 0, 0, 0, 0, -10,
    -10, 0, 5, 5, 5, 5, 0, -10,
    -5, 0, 5, 5, 5, 5, 0, -5,
    0, 0, 5, 5, 5, 5, 0, -5,
    -10, 5, 5, 5, 5, 5, 0, -10,
    -10, 0, 5, 0, 0, 0, 0, -10,
    -20, -10, -10, -5, -5, -10, -10, -20,
  ],
  [KING]: [
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -20, -30, -30, -40, -40, -30, -30, -20,
    -10, -20, -20, -20, -20, -20, -20, -10,
    20, 20, 0, 0, 0, 0, 20, 20,
    20, 30, 10, 0, 0, 10, 30, 20,
  ],
};

/** PIECE_SQUARE[type * 64 + square] for White, square a1 = 0; Black looks up square ^ 56. */
const PIECE_SQUARE = new Int16Array(7 * 64);
for (let type = PAWN; type <= KING; type++) {
  const rows = PIECE_SQUARE_ROWS[type];
  for (let sq = 0; sq < 64; sq++) PIECE_SQUARE[type * 64 + sq] = rows[(7 - (sq >> 3)) * 8 + (sq & 7)];
}

/** Static evaluation in centipawns from the side to move's point of view. */
export function evaluateBoard(board: Board): number {
  const squares = board.squares;
  let score = 0;
  for (let sq = 0; sq < 64; sq++) {
    const piece = squares[sq];
    if (piece > 0) score += PIECE_VALUES[piece] + PIECE_SQUARE[piece * 64 + sq];
    else if (piece < 0) score -= PIECE_VALUES[-piece] + PIECE_SQUARE[-piece * 64 + (sq ^ 56)];
  }
  return board.turn === WHITE ? score : -score;
}

// ---------------------------------------------------------------------------------------------------------------
// Search

/** Draws the search can see without history: dead material and the 50-move rule. */
function isDrawnPosition(board: Board): boolean {
  return board.halfmoveClock >= 100 || isInsufficientMaterial(board.squares);
}

/** One search's scratch space: a move list, order keys and a child board per ply, grown as depth requires. */
class Searcher {
  nodes = 0;
  private readonly moveLists: Int32Array[] = [];
  private readonly orderKeys: Int32Array[] = [];
  private readonly childBoards: Board[] = [];
  private readonly move: CompactMove = { from: 0, to: 0, promotion: 0 };

  constructor(
    private readonly root: Board,
    private readonly quiescence: boolean,
  ) {}

  private ensurePly(ply: number): void {
    while (this.moveLists.length <= ply) {
      this.moveLists.push(new Int32Array(MAX_MOVES));
      this.orderKeys.push(new Int32Array(MAX_MOVES));
      this.childBoards.push(cloneBoard(this.root));
    }
  }

  /** Generates and MVV/LVA-orders the legal moves at `ply`; returns the count. */
  generateOrdered(board: Board, ply: number, capturesOnly: boolean): number {
    this.ensurePly(ply);
    const moves = this.moveLists[ply];
    const keys = this.orderKeys[ply];
    const squares = board.squares;
    const total = generateLegalMoveCodes(board, moves);
    let count = 0;
    for (let i = 0; i < total; i++) {
      const code = moves[i];
      const from = code & 63;
      const to = (code >> 6) & 63;
      const promotion = code >> 12;
      const attacker = Math.abs(squares[from]);
      let victim = Math.abs(squares[to]);
      if (victim === 0 && attacker === PAWN && (from & 7) !== (to & 7)) victim = PAWN; // en passant
      if (capturesOnly && (victim === 0 || (promotion !== 0 && promotion !== QUEEN))) continue;
      // Most valuable victim first, then least valuable attacker; a queen promotion ranks like taking a queen.
      let key = victim === 0 ? 0 : 100 + victim * 8 - attacker;
      if (promotion === QUEEN) key += 100 + QUEEN * 8;
      // Stable insertion sort, best key first: equal keys keep generation order, so search is deterministic.
      let j = count;
      while (j > 0 && keys[j - 1] < key) {
        moves[j] = moves[j - 1];
        keys[j] = keys[j - 1];
        j--;
      }
      moves[j] = code;
      keys[j] = key;
      count++;
    }
    return capturesOnly ? count : total;
  }

  /** Applies the move at index i of ply's list into that ply's child board and returns the child. */
  child(board: Board, ply: number, index: number): Board {
    const code = this.moveLists[ply][index];
    this.move.from = code & 63;
    this.move.to = (code >> 6) & 63;
    this.move.promotion = code >> 12;
    const out = this.childBoards[ply];
    applyMove(board, this.move, out);
    return out;
  }

  moveAt(ply: number, index: number): number {
    return this.moveLists[ply][index];
  }

  negamax(board: Board, depth: number, alpha: number, beta: number, ply: number): number {
    if (depth <= 0) return this.leaf(board, alpha, beta, ply);
    this.nodes++;
    const count = this.generateOrdered(board, ply, false);
    if (count === 0) return isInCheck(board) ? -(MATE_SCORE - ply) : 0;
    if (isDrawnPosition(board)) return 0;
    let best = -INFINITE;
    for (let i = 0; i < count; i++) {
      const score = -this.negamax(this.child(board, ply, i), depth - 1, -beta, -alpha, ply + 1);
      if (score > best) {
        best = score;
        if (score > alpha) {
          alpha = score;
          if (alpha >= beta) break;
        }
      }
    }
    return best;
  }

  private leaf(board: Board, alpha: number, beta: number, ply: number): number {
    if (this.quiescence) return this.quiesce(board, alpha, beta, ply);
    this.nodes++;
    if (!hasLegalMove(board)) return isInCheck(board) ? -(MATE_SCORE - ply) : 0;
    if (isDrawnPosition(board)) return 0;
    return evaluateBoard(board);
  }

  /** Captures-only search with stand-pat: the side to move may always decline to capture. */
  private quiesce(board: Board, alpha: number, beta: number, ply: number): number {
    this.nodes++;
    // Mate and stalemate first (cheap early-exit test), so that stand-pat never hides a mate.
    if (!hasLegalMove(board)) return isInCheck(board) ? -(MATE_SCORE - ply) : 0;
    if (isDrawnPosition(board)) return 0;
    const standPat = evaluateBoard(board);
    if (standPat >= beta) return standPat;
    if (standPat > alpha) alpha = standPat;
    const count = this.generateOrdered(board, ply, true);
    let best = standPat;
    for (let i = 0; i < count; i++) {
      const score = -this.quiesce(this.child(board, ply, i), -beta, -alpha, ply + 1);
      if (score > best) {
        best = score;
        if (score > alpha) {
          alpha = score;
          if (alpha >= beta) break;
        }
      }
    }
    return best;
  }
}

/**
 * Searches every root move. With `exactWithin` = null each root move gets its exact score; otherwise a
 * move is only searched closely enough to know whether it lies within `exactWithin` centipawns of the best
 * so far (moves below that get an upper bound, which is all root randomisation needs).
 */
function searchRoot(
  board: Board,
  options: AlphaBetaOptions,
  exactWithin: number | null,
): { codes: number[]; scores: number[]; nodes: number } {
  const depth = Math.floor(options.depth);
  if (!(depth >= 1)) throw badInput(`alpha-beta depth must be at least 1, got ${options.depth}`);
  const searcher = new Searcher(board, options.quiescence);
  const count = searcher.generateOrdered(board, 0, false);
  if (count === 0) throw new MorphError('alpha-beta search asked to move in a position with no legal move');
  searcher.nodes++;
  const codes: number[] = [];
  const scores: number[] = [];
  let best = -INFINITE;
  for (let i = 0; i < count; i++) {
    const alpha = exactWithin === null || best === -INFINITE ? -INFINITE : best - exactWithin - 1;
    const score = -searcher.negamax(searcher.child(board, 0, i), depth - 1, -INFINITE, -alpha, 1);
    codes.push(searcher.moveAt(0, i));
    scores.push(score);
    if (score > best) best = score;
  }
  return { codes, scores, nodes: searcher.nodes };
}

const toleranceCentipawns = (options: AlphaBetaOptions): number =>
  Math.max(0, Math.round(options.tolerancePawns * 100));

/**
 * The move to play: a uniformly random choice (from `rng`) among root moves scoring within the tolerance of
 * the best. The score returned is the chosen move's.
 */
export function searchBestMove(board: Board, options: AlphaBetaOptions, rng: Random): SearchResult {
  const tolerance = toleranceCentipawns(options);
  const { codes, scores, nodes } = searchRoot(board, options, tolerance);
  let best = -INFINITE;
  for (const score of scores) if (score > best) best = score;
  const eligible: number[] = [];
  for (let i = 0; i < codes.length; i++) if (scores[i] >= best - tolerance) eligible.push(i);
  const chosen = eligible.length === 1 ? eligible[0] : rng.pick(eligible);
  return { move: decodeMove(codes[chosen]), score: scores[chosen], nodes };
}

/** Every legal move with its exact searched score, best first (ties in move-ordering order). */
export function rankMoves(board: Board, options: AlphaBetaOptions): RankedMove[] {
  const { codes, scores } = searchRoot(board, options, null);
  const ranked = codes.map((code, i) => ({ move: decodeMove(code), score: scores[i] }));
  return ranked.sort((a, b) => b.score - a.score);
}

// ---------------------------------------------------------------------------------------------------------------
// Spec and player

const SPEC_EXAMPLE = 'e.g. ab:2, ab:2,q or ab:3,q,t=0.3';

/** Parses the text after "ab:" ("2", "2,q", "3,q,t=0.3"); a leading "ab:" is accepted too. */
export function parseAlphaBetaSpec(text: string, seed = 0): AlphaBetaOptions {
  const body = text.trim().replace(/^ab:/i, '');
  const [depthText, ...flags] = body.split(',').map((part) => part.trim());
  if (!/^\d+$/.test(depthText)) {
    throw badInput(`bad alpha-beta spec "${text}": it must start with the search depth (${SPEC_EXAMPLE})`);
  }
  const depth = Number(depthText);
  if (depth < 1 || depth > MAX_ALPHA_BETA_DEPTH) {
    throw badInput(`bad alpha-beta spec "${text}": depth must be 1..${MAX_ALPHA_BETA_DEPTH}, got ${depth}`);
  }
  let quiescence = false;
  let tolerancePawns: number | null = null;
  for (const flag of flags) {
    if (flag === 'q' && !quiescence) {
      quiescence = true;
    } else if (flag.startsWith('t=') && tolerancePawns === null) {
      const value = flag.slice(2);
      const tolerance = Number(value);
      if (value === '' || !Number.isFinite(tolerance) || tolerance < 0) {
        throw badInput(`bad alpha-beta spec "${text}": t must be a non-negative number of pawns, got "${value}"`);
      }
      tolerancePawns = tolerance;
    } else {
      throw badInput(`bad alpha-beta spec "${text}": unexpected or repeated option "${flag}" (${SPEC_EXAMPLE})`);
    }
  }
  return { depth, quiescence, tolerancePawns: tolerancePawns ?? 0, seed };
}

/** The canonical player name, "ab:D[,q][,t=T]". */
export function alphaBetaName(options: AlphaBetaOptions): string {
  return (
    `ab:${options.depth}` +
    (options.quiescence ? ',q' : '') +
    (options.tolerancePawns > 0 ? `,t=${options.tolerancePawns}` : '')
  );
}

export class AlphaBetaPlayer implements GamePlayer {
  readonly name: string;
  /** One stream across games, so games differ yet a run repeats from its seed. */
  private readonly rng: Random;

  constructor(readonly options: AlphaBetaOptions) {
    this.name = alphaBetaName(options);
    this.rng = new Random(options.seed);
  }

  async newGame(): Promise<void> {}

  async chooseMove(position: GamePosition): Promise<string> {
    return uciMove(searchBestMove(boardFromFen(position.fen), this.options, this.rng).move);
  }

  async close(): Promise<void> {}
}
