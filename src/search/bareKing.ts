/**
 * Mating a bare king: how Morph plays once the opponent has nothing but its king.
 *
 * There the learned values have nothing left to say: every move that keeps the material is equally won, so a
 * player choosing among them at random shuffles until the 50-move rule or the ply limit draws the game (14 of
 * 200 games against ab:2,q, docs/lab/). What finishes the game is the rules' own goal, checkmate, so
 * the moves that keep the game won are ordered by what the rules say about the position each leads to, nothing
 * learned and no chess lore beyond them:
 *   1. a promotion (the rules' only way to add material);
 *   2. a forced mate next move: every king reply allows a mate;
 *   3. fewer legal replies for the bare king (a mate is a king with none, in check);
 *   4. the kings closer (a king can only be mated with the other king's help: it takes the squares a lone
 *      queen or rook cannot);
 *   5. a pawn nearer its promotion square.
 * This is the general-game-playing heuristic of restricting the opponent's moves, measured against a king that
 * flees toward the most replies in test/bareKing.test.ts.
 */
import { applyMove, BLACK, cloneBoard, fileOf, KING, PAWN, rankOf, typeOf, WHITE, type Board, type CompactMove, type Color } from '../chess/board.ts';
import { generateLegalMoves } from '../chess/movegen.ts';
import { gameEnd } from '../chess/gameEnd.ts';
import type { PositionHistory } from '../chess/history.ts';
import type { Random } from '../util/random.ts';
import { MateLookBoards, matingReply } from './search.ts';

/** Whether `color` has nothing left but its king. */
export function hasBareKing(board: Board, color: Color): boolean {
  for (const piece of board.squares) {
    if (piece !== 0 && (piece > 0) === (color === WHITE) && typeOf(piece) !== KING) return false;
  }
  return true;
}

/**
 * The move toward mate for the side to move when the opponent has a bare king: a mate if there is one, else the
 * best by matingKey (a seeded random one among equals) of the moves that keep the game won: no draw by rule, no
 * return to a position seen before, no piece the king can take, no reply that returns to a seen position.
 * Undefined when the opponent has more than its king, or when no move keeps the game won.
 */
export function bareKingMove(history: PositionHistory, rng: Random): CompactMove | undefined {
  const position = history.board;
  if (!hasBareKing(position, position.turn === WHITE ? BLACK : WHITE)) return undefined;
  const after = cloneBoard(position);
  const afterReply = cloneBoard(position);
  const mateBoards = new MateLookBoards();
  const keepsWon: { move: CompactMove; key: MatingKey }[] = [];
  for (const move of generateLegalMoves(position)) {
    applyMove(position, move, after);
    const seen = history.occurrences(after);
    const end = gameEnd(after, seen + 1);
    if (end === 'checkmate') return move;
    if (end !== null || seen > 0) continue;
    const replies = generateLegalMoves(after);
    const keeps = replies.every((reply) => {
      if (after.squares[reply.to] !== 0) return false;
      applyMove(after, reply, afterReply);
      return history.occurrences(afterReply) === 0;
    });
    if (keeps) keepsWon.push({ move, key: matingKey(position, move, after, replies, mateBoards) });
  }
  if (keepsWon.length === 0) return undefined;
  const best = keepsWon.reduce((a, b) => (compareMatingKeys(b.key, a.key) > 0 ? b : a)).key;
  return rng.pick(keepsWon.filter((k) => compareMatingKeys(k.key, best) === 0)).move;
}

/** How a move toward mate is judged: larger is better, compared in this order. */
interface MatingKey {
  promotes: number;
  forcedMate: number;
  fewerReplies: number;
  kingsCloser: number;
  pawnAdvance: number;
}

const KEY_ORDER: readonly (keyof MatingKey)[] = ['promotes', 'forcedMate', 'fewerReplies', 'kingsCloser', 'pawnAdvance'];

/** Positive when `a` is the better move toward mate, negative when `b` is, 0 when the rules cannot tell them apart. */
function compareMatingKeys(a: MatingKey, b: MatingKey): number {
  for (const field of KEY_ORDER) if (a[field] !== b[field]) return a[field] - b[field];
  return 0;
}

/**
 * The key of `move` in `position` (whose side to move plays against a bare king), `after` it and with its `replies`;
 * the mate looks play on `mateBoards`.
 */
function matingKey(position: Board, move: CompactMove, after: Board, replies: readonly CompactMove[], mateBoards: MateLookBoards): MatingKey {
  return {
    promotes: move.promotion,
    forcedMate: replies.length > 0 && replies.every((reply) => allowsMate(after, reply, mateBoards)) ? 1 : 0,
    fewerReplies: -replies.length,
    kingsCloser: -kingDistance(after),
    pawnAdvance: pawnProgress(position, move),
  };
}

/** Whether, after the bare king's `reply`, the attacker has a move that mates. */
function allowsMate(position: Board, reply: CompactMove, mateBoards: MateLookBoards): boolean {
  const afterReply = cloneBoard(position);
  applyMove(position, reply, afterReply);
  return matingReply(afterReply, mateBoards) !== undefined;
}

/** The kings' distance in king moves. */
function kingDistance(board: Board): number {
  const kings: number[] = [];
  board.squares.forEach((piece, square) => {
    if (typeOf(piece) === KING) kings.push(square);
  });
  return Math.max(Math.abs(fileOf(kings[0]) - fileOf(kings[1])), Math.abs(rankOf(kings[0]) - rankOf(kings[1])));
}

/** How many ranks a pawn move brings its pawn toward promotion (0 for any other move). */
function pawnProgress(position: Board, move: CompactMove): number {
  if (typeOf(position.squares[move.from]) !== PAWN) return 0;
  return Math.abs(rankOf(move.to) - rankOf(move.from));
}
