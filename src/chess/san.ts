/**
 * Standard Algebraic Notation for a legal move of a compact board, as the PGN standard writes it (section 8.2.3):
 * a piece letter, the origin's file, rank or both where another piece of the same kind could go to the same square,
 * "x" for a capture (a pawn's with its file), "=Q" for a promotion, O-O and O-O-O, and "+" or "#" after a check or
 * mate. The training loop writes every game's PGN, and chess.js took about 20 ms a game for it (a twelfth of a
 * self-play game's time, profiled); this takes the move generator's time.
 */
import {
  applyMove, cloneBoard, fileOf, KING, PAWN, PIECE_LETTERS, rankOf, squareName, typeOf, uciMove, type Board, type CompactMove,
} from './board.ts';
import { generateLegalMoves, hasLegalMove, isInCheck } from './movegen.ts';

/** The SAN of `move`, one of `legal` (the position's legal moves); `after` receives the position after it. */
export function sanOf(board: Board, move: CompactMove, legal: readonly CompactMove[], after: Board = cloneBoard(board)): string {
  const piece = board.squares[move.from];
  const type = typeOf(piece);
  const captured = applyMove(board, move, after) !== 0;
  let san: string;
  if (type === KING && Math.abs(move.to - move.from) === 2) {
    san = move.to > move.from ? 'O-O' : 'O-O-O';
  } else if (type === PAWN) {
    san = (captured ? squareName(move.from)[0] + 'x' : '') + squareName(move.to);
    if (move.promotion) san += '=' + PIECE_LETTERS[move.promotion];
  } else {
    san = PIECE_LETTERS[type] + disambiguation(board, move, legal) + (captured ? 'x' : '') + squareName(move.to);
  }
  if (isInCheck(after)) san += hasLegalMove(after) ? '+' : '#';
  return san;
}

/** The origin's file, rank or square, when another piece of the same kind may move to the same square. */
function disambiguation(board: Board, move: CompactMove, legal: readonly CompactMove[]): string {
  const piece = board.squares[move.from];
  let rivals = 0;
  let sameFile = false;
  let sameRank = false;
  for (const other of legal) {
    if (other.to !== move.to || other.from === move.from || board.squares[other.from] !== piece) continue;
    rivals++;
    if (fileOf(other.from) === fileOf(move.from)) sameFile = true;
    if (rankOf(other.from) === rankOf(move.from)) sameRank = true;
  }
  if (rivals === 0) return '';
  const from = squareName(move.from);
  if (sameFile && sameRank) return from;
  if (sameFile) return from[1];
  return from[0];
}

/** The SAN of each move of a game (legal UCI moves, as a played game records them) from `start`. */
export function gameSans(start: Board, ucis: readonly string[]): string[] {
  let board = cloneBoard(start);
  let after = cloneBoard(start);
  const sans: string[] = [];
  for (const uci of ucis) {
    const legal = generateLegalMoves(board);
    const move = legal.find((m) => uciMove(m) === uci);
    if (!move) throw new Error(`move ${uci} is not legal in the game record`);
    sans.push(sanOf(board, move, legal, after));
    [board, after] = [after, board];
  }
  return sans;
}

