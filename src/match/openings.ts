/**
 * Opening suites for matches: EPD (one position a line, as cutechess-cli and fastchess read them) or PGN (each
 * game's moves, read by chess.js, from its FEN tag when it has one). The default suite ships in openings/ and is
 * built by training/make-openings.ts.
 *
 * Every opening is played twice, colours reversed (see match.ts); the order of the suite is shuffled by the match
 * seed, so different seeds meet different openings first while a seed repeats its match.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Chess } from 'chess.js';
import { checkFen } from '../chess/fen.ts';
import { badInput } from '../util/errors.ts';
import { Random } from '../util/random.ts';

export interface Opening {
  /** Where the opening's moves start. */
  fen: string;
  /** Moves from `fen` in UCI notation (empty for an EPD position). */
  moves: string[];
  /** 1-based line (EPD) or game (PGN) number in its file. */
  index: number;
}

/** The suite used when a match is given no --openings (found from this module, so it works from any folder). */
export const DEFAULT_OPENINGS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'openings', 'balanced-6ply.epd');

export function readOpenings(path: string): Opening[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw badInput(`cannot read openings ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const openings = /\.pgn$/i.test(path) || /^\s*\[/.test(text) ? parsePgnOpenings(text, path) : parseEpd(text, path);
  if (openings.length === 0) throw badInput(`no openings in ${path}`);
  return openings;
}

/** EPD: four FEN fields, then operations (`hmvc N;` and `fmvn N;` set the move counters); full FENs also do. */
export function parseEpd(text: string, source = 'EPD'): Opening[] {
  const openings: Opening[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const fields = line.split(/\s+/);
    if (fields.length < 4) throw badInput(`${source} line ${i + 1}: not an EPD position: "${line.slice(0, 60)}"`);
    const [placement, turn, castling, enPassant] = fields;
    let halfmove = /(?:^|;)\s*hmvc\s+(\d+)/.exec(fields.slice(4).join(' '))?.[1];
    let fullmove = /(?:^|;)\s*fmvn\s+(\d+)/.exec(fields.slice(4).join(' '))?.[1];
    // A full FEN: the counters are the fifth and sixth fields.
    if (/^\d+$/.test(fields[4] ?? '') && /^\d+;?$/.test(fields[5] ?? '')) {
      halfmove = fields[4];
      fullmove = fields[5].replace(';', '');
    }
    const fen = `${placement} ${turn} ${castling} ${enPassant} ${halfmove ?? 0} ${fullmove ?? 1}`;
    try {
      openings.push({ fen: checkFen(fen), moves: [], index: i + 1 });
    } catch (error) {
      throw badInput(`${source} line ${i + 1}: ${(error as Error).message.split('\n')[0]}`);
    }
  });
  return openings;
}

/** PGN: every game's main line (comments and variations are ignored by chess.js), from its FEN tag if any. */
export function parsePgnOpenings(text: string, source = 'PGN'): Opening[] {
  const games = text
    .replace(/\r\n/g, '\n')
    .split(/\n\s*\n(?=\s*\[)/)
    .map((game) => game.trim())
    .filter((game) => game !== '');
  return games.map((game, i) => {
    const chess = new Chess();
    try {
      chess.loadPgn(game);
    } catch (error) {
      throw badInput(`${source} game ${i + 1}: ${(error as Error).message.split('\n')[0]}`);
    }
    const moves = chess.history({ verbose: true }).map((move) => move.lan);
    const fen = chess.getHeaders().FEN ?? new Chess().fen();
    return { fen: checkFen(fen), moves, index: i + 1 };
  });
}

/**
 * Each opening as the position its moves reach, with no moves: how training starts games, so that a game's record
 * (and what is learned from it) holds only the players' own moves. A PGN opening's moves were checked when read.
 */
export function openingPositions(openings: readonly Opening[]): Opening[] {
  return openings.map((opening) => {
    if (opening.moves.length === 0) return opening;
    const chess = new Chess(opening.fen);
    for (const uci of opening.moves) chess.move({ from: uci.slice(0, 2), to: uci.slice(2, 4), promotion: uci[4] });
    return { fen: checkFen(chess.fen()), moves: [], index: opening.index };
  });
}

/** The opening of the game with 0-based `index` in a suite's playing order: each opening serves two games in a row. */
export function openingOfGame<T>(order: readonly T[], index: number): T {
  return order[Math.floor(index / 2) % order.length];
}

/** The suite in the order a match with this seed plays it (a seeded Fisher-Yates shuffle). */
export function shuffleOpenings(openings: readonly Opening[], seed: number): Opening[] {
  return new Random(seed ^ 0x5bd1e995).shuffle([...openings]);
}
