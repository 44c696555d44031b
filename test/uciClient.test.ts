import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Chess } from 'chess.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { stockfishCommand, stockfishScriptPath } from '../src/engines/stockfish.ts';
import { EngineError, MAX_LINE_LENGTH } from '../src/engines/engineProcess.ts';
import {
  UciClient,
  formatGo,
  formatPosition,
  type UciClientConfig,
} from '../src/engines/uciClient.ts';
import { UciEnginePlayer } from '../src/engines/uciEnginePlayer.ts';
import { MorphError } from '../src/util/errors.ts';

const FAKE_ENGINE = fileURLToPath(new URL('./fixtures/fake-engine.mjs', import.meta.url));
const markerDir = mkdtempSync(join(tmpdir(), 'morph-uci-test-'));
let markerCount = 0;

/** Every client a test makes is closed afterwards, even when the test fails. */
const clients: UciClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(() => rmSync(markerDir, { recursive: true, force: true }));

function track(client: UciClient): UciClient {
  clients.push(client);
  return client;
}

function fakeEngine(mode: string, config: Partial<UciClientConfig> = {}, once = false): UciClient {
  const args = [FAKE_ENGINE, mode];
  if (once) args.push('--once', join(markerDir, `marker-${markerCount++}`));
  return track(
    new UciClient({
      command: process.execPath,
      args,
      label: `fake-${mode}`,
      handshakeTimeoutMs: 3_000,
      searchTimeoutMs: 3_000,
      ...config,
    }),
  );
}

function stockfish(config: Partial<UciClientConfig> = {}): UciClient {
  return track(new UciClient({ ...stockfishCommand(), label: 'stockfish', ...config }));
}

function isLegal(fen: string, moves: string[], move: string): boolean {
  const chess = new Chess(fen);
  for (const played of moves) chess.move({ from: played.slice(0, 2), to: played.slice(2, 4), promotion: played[4] });
  return chess.moves({ verbose: true }).some((legal) => legal.lan === move);
}

/** Runs `action`, expecting an EngineError; returns it with how long it took. */
async function engineFailure(action: () => Promise<unknown>): Promise<{ error: EngineError; ms: number }> {
  const started = Date.now();
  try {
    await action();
  } catch (error) {
    expect(error).toBeInstanceOf(EngineError);
    return { error: error as EngineError, ms: Date.now() - started };
  }
  throw new Error('expected an EngineError, but the action succeeded');
}

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
/** After 1.f3: Black to move. With ...e5 2.g4, Black mates with Qh4. */
const AFTER_F3 = 'rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1';

describe('command formatting', () => {
  it('writes position and go lines', () => {
    expect(formatPosition('startpos', [])).toBe('position startpos');
    expect(formatPosition(START, ['e2e4'])).toBe('position startpos moves e2e4');
    expect(formatPosition(AFTER_F3, ['e7e5'])).toBe(`position fen ${AFTER_F3} moves e7e5`);
    expect(formatGo({ depth: 2, movetime: 50 })).toBe('go depth 2 movetime 50');
    expect(() => formatGo({ winc: 10 })).toThrow(/needs a limit/);
  });
});

describe('UciClient with the embedded Stockfish', () => {
  it('finds the WASM build', () => {
    expect(stockfishScriptPath()).toMatch(/node_modules\/stockfish\/bin\/stockfish-19-lite-single\.js$/);
  });

  it('does the handshake and reads the engine id and options', async () => {
    const client = stockfish();
    await client.start();
    expect(client.isRunning).toBe(true);
    expect(client.engineId).toMatch(/^Stockfish/);
    expect(client.optionNames).toContain('Skill Level');
    await client.newGame();
    await client.close();
    expect(client.isRunning).toBe(false);
    await client.close(); // twice is fine
  });

  it('plays a legal move from the start position', async () => {
    const client = stockfish();
    await client.start();
    const move = await client.bestMove('startpos', [], { depth: 2 });
    expect(move).not.toBeNull();
    expect(isLegal(START, [], move!)).toBe(true);
  });

  it('searches the position given by a FEN and moves (finds the mate in one)', async () => {
    const client = stockfish();
    await client.start();
    expect(await client.bestMove(AFTER_F3, ['e7e5', 'g2g4'], { depth: 3 })).toBe('d8h4');
    // The same game one move later: Black's mate is on the board, White has no move.
    expect(await client.bestMove(AFTER_F3, ['e7e5', 'g2g4', 'd8h4'], { depth: 3 })).toBeNull();
  });

  it('applies options (MultiPV shows in the search output)', async () => {
    const client = stockfish({ options: { multipv: 3, 'Skill Level': 0 } });
    await client.start();
    const move = await client.bestMove('startpos', ['e2e4'], { depth: 3 });
    expect(isLegal(START, ['e2e4'], move!)).toBe(true);
    expect(client.lastInfo.some((line) => / multipv 3 /.test(line))).toBe(true);
  });

  it('rejects an option the engine does not have, as bad input, and leaves no process', async () => {
    const client = stockfish({ options: { 'No Such Option': 1 } });
    const failure = await client.start().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MorphError);
    expect((failure as MorphError).exitCode).toBe(2);
    expect((failure as Error).message).toMatch(/no option "No Such Option".*Skill Level/);
    expect(client.isRunning).toBe(false);
  });
});

describe('UciClient with misbehaving engines', () => {
  it('plays with a well-behaved fake engine and sends options as setoption', async () => {
    const client = fakeEngine('good', { options: { 'skill level': 7 } });
    await client.start();
    expect(client.engineId).toBe('FakeEngine good');
    expect(await client.bestMove('startpos', ['e2e4'], { depth: 1 })).toBe('a7a5'); // first legal move, sorted
    expect(client.lastInfo).toContain('info string option Skill Level=7');
  });

  it('reports a crash during a search at once, not at the timeout', async () => {
    const client = fakeEngine('crash', { searchTimeoutMs: 20_000 });
    await client.start();
    const { error, ms } = await engineFailure(() => client.bestMove('startpos', [], { depth: 1 }));
    expect(error.kind).toBe('crashed');
    expect(error.message).toMatch(/exited with code 3 while waiting for bestmove: .*segmentation fault/);
    expect(error.message).not.toContain('\n');
    expect(ms).toBeLessThan(5_000);
    expect(client.isRunning).toBe(false);
  });

  it('kills an engine that never answers go, after the search timeout', async () => {
    const client = fakeEngine('hang', { searchTimeoutMs: 400 });
    await client.start();
    const { error, ms } = await engineFailure(() => client.bestMove('startpos', [], { depth: 1 }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/sent no bestmove within 400 ms/);
    expect(ms).toBeGreaterThanOrEqual(390);
    expect(ms).toBeLessThan(3_000);
    expect(client.isRunning).toBe(false);
    // Further use fails at once rather than waiting again.
    expect((await engineFailure(() => client.bestMove('startpos', [], { depth: 1 }))).error.kind).toBe('crashed');
  });

  // A hung engine is told from a slow one by its CPU time (Linux's /proc): an engine that owes an answer and neither
  // talks nor computes is given up on after the hang timeout, however long the wait's own limit.
  describe.skipIf(!existsSync('/proc/self/stat'))('hung, slow and growing limits', () => {
    const engine = (mode: string, config: Partial<UciClientConfig>, slowMs?: number) =>
      track(
        new UciClient({
          command: process.execPath,
          args: [FAKE_ENGINE, mode, ...(slowMs !== undefined ? ['--slow', String(slowMs)] : [])],
          label: `fake-${mode}`,
          ...config,
        }),
      );

    it('gives up on an engine that never answers go after the hang timeout, not the search limit', async () => {
      const client = engine('hang', { searchTimeoutMs: 60_000, hangTimeoutMs: 500 });
      await client.start();
      const { error, ms } = await engineFailure(() => client.bestMove('startpos', [], { depth: 1 }));
      expect(error.kind).toBe('hung');
      expect(error.message).toBe('engine "fake-hang" sent no bestmove and used no CPU for 0.5 s (hung)');
      expect(ms).toBeGreaterThanOrEqual(490);
      expect(ms).toBeLessThan(30_000); // far below the 60 s limit
      expect(client.isRunning).toBe(false);
    });

    it('gives up on an engine that never sends uciok after the hang timeout', async () => {
      const client = engine('noStart', { handshakeTimeoutMs: 60_000, hangTimeoutMs: 500 });
      const { error, ms } = await engineFailure(() => client.start());
      expect(error.kind).toBe('hung');
      expect(error.message).toMatch(/sent no uciok and used no CPU for 0\.5 s \(hung\)$/);
      expect(ms).toBeLessThan(30_000);
    });

    it('waits for an engine that computes, well past the hang timeout', async () => {
      const client = engine('slowGo', { searchTimeoutMs: 60_000, hangTimeoutMs: 300 }, 1_500);
      await client.start();
      const started = Date.now();
      expect(await client.bestMove('startpos', [], { depth: 1 })).toMatch(/^[a-h][1-8][a-h][1-8]$/);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
    });

    it('gives an engine that was slow to start twice the limit at the next start', async () => {
      // 2 s of work before uciok: over a 1.5 s limit, within the 3 s of the next start.
      const client = engine('slowStart', { handshakeTimeoutMs: 1_500, hangTimeoutMs: 300 }, 2_000);
      const { error } = await engineFailure(() => client.start());
      expect(error.kind).toBe('timeout');
      expect(error.message).toMatch(/sent no uciok within 1500 ms$/);
      await client.start();
      expect(client.isRunning).toBe(true);
    });
  });

  it('derives the search timeout from movetime when none is configured', async () => {
    const client = fakeEngine('hang', { searchTimeoutMs: undefined, searchGraceMs: 300 });
    await client.start();
    const { error } = await engineFailure(() => client.bestMove('startpos', [], { movetime: 100 }));
    expect(error.message).toMatch(/within 400 ms/);
  });

  it('rejects an illegal move as a protocol error', async () => {
    const client = fakeEngine('illegal');
    await client.start();
    const { error } = await engineFailure(() => client.bestMove('startpos', [], { depth: 1 }));
    expect(error.kind).toBe('protocol');
    expect(error.message).toMatch(/illegal move e2e5/);
    expect(client.isRunning).toBe(false);
  });

  it('rejects a malformed bestmove as a protocol error', async () => {
    const client = fakeEngine('garbage');
    await client.start();
    const { error } = await engineFailure(() => client.bestMove('startpos', [], { depth: 1 }));
    expect(error.kind).toBe('protocol');
    expect(error.message).toMatch(/malformed bestmove: "bestmove banana"/);
  });

  it('reports "bestmove 0000" as no move', async () => {
    const client = fakeEngine('nullMove');
    await client.start();
    expect(await client.bestMove('startpos', [], { depth: 1 })).toBeNull();
  });

  it('times out an engine that never finishes the handshake', async () => {
    const client = fakeEngine('noStart', { handshakeTimeoutMs: 400 });
    const { error, ms } = await engineFailure(() => client.start());
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/sent no uciok within 400 ms/);
    expect(ms).toBeLessThan(3_000);
    expect(client.isRunning).toBe(false);
  });

  it('reports an engine that exits during the handshake, with its last stderr line', async () => {
    const client = fakeEngine('exitAtStart', { handshakeTimeoutMs: 20_000 });
    const { error, ms } = await engineFailure(() => client.start());
    expect(error.kind).toBe('crashed');
    expect(error.message).toMatch(/exited with code 1 while waiting for uciok: fake engine: cannot open/);
    expect(ms).toBeLessThan(5_000);
  });

  it('reports a missing binary in one line', async () => {
    const client = track(new UciClient({ command: '/nonexistent/engine', handshakeTimeoutMs: 20_000 }));
    const { error, ms } = await engineFailure(() => client.start());
    expect(error.kind).toBe('crashed');
    expect(error.message).toBe('engine "engine" could not be started: /nonexistent/engine was not found');
    expect(ms).toBeLessThan(2_000);
  });

  it('fails a pending search when the client is closed', async () => {
    const client = fakeEngine('hang', { searchTimeoutMs: 20_000 });
    await client.start();
    const search = client.bestMove('startpos', [], { depth: 1 });
    const outcome = engineFailure(() => search);
    await client.close();
    const { error, ms } = await outcome;
    expect(error.kind).toBe('crashed');
    expect(error.message).toMatch(/was closed/);
    expect(ms).toBeLessThan(5_000);
  });

  it('kills an engine frozen in a search at once when closed, without waiting for it to quit', async () => {
    // The frozen engine never reads `quit`: before, close() waited the whole quit grace for it.
    const client = fakeEngine('freeze', { searchTimeoutMs: 120_000, quitGraceMs: 120_000, handshakeTimeoutMs: 15_000 });
    await client.start();
    const outcome = engineFailure(() => client.bestMove('startpos', [], { depth: 1 }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await client.close();
    expect((await outcome).error.message).toMatch(/was closed/);
    expect(client.isRunning).toBe(false);
  }, 20_000);

  it('treats an endless line as an engine fault, without holding all of it', async () => {
    const client = fakeEngine('longLine', { searchTimeoutMs: 60_000, handshakeTimeoutMs: 15_000 });
    await client.start();
    const { error } = await engineFailure(() => client.bestMove('startpos', [], { depth: 1 }));
    expect(error.kind).toBe('protocol');
    expect(error.message).toBe(`engine "fake-longLine" sent a line longer than ${MAX_LINE_LENGTH} bytes`);
    expect(client.isRunning).toBe(false);
  }, 20_000);

  it('repeats only a short, escaped piece of a malformed bestmove', async () => {
    const client = fakeEngine('longBestmove', { handshakeTimeoutMs: 15_000 });
    await client.start();
    const { error } = await engineFailure(() => client.bestMove('startpos', [], { depth: 1 }));
    expect(error.kind).toBe('protocol');
    expect(error.message).toMatch(/sent a malformed bestmove: "bestmove \\x07\\x1b\[31my+… \(\d+ more characters\)"$/);
    expect(error.message.length).toBeLessThan(200);
  }, 20_000);

  it('refuses a game record with an illegal move before asking the engine', async () => {
    const client = fakeEngine('good');
    await client.start();
    await expect(client.bestMove('startpos', ['e2e4', 'e2e4'], { depth: 1 })).rejects.toThrow(
      /move e2e4 of the game record is illegal/,
    );
    expect(client.isRunning).toBe(true);
  });

  it.each([
    ['crash', 'crashed'],
    ['hang', 'timeout'],
    ['illegal', 'protocol'],
    ['garbage', 'protocol'],
  ])('restarts cleanly after a %s', async (mode, kind) => {
    const client = fakeEngine(mode, { searchTimeoutMs: 400 }, true);
    await client.start();
    const { error } = await engineFailure(() => client.bestMove('startpos', ['e2e4'], { depth: 1 }));
    expect(error.kind).toBe(kind);
    await client.restart();
    expect(client.engineId).toBe('FakeEngine good');
    expect(await client.bestMove('startpos', ['e2e4'], { depth: 1 })).toBe('a7a5');
  });

  it('restarts cleanly after a failed handshake', async () => {
    const client = fakeEngine('noStart', { handshakeTimeoutMs: 2_000 }, true);
    expect((await engineFailure(() => client.start())).error.kind).toBe('timeout');
    await client.restart();
    expect(await client.bestMove('startpos', [], { depth: 1 })).toBe('a2a3');
  });

  it('lets no failure escape as an unhandled rejection or exception', async () => {
    const escaped: unknown[] = [];
    const record = (error: unknown) => escaped.push(error);
    process.on('unhandledRejection', record);
    process.on('uncaughtException', record);
    try {
      const crash = fakeEngine('crash');
      await crash.start();
      const hang = fakeEngine('hang', { searchTimeoutMs: 300 });
      await hang.start();
      const missing = track(new UciClient({ command: '/nonexistent/engine' }));
      // Dies right after the handshake, while the client is still writing its options into the pipe.
      const dying = fakeEngine('dieAfterUciok', { options: { Hash: 32 } });
      const outcomes = await Promise.allSettled([
        crash.bestMove('startpos', [], { depth: 1 }),
        hang.bestMove('startpos', [], { depth: 1 }),
        missing.start(),
        dying.start(),
      ]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
      // Writing to dead processes must not raise EPIPE errors either.
      for (const client of [crash, hang, missing, dying]) {
        await client.bestMove('startpos', [], { depth: 1 }).catch(() => {});
        await client.newGame().catch(() => {});
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(escaped).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
      process.off('uncaughtException', record);
    }
  });
});

describe('UciEnginePlayer', () => {
  const players: UciEnginePlayer[] = [];
  afterEach(async () => {
    await Promise.all(players.splice(0).map((player) => player.close()));
  });

  function fakePlayer(mode: string, once: boolean): UciEnginePlayer {
    const args = [FAKE_ENGINE, mode];
    if (once) args.push('--once', join(markerDir, `marker-${markerCount++}`));
    const player = new UciEnginePlayer({
      name: `fake-${mode}`,
      command: process.execPath,
      args,
      go: { depth: 1 },
      handshakeTimeoutMs: 3_000,
      searchTimeoutMs: 400,
    });
    players.push(player);
    return player;
  }

  const startPosition = { startFen: START, moves: [], fen: START };

  it('starts the engine lazily, on first use', async () => {
    // A missing binary only fails when the player is used.
    const player = new UciEnginePlayer({ name: 'missing', command: '/nonexistent/engine', go: { depth: 1 } });
    players.push(player);
    await expect(player.newGame()).rejects.toThrow(/could not be started/);
    const good = fakePlayer('good', false);
    expect(await good.chooseMove(startPosition)).toBe('a2a3');
  });

  it('is brought back by newGame() after the engine failed', async () => {
    const player = fakePlayer('hang', true);
    await player.newGame();
    await expect(player.chooseMove(startPosition)).rejects.toMatchObject({ kind: 'timeout' });
    await player.newGame();
    expect(await player.chooseMove(startPosition)).toBe('a2a3');
  });

  it('turns "bestmove (none)" into a protocol error naming the position', async () => {
    const player = fakePlayer('none', false);
    await player.newGame();
    const failure = await player.chooseMove(startPosition).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EngineError);
    expect((failure as EngineError).kind).toBe('protocol');
    expect((failure as Error).message).toContain(`reported no move (bestmove (none)) in ${START}`);
  });
});
