/** The report page: plain HTML and CSS around the inline SVG charts and boards. */
import { MATERIAL_PIECES } from '../pattern/pattern.ts';
import { escapeXml as escapeHtml, patternSvg } from '../inspect/patternSvg.ts';
import { formatBytes } from '../inspect/summary.ts';
import { NORMAL_FORM_LEGEND } from '../inspect/patternLayout.ts';
import type { RenderedChart, ReportData } from './report.ts';

const STYLE = `
  body { font-family: 'DejaVu Sans', system-ui, sans-serif; margin: 24px auto; max-width: 1100px; color: #222; padding: 0 16px; }
  h1 { margin-bottom: 0; } h2 { margin-top: 36px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
  .meta, .note { color: #555; font-size: 14px; }
  dl.numbers { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; font-size: 15px; }
  dl.numbers dt { font-weight: bold; }
  figure { margin: 16px 0; }
  figure.chart svg { max-width: 100%; height: auto; }
  figcaption { font-size: 14px; color: #333; margin-top: 4px; }
  table.material { border-collapse: collapse; font-size: 14px; font-variant-numeric: tabular-nums; }
  table.material th, table.material td { border: 1px solid #ddd; padding: 3px 8px; text-align: right; }
  table.material th { background: #f4f4f4; }
  .patterns { display: grid; grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); gap: 16px; }
  figure.pattern { border: 1px solid #ddd; padding: 8px; margin: 0; }
  figure.pattern svg { max-width: 100%; height: auto; }
  pre { background: #f7f7f7; padding: 8px; overflow-x: auto; font-size: 13px; }
`;

/** Background for a weight: red for losing (0), white for even (.5), green for winning (1). */
function weightColor(weight: number): string {
  const t = Math.max(-1, Math.min(1, (weight - 0.5) * 2));
  const fade = (channel: number) => Math.round(255 - (255 - channel) * Math.abs(t));
  return t >= 0 ? `rgb(${fade(120)}, ${fade(200)}, ${fade(120)})` : `rgb(${fade(230)}, ${fade(110)}, ${fade(110)})`;
}

const signed = (n: number): string => (n > 0 ? `+${n}` : String(n));

function chartFigure(chart: RenderedChart): string {
  return (
    `<figure class="chart" id="${chart.id}" data-points="${chart.points.join(',')}">\n${chart.svg}\n` +
    `<figcaption>${escapeHtml(chart.title)}</figcaption>\n</figure>`
  );
}

export function reportHtml(data: ReportData, charts: RenderedChart[], options: { materialRows: number; generatedAt: Date }): string {
  const s = data.summary;
  const g = s.games;
  const out: string[] = [];
  out.push('<!doctype html>', '<html lang="en">', '<head>', '<meta charset="utf-8">');
  out.push(`<title>Morph report: ${escapeHtml(s.database.path)}</title>`, `<style>${STYLE}</style>`, '</head>', '<body>');
  out.push('<h1>Morph report</h1>');
  out.push(
    `<p class="meta">Database <code>${escapeHtml(s.database.path)}</code> (${formatBytes(s.database.bytes + s.database.walBytes)}), ` +
      `generated ${escapeHtml(options.generatedAt.toISOString())}</p>`,
  );

  out.push('<section id="summary">', '<h2>Summary</h2>', '<dl class="numbers">');
  const numbers: [string, string][] = [
    ['Games learned from', String(g.played)],
    ['Morph W/D/L', `${g.wins} / ${g.draws} / ${g.losses}${g.score !== null ? ` (score ${g.score.toFixed(3)})` : ''}`],
    ['Average final material', g.averageMaterial !== null ? `${g.averageMaterial > 0 ? '+' : ''}${g.averageMaterial.toFixed(2)} pawns` : '-'],
    ['Patterns', `${s.patterns.total} (graph ${s.patterns.byKind.graph}, material ${s.patterns.byKind.material}), ${s.patterns.links} hierarchy links`],
    ['Global temperature', s.temperature === null ? 'not set yet' : String(s.temperature)],
  ];
  for (const [term, value] of numbers) out.push(`<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`);
  out.push('</dl>', '</section>');

  const chart = (id: string) => charts.find((c) => c.id === id);
  out.push('<section id="learning">', '<h2>Learning curve</h2>');
  if (!g.recorded) out.push('<p class="note">No games recorded yet.</p>');
  for (const id of ['chart-score', 'chart-material']) {
    const rendered = chart(id);
    if (rendered) out.push(chartFigure(rendered));
  }
  out.push('</section>', '<section id="growth">', '<h2>Database size</h2>');
  const growth = chart('chart-patterns');
  out.push(growth ? chartFigure(growth) : '<p class="note">No games recorded yet.</p>');
  out.push('</section>');

  out.push('<section id="material">', '<h2>Material patterns</h2>');
  const rows = data.material.slice(0, options.materialRows);
  out.push(
    `<p class="note">As the paper's Table 1: piece-count differences of the side that just moved minus the side to move, ` +
      `the learned weight (expected outcome for the side that just moved; .5 is even) and the traditional value. ` +
      `${data.material.length} material patterns${rows.length < data.material.length ? `, the ${rows.length} most updated shown` : ''}.</p>`,
  );
  out.push('<table class="material">', '<thead><tr>');
  for (const head of [...MATERIAL_PIECES, 'weight', 'updates', 'variance', 'age', 'value']) out.push(`<th>${head}</th>`);
  out.push('</tr></thead>', '<tbody>');
  for (const row of rows) {
    out.push(
      `<tr data-pattern-id="${row.id}">` +
        MATERIAL_PIECES.map((piece) => `<td>${signed(row.diff[piece])}</td>`).join('') +
        `<td style="background:${weightColor(row.weight)}">${row.weight.toFixed(3)}</td><td>${row.updates}</td>` +
        `<td>${row.variance.toFixed(2)}</td><td>${row.age}</td><td>${signed(row.value)}</td></tr>`,
    );
  }
  out.push('</tbody>', '</table>', '</section>');

  out.push('<section id="patterns">', '<h2>Strongest patterns</h2>');
  out.push(
    `<p class="note">Graph patterns of at least ${data.minSize} nodes updated at least ${data.minUpdates} times, the most ` +
      `extreme weights first. ` +
      `${escapeHtml(NORMAL_FORM_LEGEND)} Arrows: red attacks, green defends, blue covers an empty square; solid direct, ` +
      `dashed x-ray through an enemy piece, dotted x-ray through an own piece, dash-dot any of these. A grey disc is a node ` +
      `restricted only to a rank (beside it), a file (below it) or not at all.</p>`,
  );
  if (!data.patterns.length) out.push('<p class="note">No graph pattern has been updated that often yet.</p>');
  out.push('<div class="patterns">');
  for (const pattern of data.patterns) {
    const svg = patternSvg(pattern.pattern, { idPrefix: `p${pattern.id}-`, legend: false, squareSize: 36 });
    out.push(
      `<figure class="pattern" data-pattern-id="${pattern.id}">\n${svg}\n<figcaption><strong>#${pattern.id}</strong> ` +
        `weight ${pattern.weight.toFixed(3)} · ${pattern.updates} updates · ${pattern.size} node${pattern.size === 1 ? '' : 's'} · ` +
        `${escapeHtml(pattern.origin)}` +
        `<br>${escapeHtml(pattern.description)}</figcaption>\n</figure>`,
    );
  }
  out.push('</div>', '</section>');

  out.push('<section id="config">', '<h2>Configuration</h2>');
  out.push(`<pre>${escapeHtml(JSON.stringify(s.config ?? 'none stored (defaults)', null, 2))}</pre>`, '</section>');
  out.push('</body>', '</html>', '');
  return out.join('\n');
}
