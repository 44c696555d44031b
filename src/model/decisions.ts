/**
 * One player's decisions in recorded games: every position where the named player (as written in the White or
 * Black tag) was to move, and the move it chose. Reading is all-or-nothing: a game that is not standard chess,
 * whose start position or moves cannot be replayed, refuses the whole file with its game number, so a model is
 * never built from (or measured on) part of what the user gave.
 */
import { readFileSync } from 'node:fs';
import { Chess } from 'chess.js';
import { START_FEN, checkFen } from '../chess/fen.ts';
import { GameHistory } from '../chess/history.ts';
import { splitPgnGames } from '../game/pgnFile.ts';
import { badInput, MorphError } from '../util/errors.ts';

export interface Decision {
  /** 1-based number of the game in its file. */
  game: number;
  startFen: string;
  /** The moves before the decision (UCI). */
  before: string[];
  /** The move the player chose (UCI). */
  chosen: string;
  /** The deciding player's score in the game (1, .5 or 0), when its Result tag gives one. */
  score?: number;
}

export interface PlayerGames {
  /** Games in the file. */
  games: number;
  /** Games the player played. */
  played: number;
  decisions: Decision[];
}

/** White's score by Result tag; an unfinished game ("*") has none. */
const WHITE_SCORES: Record<string, number | undefined> = { '1-0': 1, '0-1': 0, '1/2-1/2': 0.5 };

/** Variant tag values that mean ordinary chess. */
const STANDARD_VARIANTS = new Set(['', 'standard', 'chess', 'normal']);

export function readPgnText(path: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (error) {
    throw badInput(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** The named player's decisions in PGN text (`source` names the file in errors). */
export function playerDecisions(pgnText: string, player: string, source: string): PlayerGames {
  const found = sideDecisions(pgnText, source, (headers) =>
    (['w', 'b'] as const).filter((side) => headers[side === 'w' ? 'White' : 'Black'] === player),
  );
  if (found.played === 0) throw badInput(`no game in ${source} has "${player}" as White or Black`);
  return found;
}

/**
 * The decisions of the sides `sidesOf` names in each game (by its PGN tags and 0-based index in the text); a game
 * where it names none is skipped.
 */
export function sideDecisions(
  pgnText: string,
  source: string,
  sidesOf: (headers: Record<string, string>, index: number) => readonly ('w' | 'b')[],
): PlayerGames {
  const games = splitPgnGames(pgnText);
  if (games.length === 0) throw badInput(`no games in ${source}`);
  const decisions: Decision[] = [];
  let played = 0;
  for (const [index, game] of games.entries()) {
    const where = `${source} game ${game.number} (line ${game.line})`;
    const chess = new Chess();
    try {
      chess.loadPgn(game.text);
    } catch (error) {
      throw badInput(`${where}: bad PGN: ${(error as Error).message.split('\n')[0]}`);
    }
    const headers = chess.getHeaders();
    const sides = sidesOf(headers, index);
    if (sides.length === 0) continue;
    const variant = (headers.Variant ?? '').trim().toLowerCase();
    if (!STANDARD_VARIANTS.has(variant)) throw badInput(`${where}: variant "${headers.Variant}" is not standard chess`);
    played++;
    let startFen: string;
    try {
      startFen = checkFen(headers.FEN ?? START_FEN);
    } catch (error) {
      if (error instanceof MorphError) throw badInput(`${where}: cannot replay the start position: ${error.message}`);
      throw error;
    }
    const moves = chess.history({ verbose: true }).map((m) => m.from + m.to + (m.promotion ?? ''));
    // Our board replays what chess.js accepted.
    decisions.push(...movesDecisions({ number: game.number, startFen, moves, result: headers.Result ?? '' }, sides));
  }
  return { games: games.length, played, decisions };
}

/**
 * The decisions of `sides` in one game given by its legal moves (UCI) from `startFen`, and its result as a Result
 * tag gives it: what sideDecisions reads from a game's PGN, for a game this program has just played.
 */
export function movesDecisions(
  game: { number: number; startFen: string; moves: readonly string[]; result: string },
  sides: readonly ('w' | 'b')[],
): Decision[] {
  const decisions: Decision[] = [];
  const whiteScore = WHITE_SCORES[game.result];
  // The board's side to move decides whose decision each ply is.
  const history = new GameHistory(game.startFen);
  game.moves.forEach((move, ply) => {
    const mover = history.board.turn === 0 ? 'w' : 'b';
    if (sides.includes(mover)) {
      const decision: Decision = { game: game.number, startFen: game.startFen, before: game.moves.slice(0, ply), chosen: move };
      if (whiteScore !== undefined) decision.score = mover === 'w' ? whiteScore : 1 - whiteScore;
      decisions.push(decision);
    }
    history.play(move);
  });
  return decisions;
}

/** The distinct player names in a PGN text's White and Black tags (for the error that lists them). */
export function playerNames(pgnText: string): string[] {
  const names = new Set<string>();
  for (const match of pgnText.matchAll(/^\s*\[(?:White|Black)\s+"([^"]*)"\]/gm)) names.add(match[1]);
  return [...names].sort();
}

/** Replays decisions in order, reusing one history while they follow each other within a game. */
export function* decisionHistories(decisions: readonly Decision[]): Generator<[Decision, GameHistory]> {
  let history: GameHistory | null = null;
  let game = -1;
  let played = 0;
  let startFen = '';
  for (const decision of decisions) {
    if (history === null || decision.game !== game || decision.startFen !== startFen || decision.before.length < played) {
      history = new GameHistory(decision.startFen);
      game = decision.game;
      startFen = decision.startFen;
      played = 0;
    }
    for (; played < decision.before.length; played++) history.play(decision.before[played]);
    yield [decision, history];
  }
}
