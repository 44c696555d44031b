/**
 * Impossible positions are refused with a one-line error naming the problem; castling rights without their king
 * and rook, and an en-passant square no pawn can have made, are dropped (as chessops does).
 */
import { describe, expect, it } from 'vitest';
import { checkFen, START_FEN } from '../src/chess/fen.ts';
import { MorphError } from '../src/util/errors.ts';
import { runMorph } from './helpers/cli.ts';

const QUEENS = 'QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQkQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQKQQQ w - - 0 1';

function refusal(fen: string): string {
  try {
    checkFen(fen);
  } catch (error) {
    expect(error).toBeInstanceOf(MorphError);
    expect((error as Error).message).not.toContain('\n');
    return (error as Error).message;
  }
  throw new Error(`accepted: ${fen}`);
}

describe('impossible positions', () => {
  const cases: Array<[string, string, RegExp]> = [];
  cases.push(
    ['the side not to move in check', '4k3/8/8/8/8/8/4R3/4K3 w - - 0 1', /the side not to move is in check/],
    ['adjacent kings', '8/8/8/3kK3/8/8/8/8 w - - 0 1', /the side not to move is in check/],
    ['62 queens', QUEENS, /more than 16 pieces/],
    ['16 white pawns', '4k3/8/PPPPPPPP/PPPPPPPP/8/8/8/4K3 w - - 0 1', /more than 16 pieces|more than 8 pawns/],
    ['9 white pawns', '4k3/8/P7/PPPPPPPP/8/8/8/4K3 w - - 0 1', /more than 8 pawns/],
    ['three queens with eight pawns', '4k3/8/8/8/8/PPPPPPPP/8/QQQ1K3 w - - 0 1', /promoted pieces/],
    ['castling field KQkqKQ', 'r3k2r/8/8/8/8/8/8/R3K2R w KQkqKQ - 0 1', /castling field "KQkqKQ"/],
    ['two white kings', '4k3/8/8/8/8/8/8/3KK3 w - - 0 1', /exactly one king|too many white kings/],
    ['a pawn on the last rank', '3Pk3/8/8/8/8/8/8/4K3 w - - 0 1', /pawn|edge rows/],
  );
  for (const [what, fen, message] of cases) {
    it(`refuses ${what}`, () => {
      expect(refusal(fen)).toMatch(message);
    });
  }

  it('drops castling rights without their rook or king, and an en-passant square no pawn made', () => {
    expect(checkFen('4k2r/8/8/8/8/8/8/4K3 w KQkq - 0 1')).toBe('4k2r/8/8/8/8/8/8/4K3 w k - 0 1');
    expect(checkFen('r3k3/8/8/8/8/8/8/R4K2 w KQq - 0 1')).toBe('r3k3/8/8/8/8/8/8/R4K2 w q - 0 1');
    // e3 with no white pawn on e4 behind it, then a real one after 1.e4.
    expect(checkFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1')).toBe(
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1',
    );
    expect(checkFen('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1')).toBe(
      'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1',
    );
    expect(checkFen(START_FEN)).toBe(START_FEN);
  });

  it('morph move, graph and play refuse them in one line with exit code 2', async () => {
    for (const command of ['move', 'graph', 'play']) {
      const run = await runMorph([command, '--fen', QUEENS]);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^morph: impossible position ".*": a side has more than 16 pieces\n$/);
    }
  });
});
