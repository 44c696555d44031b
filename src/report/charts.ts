/**
 * Line charts as static SVG, rendered in Node by Vega-Lite (compiled to Vega, drawn by Vega's headless SVG
 * renderer): no browser, no canvas, no script in the page. Each series is one `mark-line` path with one vertex
 * per data point, which is what the report test counts.
 */
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { SeriesPoint } from './series.ts';

export interface ChartSeries {
  name: string;
  color: string;
  points: SeriesPoint[];
  /** Dashed, for a secondary series. */
  dashed?: boolean;
}

export interface LineChart {
  /** Element id in the report, e.g. "chart-score". */
  id: string;
  title: string;
  xTitle: string;
  yTitle: string;
  series: ChartSeries[];
  /** Fixed y range, e.g. [0, 1] for a score. */
  yDomain?: [number, number];
  /** A horizontal reference line, e.g. .5 (a draw) or 0 (even material). */
  rule?: number;
  width?: number;
  height?: number;
}

export function lineChartSpec(chart: LineChart): TopLevelSpec {
  const values = chart.series.flatMap((series) => series.points.map((p) => ({ game: p.game, value: p.value, series: series.name })));
  const lines = {
    mark: { type: 'line' as const, strokeWidth: 1.6, interpolate: 'linear' as const, clip: true },
    encoding: {
      x: { field: 'game', type: 'quantitative' as const, title: chart.xTitle, axis: { tickMinStep: 1, format: 'd' }, scale: { nice: false } },
      y: {
        field: 'value',
        type: 'quantitative' as const,
        title: chart.yTitle,
        ...(chart.yDomain ? { scale: { domain: chart.yDomain } } : { scale: { zero: false } }),
      },
      color: {
        field: 'series',
        type: 'nominal' as const,
        title: null,
        scale: { domain: chart.series.map((s) => s.name), range: chart.series.map((s) => s.color) },
        legend: { orient: 'bottom' as const, direction: 'horizontal' as const, labelLimit: 400 },
      },
      strokeDash: {
        field: 'series',
        type: 'nominal' as const,
        title: null,
        scale: { domain: chart.series.map((s) => s.name), range: chart.series.map((s) => (s.dashed ? [5, 3] : [1, 0])) },
        legend: { orient: 'bottom' as const, direction: 'horizontal' as const, labelLimit: 400 },
      },
    },
  };
  const layers: object[] = [];
  if (chart.rule !== undefined) {
    layers.push({
      data: { values: [{ y: chart.rule }] },
      mark: { type: 'rule', color: '#999', strokeDash: [2, 2] },
      encoding: { y: { field: 'y', type: 'quantitative' } },
    });
  }
  layers.push(lines);
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: chart.width ?? 640,
    height: chart.height ?? 220,
    background: 'white',
    data: { values },
    layer: layers,
  } as TopLevelSpec;
}

/** Renders a chart to an SVG string. */
export async function renderLineChart(chart: LineChart): Promise<string> {
  // Vega-Lite's warnings would go to the console, into a command's output; errors still throw.
  const compiled = compile(lineChartSpec(chart), { logger: vega.logger(vega.Error) }).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none', logLevel: vega.Error });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
