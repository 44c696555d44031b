/**
 * A finished game as the learner sees it: the start position, every move, whose side it learns for and the
 * result for that side. Replayed on the compact board into the positions the learner moved to, each with the
 * moves around it (for node ordering, goal regression and specialisation).
 */
import { Chess } from 'chess.js';
import { applyMove, cloneBoard, parseUciMove, WHITE, type Board, type CompactMove } from '../chess/board.ts';
import { parseFen, START_FEN } from '../chess/fen.ts';
import { buildPositionGraph, type PositionGraph } from '../graph/positionGraph.ts';
import { mirrorSquare } from '../graph/geometry.ts';
import { badInput } from '../util/errors.ts';

export interface LearningGame {
  startFen: string;
  /** Every move of the game, in UCI notation. */
  moves: string[];
  /** The side whose moves are learned from. */
  learner: 'w' | 'b';
  /** Result for the learner: 1 win, .5 draw, 0 loss. */
  result: number;
}

/** One position the learner moved to. */
export interface LearnedPosition {
  /** Index t (0-based) among the learner's positions. */
  index: number;
  board: Board;
  graph: PositionGraph;
  /** The learner's move that led here. */
  move: CompactMove;
  /** The opponent's reply from here, if the game went on. */
  reply: CompactMove | null;
}

/** The node of a real square in a graph (-1 if not a node). */
export function nodeAtSquare(graph: PositionGraph, realSquare: number): number {
  return graph.squareToNode[graph.mirrored ? mirrorSquare(realSquare) : realSquare];
}

/** The real square of a graph node. */
export function squareOfNode(graph: PositionGraph, node: number): number {
  const sq = graph.nodeSquare[node];
  return graph.mirrored ? mirrorSquare(sq) : sq;
}

export function learnedPositions(game: LearningGame): LearnedPosition[] {
  const board = parseFen(game.startFen);
  const positions: LearnedPosition[] = [];
  const learnerColor = game.learner === 'w' ? WHITE : 1 - WHITE;
  game.moves.forEach((uci, i) => {
    const move = parseUciMove(uci);
    if (!move) throw badInput(`bad move "${uci}" at ply ${i + 1}`);
    const mover = board.turn;
    applyMove(board, move);
    if (mover !== learnerColor) return;
    const reply = i + 1 < game.moves.length ? parseUciMove(game.moves[i + 1]) : null;
    const snapshot = cloneBoard(board);
    positions.push({ index: positions.length, board: snapshot, graph: buildPositionGraph(snapshot), move, reply });
  });
  return positions;
}

/**
 * The most plies a legal game can have: the 75-move rule ends any game by 8848 moves and a half (every pawn move
 * and capture resets its count, and there are only so many of those). Longer movetext is refused before
 * chess.js parses it: its parser recurses once per move and overflows the stack on a 200k-ply game.
 */
export const MAX_GAME_PLIES = 17_697;

const SAN_MOVE = /(?:^|\s|\.)(?:[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](?:=?[QRBN])?|O-O(?:-O)?)[+#]?[!?]*(?=\s|$)/g;

/** The number of moves (plies) in a PGN game's main line: SAN tokens outside tags, comments and variations. */
export function movetextPlies(pgn: string): number {
  let text = pgn.replace(/^\s*\[.*\]\s*$/gm, ' ').replace(/\{[^}]*\}/g, ' ').replace(/;[^\n]*/g, ' ');
  for (let nested = text; (nested = text.replace(/\([^()]*\)/g, ' ')) !== text; ) text = nested;
  return text.match(SAN_MOVE)?.length ?? 0;
}

/**
 * A game from PGN text, learned from `side`'s point of view (a recorded game Morph did not play). The result
 * comes from the PGN's Result header or final position; an unfinished game ("*") is refused.
 */
export function gameFromPgn(pgn: string, side: 'w' | 'b'): LearningGame {
  const plies = movetextPlies(pgn);
  if (plies > MAX_GAME_PLIES) {
    throw badInput(`the game has ${plies} moves (plies), more than a legal game can last (${MAX_GAME_PLIES})`);
  }
  const chess = new Chess();
  try {
    chess.loadPgn(pgn);
  } catch (error) {
    // chess.js's parser recurses per move, so what passes the count above can still exhaust a small stack.
    if (error instanceof RangeError) throw badInput(`bad PGN: the game is too long to read (${plies} plies)`);
    throw badInput(`bad PGN: ${(error as Error).message.split('\n')[0]}`);
  }
  const headers = chess.getHeaders();
  const history = chess.history({ verbose: true });
  const startFen = headers.FEN ?? START_FEN;
  // chess.js reports a missing Result tag as "*", so an unknown result falls back to the final position.
  const tagged = headers.Result && headers.Result !== '*' ? headers.Result : undefined;
  const result = tagged ?? (chess.isCheckmate() ? (chess.turn() === 'w' ? '0-1' : '1-0') : chess.isDraw() ? '1/2-1/2' : '*');
  const white = result === '1-0' ? 1 : result === '0-1' ? 0 : result === '1/2-1/2' ? 0.5 : NaN;
  if (Number.isNaN(white)) throw badInput(`PGN has no result (${result}): only finished games can be learned from`);
  return {
    startFen,
    moves: history.map((m) => m.from + m.to + (m.promotion ?? '')),
    learner: side,
    result: side === 'w' ? white : 1 - white,
  };
}
