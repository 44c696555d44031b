import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Chess } from 'chess.js';
import { measureAgreement, measureQuality, positionQuality, shareWithInterval, topShare } from '../src/agree/metrics.ts';
import { parseLabelledPositions } from '../src/agree/positions.ts';
import { alphaBetaRanker, greedyRanker } from '../src/agree/rankers.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { runMorph } from './helpers/cli.ts';
import { applyMove, boardFromFen, cloneBoard } from '../src/chess/board.ts';
import { gameStatus, generateLegalMoves } from '../src/chess/movegen.ts';

const FIXTURE = fileURLToPath(new URL('./fixtures/agreement.jsonl', import.meta.url));

let tempDir: string;
beforeAll(() => {
  tempDir = mkdtempSync(join(tmpdir(), 'morph-agree-'));
});
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));


const fixtureLines = () =>
  readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { fen: string; best: string });

/** The random filter's exact expectation, from chess.js's legal move counts. */
function randomExpectation(fens: string[]) {
  const legal = fens.map((fen) => new Chess(fen).moves().length);
  const mean = (f: (n: number) => number) => legal.reduce((sum, n) => sum + f(n), 0) / legal.length;
  return {
    top1: mean((n) => 1 / n),
    top4: mean((n) => Math.min(4, n) / n),
    topThird: mean((n) => Math.ceil(n / 3) / n),
  };
}

function expectShares(actual: Record<string, number>, expected: Record<string, number>) {
  for (const key of ['top1', 'top4', 'topThird']) expect(actual[key], key).toBeCloseTo(expected[key], 12);
}

const positionsOf = (rows: { fen: string; best: string }[]) =>
  parseLabelledPositions(rows.map((row, i) => ({ number: i + 1, text: JSON.stringify(row) }))).positions;

// Labelled best moves that are free captures, the most valuable capture on the board.
const FREE_CAPTURES = [
  { fen: '3r2k1/5pp1/7p/8/8/8/5PPP/3Q2K1 w - - 0 1', best: 'd1d8' }, // queen takes an undefended rook
  { fen: '4k3/8/8/3Q4/8/4n3/8/4K3 b - - 0 1', best: 'e3d5' }, // knight takes a loose queen
  { fen: '4k3/8/8/8/2r1b3/3P4/8/4K3 w - - 0 1', best: 'd3c4' }, // pawn takes the rook, not the bishop
];

describe('tie-aware top-m shares', () => {
  it('gives the chance of landing in the top m under a random order among ties', () => {
    const scores = [
      { move: 'a', value: 3 },
      { move: 'b', value: 1 },
      { move: 'c', value: 1 },
      { move: 'd', value: 1 },
      { move: 'e', value: 0 },
    ];
    // c shares ranks 2..4 with b and d.
    expect([1, 2, 3, 4, 5].map((m) => topShare(scores, 'c', m))).toEqual([0, 1 / 3, 2 / 3, 1, 1]);
    expect(topShare(scores, 'a', 1)).toBe(1);
    expect(topShare(scores, 'e', 4)).toBe(0);
    expect(topShare(scores, 'e', 5)).toBe(1);
  });

  it('ranks a quiet best move among greedy ties by expectation', () => {
    // Seven legal moves: d3xc4 wins a rook, the six quiet moves (e1e2 among them) tie at 0 below it.
    const fen = '4k3/8/8/8/2r5/3P4/8/4K3 w - - 0 1';
    expect(new Chess(fen).moves().length).toBe(7);
    const report = measureAgreement(positionsOf([{ fen, best: 'e1e2' }]), greedyRanker());
    expect(report.top1).toBe(0);
    expect(report.top4).toBeCloseTo(3 / 6, 15); // ranks 2..7: the top 4 keeps 3 of those 6 places
    expect(report.topThird).toBeCloseTo(2 / 6, 15); // ceil(7/3) = 3 places, 2 of them among the ties
    expect(measureAgreement(positionsOf([{ fen, best: 'd3c4' }]), greedyRanker()).top1).toBe(1);
  });
});

describe('morph agree', () => {
  it('with --ranker random is exactly the random expectation', async () => {
    const { code, stdout, stderr } = await runMorph(['agree', '--positions', FIXTURE, '--ranker', 'random', '--json']);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout);
    const rows = fixtureLines();
    expect(rows.length).toBeGreaterThanOrEqual(300);
    expect(report).toMatchObject({ ranker: 'random', positions: rows.length, skipped: 0 });
    expectShares(report, randomExpectation(rows.map((row) => row.fen)));
    expectShares(report.random, randomExpectation(rows.map((row) => row.fen)));
  });

  it('gives greedy and alpha-beta top1 = 1 where the best move is a free capture', async () => {
    const file = join(tempDir, 'captures.jsonl');
    writeFileSync(file, FREE_CAPTURES.map((row) => JSON.stringify(row)).join('\n') + '\n');
    const { code, stdout, stderr } = await runMorph(['agree', '--positions', file, '--ranker', 'greedy', '--json']);
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ positions: 3, top1: 1, top4: 1, topThird: 1 });
    expect(measureAgreement(positionsOf(FREE_CAPTURES), alphaBetaRanker('ab:1')).top1).toBe(1);
  });

  it('with an empty Morph database equals the random expectation (positions without mate in one)', async () => {
    const dbPath = join(tempDir, 'empty.db');
    PatternStore.open(dbPath).close();
    // Played one ply, an empty database values every move .5 except a mating one (1): leave out positions with
    // a mate in one. (Looking at captures it would also avoid moves that allow a mate by capture.)
    const mateInOne = (fen: string) => {
      const board = boardFromFen(fen);
      const next = cloneBoard(board);
      return generateLegalMoves(board).some((move) => {
        applyMove(board, move, next);
        return gameStatus(next) === 'checkmate';
      });
    };
    const rows = fixtureLines().filter((row) => !mateInOne(row.fen));
    expect(rows.length).toBeGreaterThan(300);
    const file = join(tempDir, 'no-mates.jsonl');
    writeFileSync(file, rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
    const { code, stdout, stderr } = await runMorph(['agree', '--positions', file, '--db', dbPath, '--search', 'one-ply', '--json']);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({ ranker: `morph:${dbPath} (search=one-ply)`, positions: rows.length });
    expectShares(report, randomExpectation(rows.map((row) => row.fen)));
  });

  it('reports bad lines by number, skips them and exits 2', async () => {
    const start = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
    const lines = [
      JSON.stringify({ fen: start, best: 'e2e4' }),
      'not json',
      JSON.stringify({ fen: start }),
      JSON.stringify({ fen: '8/8/8/8/8/8/8/8 w - - 0 1', best: 'e2e4' }),
      JSON.stringify({ fen: start, best: 'e2e5' }),
      JSON.stringify({ fen: 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3', best: 'e2e4' }),
      '[1, 2]',
      JSON.stringify(FREE_CAPTURES[0]),
    ];
    const file = join(tempDir, 'bad.jsonl');
    writeFileSync(file, lines.join('\n') + '\n');
    const { code, stdout, stderr } = await runMorph(['agree', '--positions', file, '--ranker', 'greedy', '--json']);
    expect(code).toBe(2);
    expect(JSON.parse(stdout)).toMatchObject({ positions: 2, skipped: 6, top1: (1 / 20 + 1) / 2 });
    const errors = stderr.trim().split('\n');
    expect(errors.map((line) => /^morph: line (\d+): /.exec(line)?.[1])).toEqual(['2', '3', '4', '5', '6', '7']);
    expect(errors[1]).toMatch(/no best move/);
    expect(errors[3]).toMatch(/best move "e2e5" is not legal/);
    expect(errors[4]).toMatch(/no legal move/);
  });

  it('needs --db or --ranker, and checks every ranker spec before measuring', async () => {
    const neither = await runMorph(['agree', '--positions', FIXTURE]);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toBe('morph: give --db FILE or --ranker SPEC (or both)\n');
    const bad = await runMorph(['agree', '--positions', FIXTURE, '--ranker', 'greedy', '--ranker', 'ab:x']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
  });
});

const SCORED = fileURLToPath(new URL('../positions/move-scores.jsonl', import.meta.url));
const scoredRows = () =>
  readFileSync(SCORED, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { fen: string; best: string; scores: Record<string, number> });

/** Lichess's win chance, written out here independently of src/agree/winChance.ts. */
const lichessWinChance = (cp: number) => {
  const clamped = Math.max(-1000, Math.min(1000, cp));
  return 50 + 50 * (2 / (1 + Math.exp(-0.00368208 * clamped)) - 1);
};

describe('move quality on positions scored move by move', () => {
  it('the fixture scores every legal move (chess.js) and names the top-scored move best', () => {
    const rows = scoredRows();
    expect(rows.length).toBeGreaterThanOrEqual(300);
    // Every fourth position against chess.js (all of them take half a minute on a busy machine).
    for (const row of rows.filter((_, i) => i % 4 === 0)) {
      const legal = new Chess(row.fen).moves({ verbose: true }).map((m) => m.from + m.to + (m.promotion ?? ''));
      expect(Object.keys(row.scores).sort()).toEqual(legal.sort());
      expect(row.scores[row.best]).toBe(Math.max(...Object.values(row.scores)));
    }
  });

  it('random play loses exactly the mean over all legal moves; the shares count moves losing >= 10/20/30', async () => {
    const rows = scoredRows();
    const expected = { meanLoss: 0, inaccuracy: 0, mistake: 0, blunder: 0 };
    for (const row of rows) {
      const values = Object.values(row.scores);
      const best = lichessWinChance(Math.max(...values));
      const losses = values.map((cp) => best - lichessWinChance(cp));
      expected.meanLoss += losses.reduce((a, b) => a + b, 0) / losses.length / rows.length;
      expected.inaccuracy += losses.filter((l) => l >= 10).length / losses.length / rows.length;
      expected.mistake += losses.filter((l) => l >= 20).length / losses.length / rows.length;
      expected.blunder += losses.filter((l) => l >= 30).length / losses.length / rows.length;
    }
    const { code, stdout, stderr } = await runMorph(['agree', '--positions', SCORED, '--ranker', 'random', '--ranker', 'ab:2', '--json']);
    expect(code, stderr).toBe(0);
    const [random, alphaBeta] = stdout.trim().split('\n').map((line) => JSON.parse(line));
    for (const key of ['meanLoss', 'inaccuracy', 'mistake', 'blunder'] as const) {
      expect(random.quality[key], key).toBeCloseTo(expected[key], 9);
      const [low, high] = random.quality.intervals[key];
      expect(low).toBeLessThan(random.quality[key]);
      expect(high).toBeGreaterThan(random.quality[key]);
    }
    expect(random.quality.positions).toBe(rows.length);
    // Two plies of material search lose clearly less than a random move, beyond both intervals.
    expect(alphaBeta.quality.intervals.meanLoss[1]).toBeLessThan(random.quality.intervals.meanLoss[0]);
    expect(alphaBeta.quality.blunder).toBeLessThan(random.quality.blunder);
  });

  it('a share interval is Wilson\'s: never a point at 0 or 1', () => {
    const zero = shareWithInterval(new Array(100).fill(0));
    expect(zero.mean).toBe(0);
    expect(zero.interval[0]).toBeCloseTo(0, 15);
    expect(zero.interval[1]).toBeCloseTo(1.959963984540054 ** 2 / (100 + 1.959963984540054 ** 2), 12);
    const half = shareWithInterval([0, 1, 0.5, 0.5]);
    expect(half.mean).toBe(0.5);
    expect(half.interval[0] + half.interval[1]).toBeCloseTo(1, 12);
  });

  it('measures the quality of a ranker that scores only the moves it chooses among, and refuses it agreement', () => {
    // A partial ranker that chooses the second-best-scored move and leaves the engine's best move out: move quality
    // needs only its choice (a full-width search's game move; training's checkpoint judge crashed on such positions).
    const rows = scoredRows().slice(0, 20);
    const second = (scores: Record<string, number>) => Object.entries(scores).sort((a, b) => b[1] - a[1])[1][0];
    const partial = {
      name: 'second best only',
      partial: true,
      score: (fen: string) => [{ move: second(rows.find((row) => row.fen === fen)!.scores), value: 1 }],
      close: () => {},
    };
    const positions = parseLabelledPositions(rows.map((row, i) => ({ number: i + 1, text: JSON.stringify(row) }))).positions;
    const quality = measureQuality(positions, partial)!;
    const expected = rows.map((row) => {
      const best = Math.max(...Object.values(row.scores));
      return lichessWinChance(best) - lichessWinChance(row.scores[second(row.scores)]);
    });
    expect(quality.positions).toBe(rows.length);
    expect(quality.meanLoss).toBeCloseTo(expected.reduce((a, b) => a + b, 0) / expected.length, 9);
    expect(() => measureAgreement(positions, partial)).toThrow(/scores only the moves it chooses among/);
  });

  it("reads move quality from the moves a ranker plays among when its full ranking puts another first (a late-move reduction's)", () => {
    // The full ranking puts the engine's best move first; the game move's search plays the second best. The shares
    // read the ranking, move quality the move played.
    const rows = scoredRows().slice(0, 20);
    const ordered = (scores: Record<string, number>) => Object.entries(scores).sort((a, b) => b[1] - a[1]).map(([move]) => move);
    const scoresOf = (fen: string) => rows.find((row) => row.fen === fen)!.scores;
    const ranker = {
      name: 'ranks the best first, plays the second',
      score: (fen: string) => ordered(scoresOf(fen)).map((move, i) => ({ move, value: -i })),
      chooseAmong: (fen: string) => [{ move: ordered(scoresOf(fen))[1], value: 1 }],
      close: () => {},
    };
    const positions = parseLabelledPositions(rows.map((row, i) => ({ number: i + 1, text: JSON.stringify(row) }))).positions;
    const secondLoss = rows.map((row) => {
      const [best, second] = ordered(row.scores);
      return lichessWinChance(row.scores[best]) - lichessWinChance(row.scores[second]);
    });
    const meanSecondLoss = secondLoss.reduce((a, b) => a + b, 0) / secondLoss.length;
    expect(meanSecondLoss).toBeGreaterThan(0);
    const report = measureAgreement(positions, ranker);
    expect(report.quality!.meanLoss).toBeCloseTo(meanSecondLoss, 9);
    expect(measureQuality(positions, ranker)!.meanLoss).toBeCloseTo(meanSecondLoss, 9);
    const { chooseAmong: _, ...rankingOnly } = ranker;
    expect(measureAgreement(positions, rankingOnly).quality!.meanLoss).toBeCloseTo(0, 9);
  });

  it('scores ties as a random choice among the tied top moves', () => {
    const scores = new Map([['a', 0], ['b', -300], ['c', 100]]);
    const quality = positionQuality([{ move: 'a', value: 1 }, { move: 'b', value: 1 }, { move: 'c', value: 0 }], scores);
    const lossA = lichessWinChance(100) - lichessWinChance(0);
    const lossB = lichessWinChance(100) - lichessWinChance(-300);
    expect(quality.meanLoss).toBeCloseTo((lossA + lossB) / 2, 12);
    expect(quality.blunder).toBe(lossB >= 30 ? 0.5 : 0);
    expect(quality.inaccuracy).toBe(0.5 + (lossA >= 10 ? 0.5 : 0));
  });
});

describe('EPD input', () => {
  it('reads bm in SAN or UCI, with or without the move counters, and reports a line without bm', () => {
    const lines = [
      '3r2k1/5pp1/7p/8/8/8/5PPP/3Q2K1 w - - bm Qxd8+; id "free rook";',
      '4k3/8/8/3Q4/8/4n3/8/4K3 b - - 0 1 bm e3d5; id "loose queen";',
      '4k3/8/8/8/2r1b3/3P4/8/4K3 w - - id "no best move";',
    ];
    const { positions, problems } = parseLabelledPositions(lines.map((text, i) => ({ number: i + 1, text })));
    expect(positions.map((p) => [p.fen, p.best])).toEqual([
      ['3r2k1/5pp1/7p/8/8/8/5PPP/3Q2K1 w - - 0 1', 'd1d8'],
      ['4k3/8/8/3Q4/8/4n3/8/4K3 b - - 0 1', 'e3d5'],
    ]);
    expect(problems).toEqual([{ line: 3, message: 'no best move ("best" or EPD "bm")' }]);
  });
});
