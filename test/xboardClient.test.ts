import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Chess } from 'chess.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { parseFen } from '../src/chess/fen.ts';
import { EngineError } from '../src/engines/engineProcess.ts';
import { createOpponent } from '../src/engines/opponentFactory.ts';
import { formatOpponentSpec, parseOpponentSpec } from '../src/engines/opponentSpec.ts';
import type { GamePlayer } from '../src/engines/gamePlayer.ts';
import { XboardEnginePlayer } from '../src/engines/uciEnginePlayer.ts';
import { XboardClient, editModeLines, moveText, parseFeatures, readMove, type XboardClientConfig } from '../src/engines/xboardClient.ts';

const FAKE_ENGINE = fileURLToPath(new URL('./fixtures/fake-xboard-engine.mjs', import.meta.url));
const recordDir = mkdtempSync(join(tmpdir(), 'morph-xboard-test-'));
let records = 0;

const clients: XboardClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(() => rmSync(recordDir, { recursive: true, force: true }));

function fakeEngine(mode: string, config: Partial<XboardClientConfig> = {}): { client: XboardClient; record: string } {
  const record = join(recordDir, `record-${records++}`);
  const client = new XboardClient({
    command: process.execPath,
    args: [FAKE_ENGINE, mode, '--record', record],
    label: `fake-${mode}`,
    handshakeTimeoutMs: 3_000,
    // A protocol-2 fake must answer within this even on a loaded machine, or it is taken for protocol 1.
    featureWaitMs: 3_000,
    searchTimeoutMs: 3_000,
    ...config,
  });
  clients.push(client);
  return { client, record };
}

/** chess.js's position after `moves` from `fen`: its pieces, side and castling (what the fake engine records). */
function positionAfter(fen: string, moves: string[]): { fen: string; firstMove: string } {
  const chess = new Chess(fen);
  for (const move of moves) chess.move({ from: move.slice(0, 2), to: move.slice(2, 4), promotion: move[4] });
  const first = chess.moves({ verbose: true }).map((move) => move.lan).sort()[0];
  return { fen: chess.fen().split(' ').slice(0, 3).join(' '), firstMove: first };
}

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
/** Black to move, both sides still able to castle both ways. */
const ITALIAN = 'r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4';
const BLACK_TO_MOVE = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 3';
/** Black to move with two legal moves, both of the h-pawn. */
const PAWN_ONLY = 'k7/7p/1Q6/8/8/8/8/7K b - - 0 1';

describe('XboardClient against a scripted engine', () => {
  for (const mode of ['v2', 'edit', 'v1']) {
    it(`sets up every position the engine searches as chess.js has it (${mode})`, async () => {
      const { client, record } = fakeEngine(mode);
      await client.start();
      await client.newGame();
      const cases: [string, string[]][] = [
        [START, []],
        [START, ['e2e4', 'e7e5', 'g1f3']],
        [ITALIAN, []],
        [ITALIAN, ['e1g1']],
        [BLACK_TO_MOVE, []],
        [BLACK_TO_MOVE, ['f8c5', 'f1c4']],
      ];
      const expected: string[] = [];
      for (const [fen, moves] of cases) {
        const truth = positionAfter(fen, moves);
        expect(await client.bestMove(fen, moves, { depth: 1 })).toBe(truth.firstMove);
        expected.push(truth.fen);
      }
      expect(readFileSync(record, 'utf8').trim().split('\n')).toEqual(expected);
    });
  }

  it('gives the engine a clock for the rest of the game at every search', async () => {
    const { client, record } = fakeEngine('v2');
    await client.start();
    await client.newGame();
    await client.bestMove(START, [], { clock: 1_500 });
    await client.bestMove(START, ['e2e4'], { clock: 90_500 });
    expect(readFileSync(record, 'utf8').trim().split('\n')).toEqual([
      `${positionAfter(START, []).fen} level 0 0:02 0 time 150`,
      `${positionAfter(START, ['e2e4']).fen} level 0 1:31 0 time 9050`,
    ]);
  });

  it('reads a move written in SAN', async () => {
    const { client } = fakeEngine('san');
    await client.start();
    expect(await client.bestMove(START, ['e2e4'], { depth: 1 })).toBe(positionAfter(START, ['e2e4']).firstMove);
  });

  it('turns an illegal move, a resignation, a refused command, a crash and a hang into EngineErrors', async () => {
    const expectations: [string, string, RegExp][] = [
      ['illegal', 'protocol', /played "e2e5", not a legal move/],
      ['resign', 'protocol', /resigned in/],
      ['refuseSd', 'protocol', /refused a command .*"Illegal move: sd 1"/],
      ['crash', 'crashed', /exited with code 3/],
      ['hang', 'timeout', /sent no move within 300 ms/],
    ];
    for (const [mode, kind, message] of expectations) {
      const { client } = fakeEngine(mode, { searchTimeoutMs: 300 });
      await client.start();
      const failure = await client.bestMove(START, [], { depth: 1 }).catch((error: unknown) => error);
      expect(failure, mode).toBeInstanceOf(EngineError);
      expect((failure as EngineError).kind, mode).toBe(kind);
      expect((failure as Error).message, mode).toMatch(message);
      expect(client.isRunning, mode).toBe(false);
    }
  });

  it('is brought back after a failure by the player', async () => {
    const player = new XboardEnginePlayer({
      name: 'fake',
      command: process.execPath,
      args: [FAKE_ENGINE, 'v2'],
      limits: { depth: 1 },
      featureWaitMs: 3_000,
    });
    try {
      await player.newGame();
      expect(await player.chooseMove({ startFen: START, moves: [], fen: START })).toBe('a2a3');
      await player.close();
      expect(await player.chooseMove({ startFen: START, moves: ['a2a3'], fen: START })).toBe('a7a5');
    } finally {
      await player.close();
    }
  });
});

describe('xboard protocol pieces', () => {
  it('parses feature lines with quoted values', () => {
    expect(parseFeatures('myname="Fairy-Max 5.0b" setboard=0 ping=1 done=0')).toEqual([
      ['myname', 'Fairy-Max 5.0b'],
      ['setboard', '0'],
      ['ping', '1'],
      ['done', '0'],
    ]);
  });

  it('finds the move in protocol 1 and 2 answers', () => {
    expect(moveText('move e2e4')).toBe('e2e4');
    expect(moveText('My move is: Nf3')).toBe('Nf3');
    expect(moveText('1. ... e7e5')).toBeNull();
    expect(moveText('moves are hard')).toBeNull();
  });

  it('reads coordinates, promotions and SAN against the legal moves', () => {
    const fen = '8/4P3/8/8/8/8/k7/4K2R w K - 0 1';
    const chess = new Chess(fen);
    const legal = new Set(chess.moves({ verbose: true }).map((move) => move.lan));
    const board = parseFen(fen);
    expect(readMove('e7e8Q', board, legal)).toBe('e7e8q');
    expect(readMove('e7e8=n', board, legal)).toBe('e7e8n');
    expect(readMove('O-O', board, legal)).toBe('e1g1');
    expect(readMove('0-0', board, legal)).toBe('e1g1');
    expect(readMove('Rh2+', board, legal)).toBe('h1h2');
    expect(readMove('e7e6', board, legal)).toBeNull();
  });

  it('writes edit mode with black to move reached by a2a3', () => {
    const lines = editModeLines(parseFen('4k3/8/8/8/8/8/8/4K2R b K - 0 1'));
    expect(lines).toEqual(['a2a3', 'edit', '#', 'Ke1', 'Rh1', 'c', 'Ke8', '.']);
  });
});

describe('xboard opponent specs', () => {
  it('reads the command with its arguments and the limits, and writes them back', () => {
    const spec = parseOpponentSpec('xboard:phalanx -b-  -l-:movetime=1000');
    expect(spec).toEqual({ kind: 'xboard', command: 'phalanx -b- -l-', options: { movetime: '1000' } });
    expect(formatOpponentSpec(spec)).toBe('xboard:phalanx -b- -l-:movetime=1000');
    expect(formatOpponentSpec(parseOpponentSpec('xboard:/usr/games/fairymax'))).toBe('xboard:/usr/games/fairymax:depth=1');
    expect(formatOpponentSpec(parseOpponentSpec('xboard:phalanx -b-:clock=2000'))).toBe('xboard:phalanx -b-:clock=2000');
    expect(() => parseOpponentSpec('xboard:fairymax:nodes=100')).toThrow(/xboard takes only depth=N, movetime=MS and clock=MS/);
    expect(() => parseOpponentSpec('xboard:phalanx:clock=fast')).toThrow(/clock must be a positive whole number/);
    expect(() => parseOpponentSpec('xboard:')).toThrow(/nothing after "xboard:"/);
  });

  it('names a missing engine in one line', async () => {
    await expect(createOpponent(parseOpponentSpec('xboard:no-such-engine-here'), { seed: 1 })).rejects.toThrow(
      'xboard engine not found or not executable: no-such-engine-here',
    );
  });

  // Debian's Fairy-Max: the real engine this client was written for (setboard=0, so edit mode). Skipped without it.
  const fairymax = existsSync('/usr/games/fairymax');
  for (const limit of ['depth=2', 'clock=1000']) {
    it.skipIf(!fairymax)(`plays legal moves as Fairy-Max from set-up positions (${limit})`, async () => {
      const player: GamePlayer = await createOpponent(parseOpponentSpec(`xboard:fairymax:${limit}`), { seed: 1 });
      try {
        await player.newGame();
        // The last: Black's only legal moves are h7h6 and h7h5 (Fairy-Max's own choices vary from run to run).
        const cases = [[ITALIAN, ['e1g1']], [BLACK_TO_MOVE, []], [START, ['f2f3', 'e7e5', 'g2g4']], [PAWN_ONLY, []]] as const;
        for (const [fen, moves] of cases) {
          const move = await player.chooseMove({ startFen: fen, moves: [...moves], fen });
          const chess = new Chess(fen);
          for (const played of moves) chess.move({ from: played.slice(0, 2), to: played.slice(2, 4) });
          expect(chess.moves({ verbose: true }).map((legal) => legal.lan)).toContain(move);
        }
      } finally {
        await player.close();
      }
    });
  }
});
