/**
 * A recorded training game as export-format PGN (PGN standard, section 8): the seven-tag roster first, a
 * standard Termination tag ("normal" for an ending by the rules, "adjudication" for Morph's ply limit) with the
 * exact ending in a final comment, as cutechess-cli writes it, and movetext wrapped to 79 columns, which
 * pgn-extract, SCID and the GUIs read. chess.js reads the stored PGN, so a damaged one is refused, not copied.
 */
import { Chess } from 'chess.js';
import { START_FEN } from '../chess/fen.ts';
import type { TrainingGame } from './trainingGames.ts';

/** The PGN standard's export format keeps lines under 80 characters. */
export const PGN_LINE_WIDTH = 79;

const SEVEN_TAG_ROSTER = ['Event', 'Site', 'Date', 'Round', 'White', 'Black', 'Result'] as const;
/** Stored tags copied after the roster (Termination is rewritten; the rest is derived again). */
const KEPT_TAGS = ['SetUp', 'FEN', 'MorphSeed'] as const;

export type StandardTermination = 'normal' | 'adjudication' | 'unterminated';

/** The PGN standard's Termination value for one of Morph's game endings. */
export function standardTermination(reason: string): StandardTermination {
  if (['checkmate', 'stalemate', 'insufficient', 'threefold', 'fifty-move'].includes(reason)) return 'normal';
  if (reason === 'ply-limit') return 'adjudication';
  return 'unterminated';
}

/** The ending in words, as the game's last comment. */
export function endingComment(reason: string, result: string): string {
  switch (reason) {
    case 'checkmate':
      return result === '1-0' ? 'White mates' : 'Black mates';
    case 'stalemate':
      return 'Draw by stalemate';
    case 'insufficient':
      return 'Draw by insufficient mating material';
    case 'threefold':
      return 'Draw by 3-fold repetition';
    case 'fifty-move':
      return 'Draw by fifty moves rule';
    case 'ply-limit':
      return 'Draw by adjudication: ply limit reached';
    default:
      return `Ended: ${reason}`;
  }
}

function tag(name: string, value: string): string {
  return `[${name} "${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`;
}

/** Joins tokens with spaces into lines of at most `width` characters (a token longer than that gets its own line). */
export function wrapTokens(tokens: readonly string[], width = PGN_LINE_WIDTH): string[] {
  const lines: string[] = [];
  let line = '';
  for (const token of tokens) {
    if (line && line.length + 1 + token.length > width) {
      lines.push(line);
      line = token;
    } else line = line ? `${line} ${token}` : token;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The export-format PGN of a recorded game, or an Error saying why the stored PGN cannot be used (missing, or not
 * a legal game). The moves are the stored game's; the result and ending are the games row's.
 */
export function trainingGamePgn(game: TrainingGame): string | Error {
  if (!game.pgn) return new Error(`game ${game.id} has no stored PGN`);
  const chess = new Chess();
  try {
    chess.loadPgn(game.pgn);
  } catch (error) {
    return new Error(`game ${game.id}: the stored PGN is unreadable: ${(error as Error).message}`);
  }
  const stored = chess.getHeaders();
  const startFen = stored.FEN ?? START_FEN;
  const headers: [string, string][] = [
    ['Event', stored.Event ?? 'Morph training'],
    ['Site', stored.Site ?? 'Morph'],
    ['Date', stored.Date ?? (game.startedAt ? game.startedAt.slice(0, 10).replace(/-/g, '.') : '????.??.??')],
    ['Round', stored.Round ?? String(game.id)],
    ['White', stored.White ?? (game.morphColor === 'w' ? 'Morph' : game.opponent)],
    ['Black', stored.Black ?? (game.morphColor === 'b' ? 'Morph' : game.opponent)],
    ['Result', game.result],
  ];
  for (const name of KEPT_TAGS) if (stored[name] !== undefined) headers.push([name, stored[name]]);
  const moves = chess.history();
  headers.push(['Termination', standardTermination(game.reason)], ['PlyCount', String(moves.length)], ['MorphGame', String(game.id)]);
  if (game.runId !== null) headers.push(['MorphRun', String(game.runId)]);

  const [, turn, , , , fullmove] = startFen.split(' ');
  let number = Number(fullmove) || 1;
  let white = turn !== 'b';
  const tokens: string[] = [];
  // A move number stays on the line of its move.
  moves.forEach((san, i) => {
    if (white) tokens.push(`${number}. ${san}`);
    else tokens.push(i === 0 ? `${number}... ${san}` : san);
    if (!white) number++;
    white = !white;
  });
  tokens.push(...`{${endingComment(game.reason, game.result)}}`.split(' '), game.result);
  const roster = SEVEN_TAG_ROSTER.map((name) => headers.find(([key]) => key === name)!);
  const rest = headers.filter(([key]) => !(SEVEN_TAG_ROSTER as readonly string[]).includes(key));
  return [...[...roster, ...rest].map(([name, value]) => tag(name, value)), '', ...wrapTokens(tokens), ''].join('\n');
}
