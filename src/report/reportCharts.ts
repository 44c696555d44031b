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
  // One score chart: against each opponent over its last games, by game number. Score rather than Elo: the same
  // information (Elo is a function of the score), but bounded, and its interval stays on the chart where Elo's runs
  // off near 0 or 1 (the table beside it gives Elo now). By game rather than by hours: the unit training learns in
  // and the x axis of every other chart here (games per hour are in the runs table).
  const scoreByOpponent: ChartSeries[] = data.rolling.map((opponent, i) => ({
    name: `vs ${opponent.opponent} (last ${opponent.window} games)`,
    color: PALETTE[i % PALETTE.length],
    points: opponent.points.map((p) => ({ x: p.game, y: p.score, low: p.scoreLow, high: p.scoreHigh })),
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
    // The yardstick over training (issues 69 and 72): what each checkpoint is worth as it plays, on positions from
    // engine games, beside the training games' score (which stays low against a stronger partner however much is learned).
    {
      id: 'chart-curve-quality',
      title: `Learning curve at checkpoints: mean win-chance loss of Morph's moves on scored positions from engine games (lower is better; ${band})`,
      xTitle: 'games of training (log scale)',
      yTitle: 'mean loss (win-chance points)',
      xLog: true,
      series: [...new Set(quality.map((r) => r.against))].map((against, i) => ({
        name: against,
        color: PALETTE[i % PALETTE.length],
        points: quality.filter((r) => r.against === against && r.meanLoss !== undefined).map((r) => ({ x: r.trainedGames, y: r.meanLoss!, low: r.lossLow, high: r.lossHigh })),
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
      title: `Learning curve: Morph's score against each opponent over its last games (1 win, .5 draw, 0 loss; ${band})`,
      xTitle: 'game',
      yTitle: 'score',
      yDomain: [0, 1],
      rule: 0.5,
      series: scoreByOpponent,
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
