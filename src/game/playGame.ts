/**
 * One game between two players. Moves are checked and applied on the compact board with our perft-verified
 * move generator (chess.js would cost milliseconds a ply); the game ends by the rules (checkmate, stalemate,
 * insufficient material, threefold repetition, 50-move rule) or at a ply limit, adjudicated a draw. chess.js
 * writes the PGN at the end.
 */
import { Chess } from 'chess.js';
import { parseUciMove, uciMove, WHITE } from '../chess/board.ts';
import { generateLegalMoves } from '../chess/movegen.ts';
import type { GameEnd } from '../chess/gameEnd.ts';
import { GameHistory } from '../chess/history.ts';
import { START_FEN, checkFen } from '../chess/fen.ts';
import { boardToFen, type Board } from '../chess/board.ts';
import type { GamePlayer } from '../engines/gamePlayer.ts';
import { EngineError } from '../engines/uciClient.ts';
import { badInput } from '../util/errors.ts';

export type GameResult = '1-0' | '0-1' | '1/2-1/2';
export type EndReason = GameEnd | 'ply-limit';

export interface PlayedGame {
  startFen: string;
  moves: string[];
  result: GameResult;
  reason: EndReason;
  plies: number;
  finalFen: string;
  /** Seconds each side spent choosing moves. */
  thinkingSeconds: { w: number; b: number };
}

export interface GameOptions {
  white: GamePlayer;
  black: GamePlayer;
  startFen?: string;
  /** Moves (UCI) played from startFen before the players are asked: a match opening. */
  openingMoves?: readonly string[];
  /** Adjudicated a draw after this many plies. */
  maxPlies: number;
  /** Stops the game early (returns null) when set, e.g. on Ctrl-C. */
  shouldStop?: () => boolean;
}

const PIECE_POINTS = [0, 1, 3, 3, 5, 9, 0];

/** Material balance in pawn units (P1 N3 B3 R5 Q9) from White's side. */
export function materialBalance(board: Board): number {
  let total = 0;
  for (const piece of board.squares) total += piece > 0 ? PIECE_POINTS[piece] : -PIECE_POINTS[-piece];
  return total;
}

export async function playGame(options: GameOptions): Promise<PlayedGame | null> {
  const startFen = checkFen(options.startFen ?? START_FEN);
  const history = new GameHistory(startFen);
  const moves: string[] = [];
  const thinking = { w: 0, b: 0 };
  for (const uci of options.openingMoves ?? []) {
    const legal = legalMove(history.board, uci);
    if (!legal || history.verdict() !== null) {
      throw badInput(`opening move "${uci}" is not playable in ${boardToFen(history.board)}`);
    }
    history.play(legal);
    moves.push(legal);
  }
  await options.white.newGame();
  await options.black.newGame();
  let reason: EndReason | null = history.verdict();
  while (reason === null) {
    if (moves.length >= options.maxPlies) {
      reason = 'ply-limit';
      break;
    }
    if (options.shouldStop?.()) return null;
    const side = history.board.turn === WHITE ? 'w' : 'b';
    const player = side === 'w' ? options.white : options.black;
    const started = performance.now();
    const uci = await player.chooseMove({ startFen, moves: [...moves], fen: boardToFen(history.board) });
    thinking[side] += (performance.now() - started) / 1000;
    const legal = legalMove(history.board, uci);
    if (!legal) {
      throw new EngineError('protocol', `${player.name} played an illegal move "${uci}" in ${boardToFen(history.board)}`);
    }
    history.play(legal);
    moves.push(legal);
    reason = history.verdict();
  }
  return {
    startFen,
    moves,
    result: resultOf(history.board, reason),
    reason,
    plies: moves.length,
    finalFen: boardToFen(history.board),
    thinkingSeconds: thinking,
  };
}

/** The move in canonical UCI form when it is legal here, else null. */
function legalMove(board: Board, uci: string): string | null {
  const move = parseUciMove(uci.trim());
  if (!move) return null;
  for (const candidate of generateLegalMoves(board)) {
    if (candidate.from === move.from && candidate.to === move.to && candidate.promotion === move.promotion) {
      return uciMove(candidate);
    }
  }
  return null;
}

function resultOf(board: Board, reason: EndReason): GameResult {
  if (reason !== 'checkmate') return '1/2-1/2';
  return board.turn === WHITE ? '0-1' : '1-0';
}

export interface PgnHeaders {
  event?: string;
  white: string;
  black: string;
  round?: number;
  extra?: Record<string, string>;
}

/** The game as PGN (chess.js writes the movetext; headers include the result and why the game ended). */
export function gamePgn(game: PlayedGame, headers: PgnHeaders): string {
  const chess = new Chess(game.startFen);
  for (const uci of game.moves) chess.move({ from: uci.slice(0, 2), to: uci.slice(2, 4), promotion: uci[4] });
  chess.setHeader('Event', headers.event ?? 'Morph game');
  chess.setHeader('Site', 'Morph');
  chess.setHeader('Date', new Date().toISOString().slice(0, 10).replace(/-/g, '.'));
  chess.setHeader('Round', String(headers.round ?? 1));
  chess.setHeader('White', headers.white);
  chess.setHeader('Black', headers.black);
  chess.setHeader('Result', game.result);
  chess.setHeader('Termination', game.reason);
  chess.setHeader('PlyCount', String(game.plies));
  if (game.startFen !== START_FEN) {
    chess.setHeader('SetUp', '1');
    chess.setHeader('FEN', game.startFen);
  }
  for (const [key, value] of Object.entries(headers.extra ?? {})) chess.setHeader(key, value);
  return chess.pgn();
}
