/**
 * Line charts as static SVG, rendered in Node by Vega-Lite (compiled to Vega, drawn by Vega's headless SVG
 * renderer): no browser, no canvas, no script in the page. Each series is one `mark-line` path with one vertex
 * per data point, which is what the report test counts.
 */
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

/** One vertex of a line; `low` and `high`, when given, bound a shaded 95% band around it. */
export interface ChartPoint {
  x: number;
  y: number;
  low?: number;
  high?: number;
}

export interface ChartSeries {
  name: string;
  color: string;
  points: ChartPoint[];
  /** Dashed, for a secondary series. */
  dashed?: boolean;
}

/** A chart as the page holds it: its SVG and how many points each series has (the browser test counts them). */
export interface RenderedChart {
  id: string;
  title: string;
  /** Data points per series, in series order. */
  points: number[];
  svg: string;
}

/** Drawn this wide (the page scales it to its column): wide enough that a 1,400 px page is not mostly margin. */
export const CHART_WIDTH = 1000;

export interface LineChart {
  /** Element id in the report, e.g. "chart-score". */
  id: string;
  title: string;
  xTitle: string;
  yTitle: string;
  series: ChartSeries[];
  /** Fixed y range, e.g. [0, 1] for a score. */
  yDomain?: [number, number];
  /** A logarithmic x axis (e.g. games of training, for a learning curve over checkpoints). */
  xLog?: boolean;
  /** A horizontal reference line, e.g. .5 (a draw) or 0 (even material). */
  rule?: number;
  width?: number;
  height?: number;
}

export function lineChartSpec(chart: LineChart): TopLevelSpec {
  const values = chart.series.flatMap((series) =>
    series.points.map((p) => ({ x: p.x, value: p.y, low: p.low ?? null, high: p.high ?? null, series: series.name })),
  );
  const integerX = chart.series.every((series) => series.points.every((p) => Number.isInteger(p.x)));
  const x = {
    field: 'x',
    type: 'quantitative' as const,
    title: chart.xTitle,
    axis: integerX ? { tickMinStep: 1, format: 'd' } : {},
    scale: chart.xLog ? { type: 'log' as const, nice: false } : { nice: false },
  };
  const colorScale = { domain: chart.series.map((s) => s.name), range: chart.series.map((s) => s.color) };
  const lines = {
    mark: { type: 'line' as const, strokeWidth: 1.6, interpolate: 'linear' as const, clip: true },
    encoding: {
      x,
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
        scale: colorScale,
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
  if (values.some((v) => v.low !== null)) {
    // The 95% bands under the lines, in each series' colour.
    layers.push({
      transform: [{ filter: 'datum.low !== null' }],
      mark: { type: 'area', opacity: 0.15, clip: true },
      encoding: {
        x,
        y: { field: 'low', type: 'quantitative' },
        y2: { field: 'high' },
        color: { field: 'series', type: 'nominal', scale: colorScale, title: null },
      },
    });
  }
  layers.push(lines);
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: chart.width ?? CHART_WIDTH,
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
