/**
 * The last lines of `morph train` (src/train/learned.ts): the fitted piece values, as `morph inspect material` finds
 * them, the pattern counts, and with --yardstick the move quality on a sample of the scored positions, now and at
 * the run's start, each the same as `morph agree` finds on the database as it was.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SCORED_POSITIONS } from '../src/train/checkpointJudge.ts';
import { learnedText, yardstickSample, YARDSTICK_POSITIONS, type Learned } from '../src/train/learned.ts';
import type { LabelledPosition } from '../src/agree/positions.ts';
import { runMorph } from './helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'morph-learned-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The first `count` shipped scored positions, as a file of their own (fewer than the sample: all of them are used). */
function fewPositions(count: number): string {
  const path = join(dir, `few-${count}.jsonl`);
  writeFileSync(path, readFileSync(SCORED_POSITIONS, 'utf8').split('\n').slice(0, count).join('\n') + '\n');
  return path;
}

/**
 * Four quick games against random, of 60 plies at most: long enough to leave material patterns to fit and relation
 * lessons (28 material patterns, 16 lessons). The default 300 plies took 5.6 s of processor time against 3.5 s, for
 * the same lines (2026-12-07).
 */
const quick = ['--games', '4', '--opponent', 'random', '--jobs', '1', '--seed', '5', '--max-plies', '60', '--no-policy', '--progress', 'none'];

/**
 * One run of `quick` on a fresh database, shared: both tests below start from it (the first reads what it printed,
 * the second trains on a copy of it), and the run is deterministic (one job, seed 5), so each sees what a run of its
 * own would give. Started by whichever test asks first (so either can run alone).
 */
let quickRun: Promise<{ db: string; code: number | null; stdout: string; stderr: string }> | undefined;
const trainedQuick = () =>
  (quickRun ??= (async () => {
    const db = join(dir, 'plain.db');
    return { db, ...(await runMorph(['train', '--db', db, ...quick])) };
  })());

async function agreeQuality(db: string, positions: string): Promise<{ meanLoss: number; blunder: number }> {
  const agree = await runMorph(['agree', '--db', db, '--positions', positions, '--json']);
  expect(agree.code, agree.stderr).toBe(0);
  return JSON.parse(agree.stdout).quality;
}

describe('morph train ends with what it learned', () => {
  it('names the piece values inspect material fits, the pattern counts and the relation terms', async () => {
    const train = await trainedQuick();
    const db = train.db;
    expect(train.code, train.stderr).toBe(0);
    // Reading what it learned leaves the database one file, as the run left it.
    expect(existsSync(`${db}-wal`) || existsSync(`${db}-shm`)).toBe(false);
    const lines = train.stdout.trim().split('\n');
    const [, pieces, materialCount, graphCount] =
      /^learned piece values, in (?:pawns|log-odds): (.*?)(?: \(textbook.*\)| \(no pawn's worth yet\)), from (\d+) material patterns; (\d+) graph patterns$/.exec(lines.at(-3)!)!;
    // The relation terms learned by default: from at most 4 positions a game, their largest weights named.
    const [, lessons] = /^relation terms learned from (\d+) positions; the largest, in log-odds for the side that just moved: .+ [+-]\d\.\d{3}$/.exec(lines.at(-2)!)!;
    expect(Number(lessons)).toBeGreaterThan(0);
    expect(lines.at(-1)).toBe(`(--yardstick adds its move quality on ${YARDSTICK_POSITIONS} scored positions, beside the run's start)`);
    const inspect = await runMorph(['inspect', 'material', '--db', db]);
    // inspect fits the same values from its table of the patterns: the same to the places shown.
    const inPawns = /in pawns: P 1\.0, (N -?[\d.]+, B -?[\d.]+, R -?[\d.]+, Q -?[\d.]+) \(traditionally/.exec(inspect.stdout);
    const inLogOdds = /in log-odds\): (P -?\d+\.\d\d, N -?\d+\.\d\d, B -?\d+\.\d\d, R -?\d+\.\d\d, Q -?\d+\.\d\d)/.exec(inspect.stdout)!;
    expect(pieces).toBe(inPawns ? inPawns[1] : inLogOdds[1]);
    const summary = await runMorph(['inspect', '--db', db, '--json']);
    const { byKind } = JSON.parse(summary.stdout).patterns;
    expect([Number(materialCount), Number(graphCount)]).toEqual([byKind.material, byKind.graph]);
  }, 60_000);

  it('with --yardstick, measures the move quality now and at the start as morph agree finds them, and keeps them in --json', async () => {
    const db = join(dir, 'yardstick.db');
    // Four positions: the yardstick and agree each take about half a second of processor time a position, and four
    // already tell the start from now (mean loss 24.1 at the start, 38.5 now).
    const positions = fewPositions(4);
    const first = await trainedQuick();
    expect(first.code, first.stderr).toBe(0);
    copyFileSync(first.db, db);
    const before = join(dir, 'before.db');
    copyFileSync(db, before);
    const train = await runMorph(['train', '--db', db, ...quick, '--yardstick', '--judge', positions, '--json']);
    expect(train.code, train.stderr).toBe(0);
    expect(existsSync(`${db}-wal`) || existsSync(`${db}-shm`)).toBe(false);
    const { learned } = JSON.parse(train.stdout) as { learned: Learned };
    expect(learned.yardstick).toMatchObject({ against: 'few-4', positions: 4 });
    const start = await agreeQuality(before, positions);
    const now = await agreeQuality(db, positions);
    expect(learned.yardstick!.start.meanLoss).toBeCloseTo(start.meanLoss, 9);
    expect(learned.yardstick!.start.blunder).toBeCloseTo(start.blunder, 9);
    expect(learned.yardstick!.now.meanLoss).toBeCloseTo(now.meanLoss, 9);
    expect(learned.yardstick!.now.lossLow).toBeLessThanOrEqual(now.meanLoss);
    expect(typeof learned.pieceValues.Q).toBe('number');
  }, 90_000);
});

describe('the yardstick and its text', () => {
  it('samples the scored positions evenly, the same ones every time', () => {
    const positions = Array.from({ length: 400 }, (_, i) => ({ fen: String(i) }) as unknown as LabelledPosition);
    const sample = yardstickSample(positions);
    expect(sample).toHaveLength(YARDSTICK_POSITIONS);
    expect(sample.slice(0, 3).map((p) => p.fen)).toEqual(['0', '6', '13']);
    expect(yardstickSample(positions.slice(0, 10))).toHaveLength(10);
  });

  it('counts in pawns only once a pawn is worth something, and shows both measures', () => {
    const base = { materialPatterns: 3, graphPatterns: 40 };
    const [early] = learnedText({ ...base, pieceValues: { P: 0, N: 0.5, B: 0, R: 0, Q: 1 } });
    expect(early).toBe('learned piece values, in log-odds: P 0.00, N 0.50, B 0.00, R 0.00, Q 1.00 (no pawn\'s worth yet), from 3 material patterns; 40 graph patterns');
    const figure = { meanLoss: 2.25, lossLow: 1.5, lossHigh: 3, blunder: 0.05 };
    const lines = learnedText({
      ...base,
      pieceValues: { P: 0.5, N: 1.5, B: 1.6, R: 2.5, Q: 4.5 },
      yardstick: { against: 'move-scores', positions: 60, now: figure, start: { ...figure, meanLoss: 12, blunder: 0.2 }, seconds: 5.8 },
    });
    expect(lines).toEqual([
      'learned piece values, in pawns: N 3.0, B 3.2, R 5.0, Q 9.0 (textbook 3, 3, 5, 9; a pawn 0.50 in log-odds), from 3 material patterns; 40 graph patterns',
      'move quality on 60 positions of move-scores: loses 2.3 [1.5, 3.0] win-chance points a move, blunders 5%; at the run\'s start 12.0 [1.5, 3.0], 20% (measured in 5.8 s)',
    ]);
  });

  it('names the relation terms once they have learned, largest first', () => {
    const lines = learnedText({
      materialPatterns: 3, graphPatterns: 40, pieceValues: { P: 0.5, N: 1.5, B: 1.6, R: 2.5, Q: 4.5 },
      relations: { lessons: 76, strongest: [{ pattern: 'toMove Q en prise', weight: 0.04 }, { pattern: 'moved Q unattacked', weight: -0.021 }] },
    });
    expect(lines[1]).toBe('relation terms learned from 76 positions; the largest, in log-odds for the side that just moved: toMove Q en prise +0.040; moved Q unattacked -0.021');
  });
});
