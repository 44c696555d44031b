/**
 * `morph inspect move-patterns --svg FILE` (issue 71): the first --draw patterns listed, each on its own board in one
 * SVG file, the move an arrow from the moving piece's square to the destination's, as each pattern's stored body
 * (read here straight from the file, not through the renderer) says.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeMovePatternFile } from './helpers/movePatternFile.ts';
import { morph } from './helpers/sampleDatabase.ts';

const CHROMIUM = '/usr/bin/chromium';
const tempDir = mkdtempSync(join(tmpdir(), 'morph-move-pattern-svg-'));
const file = join(tempDir, 'move-patterns.db');
const LISTING = ['inspect', 'move-patterns', '--db', file, '--min-uses', '3', '--limit', '10', '--draw', '8'];
const DRAWN = 8;

interface BodyNode {
  key: string;
  attributes: { piece: string; side?: string; square?: string; safety?: string };
}
interface Body {
  nodes: BodyNode[];
  edges: { source: string; target: string }[];
}

/**
 * The move a stored move pattern describes (src/graph/moveGraph.ts): its destination is the square node with a
 * safety or edges out, its moving piece the node with an edge into the destination; each one's exact square, if any.
 */
function moveOf(body: Body): { from?: string; to?: string; hasMover: boolean } {
  const destination = body.nodes.find(
    (n) => n.attributes.piece === 'square' && (n.attributes.safety !== undefined || body.edges.some((e) => e.source === n.key)),
  )!;
  const mover = body.nodes.find((n) => body.edges.some((e) => e.source === n.key && e.target === destination.key));
  return { from: mover?.attributes.square, to: destination.attributes.square, hasMover: mover !== undefined };
}

function storedBodies(): Map<number, Body> {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare('SELECT id, body FROM pattern_stats').all() as { id: number; body: string }[];
    return new Map(rows.map((row) => [row.id, JSON.parse(row.body) as Body]));
  } finally {
    db.close();
  }
}

/** The rows the listing shows, as its JSON gives them. */
function listedRows(): { id: number; score: number; uses: number; chosen: number }[] {
  const listed = morph([...LISTING, '--json']);
  expect(listed.status).toBe(0);
  return JSON.parse(listed.stdout).rows;
}

beforeAll(() => writeMovePatternFile(file, 60));
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));

describe('morph inspect move-patterns --svg', () => {
  it('writes the first --draw patterns on boards of their own, titled as the listing, and says where', () => {
    const svgFile = join(tempDir, 'text.svg');
    const result = morph([...LISTING, '--svg', svgFile]);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.endsWith(`\nSVG written to ${svgFile}\n`)).toBe(true);
    const svg = readFileSync(svgFile, 'utf8');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    const cells = [...svg.matchAll(/<g class="sheet-cell" data-rank="(\d+)"[^>]*>\n(<svg [\s\S]*?<\/svg>)\n<\/g>/g)];
    expect(cells.map((m) => Number(m[1]))).toEqual(Array.from({ length: DRAWN }, (_, i) => i + 1));
    // One board each, under the heading the text listing gives the same pattern.
    const rows = listedRows();
    cells.forEach(([, rank, cell], i) => {
      expect(cell.match(/<svg /g)).toHaveLength(1);
      expect(cell.match(/class="pattern-node"/g)!.length).toBeGreaterThan(0);
      const row = rows[i];
      const heading = `Move pattern ${row.id}: score ${row.score >= 0 ? '+' : ''}${row.score.toFixed(2)}, chosen ${row.chosen} of ${row.uses}`;
      expect(result.stdout).toContain(`\n${heading}\n`);
      expect(cell).toContain(`>${rank}. ${heading}</text>`);
    });
    expect(svg).toContain('A move pattern, drawn before the move');
  });

  it('gives the file in the JSON, beside the same listing', () => {
    const svgFile = join(tempDir, 'json.svg');
    const result = morph([...LISTING, '--json', '--svg', svgFile]);
    expect(result.status).toBe(0);
    const parsed = JSON.parse(result.stdout);
    expect(parsed.svg).toBe(svgFile);
    expect(parsed.rows).toEqual(listedRows());
    expect(readFileSync(svgFile, 'utf8').match(/class="sheet-cell"/g)).toHaveLength(DRAWN);
  });

  it('refuses a path it cannot write, or nothing to draw, in one line with exit code 2', () => {
    const bad = join(tempDir, 'no-such-folder', 'x.svg');
    const refused = morph([...LISTING, '--svg', bad]);
    expect(refused.status).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(`morph: cannot write ${bad}: ENOENT\n`);
    const none = morph(['inspect', 'move-patterns', '--db', file, '--draw', '0', '--svg', join(tempDir, 'none.svg')]);
    expect(none.status).toBe(2);
    expect(none.stderr.trim().split('\n')).toHaveLength(1);
    expect(none.stderr).toMatch(/^morph: --svg draws the first --draw patterns/);
    expect(existsSync(join(tempDir, 'none.svg'))).toBe(false);
  });

  // Runs wherever Debian's chromium is installed, and always in CI (where a missing browser must fail).
  it.skipIf(!existsSync(CHROMIUM) && !process.env.CI)(
    'parses as SVG in a real browser, where each arrow of a move runs from the moving piece\'s square to the destination\'s',
    async () => {
      const svgFile = join(tempDir, 'browser.svg');
      expect(morph([...LISTING, '--svg', svgFile]).status).toBe(0);
      const rows = listedRows();
      const bodies = storedBodies();
      const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
      try {
        const page = await browser.newPage();
        const problems: string[] = [];
        page.on('console', (message) => problems.push(`console ${message.type()}: ${message.text()}`));
        page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
        await page.goto(pathToFileURL(svgFile).href, { waitUntil: 'load' });
        // A file that is not well-formed XML shows the browser's parser error instead of the drawing.
        const parsed = await page.evaluate(() => ({
          root: document.documentElement.localName,
          namespace: document.documentElement.namespaceURI,
          errors: document.getElementsByTagName('parsererror').length,
        }));
        expect(parsed).toEqual({ root: 'svg', namespace: 'http://www.w3.org/2000/svg', errors: 0 });
        expect(problems).toEqual([]);
        // tsx (esbuild, keeping names) wraps the named helpers below in a __name call the page does not define.
        await page.evaluate('globalThis.__name = (fn) => fn');

        // Per drawing, as rendered (page coordinates): where the move's arrow starts and ends, and which board
        // square each lies on, the squares named by their place in the drawn 8x8 grid (a: left, 1: bottom).
        const drawn = await page.evaluate(() =>
          [...document.querySelectorAll('g.sheet-cell')].map((cell) => {
            const squares = [...cell.querySelectorAll('g.board rect')]
              .map((rect) => rect.getBoundingClientRect())
              .filter((box) => Math.abs(box.width - box.height) < 0.5);
            const size = Math.min(...squares.map((box) => box.width));
            const grid = squares.filter((box) => Math.abs(box.width - size) < 0.5);
            const xs = [...new Set(grid.map((box) => Math.round(box.left)))].sort((a, b) => a - b);
            const ys = [...new Set(grid.map((box) => Math.round(box.top)))].sort((a, b) => a - b);
            const squareAt = (p: { x: number; y: number }) => {
              const box = grid.find((b) => p.x > b.left && p.x < b.right && p.y > b.top && p.y < b.bottom);
              return box ? `${'abcdefgh'[xs.indexOf(Math.round(box.left))]}${8 - ys.indexOf(Math.round(box.top))}` : null;
            };
            const moves = [...cell.querySelectorAll<SVGPathElement>('path.pattern-edge[data-relation="move"]')].map((path) => {
              const matrix = path.getScreenCTM()!;
              const at = (length: number) => {
                const p = path.getPointAtLength(length);
                return new DOMPoint(p.x, p.y).matrixTransform(matrix);
              };
              return { from: squareAt(at(0)), to: squareAt(at(path.getTotalLength())) };
            });
            const destination = [...cell.querySelectorAll('rect.move-to')].map((rect) => {
              const box = rect.getBoundingClientRect();
              return squareAt({ x: (box.left + box.right) / 2, y: (box.top + box.bottom) / 2 });
            });
            return { boards: cell.querySelectorAll('g.board').length, grid: grid.length, moves, destination };
          }),
        );
        expect(drawn).toHaveLength(DRAWN);
        let bothOnBoard = 0;
        drawn.forEach((drawing, i) => {
          const move = moveOf(bodies.get(rows[i].id)!);
          if (drawing.boards) expect(drawing.grid).toBe(64);
          expect(drawing.moves).toHaveLength(move.hasMover ? 1 : 0);
          // Off the board (no exact square) an end lies on no square.
          if (move.hasMover) expect(drawing.moves[0]).toEqual({ from: move.from ?? null, to: move.to ?? null });
          expect(drawing.destination).toEqual(move.to ? [move.to] : []);
          if (move.from && move.to) bothOnBoard++;
        });
        // The file has such moves among the first drawn (a pawn's h7-h6, at the time of writing).
        expect(bothOnBoard).toBeGreaterThan(0);
      } finally {
        await browser.close();
      }
    },
  );
});
