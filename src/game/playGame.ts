/**
 * One game between two players. Moves are checked and applied on the compact board with our perft-verified
 * move generator (chess.js would cost milliseconds a ply); the game ends by the rules (checkmate, stalemate,
 * insufficient material, threefold repetition, 50-move rule) or at a ply limit, adjudicated a draw. The PGN is
 * written at the end, in SAN from the same move generator (chess/san.ts).
 */
import { parseUciMove, uciMove, WHITE } from '../chess/board.ts';
import { findLegalMove } from '../chess/movegen.ts';
import type { GameEnd } from '../chess/gameEnd.ts';
import { GameHistory } from '../chess/history.ts';
import { START_FEN, checkFen } from '../chess/fen.ts';
import { gameSans } from '../chess/san.ts';
import { boardFromFen, boardToFen, type Board } from '../chess/board.ts';
import type { GamePlayer } from '../engines/gamePlayer.ts';
import { EngineError } from '../engines/engineProcess.ts';
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
  const canonical = uciMove(move);
  return findLegalMove(board, canonical) ? canonical : null;
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

/**
 * The tags chess.js (the PGN our files were first written with) puts first, in this order: the Seven Tag Roster,
 * then the PGN standard's supplemental tags. Any other tag follows them in the order given.
 */
const TAG_ORDER = [
  'Event', 'Site', 'Date', 'Round', 'White', 'Black', 'Result', 'WhiteTitle', 'BlackTitle', 'WhiteElo', 'BlackElo',
  'WhiteUSCF', 'BlackUSCF', 'WhiteNA', 'BlackNA', 'WhiteType', 'BlackType', 'EventDate', 'EventSponsor', 'Section',
  'Stage', 'Board', 'Opening', 'Variation', 'SubVariation', 'ECO', 'NIC', 'Time', 'UTCTime', 'UTCDate', 'TimeControl',
  'SetUp', 'FEN', 'Termination', 'Annotator', 'Mode', 'PlyCount',
];

/**
 * The game as PGN: headers include the result and why the game ended; the movetext in SAN on one line (san.ts),
 * as chess.js's `pgn()` writes it, which test/san.test.ts checks text for text.
 */
export function gamePgn(game: PlayedGame, headers: PgnHeaders): string {
  const tags = new Map<string, string>([
    ['Event', headers.event ?? 'Morph game'],
    ['Site', 'Morph'],
    ['Date', new Date().toISOString().slice(0, 10).replace(/-/g, '.')],
    ['Round', String(headers.round ?? 1)],
    ['White', headers.white],
    ['Black', headers.black],
    ['Result', game.result],
    ['Termination', game.reason],
    ['PlyCount', String(game.plies)],
  ]);
  if (game.startFen !== START_FEN) {
    tags.set('SetUp', '1');
    tags.set('FEN', game.startFen);
  }
  for (const [key, value] of Object.entries(headers.extra ?? {})) tags.set(key, value);
  const ordered = [...TAG_ORDER.filter((tag) => tags.has(tag)), ...[...tags.keys()].filter((tag) => !TAG_ORDER.includes(tag))];
  const tagLines = ordered.filter((tag) => tags.get(tag) !== '').map((tag) => `[${tag} "${tags.get(tag)}"]\n`).join('');
  const start = boardFromFen(game.startFen); // checked once, when the game began (playGame)
  const sans = gameSans(start, game.moves);
  const movetext: string[] = [];
  let moveNumber = start.fullmoveNumber;
  let white = start.turn === WHITE;
  for (let i = 0; i < sans.length; i++) {
    if (white) movetext.push(`${moveNumber}. ${sans[i]}`);
    else if (i === 0) movetext.push(`${moveNumber}. ... ${sans[i]}`);
    else movetext[movetext.length - 1] += ` ${sans[i]}`;
    if (!white) moveNumber++;
    white = !white;
  }
  if (sans.length === 0) movetext.push('');
  movetext.push(game.result);
  return tagLines + (sans.length > 0 ? '\n' : '') + movetext.join(' ');
}
