/** The report page: plain HTML and CSS around the inline SVG charts and boards. */
import { MATERIAL_PIECES } from '../pattern/pattern.ts';
import { escapeXml as escapeHtml, patternSvg } from '../inspect/patternSvg.ts';
import { formatBytes } from '../inspect/summary.ts';
import { NORMAL_FORM_LEGEND } from '../inspect/patternLayout.ts';
import { PAPER_EVEN, PAPER_TABLE_1 } from '../inspect/materialOrder.ts';
import type { RenderedChart } from './charts.ts';
import type { DrawnPattern, ReportData } from './reportData.ts';
import type { OutcomeCounts } from './outcomes.ts';
import type { EloEstimate } from '../match/elo.ts';

const STYLE = `
  body { font-family: 'DejaVu Sans', system-ui, sans-serif; margin: 24px auto; max-width: 1400px; color: #222; padding: 0 24px; }
  h1 { margin-bottom: 0; } h2 { margin-top: 36px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
  h3 { margin-bottom: 6px; }
  .meta, .note { color: #555; font-size: 14px; }
  dl.numbers { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; font-size: 15px; }
  dl.numbers dt { font-weight: bold; }
  figure { margin: 16px 0; }
  figure.chart svg { width: 100%; height: auto; display: block; }
  figcaption { font-size: 14px; color: #333; margin-top: 4px; }
  table.data { border-collapse: collapse; font-size: 14px; font-variant-numeric: tabular-nums; margin: 8px 0; }
  table.data th, table.data td { border: 1px solid #ddd; padding: 3px 8px; text-align: right; }
  table.data th { background: #f4f4f4; }
  table.data td.text, table.data th.text { text-align: left; }
  .holds { color: #2e7d32; } .fails { color: #c62828; font-weight: bold; }
  .patterns { display: grid; grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); gap: 16px; }
  figure.pattern { border: 1px solid #ddd; padding: 8px; margin: 0; }
  figure.pattern svg { max-width: 100%; height: auto; }
  pre { background: #f7f7f7; padding: 8px; overflow-x: auto; font-size: 13px; }
  details { margin: 4px 0; } summary { cursor: pointer; }
`;

/** Background for a weight: red for losing (0), white for even (.5), green for winning (1). */
function weightColor(weight: number): string {
  const t = Math.max(-1, Math.min(1, (weight - 0.5) * 2));
  const fade = (channel: number) => Math.round(255 - (255 - channel) * Math.abs(t));
  return t >= 0 ? `rgb(${fade(120)}, ${fade(200)}, ${fade(120)})` : `rgb(${fade(230)}, ${fade(110)}, ${fade(110)})`;
}

const signed = (n: number): string => (n > 0 ? `+${n}` : String(n));
const signedFixed = (n: number, digits = 0): string => (n > 0 ? '+' : '') + n.toFixed(digits);

/** "+35 [-12, +80]": the Elo difference and its 95% interval. */
export function eloText(elo: EloEstimate): string {
  return `${signedFixed(elo.elo)} [${signedFixed(elo.low)}, ${signedFixed(elo.high)}]`;
}

const wdl = (c: OutcomeCounts): string => `${c.wins} / ${c.draws} / ${c.losses}`;
const scoreOf = (c: OutcomeCounts): string => {
  const n = c.wins + c.draws + c.losses;
  return n ? ((c.wins + c.draws / 2) / n).toFixed(3) : '-';
};

function chartFigure(chart: RenderedChart): string {
  return (
    `<figure class="chart" id="${chart.id}" data-points="${chart.points.join(',')}">\n${chart.svg}\n` +
    `<figcaption>${escapeHtml(chart.title)}</figcaption>\n</figure>`
  );
}

function table(head: string[], rows: string[][], attributes = ''): string {
  const th = head.map((h, i) => `<th${i === 0 ? ' class="text"' : ''}>${h}</th>`).join('');
  const body = rows.map((cells) => `<tr${attributes}>${cells.join('')}</tr>`).join('\n');
  return `<table class="data">\n<thead><tr>${th}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

const td = (text: string | number, kind = ''): string => `<td${kind ? ` class="${kind}"` : ''}>${escapeHtml(String(text))}</td>`;

/** Settings worth seeing at a glance; the rest are one click away. */
const MAIN_SETTINGS = ['learnFrom', 'lambda', 'discount', 'updatePer', 'temperature', 'maturity', 'maxPatternSize'];

export function reportHtml(data: ReportData, charts: RenderedChart[], options: { generatedAt: Date }): string {
  const s = data.summary;
  const g = s.games;
  const chart = (id: string) => {
    const rendered = charts.find((c) => c.id === id);
    return rendered ? chartFigure(rendered) : '';
  };
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
    ['Material order', data.materialOrder.passed ? 'textbook order (see Material)' : 'not (yet) the textbook order (see Material)'],
  ];
  for (const [term, value] of numbers) out.push(`<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`);
  out.push('</dl>', '</section>');

  out.push('<section id="runs">', '<h2>Training runs</h2>');
  if (!data.runs.length) out.push('<p class="note">No training runs recorded yet.</p>');
  else {
    out.push(
      '<p class="note">One row per <code>morph train</code>. Hours are wall-clock, from the start to the stop (or to the ' +
        'last game, for a run still going or killed). Elo is Morph minus the opponent, with its 95% interval.</p>',
    );
    const rows = data.runs.map((run) => {
      const settings = new Map(run.settings);
      const main = MAIN_SETTINGS.filter((key) => settings.has(key)).map((key) => `${key} ${settings.get(key)}`).join(', ');
      return [
        td(run.id, 'text'), td(run.opponent, 'text'), td((run.startedAt ?? '-').replace('T', ' ').slice(0, 19), 'text'),
        td(run.games), td(run.hours === null ? '-' : run.hours.toFixed(2)), td(run.gamesPerHour === null ? '-' : run.gamesPerHour.toFixed(0)),
        td(wdl(run)), td(run.elo ? run.elo.scoreFraction.toFixed(3) : '-'), td(run.elo ? eloText(run.elo) : '-'),
        td(run.stopReason ?? 'running or killed', 'text'),
        `<td class="text">seed ${escapeHtml(String(run.seed ?? '-'))}; ${escapeHtml(main)}` +
          (run.settings.length ? `<details><summary>all ${run.settings.length} settings</summary>` +
            `${run.settings.map(([k, v]) => `${escapeHtml(k)} ${escapeHtml(v)}`).join('<br>')}</details>` : '') + '</td>',
      ];
    });
    out.push(table(['run', 'opponent', 'started (UTC)', 'games', 'hours', 'games/hour', 'W / D / L', 'score', 'Elo [95%]', 'stopped', 'settings'], rows, ' class="run"'));
  }
  out.push('</section>');

  out.push('<section id="opponents">', '<h2>Against each opponent</h2>');
  if (!data.rolling.length) out.push('<p class="note">No games recorded yet.</p>');
  else {
    out.push(
      '<p class="note">Score and Elo over each opponent\'s last games (a trailing window, shorter at the start), with ' +
        '95% intervals; the score over training is the first chart of the <a href="#learning">learning curve</a>.</p>',
    );
    const rows = data.rolling.map((o) => {
      const last = o.points.at(-1)!;
      return [
        td(o.opponent, 'text'), td(o.games), td(o.window),
        td(`${last.score.toFixed(3)} [${last.scoreLow.toFixed(3)}, ${last.scoreHigh.toFixed(3)}]`),
        td(`${signedFixed(last.elo)} [${signedFixed(last.eloLow)}, ${signedFixed(last.eloHigh)}]`),
      ];
    });
    out.push(table(['opponent', 'games', 'window', 'score now [95%]', 'Elo now [95%]'], rows, ' class="opponent"'));
  }
  out.push('</section>');

  out.push('<section id="learning">', '<h2>Learning curve</h2>');
  if (!g.recorded) out.push('<p class="note">No games recorded yet.</p>');
  else {
    out.push(
      '<p class="note">One chart per idea. The score against each opponent over its last games, with its 95% interval, ' +
        'by game: score rather than Elo (the same information, bounded, and its interval stays readable near 0 and 1; ' +
        'the table above gives Elo now), and by game rather than by training hours (the unit Morph learns in, and the ' +
        'axis of the other charts; games per hour are in the runs table). Then the material Morph ends its games with.</p>',
    );
  }
  out.push(chart('chart-score'), chart('chart-material'));
  out.push('</section>');

  out.push('<section id="outcomes">', '<h2>Results by colour and ending</h2>');
  if (!data.outcomes.length) out.push('<p class="note">No games recorded yet.</p>');
  for (const outcome of data.outcomes) {
    out.push(`<h3>${escapeHtml(outcome.opponent === 'all opponents' ? 'All opponents' : `Against ${outcome.opponent}`)}</h3>`);
    const rows = [
      ...(['white', 'black'] as const).map((color) => [td(`Morph ${color}`, 'text'), td(wdl(outcome.byColor[color])), td(scoreOf(outcome.byColor[color]))]),
      ...Object.entries(outcome.byEnding)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([ending, counts]) => [td(`ended by ${ending}`, 'text'), td(wdl(counts)), td(scoreOf(counts))]),
    ];
    out.push(table(['games', 'Morph W / D / L', 'Morph score'], rows, ' class="outcome"'));
  }
  out.push('</section>');

  // LEARNING-CURVE CHECKPOINTS: what training/recipes/curve.sh measured (train/checkpointResults.ts). THE YARDSTICK
  // OVER TRAINING (issue 72): the checkpoint move-quality curve (the scored positions' move quality after each
  // stretch of training) belongs in this section, its chart beside chart-curve-blunder (reportCharts.ts).
  out.push('<section id="checkpoints">', '<h2>Learning-curve checkpoints</h2>');
  out.push(chart('chart-curve-elo'), chart('chart-curve-quality'), chart('chart-curve-blunder'));
  if (!data.curve.length) {
    out.push(
      '<p class="note">No checkpoints measured for this database. <code>morph train --checkpoint-every N</code> keeps copies, ' +
        'and <code>training/recipes/curve.sh</code> measures them (matches over varied openings and move quality).</p>',
    );
  } else {
    const interval = (value: number | undefined, low: number | undefined, high: number | undefined, show: (n: number) => string) =>
      value === undefined ? '-' : `${show(value)}${low !== undefined && high !== undefined ? ` [${show(low)}, ${show(high)}]` : ''}`;
    const fixed = (digits: number) => (n: number) => n.toFixed(digits);
    out.push(table(
      ['trained games', 'measure', 'against', 'games or positions', 'score', 'Elo [95%]', 'mean loss [95%]', 'blunders [95%]', 'top-4'],
      data.curve.map((r) => [
        td(r.trainedGames, 'text'), td(r.measure, 'text'), td(r.against, 'text'), td(r.samples),
        td(r.score === undefined ? '-' : r.score.toFixed(3)),
        td(interval(r.elo, r.eloLow, r.eloHigh, (n) => signedFixed(n))),
        td(interval(r.meanLoss, r.lossLow, r.lossHigh, fixed(1))),
        td(interval(r.blunder, r.blunderLow, r.blunderHigh, fixed(3))),
        td(r.top4 === undefined ? '-' : r.top4.toFixed(3)),
      ]),
      ' class="checkpoint"',
    ));
  }
  out.push('</section>');

  out.push('<section id="growth">', '<h2>Database size</h2>');
  if (!g.recorded && !s.patterns.total) out.push('<p class="note">No games recorded yet.</p>');
  out.push(chart('chart-patterns'));
  out.push(
    '<p class="note">By origin and size: the patterns in the database now, counted by the game that created them (patterns ' +
      'deleted since are in neither curve; the total above counts them while they lived).</p>',
  );
  out.push(chart('chart-growth-origin'), chart('chart-growth-size'));
  out.push('</section>');

  out.push('<section id="material">', '<h2>Material patterns</h2>');
  out.push(materialVerdict(data));
  const rows = data.material.slice(0, data.materialRows);
  out.push(
    `<p class="note">As the paper's Table 1: piece-count differences of the side that just moved minus the side to move, ` +
      `the learned weight (expected outcome for the side that just moved; .5 is even) and the traditional value. ` +
      `${data.material.length} material patterns${rows.length < data.material.length ? `, the ${rows.length} most updated shown` : ''}.</p>`,
  );
  out.push('<table class="data material">', '<thead><tr>');
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

  out.push('<section id="relations">', '<h2>Relation terms</h2>');
  out.push(
    '<p class="note">The smallest graph patterns (a piece and its safety; one attack or defence and its target\'s safety), ' +
      'read at every position the play search values, in log-odds for the side that just moved ("moved"; "toMove" is ' +
      'the other side). Learned from training\'s lessons: the settled terms toward the play search\'s value over ' +
      'capture-settled material (read by the capture searches), the static terms over static material (read by ' +
      '<code>--search material-one-ply</code>). <code>morph inspect relations</code> lists more.</p>',
  );
  if (data.relations.sets.length === 0) out.push('<p class="note">No relation terms yet: training learns them from its games.</p>');
  for (const set of data.relations.sets) {
    const fitted = set.lessons === null ? 'an older learner' : `${set.lessons} lessons`;
    out.push(`<h3>${set.kind === 'settled' ? 'Settled' : 'Static'} terms (${fitted})</h3>`, `<table class="data relations" data-kind="${set.kind}">`);
    out.push('<thead><tr><th>pattern</th><th>weight</th></tr></thead>', '<tbody>');
    for (const { pattern, weight } of set.strongest) out.push(`<tr><td>${escapeHtml(pattern)}</td><td>${signedFixed(weight, 3)}</td></tr>`);
    out.push('</tbody>', '</table>');
  }
  out.push('</section>');

  out.push('<section id="patterns">', '<h2>Strongest and weakest patterns</h2>');
  out.push(
    `<p class="note">Graph patterns of at least ${data.minSize} nodes updated at least ${data.minUpdates} times, one per ` +
      `idea: an idea is the pieces and their relations with the squares left out, so the same attack on six squares ` +
      `shows once (its strongest copy), with the count of copies passed over. ` +
      `${escapeHtml(NORMAL_FORM_LEGEND)} Arrows: red attacks, green defends, blue covers an empty square; solid direct, ` +
      `dashed x-ray through an enemy piece, dotted x-ray through an own piece, dash-dot any of these. A grey disc is a node ` +
      `restricted only to a rank (beside it), a file (below it) or not at all.</p>`,
  );
  for (const [title, id, list] of [
    ['Strongest: the best for the side that just moved', 'strongest', data.strongest],
    ['Weakest: the worst for the side that just moved', 'weakest', data.weakest],
  ] as const) {
    out.push(`<h3>${title}</h3>`);
    if (!list.length) out.push('<p class="note">No graph pattern has been updated that often yet.</p>');
    out.push(`<div class="patterns" id="${id}">`, ...list.map(patternFigure), '</div>');
  }
  out.push('</section>');

  out.push('<section id="games">', '<h2>Last games</h2>');
  if (!data.lastGames.length) out.push('<p class="note">No games recorded yet.</p>');
  else out.push(`<p class="note">The last ${data.lastGames.length}, newest first; <code>morph games --pgn FILE</code> writes them all.</p>`);
  for (const { game, pgn, problem } of data.lastGames) {
    const result = { 1: 'win', 0.5: 'draw', 0: 'loss' }[game.morphScore];
    out.push(
      `<details class="game" data-game-id="${game.id}"><summary>Game ${game.id}: Morph (${game.morphColor === 'w' ? 'White' : 'Black'}) ` +
        `vs ${escapeHtml(game.opponent)}, ${game.result} (${result}), ${escapeHtml(game.reason)}, ${game.plies} plies</summary>\n` +
        `<pre>${escapeHtml(pgn ?? problem ?? '')}</pre></details>`,
    );
  }
  out.push('</section>');

  out.push('<section id="config">', '<h2>Configuration</h2>');
  out.push(`<pre>${escapeHtml(JSON.stringify(s.config ?? 'none stored (defaults)', null, 2))}</pre>`, '</section>');
  out.push('</body>', '</html>', '');
  return out.join('\n');
}

function patternFigure(pattern: DrawnPattern): string {
  const svg = patternSvg(pattern.pattern, { idPrefix: `p${pattern.id}-`, legend: false, squareSize: 36 });
  return (
    `<figure class="pattern" data-pattern-id="${pattern.id}">\n${svg}\n<figcaption><strong>#${pattern.id}</strong> ` +
    `weight ${pattern.weight.toFixed(3)} · ${pattern.updates} updates · ${pattern.size} node${pattern.size === 1 ? '' : 's'} · ` +
    `${escapeHtml(pattern.origin)}${pattern.similar ? ` · ${pattern.similar} more like it` : ''}` +
    `<br>${escapeHtml(pattern.description)}</figcaption>\n</figure>`
  );
}

/** The learned one-piece values next to the paper's, and whether they have the textbook order. */
function materialVerdict(data: ReportData): string {
  const order = data.materialOrder;
  const cell = (w?: { weight: number; updates: number }) => td(w ? `${w.weight.toFixed(3)} (${w.updates})` : '-');
  const rows = order.pieces.map(({ piece, up, down }) => [
    td(piece, 'text'), cell(up), td(PAPER_TABLE_1[piece][0].toFixed(3)), cell(down), td(PAPER_TABLE_1[piece][1].toFixed(3)),
  ]);
  rows.push([td('even', 'text'), td(order.even === undefined ? '-' : order.even.toFixed(3)), td(PAPER_EVEN.toFixed(3)), td(''), td('')]);
  const claims = order.claims
    .map((c) => `<li class="${c.holds ? 'holds' : 'fails'}">${c.holds ? 'holds' : 'fails'}: ${escapeHtml(c.claim)}${c.required ? '' : ' (reported, not required)'}</li>`)
    .join('\n');
  return (
    `<h3 id="material-verdict">Verdict: ${order.passed ? 'the learned values have the textbook order' : 'not the textbook order (yet)'}</h3>\n` +
    table(['piece', 'one up: weight (updates)', 'paper', 'one down: weight (updates)', 'paper'], rows, ' class="one-piece"') +
    `\n<ul class="claims">\n${claims}\n</ul>`
  );
}
