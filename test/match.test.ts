import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Chess } from 'chess.js';
import { eloEstimate, eloFromScoreFraction, Z_95 } from '../src/match/elo.ts';
import { firstPlayerPoints, firstPlaysWhite, gameSeed, runMatch, type MatchGame } from '../src/match/match.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { runMorph } from './helpers/cli.ts';
import { getMeta } from '../src/store/meta.ts';

const FLAKY_ENGINE = fileURLToPath(new URL('./fixtures/flaky-engine.mjs', import.meta.url));

let tempDir: string;
beforeAll(() => {
  tempDir = mkdtempSync(join(tmpdir(), 'morph-match-'));
});
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));


const baseOptions = { games: 4, swap: true, seed: 9, maxPlies: 60, maxFailures: 3 };
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
  it('alternates colours with --swap and scores from the first player', () => {
    expect([0, 1, 2, 3].map((i) => firstPlaysWhite(i, true))).toEqual([true, false, true, false]);
    expect([0, 1, 2].map((i) => firstPlaysWhite(i, false))).toEqual([true, true, true]);
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

describe('morph match', () => {
  it('plays greedy against random: counts add up, colours alternate, the PGNs re-read', async () => {
    const { code, stdout, stderr } = await runMorph([
      'match', '--white', 'greedy', '--black', 'random', '--games', '6', '--swap', '--json', '--seed', '4',
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
      'match', '--white', `morph:${dbPath}`, '--black', 'greedy', '--games', '2', '--swap', '--max-plies', '40',
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
