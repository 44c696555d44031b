/**
 * `morph report`: one self-contained HTML page (inline SVG, no script, no outside resources) showing what a
 * database learned: the learning curve, the database's growth, the material table and the strongest patterns
 * drawn on boards. Everything is read in one snapshot, so it can be made while training runs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { MorphDatabase } from '../store/database.ts';
import { readSummary, type DatabaseSummary } from '../inspect/summary.ts';
import { readMaterialTable, type MaterialRow } from '../inspect/material.ts';
import { listPatterns, readPatternDetail, type PatternDetail } from '../inspect/patterns.ts';
import { withSnapshot } from '../inspect/source.ts';
import { learningSeries, readGameRows, type LearningSeries } from './series.ts';
import { renderLineChart, type LineChart } from './charts.ts';
import { reportHtml } from './html.ts';
import { badInput } from '../util/errors.ts';

export interface ReportOptions {
  /** Graph patterns drawn, the most extreme first (default 12). */
  top?: number;
  /** Only patterns updated at least this often are drawn (default 10), so a lucky newcomer does not lead. */
  minUpdates?: number;
  /** Only patterns of at least this many nodes are drawn (default 2: a lone piece reads as well in a list). */
  minSize?: number;
  /** Material rows shown, the most updated first (default 40). */
  materialRows?: number;
  /** The time printed in the page (tests pass a fixed one). */
  generatedAt?: Date;
}

export interface ReportData {
  summary: DatabaseSummary;
  series: LearningSeries;
  material: MaterialRow[];
  patterns: PatternDetail[];
  minUpdates: number;
  minSize: number;
}

export interface RenderedChart {
  id: string;
  title: string;
  /** Data points per series, in series order. */
  points: number[];
  svg: string;
}

export interface ReportResult {
  file: string;
  games: number;
  patterns: number;
  charts: { id: string; title: string; points: number[] }[];
  drawnPatterns: number[];
}

/** Everything the page shows, read in one snapshot. */
export function readReportData(db: MorphDatabase, path: string, options: ReportOptions = {}): ReportData {
  const minUpdates = options.minUpdates ?? 10;
  const top = options.top ?? 12;
  const minSize = options.minSize ?? 2;
  const ids = listPatterns(db, { sort: 'extremeness', kind: 'graph', minUpdates, minSize, limit: top }).rows.map((row) => row.id);
  return {
    summary: readSummary(db, path),
    series: learningSeries(readGameRows(db)),
    material: readMaterialTable(db),
    patterns: ids.map((id) => readPatternDetail(db, id, path)),
    minUpdates,
    minSize,
  };
}

export function chartsFor(series: LearningSeries): LineChart[] {
  const window = `moving average (${series.window} games)`;
  return [
    {
      id: 'chart-score',
      title: "Learning curve: Morph's score per game (1 win, .5 draw, 0 loss)",
      xTitle: 'game',
      yTitle: 'score',
      yDomain: [0, 1],
      rule: 0.5,
      series: [
        { name: window, color: '#1f77b4', points: series.scoreMoving },
        { name: 'cumulative average', color: '#d62728', points: series.scoreCumulative, dashed: true },
      ],
    },
    {
      id: 'chart-material',
      title: "Learning curve: final material per game, from Morph's side (pawns; P1 N3 B3 R5 Q9)",
      xTitle: 'game',
      yTitle: 'material (pawns)',
      rule: 0,
      series: [
        { name: window, color: '#2ca02c', points: series.materialMoving },
        { name: 'cumulative average', color: '#9467bd', points: series.materialCumulative, dashed: true },
      ],
    },
    {
      id: 'chart-patterns',
      title: 'Database size: patterns after each game',
      xTitle: 'game',
      yTitle: 'patterns',
      series: [{ name: 'patterns', color: '#8c564b', points: series.patterns }],
    },
  ];
}

export async function renderCharts(series: LearningSeries): Promise<RenderedChart[]> {
  const charts: RenderedChart[] = [];
  for (const chart of chartsFor(series)) {
    // A chart with no points at all (no games yet) is left out rather than drawn empty.
    if (chart.series.every((s) => s.points.length === 0)) continue;
    charts.push({ id: chart.id, title: chart.title, points: chart.series.map((s) => s.points.length), svg: await renderLineChart(chart) });
  }
  return charts;
}

/** Reads the database at `dbPath` (or the default one), writes DIR/index.html and says what it drew. */
export async function writeReport(dbPath: string | undefined, outDir: string, options: ReportOptions = {}): Promise<ReportResult> {
  const data = withSnapshot(dbPath, ({ db, path }) => readReportData(db, path, options));
  const charts = await renderCharts(data.series);
  const html = reportHtml(data, charts, { materialRows: options.materialRows ?? 40, generatedAt: options.generatedAt ?? new Date() });
  const file = resolve(join(outDir, 'index.html'));
  try {
    mkdirSync(outDir, { recursive: true });
    writeFileSync(file, html);
  } catch (error) {
    throw badInput(`cannot write the report to ${outDir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return {
    file,
    games: data.series.games,
    patterns: data.summary.patterns.total,
    charts: charts.map(({ id, title, points }) => ({ id, title, points })),
    drawnPatterns: data.patterns.map((p) => p.id),
  };
}
