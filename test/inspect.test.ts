import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMorphDatabase } from '../src/store/database.ts';
import { recordGame } from '../src/store/games.ts';
import { withSnapshot } from '../src/inspect/source.ts';
import { inSnapshot } from '../src/store/database.ts';
import { readSummary, summaryText, type DatabaseSummary } from '../src/inspect/summary.ts';
import { materialTableText, readMaterialTable, traditionalValue } from '../src/inspect/material.ts';
import { listPatterns, parsePatternId, patternDetailText, patternListText, readPatternDetail } from '../src/inspect/patterns.ts';
import { patternDiagramText } from '../src/inspect/patternText.ts';
import { patternSvg } from '../src/inspect/patternSvg.ts';
import { materialOrderReport, materialOrderText } from '../src/inspect/materialOrder.ts';
import { materialPattern } from '../src/pattern/pattern.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import Database from 'better-sqlite3';
import { boardFromFen, parseUciMove } from '../src/chess/board.ts';
import { buildMoveGraph } from '../src/graph/moveGraph.ts';
import { layoutPattern } from '../src/inspect/patternLayout.ts';
import { inducedMovePattern } from '../src/model/movePatterns.ts';
import { Random } from '../src/util/random.ts';
import { writeMovePatternFile } from './helpers/movePatternFile.ts';
import { GAMES_PLAYED, HAND_MADE, MORPH_BIN, TABLE_1, buildSampleDatabase, morph, type SampleDatabase } from './helpers/sampleDatabase.ts';

const tempDir = mkdtempSync(join(tmpdir(), 'morph-inspect-'));
let sample: SampleDatabase;
let sampleHash: string;

const fileHash = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

beforeAll(() => {
  sample = buildSampleDatabase(join(tempDir, 'sample.db'));
  sampleHash = fileHash(sample.path);
});
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));

function json<T>(args: string[]): T {
  const result = morph(args);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout) as T;
}

describe('morph inspect (summary)', () => {
  it('reports games, W/D/L, patterns by kind and size, temperature and configuration', () => {
    const summary = json<DatabaseSummary>(['inspect', '--db', sample.path, '--json']);
    const scores = sample.games.map((g) => g.score);
    expect(summary.games.played).toBe(GAMES_PLAYED);
    expect(summary.games.recorded).toBe(sample.games.length);
    expect(summary.games.wins).toBe(scores.filter((s) => s === 1).length);
    expect(summary.games.draws).toBe(scores.filter((s) => s === 0.5).length);
    expect(summary.games.losses).toBe(scores.filter((s) => s === 0).length);
    expect(summary.games.score).toBeCloseTo(scores.reduce((a, b) => a + b) / scores.length, 10);
    expect(summary.patterns.byKind).toEqual({ graph: sample.graphCount, material: TABLE_1.length });
    expect(Object.values(summary.patterns.graphBySize).reduce((a, b) => a + b)).toBe(sample.graphCount);
    expect(summary.patterns.graphBySize['6']).toBeGreaterThanOrEqual(1); // the hand-made pattern
    expect(summary.patterns.links).toBeGreaterThan(0);
    expect(summary.temperature).toBe(0.8);
    expect(summary.config).toMatchObject({ learnFrom: 'both', regression: { enabled: true } });
    expect(summary.database.bytes).toBeGreaterThan(0);
    expect(summary.runs.last).toMatchObject({ opponent: 'random', stopReason: 'games-done' });

    const text = summaryText(summary);
    expect(text).toContain(`Games: ${GAMES_PLAYED} learned from; Morph W/D/L ${summary.games.wins}/${summary.games.draws}/${summary.games.losses}`);
    expect(text).toContain(`Patterns: ${sample.graphCount + TABLE_1.length} (graph ${sample.graphCount}, material ${TABLE_1.length})`);
    expect(text).toContain('Global temperature: 0.8 (schedule constant:1)');
  });

  it('fails in one line with exit code 2 for a missing, foreign or corrupt database', () => {
    const missing = morph(['inspect', '--db', join(tempDir, 'nope.db')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^morph: no Morph database at .*nope\.db\n$/);

    const foreign = join(tempDir, 'foreign.db');
    writeFileSync(foreign, 'not a database at all, just text\n'.repeat(10));
    const notSqlite = morph(['inspect', 'material', '--db', foreign]);
    expect(notSqlite.status).toBe(2);
    expect(notSqlite.stderr.trim().split('\n')).toHaveLength(1);

    // A real Morph database with its middle pages overwritten.
    const corrupt = join(tempDir, 'corrupt.db');
    const bytes = readFileSync(sample.path);
    bytes.fill(0xa5, 4096, Math.min(bytes.length, 4096 * 6));
    writeFileSync(corrupt, bytes);
    const broken = morph(['inspect', '--db', corrupt]);
    expect(broken.status).toBe(2);
    expect(broken.stderr).toMatch(/^morph: .*corrupt.*\n$/);
  });
});

describe('morph inspect material', () => {
  it("prints the paper's Table 1 columns, in the normal form, with the traditional value", () => {
    const rows = json<{ diff: Record<string, number>; weight: number; updates: number; variance: number; age: number; value: number }[]>(
      ['inspect', 'material', '--db', sample.path, '--json'],
    );
    expect(rows).toHaveLength(TABLE_1.length);
    expect(rows.map((r) => r.updates)).toEqual([...TABLE_1.map((t) => t[2])].sort((a, b) => b - a)); // most updated first
    const knight = rows.find((r) => r.diff.N === 1)!;
    expect(knight).toMatchObject({ diff: { P: 0, N: 1, B: 0, R: 0, Q: 0 }, weight: 0.91, updates: 679, variance: 23.59, age: 101, value: 3 });
    const exchange = rows.find((r) => r.diff.R === 1)!;
    expect(exchange).toMatchObject({ diff: { P: 0, N: 0, B: -1, R: 1, Q: 0 }, value: 2, age: 55 });

    const table = withSnapshot(sample.path, ({ db }) => readMaterialTable(db));
    const text = materialTableText(table.slice(0, 3), table.length);
    expect(text).toContain('the side that just moved minus the side to move');
    expect(text).toMatch(/P +N +B +R +Q +weight +updates +variance +age +value/);
    expect(text).toMatch(/\n +0 +0 +0 +0 +0 +0\.455 +2485 +240\.20 +106 +0\n/);
    expect(text).toContain('(showing 3)');
    expect(text.trim().split('\n')).toHaveLength(4 + 3);
  });

  it('prints the piece values fitted to the weights, in log-odds and in pawns', () => {
    const dir = mkdtempSync(join(tmpdir(), 'morph-piece-values-'));
    try {
      const path = join(dir, 'values.db');
      const store = PatternStore.open(path);
      // Weights exactly additive in log-odds, for pieces worth .3, .9, 1.0, 1.5 and 2.7.
      const values = [0.3, 0.9, 1.0, 1.5, 2.7];
      const diffs = [[1, 0, 0, 0, 0], [0, 1, 0, 0, 0], [0, 0, 1, -1, 0], [0, 0, 0, 1, 0], [0, 0, 0, 0, 1], [-1, -1, 0, 0, 0], [0, 0, 0, -1, 1]];
      store.transaction(() => {
        for (const diff of diffs) {
          const weight = 1 / (1 + Math.exp(-diff.reduce((sum, d, i) => sum + d * values[i], 0)));
          store.insert(materialPattern(diff), 'material', 0, { weight, updates: 100_000 });
        }
      });
      store.close();
      const text = morph(['inspect', 'material', '--db', path]).stdout;
      // The answer leads: the piece values are the first two lines.
      const [first, second] = text.split('\n');
      expect(first).toBe('Learned piece values (the weights fitted as a sum of one value per piece, in log-odds): P 0.30, N 0.90, B 1.00, R 1.50, Q 2.70;');
      expect(second).toBe('in pawns: P 1.0, N 3.0, B 3.3, R 5.0, Q 9.0 (traditionally P 1, N 3, B 3, R 5, Q 9).');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shows the ten most updated rows after the piece values, every row with --all, and every row as JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'morph-material-rows-'));
    try {
      const path = join(dir, 'rows.db');
      const store = PatternStore.open(path);
      // 14 differences, pattern i updated 100 + i times: the most updated are the last ones inserted.
      const diffs = [-3, -2, -1, 1, 2, 3, 4].flatMap((pawns) => [[pawns, 0, 0, 0, 0], [pawns, 1, 0, 0, 0]]);
      store.transaction(() => diffs.forEach((diff, i) => store.insert(materialPattern(diff), 'material', 0, { weight: 0.5, updates: 100 + i })));
      store.close();
      const rowsOf = (text: string) => text.split('\n').filter((line) => /^ +[-+]?\d+ +[-+]?\d+ +[-+]?\d+ +[-+]?\d+ +[-+]?\d+ +\d\.\d{3} /.test(line));
      const text = morph(['inspect', 'material', '--db', path]).stdout;
      expect(text.split('\n')[0]).toMatch(/^Learned piece values/);
      const shown = rowsOf(text);
      expect(shown).toHaveLength(10);
      expect(shown.map((line) => Number(line.trim().split(/ +/)[6]))).toEqual([113, 112, 111, 110, 109, 108, 107, 106, 105, 104]);
      expect(text).toContain('(4 more: --all shows every one)');
      const all = morph(['inspect', 'material', '--db', path, '--all']).stdout;
      expect(rowsOf(all)).toHaveLength(14);
      expect(all).not.toContain('more: --all');
      expect(rowsOf(morph(['inspect', 'material', '--db', path, '--limit', '3']).stdout)).toHaveLength(3);
      expect(json<unknown[]>(['inspect', 'material', '--db', path, '--json'])).toHaveLength(14);
      expect(json<unknown[]>(['inspect', 'material', '--db', path, '--json', '--limit', '2'])).toHaveLength(2);
      const both = morph(['inspect', 'material', '--db', path, '--all', '--limit', '3']);
      expect(both.status).toBe(2);
      expect(both.stderr).toBe('morph: give --all or --limit, not both\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('checks the textbook order of the one-piece weights, and says which claim fails', () => {
    const unit = (index: number, sign: number) => [0, 1, 2, 3, 4].map((i) => (i === index ? sign : 0));
    // Indices P N B R Q. Advantages .6 .7 .72 .8 .9, deficits the mirror, plus a two-piece pattern that must not count.
    const reportFor = (upWeights: number[], downWeights: number[]) => {
      const store = PatternStore.open(':memory:');
      upWeights.forEach((w, i) => store.insert(materialPattern(unit(i, 1)), 'material', 0, { weight: w, updates: 10 + i }));
      downWeights.forEach((w, i) => store.insert(materialPattern(unit(i, -1)), 'material', 0, { weight: w, updates: 5 }));
      store.insert(materialPattern([0, 0, 1, 1, 0]), 'material', 0, { weight: 0.01 });
      store.insert(materialPattern([0, 0, 0, 0, 0]), 'material', 0, { weight: 0.49 });
      const report = materialOrderReport(store.db);
      store.close();
      return report;
    };
    const good = reportFor([0.6, 0.7, 0.72, 0.8, 0.9], [0.4, 0.3, 0.28, 0.2, 0.1]);
    expect(good.passed).toBe(true);
    expect(good.claims.every((c) => c.holds)).toBe(true);
    expect(good.pieces.find((p) => p.piece === 'R')).toEqual({ piece: 'R', up: { weight: 0.8, updates: 13 }, down: { weight: 0.2, updates: 5 } });
    expect(good.even).toBe(0.49);
    expect(materialOrderText(good)).toMatch(/^R +0\.800 \(13\) +0\.916 +0\.200 \(5\) +0\.078$/m);

    // The rook below a bishop fails the required order; a deficit out of its mirror order is only reported.
    const rookLow = reportFor([0.6, 0.7, 0.82, 0.8, 0.9], [0.4, 0.3, 0.18, 0.2, 0.1]);
    expect(rookLow.passed).toBe(false);
    const failed = rookLow.claims.filter((c) => !c.holds).map((c) => [c.claim, c.required]);
    expect(failed).toEqual([['up: rook > both minors', true], ['down: rook < both minors', false]]);
    expect(materialOrderText(rookLow)).toContain('FAILS  up: rook > both minors');

    const pawnBelow = reportFor([0.45, 0.7, 0.72, 0.8, 0.9], [0.4, 0.3, 0.28, 0.2, 0.1]);
    expect(pawnBelow.claims[0]).toEqual({ claim: 'every advantage above .5 (not: P)', holds: false, required: true });
    expect(pawnBelow.passed).toBe(false);
  });

  it('values material the traditional way', () => {
    expect(traditionalValue({ P: 1, N: -1, B: 0, R: 1, Q: -1 })).toBe(1 - 3 + 5 - 9);
  });
});

describe('morph inspect patterns', () => {
  type Row = { id: number; kind: string; size: number; weight: number; updates: number; uses: number; age: number; extremeness: number };

  it('sorts, filters and limits', () => {
    const byWeight = json<Row[]>(['inspect', 'patterns', '--db', sample.path, '--sort', 'weight', '--limit', '5', '--json']);
    expect(byWeight).toHaveLength(5);
    expect(byWeight.map((r) => r.weight)).toEqual([...byWeight.map((r) => r.weight)].sort((a, b) => b - a));

    const query = (q: Parameters<typeof listPatterns>[1]) => withSnapshot(sample.path, ({ db }) => listPatterns(db, q));
    const all = query({ sort: 'updates' });
    expect(all.total).toBe(sample.graphCount + TABLE_1.length);
    expect(all.rows).toHaveLength(all.total);
    expect(byWeight[0].weight).toBe(Math.max(...all.rows.map((r) => r.weight)));

    const extreme = query({ sort: 'extremeness', kind: 'graph', minUpdates: 100 });
    expect(extreme.rows.length).toBe(all.rows.filter((r) => r.kind === 'graph' && r.updates >= 100).length);
    expect(extreme.rows.every((r) => r.kind === 'graph' && r.updates >= 100)).toBe(true);
    for (let i = 1; i < extreme.rows.length; i++) expect(extreme.rows[i - 1].extremeness).toBeGreaterThanOrEqual(extreme.rows[i].extremeness);

    const youngest = query({ sort: 'age', ascending: true, kind: 'material' });
    expect(youngest.rows.map((r) => r.age)).toEqual([...TABLE_1.map((t) => t[4])].sort((a, b) => a - b));
    const bySize = query({ sort: 'uses', size: 2, limit: 3 });
    expect(bySize.rows.every((r) => r.size === 2)).toBe(true);
    expect(bySize.rows.map((r) => r.uses)).toEqual([...bySize.rows.map((r) => r.uses)].sort((a, b) => b - a));

    const text = patternListText(bySize.rows, bySize.total, 'uses');
    expect(text).toContain(`${bySize.total} patterns, showing 3, by uses`);
    expect(text).toContain('"moved" is the side that just moved');
    expect(text.split('\n')).toHaveLength(4 + 3);

    const bad = morph(['inspect', 'patterns', '--db', sample.path, '--sort', 'colour']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('morph: --sort must be one of importance, weight, updates, uses, extremeness, age, got "colour"\n');
  });

  it('leads with the patterns that matter most: updates times the log-odds of the weight, seeds at .500 last', () => {
    type Ranked = Row & { importance: number; description: string };
    const listed = json<Ranked[]>(['inspect', 'patterns', '--db', sample.path, '--limit', '0', '--json']);
    const all = withSnapshot(sample.path, ({ db }) => listPatterns(db, { sort: 'updates' })).rows;
    expect(listed).toHaveLength(all.length);
    // Computed here from each row's own weight and updates, weights beyond .01 and .99 counted as those.
    const expected = (row: Row) => {
      const w = Math.min(Math.max(row.weight, 0.01), 0.99);
      return row.updates * Math.abs(Math.log(w / (1 - w)));
    };
    for (const row of listed) expect(row.importance).toBeCloseTo(expected(row), 9);
    for (let i = 1; i < listed.length; i++) expect(listed[i - 1].importance).toBeGreaterThanOrEqual(listed[i].importance);
    // Table 1's heavily updated knight advantage (.91, 679 updates) outranks the most updated pattern, the even one (.455).
    const knight = listed.findIndex((r) => r.kind === 'material' && r.weight === 0.91);
    const even = listed.findIndex((r) => r.kind === 'material' && r.weight === 0.455);
    expect(knight).toBeLessThan(even);
    const firstAtEven = listed.findIndex((r) => r.weight === 0.5);
    if (firstAtEven >= 0) expect(listed.slice(firstAtEven).every((r) => r.weight === 0.5 || r.updates === 0)).toBe(true);
    const text = morph(['inspect', 'patterns', '--db', sample.path, '--limit', '3']).stdout;
    expect(text.split('\n')[0]).toBe(`${listed.length} patterns, showing 3, by importance: updates x |log-odds of the weight| (evidence times effect; 0 at .500).`);
    expect(text).toMatch(/ id +kind +size +weight +updates +importance +variance /);
  });
});

describe('morph inspect pattern ID', () => {
  it('draws the pattern, gives its statistics, parents and children, and an SVG board', () => {
    const svgFile = join(tempDir, 'pattern.svg');
    const result = morph(['inspect', 'pattern', String(sample.handMadeId), '--db', sample.path, '--svg', svgFile]);
    expect(result.status).toBe(0);
    const out = result.stdout;
    expect(out).toContain(`Pattern ${sample.handMadeId}: graph, 6 nodes, created by manual in game 3`);
    expect(out).toMatch(/weight 0\.8800 +updates 40 +variance 1\.500 +uses 12 +age 103/);
    expect(out).toContain('the side that just moved is White (upper case), moving up the board');
    expect(out).toContain('  3  . . . . . N . .');
    expect(out).toContain('  2  . . . . . . * .');
    expect(out).toContain('  1  . . . . . . K .');
    expect(out).toContain('  7  . . . . . . . .    <- rank 7: #2 p');
    expect(out).toContain('not on the board: #1 q (any square), #3 R (d-file)');
    expect(out).toContain('#3 R -> #2 p  indirect: attacks, x-ray through an enemy piece');
    expect(out).toContain('#0 N -> #4 K  direct: defends');
    expect(out).toContain('Recent positions: none recorded');

    const detail = json<{ id: number; parents: { id: number }[]; children: { id: number }[]; body: { nodes: unknown[] } }>(
      ['inspect', 'pattern', String(sample.handMadeId), '--db', sample.path, '--json'],
    );
    const db = openMorphDatabase(sample.path, { readonly: true });
    try {
      const parents = db.prepare('SELECT parent FROM links WHERE child = ? ORDER BY parent').pluck().all(sample.handMadeId);
      const children = db.prepare('SELECT child FROM links WHERE parent = ? ORDER BY child').pluck().all(sample.handMadeId);
      expect(detail.parents.map((p) => p.id).sort((a, b) => a - b)).toEqual(parents);
      expect(detail.children.map((c) => c.id).sort((a, b) => a - b)).toEqual(children);
      expect(parents.length + children.length).toBeGreaterThan(0);
    } finally {
      db.close();
    }
    expect(detail.body.nodes).toHaveLength(6);

    const svg = readFileSync(svgFile, 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.match(/class="pattern-node"/g)).toHaveLength(6);
    expect(svg.match(/class="pattern-edge"/g)).toHaveLength(4);
  });

  it('gives a material pattern its difference and value', () => {
    const knightId = sample.materialIds[TABLE_1.findIndex((t) => t[0][1] === 1)];
    const detail = withSnapshot(sample.path, ({ db, path }) => readPatternDetail(db, knightId, path));
    expect(detail.material).toEqual({ diff: { P: 0, N: 1, B: 0, R: 0, Q: 0 }, value: 3 });
    const out = patternDetailText(detail, patternDiagramText(detail.pattern));
    expect(out).toContain('traditional value +3 pawns');
    expect(out).toContain('up 1 knight (side that just moved)');
  });

  it('rejects an unknown or malformed id with exit code 2', () => {
    const unknown = morph(['inspect', 'pattern', '999999', '--db', sample.path]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toBe(`morph: no pattern 999999 in ${sample.path}\n`);
    for (const text of ['e4', '0', '-3', '1.5']) {
      expect(() => parsePatternId(text)).toThrow(expect.objectContaining({ exitCode: 2 }));
    }
    expect(parsePatternId('42')).toBe(42);
  });
});

describe('pattern drawings', () => {
  it('places exact squares on the board, rank-only nodes beside it, file-only nodes below it', () => {
    const svg = patternSvg(HAND_MADE, { squareSize: 40 });
    const node = (i: number) => new RegExp(`<g class="pattern-node" data-node="${i}"[^>]*data-place="(\\w+)">`).exec(svg)![1];
    expect([0, 1, 2, 3, 4, 5].map(node)).toEqual(['square', 'anywhere', 'rank', 'file', 'square', 'square']);
    const edges = [...svg.matchAll(/data-type="(\w+)" data-relation="(\w+)"/g)].map((m) => `${m[1]}/${m[2]}`);
    expect(edges).toEqual(['direct/attack', 'indirect/attack', 'direct/square', 'direct/defend']);
    // The rank-7 pawn sits right of the board (board: x 22..342) on rank 7's row (y 48..88 with no title).
    const pawn = /data-node="2"[\s\S]*?<text x="([\d.]+)" y="([\d.]+)"/.exec(svg)!;
    expect(Number(pawn[1])).toBeGreaterThan(22 + 8 * 40);
    expect(Number(pawn[2]) - 0.3 * 40).toBeCloseTo(8 + 1.5 * 40, 0);
  });

  it('draws a pattern tied to no square without a board', () => {
    const anywhere = { ...HAND_MADE, labels: HAND_MADE.labels.slice(0, 2), desigs: [0, 0], edges: [HAND_MADE.edges[0]] };
    const svg = patternSvg(anywhere);
    expect(svg).toContain('data-board="none"');
    expect(svg).not.toContain('class="board"');
    expect(svg.match(/class="pattern-node"/g)).toHaveLength(2);
    expect(patternSvg(HAND_MADE)).toContain('<g class="board">');
  });

  it('draws a material pattern as the extra pieces of each side', () => {
    const svg = patternSvg(materialPattern([0, 1, -1, 0, 0]));
    expect(svg).toContain('up 1 knight, down 1 bishop');
    expect(svg.match(/<text[^>]*>\u265E<\/text>/g)).toHaveLength(1);
    expect(svg.match(/<text[^>]*>\u265D<\/text>/g)).toHaveLength(1);
    expect(patternDiagramText(materialPattern([0, 1, 0, 0, 0]))).toContain('P N B R Q difference 0 1 0 0 0');
  });
});

describe('reading while training writes', () => {
  it('sees one committed snapshot per command', () => {
    const path = join(tempDir, 'snapshot.db');
    buildSampleDatabase(path, 5);
    const reader = openMorphDatabase(path, { readonly: true });
    const writer = openMorphDatabase(path);
    try {
      const seen = inSnapshot(reader, () => {
        const before = readSummary(reader, path);
        recordGame(writer, { morphColor: 'w', opponent: 'x', result: '1-0', reason: 'test', plies: 1 });
        const after = readSummary(reader, path);
        return { before: before.games.recorded, after: after.games.recorded };
      });
      expect(seen).toEqual({ before: 5, after: 5 });
      expect(readSummary(reader, path).games.recorded).toBe(6);
    } finally {
      reader.close();
      writer.close();
    }
  });

  it('gives consistent output from a database that a training run is writing, and never writes itself', async () => {
    const path = join(tempDir, 'training.db');
    const trainer: ChildProcess = spawn(
      process.execPath,
      [MORPH_BIN, 'train', '--db', path, '--games', '200', '--opponent', 'random', '--progress', 'none', '--seed', '11', '--max-plies', '120',
        // Games without the relation lessons' searches, so that several commit within the reads' window.
        '--relation-lessons', '0'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let trainerErrors = '';
    trainer.stderr!.on('data', (chunk) => (trainerErrors += chunk));
    const exited = new Promise<number | null>((resolve) => trainer.on('exit', (code) => resolve(code)));
    /** Invariants that hold in every committed state: the trainer learns, records the game and counts it in one transaction. */
    const checkConsistent = (summary: DatabaseSummary, materialRows: number) => {
      expect(summary.games.recorded).toBe(summary.games.played);
      expect(summary.games.wins + summary.games.draws + summary.games.losses).toBe(summary.games.recorded);
      expect(summary.patterns.byKind.graph + summary.patterns.byKind.material).toBe(summary.patterns.total);
      expect(Object.values(summary.patterns.graphBySize).reduce((a, b) => a + b, 0)).toBe(summary.patterns.byKind.graph);
      expect(materialRows).toBe(summary.patterns.byKind.material);
    };
    const readInProcess = () =>
      withSnapshot(path, ({ db }) => ({ summary: readSummary(db, path), material: readMaterialTable(db).length }));
    try {
      const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      let first: DatabaseSummary | undefined;
      for (const deadline = Date.now() + 20_000; !first && Date.now() < deadline; await sleep(100)) {
        try {
          const { summary } = readInProcess();
          if (summary.games.played >= 1) first = summary;
        } catch {
          // not created (or not migrated) yet
        }
      }
      expect(first, 'the trainer recorded no game in time').toBeDefined();

      // Many snapshots in this process while the trainer commits game after game: for two seconds at least, and on
      // until they have seen it commit a game after the first one read (a game can take longer than the two seconds
      // on a loaded machine); a trainer that stops committing still fails below, after 40 seconds.
      const played: number[] = [];
      const movedOn = () => played.length > 0 && played.at(-1)! > first!.games.played;
      for (const until = Date.now() + 2_000, deadline = Date.now() + 40_000; (Date.now() < until || !movedOn()) && Date.now() < deadline; await sleep(20)) {
        const { summary, material } = readInProcess();
        checkConsistent(summary, material);
        played.push(summary.games.played);
      }
      expect(played.at(-1), 'the trainer should have committed a game while we read').toBeGreaterThan(first!.games.played);
      // ...and the commands themselves, in their own processes.
      const summary = json<DatabaseSummary>(['inspect', '--db', path, '--json']);
      const material = json<unknown[]>(['inspect', 'material', '--db', path, '--json']);
      expect(summary.games.played).toBeGreaterThanOrEqual(played.at(-1)!);
      checkConsistent(summary, summary.patterns.byKind.material);
      expect(material.length).toBeGreaterThan(0);
      expect(trainer.exitCode, 'the trainer should still be running').toBeNull();
      for (let i = 1; i < played.length; i++) expect(played[i]).toBeGreaterThanOrEqual(played[i - 1]);
      expect(summary.games.played, 'the trainer should have carried on while we read').toBeGreaterThan(first!.games.played);
    } finally {
      // SIGKILL, not SIGINT: the trainer dies without warning, possibly mid-transaction, which shows readers cope
      // with a writer that died.
      trainer.kill('SIGKILL');
      await exited;
    }
    expect(trainerErrors).not.toMatch(/locked|busy/i);

    // Once the writer is gone, a read-only command leaves the database file exactly as it was, and none of the
    // reads of the sample database in this file changed it.
    const before = fileHash(path);
    expect(morph(['inspect', 'pattern', '1', '--db', path]).status).toBe(0);
    expect(fileHash(path)).toBe(before);
    expect(fileHash(sample.path)).toBe(sampleHash);
  }, 120_000);
});

describe('morph inspect move-patterns', () => {
  const file = join(tempDir, 'move-patterns.db');
  beforeAll(() => writeMovePatternFile(file, 60));

  it('lists the patterns that most favour a move, with SYLPH\'s counts, and draws the first few', () => {
    const listed = morph(['inspect', 'move-patterns', '--db', file, '--min-uses', '3', '--limit', '8', '--json']);
    expect(listed.status).toBe(0);
    const { info, total, rows } = JSON.parse(listed.stdout) as {
      info: { source: string; decisions: number }; total: number; rows: { id: number; score: number; uses: number; chosen: number }[];
    };
    expect(info).toMatchObject({ source: 'test', decisions: 60 });
    expect(rows).toHaveLength(8);
    // Against the file itself: the stored weights are logistic(score), and the count of patterns with 3 uses or more.
    const db = new Database(file, { readonly: true });
    const stored = db.prepare("SELECT l.id, l.weight, l.uses, l.updates FROM pattern_learning AS l JOIN patterns AS p ON p.id = l.id WHERE p.kind = 'graph'").all() as { id: number; weight: number; uses: number; updates: number }[];
    db.close();
    expect(total).toBe(stored.filter((p) => p.uses >= 3).length);
    const byId = new Map(stored.map((p) => [p.id, p]));
    for (const row of rows) {
      const record = byId.get(row.id)!;
      expect(row.score).toBeCloseTo(Math.log(record.weight / (1 - record.weight)), 9);
      expect(row.uses).toBe(record.uses);
      expect(row.chosen).toBe(record.updates);
      expect(row.chosen).toBeLessThanOrEqual(row.uses);
    }
    const best = Math.max(...stored.filter((p) => p.uses >= 3).map((p) => p.weight));
    expect(byId.get(rows[0].id)!.weight).toBe(best);
    for (let i = 1; i < rows.length; i++) expect(rows[i].score).toBeLessThanOrEqual(rows[i - 1].score);

    const text = morph(['inspect', 'move-patterns', '--db', file, '--min-uses', '3', '--limit', '8', '--draw', '2']);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^Move patterns: learned from test, 60 decisions\.\n/);
    expect(text.stdout.match(/^Move pattern \d+: score [+-]\d/gm)).toHaveLength(2);
    expect(text.stdout).toContain("'@' is the move's destination");
  });

  it('refuses a value database in one line', () => {
    const { path } = sample;
    const refused = morph(['inspect', 'move-patterns', '--db', path]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe(`morph: ${path} is a value database, not a move-pattern database (morph model --move-patterns)\n`);
  });

  it("draws a move's destination as '@', the mover's edge into it as the move, its edges out as the moved piece's", () => {
    // White's Nc7 forks the king on e8 and the rook on a8.
    const move = buildMoveGraph(boardFromFen('r3k3/8/8/1N6/8/8/P7/4K3 w - - 0 1'), parseUciMove('b5c7')!);
    const pattern = inducedMovePattern(move, 4, new Random(1));
    const { nodes, edges } = layoutPattern(pattern, true);
    const destination = nodes.filter((node) => node.letter === '@');
    expect(destination).toHaveLength(1);
    const knight = nodes.find((node) => node.letter === 'n')!;
    expect(edges.find((edge) => edge.from === knight.index)).toMatchObject({ to: destination[0].index, relation: 'move' });
    const outOfIt = edges.filter((edge) => edge.from === destination[0].index);
    expect(outOfIt.length).toBeGreaterThan(0);
    for (const edge of outOfIt) expect(edge.relation).toBe(nodes[edge.to].side === 'moved' ? 'attack' : 'defend');
    // As a position pattern the same node is an empty square.
    expect(layoutPattern(pattern).nodes.filter((node) => node.letter === '@')).toHaveLength(0);
    expect(patternDiagramText(pattern, true)).toContain("the move's destination");
  });
});
