import { describe, expect, it } from 'vitest';
import { Chess } from 'chess.js';
import { parseFen } from '../src/chess/fen.ts';
import { gameSans } from '../src/chess/san.ts';
import { gamePgn, type PlayedGame } from '../src/game/playGame.ts';
import { Random } from '../src/util/random.ts';
import { randomPlayout } from './helpers/playedGames.ts';
import { playUciMove } from './helpers/chessMoves.ts';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
/** Positions where disambiguation, promotion, castling both ways and en passant come up often in random play. */
const STARTS = [
  START,
  // Three queens and two rooks a side: moves to one square by two or three of a kind, by file, rank or square.
  'r3k2r/1Q1q3Q/8/8/3pP3/8/1q1Q3q/R3K2R b KQkq e3 0 30',
  // Pawns one step from promoting, both sides; black to move, so the movetext starts "40. ...".
  '4k3/PPP2ppp/8/8/8/8/ppp2PPP/4K3 b - - 0 40',
  // Knights and rooks in pairs.
  'n3k2n/8/2r3r1/8/8/2R3R1/8/N3K2N w - - 0 1',
];

/** The same PGN as chess.js writes it: the reference (gamePgn's own code before san.ts). */
function chessJsPgn(game: PlayedGame, round: number): string {
  const chess = new Chess(game.startFen);
  // chess.move({ from, to, promotion }), less the SAN of a Move it would return and pgn() writes again (below).
  for (const uci of game.moves) playUciMove(chess, uci);
  chess.setHeader('Event', 'Test');
  chess.setHeader('Site', 'Morph');
  chess.setHeader('Date', new Date().toISOString().slice(0, 10).replace(/-/g, '.'));
  chess.setHeader('Round', String(round));
  chess.setHeader('White', 'A');
  chess.setHeader('Black', 'B');
  chess.setHeader('Result', game.result);
  chess.setHeader('Termination', game.reason);
  chess.setHeader('PlyCount', String(game.plies));
  if (game.startFen !== START) {
    chess.setHeader('SetUp', '1');
    chess.setHeader('FEN', game.startFen);
  }
  chess.setHeader('MorphSeed', '7');
  return chess.pgn();
}

describe('SAN and PGN from the compact board', () => {
  it('writes every game as chess.js does, character for character', () => {
    const random = new Random(2026);
    const sans: string[] = [];
    for (let round = 1; round <= 160; round++) {
      const game = randomPlayout(STARTS[round % STARTS.length], 60 + random.int(200), random);
      const pgn = gamePgn(game, { event: 'Test', white: 'A', black: 'B', round, extra: { MorphSeed: '7' } });
      expect(pgn).toBe(chessJsPgn(game, round));
      sans.push(...gameSans(parseFen(game.startFen), game.moves));
    }
    // The random games reached every kind of notation: disambiguation by file, by rank and by square, castling
    // both ways, promotions with and without a capture, checks.
    const kinds = {
      byFile: /^[NBRQ][a-h]x?[a-h][1-8]/, byRank: /^[NBRQ][1-8]x?[a-h][1-8]/,
      short: /^O-O[+#]?$/, long: /^O-O-O/, promotion: /^[a-h][18]=[NBRQ]/, capturePromotion: /^[a-h]x[a-h][18]=[NBRQ]/,
      underPromotion: /=N/, check: /\+$/,
    };
    for (const [kind, pattern] of Object.entries(kinds)) expect(sans.some((san) => pattern.test(san)), kind).toBe(true);
    expect(gameSans(parseFen(STARTS[1]), ['d4e3'])).toEqual(['dxe3']); // en passant
    // By square: rivals on the origin's file and on its rank, as chess.js writes it.
    const threeQueens = '4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1';
    const reference = new Chess(threeQueens);
    expect(gameSans(parseFen(threeQueens), ['a1c3'])).toEqual([reference.move({ from: 'a1', to: 'c3' }).san]);
    expect(reference.history()).toEqual(['Qa1c3']);
  });

  it('writes a game without moves as chess.js does', () => {
    const game = randomPlayout(START, 0, new Random(1));
    expect(gamePgn(game, { event: 'Test', white: 'A', black: 'B', round: 3, extra: { MorphSeed: '7' } })).toBe(chessJsPgn(game, 3));
  });

  it('marks checks and mates', () => {
    const sans = gameSans(parseFen(START), ['f2f3', 'e7e5', 'g2g4', 'd8h4']);
    expect(sans).toEqual(['f3', 'e5', 'g4', 'Qh4#']);
    expect(gameSans(parseFen('4k3/8/8/8/8/8/8/R3K3 w - - 0 1'), ['a1a8'])).toEqual(['Ra8+']);
  });
});
