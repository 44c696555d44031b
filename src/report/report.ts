/**
 * `morph report`: one self-contained HTML page (inline SVG, no script, no outside resources) showing what a
 * database learned and how its training went: runs, scores and Elo against each opponent with intervals, results
 * by colour and ending, database growth, the material table and verdict, the strongest and weakest patterns on
 * boards, and the last games. Everything is read in one snapshot, so it can be made while training runs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { withSnapshot } from '../inspect/source.ts';
import { badInput } from '../util/errors.ts';
import { readReportData, type ReportOptions } from './reportData.ts';
import { renderCharts } from './reportCharts.ts';
import { reportHtml } from './html.ts';

export type { ReportOptions } from './reportData.ts';

export interface ReportResult {
  file: string;
  games: number;
  patterns: number;
  runs: number;
  charts: { id: string; title: string; points: number[] }[];
  strongestPatterns: number[];
  weakestPatterns: number[];
  lastGames: number[];
  materialOrderPassed: boolean;
}

/** Reads the database at `dbPath` (or the default one), writes DIR/index.html and says what it drew. */
export async function writeReport(dbPath: string | undefined, outDir: string, options: ReportOptions = {}): Promise<ReportResult> {
  const data = withSnapshot(dbPath, ({ db, path }) => readReportData(db, path, options));
  const charts = await renderCharts(data);
  const html = reportHtml(data, charts, { generatedAt: options.generatedAt ?? new Date() });
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
    runs: data.runs.length,
    charts: charts.map(({ id, title, points }) => ({ id, title, points })),
    strongestPatterns: data.strongest.map((p) => p.id),
    weakestPatterns: data.weakest.map((p) => p.id),
    lastGames: data.lastGames.map((g) => g.game.id),
    materialOrderPassed: data.materialOrder.passed,
  };
}
