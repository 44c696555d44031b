import { fileURLToPath } from 'node:url';
import { Chess } from 'chess.js';
import { describe, expect, it } from 'vitest';
import { createOpponent } from '../src/engines/opponentFactory.ts';
import { gnuchessPath } from '../src/engines/gnuchess.ts';
import {
  engineSettings,
  formatOpponentSpec,
  parseOpponentSpec,
  type OpponentSpec,
} from '../src/engines/opponentSpec.ts';
import type { GamePlayer } from '../src/engines/gamePlayer.ts';
import { GreedyPlayer, RandomPlayer } from '../src/engines/simplePlayers.ts';
import { NoisyPlayer } from '../src/engines/noisyPlayer.ts';
import { MorphError } from '../src/util/errors.ts';

describe('parseOpponentSpec', () => {
  it.each<[string, OpponentSpec, string]>([
    ['stockfish', { kind: 'stockfish', options: { skill: '0', depth: '1' } }, 'stockfish:skill=0,depth=1'],
    ['stockfish:depth=3', { kind: 'stockfish', options: { skill: '0', depth: '3' } }, 'stockfish:skill=0,depth=3'],
    [
      ' stockfish:movetime=100, Hash=32 ,skill=5 ',
      { kind: 'stockfish', options: { skill: '5', movetime: '100', Hash: '32' } },
      'stockfish:skill=5,movetime=100,Hash=32',
    ],
    [
      'stockfish:Nodes=500,Skill Level=3',
      { kind: 'stockfish', options: { nodes: '500', 'Skill Level': '3' } },
      'stockfish:nodes=500,Skill Level=3',
    ],
    ['gnuchess', { kind: 'gnuchess', depth: 1 }, 'gnuchess:depth=1'],
    ['gnuchess:depth=4', { kind: 'gnuchess', depth: 4 }, 'gnuchess:depth=4'],
    ['uci:/opt/engine', { kind: 'uci', path: '/opt/engine', options: { depth: '1' } }, 'uci:/opt/engine:depth=1'],
    [
      'uci:/opt/my:engine:Hash=64,movetime=50',
      { kind: 'uci', path: '/opt/my:engine', options: { movetime: '50', Hash: '64' } },
      'uci:/opt/my:engine:movetime=50,Hash=64',
    ],
    ['morph:runs/a.db', { kind: 'morph', dbPath: 'runs/a.db' }, 'morph:runs/a.db'],
    ['ab:3', { kind: 'ab', body: '3' }, 'ab:3'],
    ['ab:2,quiesce=on', { kind: 'ab', body: '2,quiesce=on' }, 'ab:2,quiesce=on'],
    ['ab', { kind: 'ab', body: '' }, 'ab'],
    ['random', { kind: 'random' }, 'random'],
    ['greedy', { kind: 'greedy' }, 'greedy'],
    ['self', { kind: 'self' }, 'self'],
    [
      'noisy:0.3:stockfish:skill=20',
      { kind: 'noisy', probability: 0.3, inner: { kind: 'stockfish', options: { skill: '20', depth: '1' } } },
      'noisy:0.3:stockfish:skill=20,depth=1',
    ],
    ['noisy:1:greedy', { kind: 'noisy', probability: 1, inner: { kind: 'greedy' } }, 'noisy:1:greedy'],
    ['mix:random;greedy', { kind: 'mix', members: [{ kind: 'random' }, { kind: 'greedy' }] }, 'mix:random;greedy'],
    [
      'mix: self ; stockfish:depth=2;noisy:0.3:gnuchess;ab:2,q;self',
      {
        kind: 'mix',
        members: [
          { kind: 'self' },
          { kind: 'stockfish', options: { skill: '0', depth: '2' } },
          { kind: 'noisy', probability: 0.3, inner: { kind: 'gnuchess', depth: 1 } },
          { kind: 'ab', body: '2,q' },
          { kind: 'self' },
        ],
      },
      'mix:self;stockfish:skill=0,depth=2;noisy:0.3:gnuchess:depth=1;ab:2,q;self',
    ],
    [
      'ladder: stockfish @ 1000; ab:2,q@3000 ;stockfish:skill=20',
      {
        kind: 'ladder',
        rungs: [
          { spec: { kind: 'stockfish', options: { skill: '0', depth: '1' } }, lastGame: 1000 },
          { spec: { kind: 'ab', body: '2,q' }, lastGame: 3000 },
          { spec: { kind: 'stockfish', options: { skill: '20', depth: '1' } } },
        ],
      },
      'ladder:stockfish:skill=0,depth=1@1000;ab:2,q@3000;stockfish:skill=20,depth=1',
    ],
  ])('reads %j', (text, spec, canonical) => {
    expect(parseOpponentSpec(text)).toEqual(spec);
    expect(formatOpponentSpec(spec)).toBe(canonical);
    // The canonical text reads back as the same spec.
    expect(parseOpponentSpec(canonical)).toEqual(spec);
  });

  it.each([
    ['', /it is empty/],
    ['stockfsh', /unknown opponent "stockfsh"/],
    ['random:3', /random takes no options/],
    ['greedy:x=1', /greedy takes no options/],
    ['self:2', /self takes no options/],
    ['noisy:0.3', /noisy needs a probability and a player/],
    ['noisy:1.5:greedy', /probability must be in \[0, 1\], got "1.5"/],
    ['noisy::greedy', /probability must be in \[0, 1\], got ""/],
    ['noisy:0.2:self', /self-play cannot be noisy/],
    ['noisy:0.2:stockfsh', /unknown opponent "stockfsh"/],
    ['stockfish:', /nothing after "stockfish:"/],
    ['stockfish:depth', /option "depth" needs a value/],
    ['stockfish:=3', /option "=3" has no name/],
    ['stockfish:Hash=', /option "Hash" has no value/],
    ['stockfish:depth=2,Depth=3', /option "depth" is given twice/],
    ['stockfish:depth=0', /depth must be a positive whole number, got "0"/],
    ['stockfish:nodes=1e3', /nodes must be a positive whole number/],
    ['stockfish:skill=21', /skill must be a whole number from 0 to 20/],
    ['stockfish:skill=2,Skill Level=3', /not both/],
    ['gnuchess:nodes=100', /gnuchess takes only depth=N/],
    ['gnuchess:depth=two', /depth must be a positive whole number/],
    ['uci', /uci needs the engine binary/],
    ['uci::depth=2', /uci needs the engine binary/],
    ['uci:/opt/engine:movetime=-5', /movetime must be a positive whole number/],
    ['morph', /morph needs its database/],
    ['mix', /a mix needs at least two members/],
    ['mix:', /nothing after "mix:"/],
    ['mix:random', /a mix needs at least two members/],
    ['mix:random;', /member 2: it is empty/],
    ['mix:random;;greedy', /member 2: it is empty/],
    ['mix:random;stockfsh', /member 2: unknown opponent "stockfsh"/],
    ['mix:random;stockfish:depth=0', /member 2: depth must be a positive whole number, got "0"/],
    ['mix:random;mix:greedy;ab:1', /member 2: a mix cannot hold a mix/],
    ['mix:random;noisy:auto=0.4:greedy', /member 2: an adaptive handicap \(noisy:auto=T\) cannot be a mix member, its probability is one per run/],
    ['noisy:0.3:mix:random;greedy', /a mix cannot be noisy/],
    ['ladder:random', /a ladder needs at least two rungs/],
    ['ladder:random@10', /a ladder needs at least two rungs/],
    ['ladder:random;greedy', /rung 1: needs the last game it plays: SPEC@N/],
    ['ladder:random@10;greedy@20', /rung 2: the last rung plays every game after the others, so it takes no @N/],
    ['ladder:random@10;greedy@10;ab:1', /rung 2: @N must be a whole number above the rung before's 10, got "10"/],
    ['ladder:random@0;greedy', /rung 1: @N must be a whole number above 0, got "0"/],
    ['ladder:random@ten;greedy', /rung 1: @N must be a whole number above 0, got "ten"/],
    ['ladder:random@;greedy', /rung 1: @N must be a whole number above 0, got ""/],
    ['ladder:stockfsh@5;greedy', /rung 1: unknown opponent "stockfsh"/],
    ['ladder:noisy:auto=0.4:greedy@5;greedy', /rung 1: an adaptive handicap \(noisy:auto=T\) cannot be a rung/],
    ['mix:random;ladder:greedy@1;ab:1', /member 2: a mix cannot hold a ladder/],
    ['noisy:0.3:ladder:random@1;greedy', /a ladder cannot be noisy/],
  ])('rejects %j', (text, problem) => {
    let failure: unknown;
    try {
      parseOpponentSpec(text);
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(MorphError);
    expect((failure as MorphError).exitCode).toBe(2);
    const message = (failure as Error).message;
    expect(message).toMatch(problem);
    expect(message).toContain(`bad opponent "${text}"`);
    expect(message).toContain('valid forms: stockfish[');
    expect(message).not.toContain('\n');
  });
});

describe('engineSettings', () => {
  it('splits search limits from engine options', () => {
    expect(engineSettings({ skill: '3', depth: '2', movetime: '40', Hash: '16' })).toEqual({
      go: { depth: 2, movetime: 40 },
      setoptions: { skill: '3', Hash: '16' },
    });
  });
});

describe('createOpponent', () => {
  const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

  /** Plays `plies` moves between two players, checking each with chess.js; returns the moves. */
  async function playOut(white: GamePlayer, black: GamePlayer, plies: number): Promise<string[]> {
    const chess = new Chess();
    const moves: string[] = [];
    await white.newGame();
    await black.newGame();
    for (let ply = 0; ply < plies && !chess.isGameOver(); ply++) {
      const player = ply % 2 === 0 ? white : black;
      const move = await player.chooseMove({ startFen: START, moves: [...moves], fen: chess.fen() });
      chess.move({ from: move.slice(0, 2), to: move.slice(2, 4), promotion: move[4] }); // throws if illegal
      moves.push(move);
    }
    return moves;
  }

  /**
   * The engines' play is not repeatable (Stockfish below skill 20 and gnuchess's book randomise), so an engine
   * may mate the random mover early: the game runs all `plies` unless the rules ended it.
   */
  function expectFullOrFinished(moves: string[], plies: number): void {
    const replay = new Chess();
    for (const move of moves) replay.move({ from: move.slice(0, 2), to: move.slice(2, 4), promotion: move[4] });
    expect(moves.length === plies || (moves.length > 0 && moves.length < plies && replay.isGameOver())).toBe(true);
  }

  it('builds the simple players', async () => {
    expect(await createOpponent(parseOpponentSpec('random'), { seed: 1 })).toBeInstanceOf(RandomPlayer);
    expect(await createOpponent(parseOpponentSpec('greedy'), { seed: 1 })).toBeInstanceOf(GreedyPlayer);
  });

  it('builds a noisy player: the inner player at probability 0, random legal moves at 1, repeatable after reseed', async () => {
    const never = await createOpponent(parseOpponentSpec('noisy:0:greedy'), { seed: 1 });
    expect(never).toBeInstanceOf(NoisyPlayer);
    expect(never.name).toBe('noisy:0:greedy');
    // After 1.d4 e5 the only capture is dxe5, greedy's one choice.
    const quiet = 'rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2';
    const capture = { startFen: quiet, moves: [], fen: quiet };
    expect(await never.chooseMove(capture)).toBe('d4e5');

    const always = (await createOpponent(parseOpponentSpec('noisy:1:greedy'), { seed: 7 })) as NoisyPlayer;
    always.reseed(42);
    const sequence: string[] = [];
    for (let i = 0; i < 30; i++) sequence.push(await always.chooseMove(capture));
    expect(new Set(sequence).size).toBeGreaterThan(5); // not greedy's one capture
    const legal = new Chess(quiet).moves({ verbose: true }).map((m) => m.from + m.to);
    for (const move of sequence) expect(legal).toContain(move);
    always.reseed(42);
    const again: string[] = [];
    for (let i = 0; i < 30; i++) again.push(await always.chooseMove(capture));
    expect(again).toEqual(sequence);
  });

  it('builds a Stockfish player named by its canonical spec that plays legal moves', async () => {
    const stockfish = await createOpponent(parseOpponentSpec('stockfish:depth=2'), { seed: 1 });
    try {
      expect(stockfish.name).toBe('stockfish:skill=0,depth=2');
      const moves = await playOut(stockfish, new RandomPlayer(5), 12);
      expectFullOrFinished(moves, 12);
    } finally {
      await stockfish.close();
    }
  });

  it('passes morph and ab specs to the injected factories', async () => {
    const built: string[] = [];
    const stub = (name: string): GamePlayer => ({
      name,
      newGame: async () => {},
      chooseMove: async () => 'e2e4',
      close: async () => {},
    });
    const factories = {
      seed: 9,
      morphFactory: (spec: { dbPath: string }, context: { seed: number; name: string }) => {
        built.push(`morph ${spec.dbPath} ${context.seed} ${context.name}`);
        return stub(context.name);
      },
      alphaBetaFactory: async (spec: { body: string }, context: { seed: number; name: string }) => {
        built.push(`ab ${spec.body} ${context.seed}`);
        return stub(context.name);
      },
    };
    expect((await createOpponent(parseOpponentSpec('morph:x.db'), factories)).name).toBe('morph:x.db');
    expect((await createOpponent(parseOpponentSpec('ab:2'), factories)).name).toBe('ab:2');
    expect(built).toEqual(['morph x.db 9 morph:x.db', 'ab 2 9']);
  });

  it('says clearly when a factory is missing', async () => {
    await expect(createOpponent(parseOpponentSpec('morph:x.db'), { seed: 1 })).rejects.toThrow(
      'cannot create opponent "morph:x.db": no Morph player factory was given',
    );
    await expect(createOpponent(parseOpponentSpec('ab:1'), { seed: 1 })).rejects.toThrow(
      /no alpha-beta player factory/,
    );
  });

  it('refuses self-play outside training, as bad input', async () => {
    await expect(createOpponent(parseOpponentSpec('self'), { seed: 1 })).rejects.toThrow(/training opponent only/);
  });

  it('refuses a mix outside training, as bad input in one line', async () => {
    const failure = await createOpponent(parseOpponentSpec('mix:random;greedy'), { seed: 1 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MorphError);
    expect((failure as MorphError).exitCode).toBe(2);
    expect((failure as Error).message).toBe('"mix:random;greedy" (a mix of opponents) is for training only: morph train --opponent mix:...');
  });

  it('refuses a ladder outside training, as bad input in one line', async () => {
    const failure = await createOpponent(parseOpponentSpec('ladder:random@5;greedy'), { seed: 1 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MorphError);
    expect((failure as MorphError).exitCode).toBe(2);
    expect((failure as Error).message).toBe('"ladder:random@5;greedy" (a ladder of opponents) is for training only: morph train --opponent ladder:...');
  });

  it('rejects a uci engine path that does not exist, as bad input', async () => {
    const failure = await createOpponent(parseOpponentSpec('uci:/nonexistent/engine'), { seed: 1 }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(MorphError);
    expect((failure as MorphError).exitCode).toBe(2);
    expect((failure as Error).message).toBe('UCI engine not found or not executable: /nonexistent/engine');
  });

  it('runs any UCI binary given by path, with its options', async () => {
    const engine = fileURLToPath(new URL('./fixtures/fake-engine.mjs', import.meta.url)); // executable script
    const player = await createOpponent(parseOpponentSpec(`uci:${engine}:Skill Level=4`), { seed: 1 });
    try {
      expect(player.name).toBe(`uci:${engine}:depth=1,Skill Level=4`);
      await player.newGame();
      // The fake engine plays the first legal move in sorted order.
      expect(await player.chooseMove({ startFen: START, moves: [], fen: START })).toBe('a2a3');
    } finally {
      await player.close();
    }
  });

  it.skipIf(gnuchessPath() === null)('plays legal moves with gnuchess (skipped when it is not installed)', async () => {
    const gnuchess = await createOpponent(parseOpponentSpec('gnuchess'), { seed: 1 });
    try {
      expect(gnuchess.name).toBe('gnuchess:depth=1');
      const moves = await playOut(new RandomPlayer(3), gnuchess, 12);
      expectFullOrFinished(moves, 12);
    } finally {
      await gnuchess.close();
    }
  });

  it.skipIf(gnuchessPath() !== null)('says how to install gnuchess when it is missing', async () => {
    await expect(createOpponent(parseOpponentSpec('gnuchess'), { seed: 1 })).rejects.toThrow(
      'gnuchess is not installed: run `apt-get install -y gnuchess`',
    );
  });
});
