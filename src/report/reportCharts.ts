/** The report's charts: which series each one draws, from the report's data. */
import { renderLineChart, type ChartPoint, type ChartSeries, type LineChart, type RenderedChart } from './charts.ts';
import type { SeriesPoint } from './series.ts';
import type { ReportData } from './reportData.ts';

/** Vega's category10, one colour per opponent, origin or size group. */
export const PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];

const byGame = (points: SeriesPoint[]): ChartPoint[] => points.map((p) => ({ x: p.game, y: p.value }));

export function chartsFor(data: ReportData): LineChart[] {
  const series = data.series;
  const window = `moving average (${series.window} games)`;
  const rolling = (value: 'score' | 'elo', x: 'game' | 'hours'): ChartSeries[] =>
    data.rolling.map((opponent, i) => ({
      name: `vs ${opponent.opponent} (last ${opponent.window} games)`,
      color: PALETTE[i % PALETTE.length],
      points: opponent.points.map((p) => ({
        x: x === 'game' ? p.game : p.hours,
        y: value === 'score' ? p.score : p.elo,
        low: value === 'score' ? p.scoreLow : p.eloLow,
        high: value === 'score' ? p.scoreHigh : p.eloHigh,
      })),
    }));
  const growth = (list: typeof data.growth.byOrigin): ChartSeries[] =>
    list.map((s, i) => ({ name: s.name, color: PALETTE[i % PALETTE.length], points: byGame(s.points) }));
  const band = 'shaded: 95% interval';
  const matches = data.curve.filter((r) => r.measure === 'match' && r.elo !== undefined);
  const opponents = [...new Set(matches.map((r) => r.against))];
  const quality = data.curve.filter((r) => r.measure === 'quality' && r.blunder !== undefined);
  return [
    {
      id: 'chart-curve-elo',
      title: `Learning curve at checkpoints: Elo difference (Morph minus opponent) by games of training (${band})`,
      xTitle: 'games of training (log scale)',
      yTitle: 'Elo',
      xLog: true,
      rule: 0,
      series: opponents.map((opponent, i) => ({
        name: `vs ${opponent}`,
        color: PALETTE[i % PALETTE.length],
        points: matches.filter((r) => r.against === opponent).map((r) => ({ x: r.trainedGames, y: r.elo!, low: r.eloLow, high: r.eloHigh })),
      })),
    },
    {
      id: 'chart-curve-blunder',
      title: `Learning curve at checkpoints: share of blunders (>= 30 win-chance points lost) on labelled positions (${band})`,
      xTitle: 'games of training (log scale)',
      yTitle: 'blunder share',
      xLog: true,
      series: [{
        name: 'blunder share',
        color: '#d62728',
        points: quality.map((r) => ({ x: r.trainedGames, y: r.blunder!, low: r.blunderLow, high: r.blunderHigh })),
      }],
    },
    {
      id: 'chart-score',
      title: "Learning curve: Morph's score per game (1 win, .5 draw, 0 loss), all opponents",
      xTitle: 'game',
      yTitle: 'score',
      yDomain: [0, 1],
      rule: 0.5,
      series: [
        { name: window, color: '#1f77b4', points: byGame(series.scoreMoving) },
        { name: 'cumulative average', color: '#d62728', points: byGame(series.scoreCumulative), dashed: true },
      ],
    },
    {
      id: 'chart-rolling-score',
      title: `Score against each opponent over its last games (${band})`,
      xTitle: 'game',
      yTitle: 'score',
      yDomain: [0, 1],
      rule: 0.5,
      series: rolling('score', 'game'),
    },
    {
      id: 'chart-rolling-elo',
      title: `Elo difference (Morph minus opponent) over the opponent's last games (${band})`,
      xTitle: 'game',
      yTitle: 'Elo',
      rule: 0,
      series: rolling('elo', 'game'),
    },
    {
      id: 'chart-rolling-score-hours',
      title: `Score against each opponent over training time (${band})`,
      xTitle: 'training hours (summed game time)',
      yTitle: 'score',
      yDomain: [0, 1],
      rule: 0.5,
      series: rolling('score', 'hours'),
    },
    {
      id: 'chart-rolling-elo-hours',
      title: `Elo difference over training time (${band})`,
      xTitle: 'training hours (summed game time)',
      yTitle: 'Elo',
      rule: 0,
      series: rolling('elo', 'hours'),
    },
    {
      id: 'chart-material',
      title: "Learning curve: final material per game, from Morph's side (pawns; P1 N3 B3 R5 Q9)",
      xTitle: 'game',
      yTitle: 'material (pawns)',
      rule: 0,
      series: [
        { name: window, color: '#2ca02c', points: byGame(series.materialMoving) },
        { name: 'cumulative average', color: '#9467bd', points: byGame(series.materialCumulative), dashed: true },
      ],
    },
    {
      id: 'chart-patterns',
      title: 'Database size: patterns after each game',
      xTitle: 'game',
      yTitle: 'patterns',
      series: [{ name: 'patterns', color: '#8c564b', points: byGame(series.patterns) }],
    },
    {
      id: 'chart-growth-origin',
      title: "Patterns alive now, by origin, counted by the game that created them",
      xTitle: 'game (games learned from)',
      yTitle: 'patterns',
      series: growth(data.growth.byOrigin),
    },
    {
      id: 'chart-growth-size',
      title: 'Patterns alive now, by size, counted by the game that created them',
      xTitle: 'game (games learned from)',
      yTitle: 'patterns',
      series: growth(data.growth.bySize),
    },
  ];
}

export async function renderCharts(data: ReportData): Promise<RenderedChart[]> {
  const charts: RenderedChart[] = [];
  for (const chart of chartsFor(data)) {
    // A chart with no points at all (no games yet) is left out rather than drawn empty.
    if (chart.series.every((s) => s.points.length === 0)) continue;
    charts.push({ id: chart.id, title: chart.title, points: chart.series.map((s) => s.points.length), svg: await renderLineChart(chart) });
  }
  return charts;
}
