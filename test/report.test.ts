import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { learningSeries, movingWindow, thin, type GameRow } from '../src/report/series.ts';
import { writeReport, type ReportResult } from '../src/report/report.ts';
import { listPatterns } from '../src/inspect/patterns.ts';
import { withSnapshot } from '../src/inspect/source.ts';
import { openMorphDatabase } from '../src/store/database.ts';
import { TABLE_1, buildSampleDatabase, morph, type SampleDatabase } from './helpers/sampleDatabase.ts';

const CHROMIUM = '/usr/bin/chromium';
const GAMES = 25;
const tempDir = mkdtempSync(join(tmpdir(), 'morph-report-'));
let sample: SampleDatabase;
let report: ReportResult;

beforeAll(() => {
  sample = buildSampleDatabase(join(tempDir, 'sample.db'), GAMES);
  const result = morph(['report', '--db', sample.path, '--out', join(tempDir, 'report'), '--json']);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  report = JSON.parse(result.stdout) as ReportResult;
});
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));

describe('learning series', () => {
  const rows = (scores: number[]): GameRow[] => scores.map((score, i) => ({ game: i + 1, score, finalMaterial: score * 4 - 2, patterns: 10 + i }));

  it('gives trailing moving averages and cumulative averages, one point per game', () => {
    const scores = [1, 0, 0.5, 0.5, 1, 1, 0, 0];
    const series = learningSeries(rows(scores));
    expect(series.window).toBe(5);
    expect(series.scoreCumulative.map((p) => p.value)).toEqual(scores.map((_, i) => scores.slice(0, i + 1).reduce((a, b) => a + b) / (i + 1)));
    expect(series.scoreMoving.map((p) => p.value)).toEqual(
      scores.map((_, i) => {
        const window = scores.slice(Math.max(0, i - 4), i + 1);
        return window.reduce((a, b) => a + b) / window.length;
      }),
    );
    expect(series.materialCumulative.at(-1)!.value).toBeCloseTo((scores.reduce((a, b) => a + b) * 4) / scores.length - 2, 12);
    expect(series.patterns.map((p) => p.value)).toEqual(scores.map((_, i) => 10 + i));
    expect(series.scoreMoving.map((p) => p.game)).toEqual(scores.map((_, i) => i + 1));
  });

  it('skips games without material or pattern counts, and thins long runs', () => {
    const series = learningSeries([
      { game: 1, score: 1, finalMaterial: null, patterns: null },
      { game: 2, score: 0, finalMaterial: 3, patterns: 7 },
    ]);
    expect(series.scoreMoving).toHaveLength(2);
    expect(series.materialMoving).toEqual([{ game: 2, value: 3 }]);
    expect(series.patterns).toEqual([{ game: 2, value: 7 }]);
    const long = Array.from({ length: 5000 }, (_, i) => i);
    const kept = thin(long, 1500);
    expect(kept).toHaveLength(1500);
    expect(kept[0]).toBe(0);
    expect(kept.at(-1)).toBe(4999);
    expect(movingWindow(10)).toBe(5);
    expect(movingWindow(1000)).toBe(50);
    expect(movingWindow(100_000)).toBe(100);
  });
});

describe('morph report', () => {
  it('writes one self-contained page with the three charts, the material table and the strongest patterns', () => {
    expect(report.games).toBe(GAMES);
    expect(report.charts).toEqual([
      { id: 'chart-score', title: expect.stringContaining('score'), points: [GAMES, GAMES] },
      { id: 'chart-material', title: expect.stringContaining('material'), points: [GAMES, GAMES] },
      { id: 'chart-patterns', title: expect.stringContaining('patterns'), points: [GAMES] },
    ]);
    const expected = withSnapshot(sample.path, ({ db }) =>
      listPatterns(db, { sort: 'extremeness', kind: 'graph', minUpdates: 10, minSize: 2, limit: 12 }).rows.map((r) => r.id),
    );
    expect(report.drawnPatterns).toEqual(expected);
    expect(expected.length).toBeGreaterThan(3);

    const html = readFileSync(report.file, 'utf8');
    for (const id of ['summary', 'learning', 'growth', 'material', 'patterns', 'config']) expect(html).toContain(`<section id="${id}">`);
    // Nothing to fetch and nothing to run: the page works offline and from a file.
    expect(html).not.toMatch(/<script|<link|<img|\ssrc=|@import|url\(http/i);
    expect(html.match(/<tr data-pattern-id=/g)).toHaveLength(TABLE_1.length);
    expect(html.match(/<figure class="pattern"/g)).toHaveLength(expected.length);
  });

  it('still writes a page for a database without games', async () => {
    const empty = join(tempDir, 'empty.db');
    openMorphDatabase(empty).close();
    const result = await writeReport(empty, join(tempDir, 'empty-report'));
    expect(result.charts).toEqual([]);
    expect(result.games).toBe(0);
    expect(readFileSync(result.file, 'utf8')).toContain('No games recorded yet.');
  });

  it('fails in one line with exit code 2 when the output cannot be written', () => {
    const blocker = join(tempDir, 'a-file');
    writeFileSync(blocker, 'x');
    const result = morph(['report', '--db', sample.path, '--out', join(blocker, 'sub')]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^morph: cannot write the report to .*\n$/);
  });

  // Runs wherever Debian's chromium is installed, and always in CI (where a missing browser must fail).
  it.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('renders in a real headless browser without errors', async () => {
    const context = await chromium.launchPersistentContext(mkdtempSync(join(tempDir, 'chromium-profile-')), {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync',
      ],
      viewport: { width: 1200, height: 900 },
    });
    try {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
      page.on('request', (request) => {
        if (!request.url().startsWith('file:')) problems.push(`outside request: ${request.url()}`);
      });
      const response = await page.goto(pathToFileURL(report.file).href, { waitUntil: 'load' });
      expect(response?.ok()).toBe(true);

      // Each chart: one line path per series, one vertex per data point, as many as the page declares.
      const charts = await page.$$eval('figure.chart', (figures) =>
        figures.map((figure) => ({
          id: figure.id,
          declared: figure.getAttribute('data-points'),
          vertices: [...figure.querySelectorAll('g.mark-line path')].map((path) => (path.getAttribute('d') ?? '').match(/[ML]/g)?.length ?? 0),
          width: figure.querySelector('svg')!.getBoundingClientRect().width,
        })),
      );
      expect(charts.map((c) => c.id)).toEqual(['chart-score', 'chart-material', 'chart-patterns']);
      for (const chart of charts) {
        const expected = report.charts.find((c) => c.id === chart.id)!.points;
        expect(chart.vertices).toEqual(expected);
        expect(chart.declared).toBe(expected.join(','));
        expect(chart.width).toBeGreaterThan(300);
      }
      const boards = await page.$$eval('figure.pattern', (figures) =>
        figures.map((figure) => ({
          id: Number(figure.getAttribute('data-pattern-id')),
          nodes: figure.querySelectorAll('.pattern-node').length,
          squares: figure.querySelectorAll('.board rect').length,
          boardless: figure.querySelector('svg')!.getAttribute('data-board') === 'none',
          size: figure.querySelector('svg')!.getBoundingClientRect().width,
        })),
      );
      expect(boards.map((b) => b.id)).toEqual(report.drawnPatterns);
      for (const board of boards) {
        expect(board.nodes).toBeGreaterThanOrEqual(2);
        // 64 squares and the frame, plus tinted ranks or files; none for a pattern tied to no square.
        if (board.boardless) expect(board.squares).toBe(0);
        else expect(board.squares).toBeGreaterThanOrEqual(65);
        expect(board.size).toBeGreaterThan(200);
      }
      expect(boards.filter((b) => !b.boardless).length).toBeGreaterThan(0);
      expect(await page.locator('table.material tbody tr').count()).toBe(TABLE_1.length);

      // Screenshot check: what the browser painted, read back pixel by pixel.
      const screenshot = await page.screenshot({ fullPage: true, path: join(tempDir, 'report.png') });
      const chartShot = await page.locator('#chart-score').screenshot();
      const pixels = async (png: Buffer, rgb: [number, number, number]) =>
        page.evaluate(
          async ({ data, rgb }) => {
            const image = new Image();
            image.src = `data:image/png;base64,${data}`;
            await image.decode();
            const canvas = document.createElement('canvas');
            canvas.width = image.width;
            canvas.height = image.height;
            const context = canvas.getContext('2d')!;
            context.drawImage(image, 0, 0);
            const { data: bytes } = context.getImageData(0, 0, image.width, image.height);
            let nonWhite = 0;
            let matching = 0;
            for (let i = 0; i < bytes.length; i += 4) {
              if (bytes[i] < 235 || bytes[i + 1] < 235 || bytes[i + 2] < 235) nonWhite++;
              if (Math.abs(bytes[i] - rgb[0]) < 40 && Math.abs(bytes[i + 1] - rgb[1]) < 40 && Math.abs(bytes[i + 2] - rgb[2]) < 40) matching++;
            }
            return { width: image.width, height: image.height, nonWhite: nonWhite / (bytes.length / 4), matching };
          },
          { data: png.toString('base64'), rgb },
        );
      const page1 = await pixels(screenshot, [0xb5, 0x88, 0x63]); // the boards' dark squares
      expect(page1.width).toBe(1200);
      expect(page1.height).toBeGreaterThan(2000);
      expect(page1.nonWhite).toBeGreaterThan(0.05);
      expect(page1.matching).toBeGreaterThan(32 * 100); // the 32 dark squares of a board at least
      const scoreChart = await pixels(chartShot, [0x1f, 0x77, 0xb4]); // the moving-average line's blue
      expect(scoreChart.matching).toBeGreaterThan(200);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
