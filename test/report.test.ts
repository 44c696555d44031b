import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Chess } from 'chess.js';
import { learningSeries, movingWindow, thin, type GameRow } from '../src/report/series.ts';
import { writeReport, type ReportResult } from '../src/report/report.ts';
import { openMorphDatabase } from '../src/store/database.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { parseSquare } from '../src/chess/board.ts';
import { exactDesig } from '../src/pattern/designation.ts';
import type { GraphPattern } from '../src/pattern/pattern.ts';
import { HAND_MADE, TABLE_1, buildSampleDatabase, morph, type SampleDatabase } from './helpers/sampleDatabase.ts';
import { recordPlayedRun, type PlayedRun } from './helpers/playedGames.ts';
import { recordCheckpointResult, type CheckpointResult } from '../src/train/checkpointResults.ts';
import { relationFeatureName, storeRelationWeights, RELATION_TERM_FEATURES } from '../src/eval/relationTerms.ts';

const CHROMIUM = '/usr/bin/chromium';
/** Settled relation terms stored in the sample: three weights, so the report's table has three rows. */
const RELATION_WEIGHTS = Float64Array.from({ length: RELATION_TERM_FEATURES }, (_, f) => ({ 0: 0.2, 5: -0.5, 100: 0.1 })[f] ?? 0);
/** The sample's own run (no PGN, no times), then two runs of real games, one minute each. */
const SAMPLE_GAMES = 25;
const tempDir = mkdtempSync(join(tmpdir(), 'morph-report-'));
let sample: SampleDatabase;
let played: PlayedRun[];
let report: ReportResult;
let html: string;
/** Strength at two checkpoints, as training/recipes/curve.sh records it (train/checkpointResults.ts), out of order. */
const CURVE: CheckpointResult[] = [
  { trainedGames: 200, measure: 'match', against: 'ab:1', samples: 40, score: 0.175, elo: -269, eloLow: -360, eloHigh: -190, checkpoint: 'x/games-000200.db' },
  { trainedGames: 100, measure: 'match', against: 'ab:1', samples: 40, score: 0.1, elo: -410, eloLow: -560, eloHigh: -300, checkpoint: 'x/games-000100.db' },
  { trainedGames: 100, measure: 'quality', against: 'move-scores.jsonl', samples: 400, meanLoss: 12.5, lossLow: 11, lossHigh: 14, blunder: 0.16, blunderLow: 0.13, blunderHigh: 0.2, top4: 0.37, checkpoint: 'x/games-000100.db' },
];
/** Copies of the hand-made pattern on other squares: one idea, so one drawing. */
const COPIES = 3;

beforeAll(async () => {
  sample = buildSampleDatabase(join(tempDir, 'sample.db'), SAMPLE_GAMES);
  const store = PatternStore.open(sample.path);
  try {
    store.transaction(() => {
      for (let i = 1; i <= COPIES; i++) {
        // The whole pattern moved i files left: the same pieces in the same relations, on other squares.
        const moved: GraphPattern = { ...HAND_MADE, desigs: HAND_MADE.desigs.map((desig, node) => (node === 0 ? exactDesig(parseSquare('f3') - i) : node === 4 || node === 5 ? desig - i : desig)) };
        store.insert(moved, 'manual', 5, { weight: 0.88 - 0.01 * i, updates: 40 });
      }
      storeRelationWeights(store.db, RELATION_WEIGHTS);
    });
  } finally {
    store.close();
  }
  const db = openMorphDatabase(sample.path);
  try {
    played = [
      await recordPlayedRun(db, { opponent: 'ab:1', games: 6, seed: 21, startedAt: new Date('2026-01-02T10:00:00Z'), firstGame: 26 }),
      await recordPlayedRun(db, { opponent: 'random', morph: 'ab:1', games: 6, seed: 22, startedAt: new Date('2026-01-03T10:00:00Z'), firstGame: 32 }),
    ];
    for (const result of CURVE) recordCheckpointResult(db, result);
  } finally {
    db.close();
  }
  const result = morph(['report', '--db', sample.path, '--out', join(tempDir, 'report'), '--json']);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  report = JSON.parse(result.stdout) as ReportResult;
  html = readFileSync(report.file, 'utf8');
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

/**
 * Same idea, checked by brute force: a bijection between the nodes that keeps every label and every typed edge,
 * squares ignored. Independent of the canonical keys the report uses.
 */
function sameIdea(a: GraphPattern, b: GraphPattern): boolean {
  const n = a.labels.length;
  if (n !== b.labels.length || a.edges.length !== b.edges.length) return false;
  const edgesB = new Set(b.edges.map(([from, to, code]) => `${from}>${to}:${code}`));
  const map: number[] = [];
  const used = new Set<number>();
  const extend = (i: number): boolean => {
    if (i === n) return a.edges.every(([from, to, code]) => edgesB.has(`${map[from]}>${map[to]}:${code}`));
    for (let j = 0; j < n; j++) {
      if (used.has(j) || a.labels[i] !== b.labels[j]) continue;
      map[i] = j;
      used.add(j);
      if (extend(i + 1)) return true;
      used.delete(j);
    }
    return false;
  };
  return extend(0);
}

/** The first `limit` patterns of a different idea, in the report's order, found by brute force over the table. */
function expectedDistinct(direction: 'strongest' | 'weakest', limit = 8): number[] {
  const db = openMorphDatabase(sample.path, { readonly: true });
  try {
    const rows = db
      .prepare(`SELECT id, body FROM pattern_stats WHERE kind = 'graph' AND updates >= 10 AND size >= 2 ORDER BY weight ${direction === 'strongest' ? 'DESC' : 'ASC'}, id`)
      .raw()
      .all() as [number, string][];
    const kept: { id: number; pattern: GraphPattern }[] = [];
    for (const [id, body] of rows) {
      // The stored body is graphology's serialised graph: read it directly.
      const graph = JSON.parse(body) as { nodes: { key: string; attributes: { piece: string; side?: string } }[]; edges: { source: string; target: string; attributes: { type: string } }[] };
      const index = new Map(graph.nodes.map((node, i) => [node.key, i]));
      const pattern = {
        labels: graph.nodes.map((node) => `${node.attributes.side ?? ''}${node.attributes.piece}`),
        edges: graph.edges.map((edge) => [index.get(edge.source)!, index.get(edge.target)!, edge.attributes.type]),
      } as unknown as GraphPattern;
      if (kept.some((k) => sameIdea(k.pattern, pattern))) continue;
      kept.push({ id, pattern });
      if (kept.length === limit) break;
    }
    return kept.map((k) => k.id);
  } finally {
    db.close();
  }
}

const allPlayed = () => played.flatMap((run) => run.games.map((game) => ({ ...game, run })));
const morphScoreOf = (g: { morphColor: 'w' | 'b'; result: string }) =>
  g.result === '1/2-1/2' ? 0.5 : (g.result === '1-0') === (g.morphColor === 'w') ? 1 : 0;
/** The text of the page without tags, spaces collapsed. */
const pageText = () => html.replace(/<[^>]+>/g, ' ').replace(/&amp;/g, '&').replace(/\s+/g, ' ');

describe('morph report', () => {
  it('writes one self-contained page with every section', () => {
    expect(report.games).toBe(SAMPLE_GAMES + 12);
    expect(report.runs).toBe(3);
    for (const id of ['summary', 'runs', 'opponents', 'learning', 'outcomes', 'checkpoints', 'growth', 'material', 'relations', 'patterns', 'games', 'config']) {
      expect(html).toContain(`<section id="${id}">`);
    }
    // Nothing to fetch and nothing to run: the page works offline and from a file.
    expect(html).not.toMatch(/<script|<link|<img|\ssrc=|@import|url\(http/i);
    expect(html.match(/<tr data-pattern-id=/g)).toHaveLength(TABLE_1.length);
    const ids = report.charts.map((c) => c.id);
    // One chart per idea: a single score chart (no Elo twin, no by-hours twin).
    expect(ids).toEqual([
      'chart-curve-elo', 'chart-curve-quality', 'chart-curve-blunder', 'chart-score', 'chart-material', 'chart-patterns', 'chart-growth-origin', 'chart-growth-size',
    ]);
    expect(new Set(report.charts.map((c) => c.title)).size).toBe(ids.length);
    const points = (id: string) => report.charts.find((c) => c.id === id)!.points;
    // The score: one series per opponent, one point per game against it.
    expect(points('chart-score')).toEqual([SAMPLE_GAMES + 6, 6]);
    expect(points('chart-material')).toEqual([report.games, report.games]);
  });

  it('lists the relation terms the database holds, each set strongest first', () => {
    const tables = [...html.matchAll(/<table class="data relations" data-kind="(\w+)">([\s\S]*?)<\/table>/g)];
    // The sample holds settled terms only (no lessons kept, so fitted by "an older learner").
    expect(tables.map((t) => t[1])).toEqual(['settled']);
    expect(html).toContain('<h3>Settled terms (an older learner)</h3>');
    const rows = [...tables[0][2].matchAll(/<tr><td>([^<]*)<\/td><td>([^<]*)<\/td><\/tr>/g)].map((m) => [m[1].replace(/&gt;/g, '>'), m[2]]);
    expect(rows).toEqual([[relationFeatureName(5), '-0.500'], [relationFeatureName(0), '+0.200'], [relationFeatureName(100), '+0.100']]);
  });

  it('draws the strongest and weakest patterns one per idea, as a brute-force search finds them', () => {
    expect(report.strongestPatterns).toEqual(expectedDistinct('strongest'));
    expect(report.weakestPatterns).toEqual(expectedDistinct('weakest'));
    expect(report.strongestPatterns).toHaveLength(8);
    // The hand-made pattern (weight .88) leads its idea; its copies on other squares are not drawn again.
    expect(report.strongestPatterns).toContain(sample.handMadeId);
    expect(html).toMatch(new RegExp(`<strong>#${sample.handMadeId}</strong>[^<]*· ${COPIES} more like it`));
    expect(html.match(/<figure class="pattern"/g)).toHaveLength(report.strongestPatterns.length + report.weakestPatterns.length);
  });

  it('shows each run with its opponent, games, hours and games per hour, and Elo with its interval', () => {
    const rows = [...html.matchAll(/<tr class="run">([\s\S]*?)<\/tr>/g)].map((m) => m[1].replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim());
    expect(rows).toHaveLength(3);
    for (const [i, run] of played.entries()) {
      const scores = run.games.map(morphScoreOf);
      const [w, d, l] = [1, 0.5, 0].map((v) => scores.filter((s) => s === v).length);
      const hours = run.games.length / 60; // one minute a game
      const start = played[i].games.length ? (i === 0 ? '2026-01-02 10:00:00' : '2026-01-03 10:00:00') : '';
      expect(rows[i + 1]).toContain(`${run.runId} ${run.opponent} ${start} ${run.games.length} ${hours.toFixed(2)} 60 ${w} / ${d} / ${l}`);
      // Elo with its 95% interval, low end first.
      const [, elo, low, high] = /([+-]?\d+) \[([+-]?\d+), ([+-]?\d+)\]/.exec(rows[i + 1])!.map(Number);
      expect(low).toBeLessThanOrEqual(elo);
      expect(high).toBeGreaterThanOrEqual(elo);
      expect(high).toBeGreaterThan(low);
    }
  });

  it('counts results by colour and by ending, per opponent', () => {
    const text = pageText();
    const abSection = text.slice(text.indexOf('Against ab:1 games'), text.indexOf('Learning-curve checkpoints'));
    expect(abSection.length).toBeGreaterThan(0);
    for (const color of ['w', 'b'] as const) {
      const scores = played[0].games.filter((g) => g.morphColor === color).map(morphScoreOf);
      const counts = [1, 0.5, 0].map((v) => scores.filter((s) => s === v).length).join(' / ');
      expect(abSection).toContain(`Morph ${color === 'w' ? 'white' : 'black'} ${counts}`);
    }
    const endings = new Map<string, number>();
    for (const g of allPlayed()) endings.set(g.reason, (endings.get(g.reason) ?? 0) + 1);
    for (const [reason] of endings) expect(text).toContain(`ended by ${reason}`);
  });

  it('draws the learning curve from the checkpoints measured, in order of games trained', () => {
    const chart = (id: string) => report.charts.find((c) => c.id === id)!;
    // One opponent, two checkpoints; one move-quality measurement.
    expect(chart('chart-curve-elo').points).toEqual([2]);
    expect(chart('chart-curve-blunder').points).toEqual([1]);
    expect(chart('chart-curve-quality').points).toEqual([1]);
    const rows = [...html.matchAll(/<tr class="checkpoint">([\s\S]*?)<\/tr>/g)].map((m) => m[1].replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim());
    expect(rows).toHaveLength(CURVE.length);
    // Ordered by games trained: the 100-game match, the 100-game move quality, then the 200-game match.
    expect(rows).toEqual([
      '100 match ab:1 40 0.100 -410 [-560, -300] - - -',
      '100 quality move-scores.jsonl 400 - - 12.5 [11.0, 14.0] 0.160 [0.130, 0.200] 0.370',
      '200 match ab:1 40 0.175 -269 [-360, -190] - - -',
    ]);
  });

  it('gives the material-order verdict and the last games with their PGN', () => {
    expect(html).toContain('<h3 id="material-verdict">Verdict: not the textbook order (yet)</h3>');
    // The sample has no "queen up" pattern, so that claim cannot hold.
    expect(html).toMatch(/<li class="fails">fails: every advantage above \.5 \(not: Q R B\)<\/li>/);
    const last = allPlayed().slice(-10).reverse();
    expect(report.lastGames).toEqual(last.map((g) => g.id));
    const pgns = [...html.matchAll(/<details class="game" data-game-id="(\d+)">[\s\S]*?<pre>([\s\S]*?)<\/pre>/g)];
    expect(pgns.map((m) => Number(m[1]))).toEqual(last.map((g) => g.id));
    pgns.forEach((match, i) => {
      const chess = new Chess();
      chess.loadPgn(match[2].replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&#39;/g, "'"));
      expect(chess.history({ verbose: true }).map((m) => m.lan)).toEqual(last[i].moves);
    });
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
      viewport: { width: 1400, height: 900 },
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
          bands: figure.querySelectorAll('g.mark-area path').length,
        })),
      );
      // The charts fill the page's column (the body, less its padding), not a third of it.
      const column = await page.$eval('body', (body) => body.getBoundingClientRect().width - 48);
      expect(column).toBeGreaterThan(1200);
      expect(charts.map((c) => c.id).sort()).toEqual(report.charts.map((c) => c.id).sort());
      for (const chart of charts) {
        const expected = report.charts.find((c) => c.id === chart.id)!.points;
        expect(chart.vertices).toEqual(expected);
        expect(chart.declared).toBe(expected.join(','));
        expect(chart.width).toBeGreaterThan(0.95 * column);
        // The score chart shades a 95% band for each opponent.
        if (chart.id === 'chart-score') expect(chart.bands).toBe(expected.length);
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
      expect(boards.map((b) => b.id)).toEqual([...report.strongestPatterns, ...report.weakestPatterns]);
      for (const board of boards) {
        expect(board.nodes).toBeGreaterThanOrEqual(2);
        // 64 squares and the frame, plus tinted ranks or files; none for a pattern tied to no square.
        if (board.boardless) expect(board.squares).toBe(0);
        else expect(board.squares).toBeGreaterThanOrEqual(65);
        expect(board.size).toBeGreaterThan(200);
      }
      expect(boards.filter((b) => !b.boardless).length).toBeGreaterThan(0);
      expect(await page.locator('table.material tbody tr').count()).toBe(TABLE_1.length);
      expect(await page.locator('tr.run').count()).toBe(report.runs);
      expect(await page.locator('tr.opponent').count()).toBe(2);
      expect(await page.locator('details.game').count()).toBe(report.lastGames.length);
      for (const heading of ['Training runs', 'Against each opponent', 'Results by colour and ending', 'Learning-curve checkpoints', 'Strongest and weakest patterns', 'Last games']) {
        expect(await page.getByRole('heading', { name: heading }).isVisible()).toBe(true);
      }
      expect(await page.locator('#material-verdict').isVisible()).toBe(true);

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
      expect(page1.width).toBe(1400);
      expect(page1.height).toBeGreaterThan(2000);
      expect(page1.nonWhite).toBeGreaterThan(0.05);
      expect(page1.matching).toBeGreaterThan(32 * 100); // the 32 dark squares of a board at least
      const scoreChart = await pixels(chartShot, [0x1f, 0x77, 0xb4]); // the first opponent's line, blue
      expect(scoreChart.matching).toBeGreaterThan(200);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
