import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Chess } from 'chess.js';
import { eloEstimate, eloFromScoreFraction, Z_95 } from '../src/match/elo.ts';
import { firstPlayerPoints, firstPlaysWhite, gameSeed, pentanomialOf, runMatch, type MatchGame } from '../src/match/match.ts';
import { DEFAULT_OPENINGS, parseEpd, parsePgnOpenings, readOpenings, shuffleOpenings } from '../src/match/openings.ts';
import { outcomeStatistics, pentanomial } from '../src/match/outcomes.ts';
import { sprtLlr } from '../src/match/sprt.ts';
import { START_FEN } from '../src/chess/fen.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { runMorph } from './helpers/cli.ts';
import { getMeta } from '../src/store/meta.ts';

const FLAKY_ENGINE = fileURLToPath(new URL('./fixtures/flaky-engine.mjs', import.meta.url));

let tempDir: string;
beforeAll(() => {
  tempDir = mkdtempSync(join(tmpdir(), 'morph-match-'));
});
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));


const startOnly = [{ fen: START_FEN, moves: [], index: 1 }];
const baseOptions = { games: 4, seed: 9, maxPlies: 60, maxFailures: 3, openings: startOnly, openingsSource: 'start' };
const outcomes = (results: MatchGame[]) => results.map((r) => [r.white, r.black, r.result, r.reason, r.plies]);

describe('the Elo estimate', () => {
  it('is 0 at an even score and follows -400·log10(1/p - 1)', () => {
    expect(eloFromScoreFraction(0.5)).toBe(0);
    expect(eloFromScoreFraction(0.75)).toBeCloseTo(400 * Math.log10(3), 10);
    const even = eloEstimate({ wins: 3, draws: 4, losses: 3 });
    expect(even.elo).toBe(0);
    expect(even.low).toBeCloseTo(-even.high, 10);
    expect(even.high).toBeGreaterThan(0);
  });

  it('takes its interval from the standard error of the per-game score', () => {
    // 10 wins, 10 losses: p = .5, per-game sd .5, standard error .5/sqrt(20).
    const estimate = eloEstimate({ wins: 10, draws: 0, losses: 10 });
    const upper = 0.5 + (Z_95 * 0.5) / Math.sqrt(20);
    expect(estimate.high).toBeCloseTo(-400 * Math.log10(1 / upper - 1), 9);
    // All draws do not vary: a point interval.
    expect(eloEstimate({ wins: 0, draws: 5, losses: 0 })).toMatchObject({ elo: 0, low: 0, high: 0 });
  });

  it('is antisymmetric between the players and its interval contains the estimate', () => {
    const results = [
      { wins: 7, draws: 2, losses: 1 },
      { wins: 1, draws: 0, losses: 5 },
      { wins: 2, draws: 3, losses: 2 },
      { wins: 12, draws: 0, losses: 0 },
      { wins: 0, draws: 1, losses: 0 },
      { wins: 50, draws: 30, losses: 20 },
    ];
    for (const score of results) {
      const estimate = eloEstimate(score);
      const mirror = eloEstimate({ wins: score.losses, draws: score.draws, losses: score.wins });
      expect(mirror.elo).toBeCloseTo(-estimate.elo, 9);
      expect(mirror.low).toBeCloseTo(-estimate.high, 9);
      expect(estimate.low).toBeLessThanOrEqual(estimate.elo);
      expect(estimate.high).toBeGreaterThanOrEqual(estimate.elo);
    }
  });

  it('gives finite bounds for 0% and 100%, scoring a sweep as if one game were drawn', () => {
    const sweep = eloEstimate({ wins: 6, draws: 0, losses: 0 });
    expect(sweep.clamped).toBe(true);
    expect(sweep.scoreFraction).toBe(1);
    // p clamped to 1 - 1/(2N) = 11/12: Elo = 400·log10(11).
    expect(sweep.elo).toBeCloseTo(400 * Math.log10(11), 9);
    expect(Number.isFinite(sweep.low) && Number.isFinite(sweep.high)).toBe(true);
    expect(sweep.high).toBeCloseTo(sweep.elo, 9);
    expect(sweep.low).toBeLessThan(sweep.elo - 50);
    const whitewash = eloEstimate({ wins: 0, draws: 0, losses: 6 });
    expect(whitewash.elo).toBeCloseTo(-sweep.elo, 9);
    expect(whitewash.high).toBeCloseTo(-sweep.low, 9);
    // More games make a sweep say more.
    expect(eloEstimate({ wins: 60, draws: 0, losses: 0 }).low).toBeGreaterThan(sweep.low);
  });
});

describe('match scheduling', () => {
  it('reverses colours within each pair and scores from the first player', () => {
    expect([0, 1, 2, 3].map((i) => firstPlaysWhite(i))).toEqual([true, false, true, false]);
    expect(firstPlayerPoints('1-0', true)).toBe(1);
    expect(firstPlayerPoints('1-0', false)).toBe(0);
    expect(firstPlayerPoints('0-1', false)).toBe(1);
    expect(firstPlayerPoints('1/2-1/2', false)).toBe(0.5);
  });

  it('derives distinct seeds per game and side', () => {
    const seeds = new Set<number>();
    for (let game = 0; game < 50; game++) for (const side of [0, 1]) seeds.add(gameSeed(1, game, side));
    expect(seeds.size).toBe(100);
    expect(gameSeed(1, 3, 0)).toBe(gameSeed(1, 3, 0));
    expect(gameSeed(2, 3, 0)).not.toBe(gameSeed(1, 3, 0));
  });

  it('repeats from its seed, and random players vary between games', async () => {
    const play = async (seed: number) => {
      const movetexts: string[] = [];
      const summary = await runMatch({
        ...baseOptions, seed, first: 'random', second: 'ab:1,t=0.5',
        onGame: (_game, pgn) => movetexts.push(pgn.slice(pgn.lastIndexOf(']') + 1)),
      });
      return { outcomes: outcomes(summary.results), movetexts };
    };
    const once = await play(9);
    expect(await play(9)).toEqual(once);
    expect(new Set(once.movetexts).size).toBe(4);
    const other = await play(10);
    expect(other.movetexts.some((text) => once.movetexts.includes(text))).toBe(false);
  });
});

describe('opening suites', () => {
  it('reads EPD with move counters, and full FENs', () => {
    const openings = parseEpd(
      [
        'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 hmvc 0; fmvn 1; ce 20; id "x";',
        '',
        'rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2',
      ].join('\n'),
    );
    expect(openings.map((o) => [o.fen, o.index])).toEqual([
      ['rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1', 1],
      ['rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2', 3],
    ]);
  });

  it('rejects a bad EPD line by number', () => {
    expect(() => parseEpd('8/8/8/8/8/8/8/8 w - -\nnonsense', 'x.epd')).toThrow(/^x\.epd line 1: /);
    expect(() => parseEpd('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nnonsense', 'x.epd')).toThrow(/x\.epd line 2/);
  });

  it('reads PGN openings through chess.js, from a FEN tag when there is one', () => {
    const pgn = [
      '[Event "a"]\n\n1. e4 c5 2. Nf3 *',
      '[Event "b"]\n[SetUp "1"]\n[FEN "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"]\n\n1. a8=Q+ Kd7 *',
    ].join('\n\n');
    const openings = parsePgnOpenings(pgn);
    expect(openings).toEqual([
      { fen: START_FEN, moves: ['e2e4', 'c7c5', 'g1f3'], index: 1 },
      { fen: '4k3/P7/8/8/8/8/8/4K3 w - - 0 1', moves: ['a7a8q', 'e8d7'], index: 2 },
    ]);
    expect(() => parsePgnOpenings('[Event "a"]\n\n1. e4 e4 *', 'bad.pgn')).toThrow(/bad\.pgn game 1/);
  });

  it('ships a default suite of a few hundred balanced, distinct openings', () => {
    const openings = readOpenings(DEFAULT_OPENINGS);
    expect(openings.length).toBeGreaterThanOrEqual(200);
    expect(new Set(openings.map((o) => o.fen)).size).toBe(openings.length);
    // Every line records Stockfish's score; all are near equal.
    const text = readFileSync(DEFAULT_OPENINGS, 'utf8').trim().split('\n');
    for (const line of text) expect(Math.abs(Number(/ ce (-?\d+);/.exec(line)![1]))).toBeLessThanOrEqual(50);
    for (const opening of openings.slice(0, 20)) expect(() => new Chess(opening.fen)).not.toThrow();
  });

  it('is shuffled by the seed, repeatably', () => {
    const openings = readOpenings(DEFAULT_OPENINGS);
    const a = shuffleOpenings(openings, 1).map((o) => o.index);
    expect(shuffleOpenings(openings, 1).map((o) => o.index)).toEqual(a);
    expect(shuffleOpenings(openings, 2).map((o) => o.index)).not.toEqual(a);
    expect([...a].sort((x, y) => x - y)).toEqual(openings.map((o) => o.index));
  });
});

describe('pairs, repeats, SPRT and concurrency', () => {
  it('folds game results into pairs, leaving an incomplete pair out', () => {
    // Pair 0: win + loss (1 point); pair 1: win + draw (1.5); game 4 alone.
    const points = new Map([[0, 1], [1, 0], [2, 1], [3, 0.5], [4, 1]]);
    expect(pentanomialOf(points)).toEqual([0, 0, 1, 1, 0]);
  });

  it('warns when deterministic players repeat games, and the suite keeps them apart', async () => {
    // Stockfish at full skill is deterministic; two different depths, so a pair's two games differ.
    const [deterministic, deeper] = ['stockfish:skill=20,depth=1', 'stockfish:skill=20,depth=2'];
    const oneOpening = join(tempDir, 'one.epd');
    writeFileSync(oneOpening, 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0; fmvn 1;\n');
    const repeated = await runMorph([
      'match', '--white', deterministic, '--black', deeper, '--games', '4', '--openings', oneOpening,
      '--seed', '1', '--max-plies', '16', '--json', '--no-progress',
    ]);
    expect(repeated.code, repeated.stderr).toBe(0);
    const summary = JSON.parse(repeated.stdout);
    expect(summary.distinctGames).toBe(2);
    expect(summary.warnings[0]).toMatch(/only 2 distinct games among 4/);
    expect(repeated.stderr).toMatch(/warning: only 2 distinct games/);
    // The same players over the default suite: every game differs.
    const varied = await runMatch({
      ...baseOptions, first: deterministic, second: deeper, games: 4, maxPlies: 16,
      openings: readOpenings(DEFAULT_OPENINGS), openingsSource: 'default',
    });
    expect(varied.distinctGames).toBe(4);
  });

  it('stops when the SPRT decides, with the LLR of the pairs played', async () => {
    const summary = await runMatch({
      ...baseOptions, first: 'ab:1', second: 'random', games: 200, maxPlies: 200,
      openings: readOpenings(DEFAULT_OPENINGS), openingsSource: 'default',
      sprt: { elo0: 0, elo1: 200, alpha: 0.05, beta: 0.05, model: 'logistic' },
    });
    expect(summary.stopReason).toBe('sprt');
    expect(summary.sprt!.decision).toBe('H1');
    expect(summary.games).toBeLessThan(200);
    expect(summary.sprt!.llr).toBeGreaterThanOrEqual(summary.sprt!.upper);
    expect(summary.sprt!.llr).toBe(sprtLlr(pentanomial(summary.pentanomial), 0, 200, 'logistic'));
    expect(summary.games % 2).toBe(0); // it decides after a pair
    expect(summary.pairs).toEqual(outcomeStatistics(pentanomial(summary.pentanomial)));
  });

  it('plays the same games at any concurrency', async () => {
    const options = {
      ...baseOptions, first: 'ab:1,t=0.5', second: 'random', games: 6, seed: 5,
      openings: readOpenings(DEFAULT_OPENINGS), openingsSource: 'default',
    };
    const one = await runMatch(options);
    const three = await runMatch({ ...options, concurrency: 3 });
    expect(three.concurrency).toBe(3);
    expect(outcomes(three.results)).toEqual(outcomes(one.results));
    expect(three.pentanomial).toEqual(one.pentanomial);
  });
});

describe('morph match', () => {
  it('plays greedy against random: counts add up, colours alternate, the PGNs re-read', async () => {
    const { code, stdout, stderr } = await runMorph([
      'match', '--white', 'greedy', '--black', 'random', '--games', '6', '--json', '--seed', '4',
    ]);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/game 6\/6/);
    const summary = JSON.parse(stdout);
    expect(summary).toMatchObject({ first: 'greedy', second: 'random', games: 6, failures: 0, stopReason: 'completed' });
    expect(summary.wins + summary.draws + summary.losses).toBe(6);
    expect(summary.points).toBe(summary.wins + summary.draws / 2);
    expect(summary.asWhite.wins + summary.asBlack.wins).toBe(summary.wins);
    expect(summary.asWhite.losses + summary.asBlack.losses).toBe(summary.losses);
    expect(Object.values(summary.reasons as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(6);
    expect(summary.elo.low).toBeLessThanOrEqual(summary.elo.elo);
    expect(summary.elo.high).toBeGreaterThanOrEqual(summary.elo.elo);
    expect(summary.pgn).toHaveLength(6);
    let plies = 0;
    let points = 0;
    summary.results.forEach((game: MatchGame, i: number) => {
      expect(game.firstIsWhite).toBe(i % 2 === 0);
      expect([game.white, game.black]).toEqual(i % 2 === 0 ? ['greedy', 'random'] : ['random', 'greedy']);
      const chess = new Chess();
      chess.loadPgn(summary.pgn[i]);
      const headers = chess.getHeaders();
      expect([headers.White, headers.Black, headers.Result, headers.Round]).toEqual([
        game.white, game.black, game.result, String(i + 1),
      ]);
      expect(chess.history().length).toBe(game.plies);
      if (game.reason === 'checkmate') expect(chess.isCheckmate()).toBe(true);
      if (game.reason === 'stalemate') expect(chess.isStalemate()).toBe(true);
      plies += game.plies;
      points += firstPlayerPoints(game.result, game.firstIsWhite);
    });
    expect(summary.averagePlies).toBeCloseTo(plies / 6, 9);
    expect(points).toBe(summary.points);
    // Both games of a pair start from the same opening of the default suite; different pairs from different ones.
    const fens = summary.pgn.map((pgn: string) => /\[FEN "([^"]+)"\]/.exec(pgn)![1]);
    expect(fens[0]).toBe(fens[1]);
    expect(fens[2]).toBe(fens[3]);
    expect(new Set(fens).size).toBe(3);
    expect(summary.openings).toMatchObject({ count: readOpenings(DEFAULT_OPENINGS).length, used: 3 });
    // The pentanomial counts fold the pairs' results.
    const pairPoints = [0, 2, 4].map(
      (i) => firstPlayerPoints(summary.results[i].result, true) + firstPlayerPoints(summary.results[i + 1].result, false),
    );
    const expected = [0, 0, 0, 0, 0];
    for (const p of pairPoints) expected[p * 2]++;
    expect(summary.pentanomial).toEqual(expected);
    expect(summary.completePairs).toBe(3);
    expect(summary.distinctGames).toBe(6);
    expect(summary.drawRatio).toBeCloseTo(summary.draws / 6, 12);
  });

  it('reads a Morph database without changing it', async () => {
    const dbPath = join(tempDir, 'morph.db');
    PatternStore.open(dbPath).close();
    const gamesPlayed = () => {
      const store = PatternStore.open(dbPath, { readonly: true });
      const value = getMeta(store.db, 'games_played');
      store.close();
      return value;
    };
    const gamesBefore = gamesPlayed();
    const bytes = readFileSync(dbPath);
    const modified = statSync(dbPath).mtimeMs;
    const pgnPath = join(tempDir, 'morph.pgn');
    const { code, stdout, stderr } = await runMorph([
      'match', '--white', `morph:${dbPath}`, '--black', 'greedy', '--games', '2', '--max-plies', '40',
      '--seed', '1', '--pgn', pgnPath, '--no-progress',
    ]);
    expect(code, stderr).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/W\/D\/L \d+\/\d+\/\d+, score/);
    expect(readFileSync(pgnPath, 'utf8').match(/\[Event "Morph match"\]/g)).toHaveLength(2);
    expect(readFileSync(dbPath).equals(bytes)).toBe(true);
    expect(statSync(dbPath).mtimeMs).toBe(modified);
    expect(gamesPlayed()).toBe(gamesBefore);
  });

  it('discards a game in which an engine crashed, restarts it and counts the failure', async () => {
    const engine = join(tempDir, 'flaky.sh');
    writeFileSync(engine, `#!/bin/sh\nexec "${process.execPath}" "${FLAKY_ENGINE}" 8 "${join(tempDir, 'crashed')}"\n`);
    chmodSync(engine, 0o755);
    const summary = await runMatch({ ...baseOptions, games: 2, maxPlies: 30, first: 'greedy', second: `uci:${engine}` });
    expect(summary).toMatchObject({ games: 2, failures: 1, stopReason: 'completed' });
    expect(summary.lastFailure).toMatch(/exited with code 3/);
    expect(summary.results.map((r) => r.round)).toEqual([1, 2]);
  });

  it('rejects a bad player spec with a one-line error', async () => {
    const { code, stdout, stderr } = await runMorph(['match', '--white', 'bogus', '--black', 'random', '--games', '2']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^morph: bad opponent "bogus": unknown opponent "bogus"/);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });
});
