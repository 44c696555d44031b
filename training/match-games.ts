/**
 * The games of a `morph match --json` summary, for the measurement scripts (loss-depths, match-positions,
 * game-ends): each loaded into chess.js with the first player's colour. A summary without its games (written with
 * --pgn FILE, which puts them in FILE) is refused in one line, exit 2.
 */
import { readFileSync } from 'node:fs';
import { Chess } from 'chess.js';

export interface MatchGame {
  game: Chess;
  /** The colour the match's first player had in this game. */
  firstColor: 'w' | 'b';
}

export function readMatchGames(file: string): MatchGame[] {
  const match = JSON.parse(readFileSync(file, 'utf8')) as { results: { firstIsWhite: boolean }[]; pgn?: string[] };
  if (!Array.isArray(match.pgn)) {
    console.error(`${file} holds no games: make it with morph match --json and without --pgn`);
    process.exit(2);
  }
  return match.pgn.map((pgn, i) => {
    const game = new Chess();
    game.loadPgn(pgn);
    return { game, firstColor: match.results[i].firstIsWhite ? 'w' : 'b' };
  });
}
