import { describe, expect, it } from 'vitest';
import { parseSquare, KING, KNIGHT, PAWN, ROOK, BISHOP } from '../src/chess/board.ts';
import { EDGE_DIRECT, EDGE_INDIRECT, SAFETY_ANY, SAFETY_DEFENDED, SQUARE_LABEL, pieceLabel } from '../src/graph/labels.ts';
import { DESIG_NONE, exactDesig, fileDesig, rankDesig } from '../src/pattern/designation.ts';
import type { GraphPattern } from '../src/pattern/pattern.ts';
import { patternSvg } from '../src/inspect/patternSvg.ts';

const SQUARE = 44;

/**
 * Node centres, from what is drawn: an off-board node's grey disc (or an empty square's dot) is its first circle;
 * a piece on the board is its glyph, whose baseline sits .3 squares below the centre.
 */
function nodeCentres(svg: string): Map<number, { x: number; y: number }> {
  const centres = new Map<number, { x: number; y: number }>();
  for (const m of svg.matchAll(/<g class="pattern-node" data-node="(\d+)"[^>]*>([\s\S]*?)<\/g>/g)) {
    const circle = /<circle cx="([\d.-]+)" cy="([\d.-]+)"/.exec(m[2]);
    const glyph = /<text x="([\d.-]+)" y="([\d.-]+)"/.exec(m[2])!;
    centres.set(Number(m[1]), circle ? { x: Number(circle[1]), y: Number(circle[2]) } : { x: Number(glyph[1]), y: Number(glyph[2]) - 0.3 * SQUARE });
  }
  return centres;
}

/** Points along each drawn edge (a straight line or a quadratic curve), read back from the SVG. */
function edgePaths(svg: string): { from: number; to: number; points: { x: number; y: number }[] }[] {
  const edges: { from: number; to: number; points: { x: number; y: number }[] }[] = [];
  for (const m of svg.matchAll(/<(?:line|path) class="pattern-edge" data-from="(\d+)" data-to="(\d+)"([^>]*)>/g)) {
    const attributes = m[3];
    const numbers = (/ d="([^"]+)"/.exec(attributes)?.[1] ?? ['x1', 'y1', 'x2', 'y2'].map((k) => new RegExp(` ${k}="([^"]+)"`).exec(attributes)![1]).join(' '))
      .match(/-?[\d.]+/g)!.map(Number);
    const [x0, y0] = numbers;
    const [cx, cy, x1, y1] = numbers.length === 6 ? numbers.slice(2) : [(x0 + numbers[2]) / 2, (y0 + numbers[3]) / 2, numbers[2], numbers[3]];
    const points = Array.from({ length: 101 }, (_, i) => {
      const t = i / 100;
      return { x: (1 - t) ** 2 * x0 + 2 * (1 - t) * t * cx + t * t * x1, y: (1 - t) ** 2 * y0 + 2 * (1 - t) * t * cy + t * t * y1 };
    });
    edges.push({ from: Number(m[1]), to: Number(m[2]), points });
  }
  return edges;
}

/** The closest any edge comes to the centre of a node it does not join, in squares. */
function closestPass(svg: string): number {
  const centres = nodeCentres(svg);
  let closest = Infinity;
  for (const edge of edgePaths(svg)) {
    for (const [node, centre] of centres) {
      if (node === edge.from || node === edge.to) continue;
      for (const p of edge.points) closest = Math.min(closest, Math.hypot(p.x - centre.x, p.y - centre.y) / SQUARE);
    }
  }
  return closest;
}

describe('pattern SVG edges', () => {
  it('do not pass over unrelated nodes that share a row without squares, a rank tray or a file column', () => {
    const pattern: GraphPattern = {
      kind: 'graph',
      labels: [
        pieceLabel('moved', ROOK), pieceLabel('toMove', KNIGHT), pieceLabel('toMove', PAWN), pieceLabel('moved', KING),
        pieceLabel('toMove', PAWN), pieceLabel('toMove', PAWN), pieceLabel('toMove', PAWN),
        pieceLabel('moved', BISHOP), pieceLabel('moved', KNIGHT), pieceLabel('moved', ROOK),
      ],
      desigs: [
        DESIG_NONE, DESIG_NONE, DESIG_NONE, exactDesig(parseSquare('g1')),
        rankDesig(6), rankDesig(6), rankDesig(6),
        fileDesig(2), fileDesig(2), fileDesig(2),
      ],
      edges: [
        [0, 2, EDGE_DIRECT], [3, 0, EDGE_DIRECT], // across the "any square" row, over node 1
        [4, 6, EDGE_DIRECT], // along the rank-7 tray, over node 5
        [7, 9, EDGE_INDIRECT], // down the c-file column, over node 8
        [0, 1, EDGE_DIRECT], // neighbours: nothing in between
      ],
    };
    const svg = patternSvg(pattern);
    expect(nodeCentres(svg).size).toBe(10);
    expect(edgePaths(svg)).toHaveLength(5);
    // Node discs have a radius of .46 squares: a passing edge must stay outside them.
    expect(closestPass(svg)).toBeGreaterThan(0.46);
  });

  it('keeps arrows between board squares straight, as the geometry is (an x-ray crosses its blocker)', () => {
    const pattern: GraphPattern = {
      kind: 'graph',
      labels: [pieceLabel('moved', ROOK), pieceLabel('toMove', KNIGHT), pieceLabel('toMove', KING)],
      desigs: [exactDesig(parseSquare('a1')), exactDesig(parseSquare('a4')), exactDesig(parseSquare('a8'))],
      edges: [[0, 1, EDGE_DIRECT], [0, 2, EDGE_INDIRECT]],
    };
    const svg = patternSvg(pattern);
    for (const m of svg.matchAll(/class="pattern-edge"[^>]* d="([^"]+)"/g)) expect(m[1]).toMatch(/^M[\d.,-]+ L[\d.,-]+$/);
  });
});

/** The board's 64 squares as drawn (its smallest square rectangles), each named by its column and row on the board. */
function boardSquares(svg: string): { name: string; x: number; y: number; size: number }[] {
  const board = /<g class="board">([\s\S]*?)<\/g>/.exec(svg)![1];
  const rects = [...board.matchAll(/<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/g)]
    .map((m) => ({ x: Number(m[1]), y: Number(m[2]), width: Number(m[3]), height: Number(m[4]) }))
    .filter((r) => r.width === r.height);
  const size = Math.min(...rects.map((r) => r.width));
  const squares = rects.filter((r) => r.width === size);
  expect(squares).toHaveLength(64);
  const xs = [...new Set(squares.map((r) => r.x))].sort((a, b) => a - b);
  const ys = [...new Set(squares.map((r) => r.y))].sort((a, b) => a - b);
  // a is the leftmost column, rank 1 the bottom row.
  return squares.map((r) => ({ name: `${'abcdefgh'[xs.indexOf(r.x)]}${8 - ys.indexOf(r.y)}`, x: r.x, y: r.y, size }));
}

/** The square a point of the drawing falls on. */
function squareAt(svg: string, point: { x: number; y: number }): string | undefined {
  return boardSquares(svg).find((s) => point.x > s.x && point.x < s.x + s.size && point.y > s.y && point.y < s.y + s.size)?.name;
}

describe('move pattern SVG', () => {
  // The mover's knight on b4 goes to c2 (defended there), from where it will attack the king on e1 and the rook on a1.
  const fork: GraphPattern = {
    kind: 'graph',
    labels: [pieceLabel('toMove', KNIGHT), SQUARE_LABEL, pieceLabel('moved', KING), pieceLabel('moved', ROOK)],
    desigs: [exactDesig(parseSquare('b4')), exactDesig(parseSquare('c2')), exactDesig(parseSquare('e1')), exactDesig(parseSquare('a1'))],
    edges: [[0, 1, EDGE_DIRECT], [1, 2, EDGE_DIRECT], [1, 3, EDGE_DIRECT]],
    safety: [SAFETY_ANY, SAFETY_DEFENDED, SAFETY_ANY, SAFETY_ANY],
  };

  it('draws the move as a thick arrow from the moving piece to its ringed, highlighted destination', () => {
    const svg = patternSvg(fork, { movePattern: true });
    const edges = [...svg.matchAll(/<path class="pattern-edge" data-from="(\d+)" data-to="(\d+)"[^>]*data-relation="(\w+)" d="([^"]+)"[^>]*stroke="([^"]+)" stroke-width="([\d.]+)"/g)]
      .map((m) => ({ from: Number(m[1]), to: Number(m[2]), relation: m[3], d: m[4], stroke: m[5], width: Number(m[6]) }));
    expect(edges.map((e) => e.relation).sort()).toEqual(['attack', 'attack', 'move']);
    const move = edges.find((e) => e.relation === 'move')!;
    const [x0, y0, x1, y1] = move.d.match(/-?[\d.]+/g)!.map(Number);
    expect(squareAt(svg, { x: x0, y: y0 })).toBe('b4');
    expect(squareAt(svg, { x: x1, y: y1 })).toBe('c2');
    // Styled apart from the attacks: its own colour, thicker, and drawn over them.
    for (const edge of edges.filter((e) => e.relation !== 'move')) {
      expect(edge.stroke).not.toBe(move.stroke);
      expect(move.width).toBeGreaterThan(1.5 * edge.width);
    }
    expect(edges.at(-1)).toBe(move);
    // The destination's square and the mover's are highlighted; the destination is a ring with its safety, no piece.
    const highlight = (role: string) => {
      const m = new RegExp(`<rect class="${role}" data-node="\\d+" x="([\\d.]+)" y="([\\d.]+)" width="([\\d.]+)"`).exec(svg)!;
      return squareAt(svg, { x: Number(m[1]) + Number(m[3]) / 2, y: Number(m[2]) + Number(m[3]) / 2 });
    };
    expect(highlight('move-to')).toBe('c2');
    expect(highlight('move-from')).toBe('b4');
    const destination = /<g class="pattern-node" data-node="1"[^>]*>([\s\S]*?)<\/g>/.exec(svg)![1];
    expect(destination).toContain('class="destination"');
    expect(destination).toContain('>defended</text>');
    expect(destination).not.toMatch(/[\u265A-\u265F]/);
    expect(svg).toContain('A move pattern, drawn before the move');
    expect(svg).toContain('thick orange the move');
  });

  it('draws the same pattern as a position pattern without a move', () => {
    const svg = patternSvg(fork);
    expect(svg).not.toContain('data-relation="move"');
    expect(svg).not.toContain('class="move-to"');
    expect(svg).toContain('Normal form: White is the side that just moved');
  });

  it('says so when the moving piece is not in the pattern', () => {
    const destinationOnly: GraphPattern = { ...fork, labels: fork.labels.slice(1), desigs: fork.desigs.slice(1), edges: [[0, 1, EDGE_DIRECT]], safety: [SAFETY_DEFENDED, SAFETY_ANY, SAFETY_ANY] };
    const svg = patternSvg(destinationOnly, { movePattern: true });
    expect(svg).toContain('the moving piece is not in the pattern');
    expect(svg).not.toContain('data-relation="move"');
    expect(svg).toContain('class="move-to"');
  });
});
