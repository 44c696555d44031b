/**
 * A pattern drawn on an SVG chess board, with arrows for its edges.
 *
 * Hand-rolled on purpose: the maintained chessboard libraries on npm (chessground, cm-chessboard,
 * chessboard.js and their React/Vue wrappers) are browser widgets that need a live DOM and draw positions from a
 * FEN. A pattern is not a position: its nodes may have only a rank, only a file or no square at all, "square"
 * nodes are empty squares, and its edges carry four types and three relations. None of those libraries can place
 * such nodes or style such arrows, and a static SVG written in Node needs no DOM. The board itself is 64
 * rectangles; pieces are Unicode chess glyphs (present in DejaVu Sans and the common system fonts), so the file is
 * self-contained.
 */
import { fileOf, rankOf, type PieceLetter } from '../chess/board.ts';
import type { EdgeType } from '../graph/labels.ts';
import { MATERIAL_PIECES, describeMaterial, type GraphPattern, type Pattern } from '../pattern/pattern.ts';
import { EDGE_MEANINGS, layoutPattern, type DrawnNode, type EdgeRelation } from './patternLayout.ts';

export interface PatternSvgOptions {
  /** A line above the board, e.g. "Pattern 12 · weight 0.912 · 679 updates". */
  title?: string;
  /** Side of one board square in pixels. */
  squareSize?: number;
  /** Prefix for ids inside the SVG (arrow markers), so several drawings can share one HTML page. */
  idPrefix?: string;
  /** Draw the legend under the board (default true). */
  legend?: boolean;
  /**
   * A move pattern (src/graph/moveGraph.ts), drawn before the move as patternLayout lays it out: the move is a thick
   * orange arrow from the moving piece to its destination, whose square is ringed, the piece's square tinted.
   */
  movePattern?: boolean;
}

// Filled glyphs for both sides: White pieces are the same shapes filled white and outlined, which renders the
// same in every font (the outline glyphs differ between fonts). U+FE0E asks for text, not emoji, presentation.
const GLYPHS: Record<PieceLetter, string> = { K: '\u265A', Q: '\u265B', R: '\u265C', B: '\u265D', N: '\u265E', P: '\u265F\uFE0E' };
const FONT = "'DejaVu Sans', 'Noto Sans Symbols 2', 'Segoe UI Symbol', 'Arial Unicode MS', sans-serif";

const LIGHT = '#f0d9b5';
const DARK = '#b58863';
const DESIGNATION_TINT = '#ffe066';

export const RELATION_COLORS: Record<EdgeRelation, string> = { attack: '#c62828', defend: '#2e7d32', square: '#1565c0', move: '#ef6c00' };
const RELATION_COLOR_NAMES: Record<EdgeRelation, string> = { attack: 'red', defend: 'green', square: 'blue', move: 'thick orange' };
const RELATION_WORDS: Record<EdgeRelation, string> = { attack: 'attacks', defend: 'defends', square: 'covers an empty square', move: 'the move' };
/** A move pattern's moving piece's square, and its destination's (ringed in the move's colour). */
const MOVE_FROM_TINT = '#ffcc80';
const MOVE_TO_TINT = '#ffa726';
export const EDGE_DASHES: Record<EdgeType, string> = { direct: '', indirect: '8 4', discovered: '2 4', attacks: '12 3 2 3' };

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const round = (n: number): number => Math.round(n * 10) / 10;

function pieceGlyph(node: { piece: PieceLetter | 'square'; side: string | null }, cx: number, cy: number, size: number): string {
  if (node.piece === 'square') {
    return `<circle cx="${round(cx)}" cy="${round(cy)}" r="${round(size * 0.16)}" fill="#6a1b9a" fill-opacity="0.75" stroke="#fff" stroke-width="1.5"/>`;
  }
  const white = node.side === 'moved';
  return (
    `<text x="${round(cx)}" y="${round(cy + size * 0.3)}" font-family="${escapeXml(FONT)}" font-size="${round(size * 0.82)}" ` +
    `text-anchor="middle" fill="${white ? '#fff' : '#111'}" stroke="${white ? '#111' : '#fff'}" stroke-width="${white ? 1.3 : 0.6}" ` +
    `paint-order="stroke">${GLYPHS[node.piece]}</text>`
  );
}

/** Wraps text into lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

export function patternSvg(pattern: Pattern, options: PatternSvgOptions = {}): string {
  return pattern.kind === 'material' ? materialSvg(pattern.diff, options) : graphSvg(pattern, options).svg;
}

/** One graph pattern's drawing, its size, and what its legend would need to explain. */
interface Drawing {
  svg: string;
  width: number;
  height: number;
  types: EdgeType[];
  relations: EdgeRelation[];
}

/** Roughly how wide a line of bold 14px sans-serif text is (for the title, which must not be cut off). */
const titleWidth = (title: string): number => Math.ceil(title.length * 8.2);

/** `reserveNote`: leave the note's line above the board even without a note (a sheet's boards then line up). */
function graphSvg(pattern: Extract<Pattern, { kind: 'graph' }>, options: PatternSvgOptions, reserveNote = false): Drawing {
  const S = options.squareSize ?? 44;
  const prefix = options.idPrefix ?? 'morph-';
  const movePattern = options.movePattern === true;
  const { nodes, edges } = layoutPattern(pattern, movePattern);
  // A move pattern's move: the edges into its destination ('@'), from the moving piece.
  const moveEdges = edges.filter((edge) => edge.relation === 'move');
  const movers = new Set(moveEdges.map((edge) => edge.from));
  const isDestination = (node: DrawnNode) => node.letter === '@';
  // A move pattern without the moving piece matches a move of any piece to such a destination.
  const note = movePattern && moveEdges.length === 0 && nodes.some(isDestination) ? 'the moving piece is not in the pattern: any piece of the mover' : null;
  const left = 22;
  const noteTop = options.title ? 30 : 8;
  const top = noteTop + (note || reserveNote ? 16 : 0);
  const boardRight = left + 8 * S;
  const boardBottom = top + 8 * S;

  // Off-board places: rank-only nodes in a tray right of their rank, file-only nodes in rows under their file,
  // square-less nodes in a last row below.
  const byRank = new Map<number, DrawnNode[]>();
  const byFile = new Map<number, DrawnNode[]>();
  const anywhere: DrawnNode[] = [];
  for (const node of nodes) {
    if (node.place.kind === 'rank') byRank.set(node.place.rank, [...(byRank.get(node.place.rank) ?? []), node]);
    else if (node.place.kind === 'file') byFile.set(node.place.file, [...(byFile.get(node.place.file) ?? []), node]);
    else if (node.place.kind === 'anywhere') anywhere.push(node);
  }
  const rankTrayColumns = Math.max(0, ...[...byRank.values()].map((list) => list.length));
  const fileTrayRows = Math.max(0, ...[...byFile.values()].map((list) => list.length));
  const trayLeft = boardRight + 14;
  const fileTrayTop = boardBottom + 20;
  const anywhereTop = fileTrayTop + fileTrayRows * S + (anywhere.length ? 16 : 0);
  const anywhereColumns = 4; // after the 'any square:' label, 1.5 squares apart, within the board's width
  // A pattern none of whose nodes is tied to a square, rank or file can match anywhere: an empty board would only
  // take room, so its nodes go on a circle instead.
  const boardless = anywhere.length === nodes.length;
  const ringRadius = nodes.length === 1 ? 0 : Math.max(1.2 * S, 0.42 * S * nodes.length);
  const ringCentre = { x: left + 4 * S, y: top + 16 + ringRadius + 0.6 * S };

  const centre = new Map<number, { x: number; y: number; board: boolean }>();
  for (const node of nodes) {
    const place = node.place;
    if (place.kind === 'square') {
      centre.set(node.index, { x: left + (fileOf(place.square) + 0.5) * S, y: top + (7 - rankOf(place.square) + 0.5) * S, board: true });
    } else if (place.kind === 'rank') {
      const column = byRank.get(place.rank)!.indexOf(node);
      centre.set(node.index, { x: trayLeft + (column + 0.5) * S, y: top + (7 - place.rank + 0.5) * S, board: false });
    } else if (place.kind === 'file') {
      const row = byFile.get(place.file)!.indexOf(node);
      centre.set(node.index, { x: left + (place.file + 0.5) * S, y: fileTrayTop + (row + 0.5) * S, board: false });
    } else if (boardless) {
      const angle = Math.PI + (2 * Math.PI * node.index) / nodes.length;
      centre.set(node.index, { x: ringCentre.x + ringRadius * Math.cos(angle), y: ringCentre.y + ringRadius * Math.sin(angle), board: false });
    } else {
      const i = anywhere.indexOf(node);
      centre.set(node.index, {
        x: left + 70 + ((i % anywhereColumns) * 1.5 + 0.5) * S,
        y: anywhereTop + (Math.floor(i / anywhereColumns) + 0.5) * S,
        board: false,
      });
    }
  }
  const anywhereRows = Math.ceil(anywhere.length / anywhereColumns);
  let height = boardless ? ringCentre.y + ringRadius + 0.6 * S + 6 : anywhereTop + anywhereRows * S + 6;
  const width = Math.max(
    boardRight + (rankTrayColumns ? 14 + rankTrayColumns * S : 0) + 8, 8 * S + left + 8, options.title ? left + titleWidth(options.title) : 0,
  );
  const types = edges.map((e) => e.type);
  const relations = edges.map((e) => e.relation);

  const legendLines = options.legend === false ? [] : legendText(types, relations, width, movePattern);
  const legendTop = height + 8;
  height = legendTop + legendLines.length * 15 + 4;

  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="morph-pattern" width="${width}" height="${round(height)}" ` +
      `viewBox="0 0 ${width} ${round(height)}" role="img" aria-label="${escapeXml(options.title ?? 'Morph pattern')}"` +
      `${boardless ? ' data-board="none"' : ''}>`,
  );
  out.push('<defs>');
  for (const [relation, color] of Object.entries(RELATION_COLORS)) {
    out.push(
      `<marker id="${prefix}arrow-${relation}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="3.2" markerHeight="3.2" ` +
        `orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${color}"/></marker>`,
    );
  }
  out.push('</defs>');
  out.push(`<rect width="100%" height="100%" fill="#fff"/>`);
  if (options.title) {
    out.push(`<text x="${left}" y="20" font-family="sans-serif" font-size="14" font-weight="bold" fill="#222">${escapeXml(options.title)}</text>`);
  }
  if (note) out.push(`<text class="note" x="${left}" y="${noteTop + 10}" font-family="sans-serif" font-size="11" fill="#555">${escapeXml(note)}</text>`);
  if (boardless) {
    out.push(`<text x="${left}" y="${top + 12}" font-family="sans-serif" font-size="11" fill="#555">no square, rank or file: matches anywhere on the board</text>`);
  } else {
    out.push(
      ...boardElements({
        S,
        left,
        top,
        byRank: [...byRank.keys()],
        byFile: [...byFile].map(([file, list]) => [file, list.length]),
        trayWidth: trayLeft - boardRight + rankTrayColumns * S,
      }),
    );
  }
  if (anywhere.length && !boardless) {
    out.push(`<text x="${left}" y="${anywhereTop + S / 2 + 4}" font-family="sans-serif" font-size="11" fill="#555">any square:</text>`);
  }
  // The move on the board: the moving piece's square tinted, its destination's tinted deeper and outlined.
  for (const node of nodes) {
    const role = isDestination(node) ? 'move-to' : movers.has(node.index) ? 'move-from' : null;
    if (role === null || node.place.kind !== 'square') continue;
    const { x, y } = centre.get(node.index)!;
    const inset = role === 'move-to' ? 1.5 : 0;
    out.push(
      `<rect class="${role}" data-node="${node.index}" x="${round(x - S / 2 + inset)}" y="${round(y - S / 2 + inset)}" ` +
        `width="${S - 2 * inset}" height="${S - 2 * inset}" fill="${role === 'move-to' ? MOVE_TO_TINT : MOVE_FROM_TINT}" fill-opacity="0.75"` +
        `${role === 'move-to' ? ` stroke="${RELATION_COLORS.move}" stroke-width="3"` : ''}/>`,
    );
  }

  // Arrows under the pieces' labels but over the board. A pair of opposite edges is drawn as two parallel arrows.
  // An arrow that would cross a node it does not join bends around it (see edgeRoute).
  out.push('<g class="edges">');
  const pairs = new Set(edges.map((e) => `${e.from}>${e.to}`));
  // The move last, over the other arrows.
  for (const edge of [...edges.filter((e) => e.relation !== 'move'), ...moveEdges]) {
    const a = centre.get(edge.from)!;
    const b = centre.get(edge.to)!;
    const shift = pairs.has(`${edge.to}>${edge.from}`) ? 5 : 0;
    const obstacles = [...centre].filter(([index]) => index !== edge.from && index !== edge.to).map(([, point]) => point);
    const route = edgeRoute(a, b, obstacles, S, shift);
    const dash = EDGE_DASHES[edge.type];
    out.push(
      `<path class="pattern-edge" data-from="${edge.from}" data-to="${edge.to}" data-type="${edge.type}" data-relation="${edge.relation}" ` +
        `d="${route}" fill="none" ` +
        `stroke="${RELATION_COLORS[edge.relation]}" stroke-width="${round(edge.relation === 'move' ? S / 6.5 : S / 11)}" stroke-opacity="0.9" stroke-linecap="round"` +
        `${dash ? ` stroke-dasharray="${dash}"` : ''} marker-end="url(#${prefix}arrow-${edge.relation})">` +
        `<title>#${edge.from} -&gt; #${edge.to}: ${edge.type} (${RELATION_WORDS[edge.relation]})</title></path>`,
    );
  }
  out.push('</g>');

  out.push('<g class="nodes">');
  for (const node of nodes) {
    const { x, y, board } = centre.get(node.index)!;
    out.push(
      `<g class="pattern-node" data-node="${node.index}" data-piece="${node.piece}" data-side="${node.side ?? 'none'}" ` +
        `data-x="${round(x)}" data-y="${round(y)}" data-place="${node.place.kind}">`,
    );
    const destination = isDestination(node);
    out.push(`<title>${escapeXml(node.text + (node.safety ? ` (${node.safety})` : ''))}</title>`);
    if (!board) {
      const moving = destination || movers.has(node.index);
      out.push(
        `<circle cx="${round(x)}" cy="${round(y)}" r="${round(S * 0.46)}" fill="${destination ? MOVE_FROM_TINT : '#e8e8e8'}" ` +
          `stroke="${moving ? RELATION_COLORS.move : '#999'}"${moving ? ' stroke-width="2"' : ''} stroke-dasharray="3 2"/>`,
      );
    }
    if (destination) {
      // A ring where the piece lands, and the safety it will have there.
      out.push(`<circle class="destination" cx="${round(x)}" cy="${round(y)}" r="${round(S * 0.3)}" fill="none" stroke="${RELATION_COLORS.move}" stroke-width="3"/>`);
      if (node.safety) {
        out.push(
          `<text x="${round(x)}" y="${round(y + S * 0.46)}" font-family="sans-serif" font-size="${round(S * 0.18)}" text-anchor="middle" ` +
            `fill="#000" stroke="#fff" stroke-width="2" paint-order="stroke">${escapeXml(node.safety)}</text>`,
        );
      }
    } else out.push(pieceGlyph(node, x, y, S));
    out.push(`<text x="${round(x - S / 2 + 3)}" y="${round(y - S / 2 + 10)}" font-family="sans-serif" font-size="9" fill="#000" fill-opacity="0.7">${node.index}</text>`);
    out.push('</g>');
  }
  out.push('</g>');

  legendLines.forEach((line, i) => {
    out.push(`<text x="4" y="${legendTop + 11 + i * 15}" font-family="sans-serif" font-size="11" fill="#333">${escapeXml(line)}</text>`);
  });
  out.push('</svg>');
  return { svg: out.join('\n'), width, height: round(height), types, relations };
}

export interface PatternSheetOptions {
  /** Lines above the drawings, e.g. what the patterns were learned from. */
  heading?: string[];
  /** Move patterns (PatternSvgOptions.movePattern), under a move pattern's legend. */
  movePattern?: boolean;
  /** Drawings side by side (default 2). */
  columns?: number;
  squareSize?: number;
}

/**
 * Several graph patterns in one SVG file: each on its own board under its title, in a grid (row by row, in the
 * order given), and one legend under them all for the edge styles any of them uses.
 */
export function patternSheetSvg(items: readonly { pattern: GraphPattern; title: string }[], options: PatternSheetOptions = {}): string {
  const drawings = items.map((item, i) =>
    graphSvg(item.pattern, { title: item.title, idPrefix: `morph-${i + 1}-`, legend: false, movePattern: options.movePattern, squareSize: options.squareSize }, true),
  );
  const margin = 8;
  const gap = 16;
  const columns = Math.max(1, Math.min(options.columns ?? 2, drawings.length));
  const cellWidth = Math.max(8 * (options.squareSize ?? 44) + 30, ...drawings.map((d) => d.width));
  const width = 2 * margin + columns * cellWidth + (columns - 1) * gap;
  const heading = [...(options.heading ?? []), ...(drawings.length ? [] : ['No patterns to draw.'])].flatMap((line) =>
    wrap(line, Math.floor((width - 2 * margin) / 7)),
  );
  const out: string[] = [];
  heading.forEach((line, i) => {
    out.push(`<text x="${margin + 4}" y="${margin + 14 + i * 18}" font-family="sans-serif" font-size="13" fill="#222">${escapeXml(line)}</text>`);
  });
  let y = margin + heading.length * 18 + (heading.length ? 8 : 0);
  for (let start = 0; start < drawings.length; start += columns) {
    const row = drawings.slice(start, start + columns);
    row.forEach((drawing, column) => {
      out.push(
        `<g class="sheet-cell" data-rank="${start + column + 1}" transform="translate(${margin + column * (cellWidth + gap)},${round(y)})">\n${drawing.svg}\n</g>`,
      );
    });
    y += Math.max(...row.map((d) => d.height)) + gap;
  }
  const legend = drawings.length ? legendText(drawings.flatMap((d) => d.types), drawings.flatMap((d) => d.relations), width, options.movePattern) : [];
  legend.forEach((line, i) => {
    out.push(`<text x="${margin + 4}" y="${round(y + 11 + i * 15)}" font-family="sans-serif" font-size="11" fill="#333">${escapeXml(line)}</text>`);
  });
  const height = round(y + legend.length * 15 + margin);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" class="morph-pattern-sheet" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
      `role="img" aria-label="${escapeXml(heading[0] ?? 'Morph patterns')}">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    ...out,
    '</svg>',
  ].join('\n');
}

interface Point {
  x: number;
  y: number;
  /** On a board square (true) or off the board (a tray, the "any square" row, the ring). */
  board: boolean;
}

/** Distance from point p to the segment a-b. */
function segmentDistance(p: Point, a: { x: number; y: number }, b: { x: number; y: number }): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const t = Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/** Points along the quadratic curve a-c-b. */
function curvePoints(a: Point, c: { x: number; y: number }, b: Point, steps = 24): { x: number; y: number }[] {
  return Array.from({ length: steps + 1 }, (_, i) => {
    const t = i / steps;
    return { x: (1 - t) ** 2 * a.x + 2 * (1 - t) * t * c.x + t * t * b.x, y: (1 - t) ** 2 * a.y + 2 * (1 - t) * t * c.y + t * t * b.y };
  });
}

/**
 * The SVG path of an arrow from a to b, trimmed at both ends to leave the pieces visible. Straight, unless it
 * would pass over a node it does not join, where one end or the obstacle is off the board (nodes with only a
 * rank, a file or no square share rows and columns, and a straight arrow would seem to join them): then a curve
 * bowed to one side, as little as clears every such node. On the board a straight line is the real geometry
 * (an x-ray passes through its blocker), so board-to-board arrows stay straight.
 */
export function edgeRoute(a: Point, b: Point, obstacles: readonly Point[], S: number, shift: number): string {
  const radius = S * 0.5;
  const length = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const ux = (b.x - a.x) / length;
  const uy = (b.y - a.y) / length;
  const nx = -uy;
  const ny = ux;
  const relevant = obstacles.filter((p) => !(a.board && b.board && p.board));
  const clear = (points: { x: number; y: number }[]) =>
    relevant.every((p) => points.every((q, i) => i === 0 || segmentDistance({ ...p }, points[i - 1], q) >= radius));
  let control: { x: number; y: number } | null = null;
  if (!clear([a, b])) {
    const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    search: for (let bow = 0.5; bow <= 6; bow += 0.5) {
      for (const side of [1, -1]) {
        const candidate = { x: mid.x + side * nx * bow * S, y: mid.y + side * ny * bow * S };
        if (clear(curvePoints(a, candidate, b))) {
          control = candidate;
          break search;
        }
      }
    }
  }
  const trim = S * 0.3;
  const ox = nx * shift;
  const oy = ny * shift;
  if (!control) {
    return `M${round(a.x + ux * trim + ox)},${round(a.y + uy * trim + oy)} L${round(b.x - ux * trim + ox)},${round(b.y - uy * trim + oy)}`;
  }
  // Trim along the curve's tangents, which point at the control point from each end.
  const toward = (from: { x: number; y: number }, to: { x: number; y: number }) => {
    const d = Math.hypot(to.x - from.x, to.y - from.y) || 1;
    return { x: from.x + ((to.x - from.x) / d) * trim + ox, y: from.y + ((to.y - from.y) / d) * trim + oy };
  };
  const start = toward(a, control);
  const end = toward(b, control);
  return `M${round(start.x)},${round(start.y)} Q${round(control.x + ox)},${round(control.y + oy)} ${round(end.x)},${round(end.y)}`;
}

interface BoardGeometry {
  /** Square size and the board's top-left corner. */
  S: number;
  left: number;
  top: number;
  /** Ranks with rank-only nodes (tinted into the tray), and files with how many file-only nodes sit below. */
  byRank: number[];
  byFile: [number, number][];
  trayWidth: number;
}

/** The board, with the ranks and files that designated nodes are restricted to tinted, and its coordinates. */
function boardElements({ S, left, top, byRank, byFile, trayWidth }: BoardGeometry): string[] {
  const out: string[] = ['<g class="board">'];
  for (let rank = 0; rank < 8; rank++) {
    for (let file = 0; file < 8; file++) {
      out.push(`<rect x="${left + file * S}" y="${top + (7 - rank) * S}" width="${S}" height="${S}" fill="${(rank + file) % 2 ? LIGHT : DARK}"/>`);
    }
  }
  for (const rank of byRank) {
    out.push(`<rect x="${left}" y="${top + (7 - rank) * S}" width="${8 * S + trayWidth}" height="${S}" fill="${DESIGNATION_TINT}" fill-opacity="0.45"/>`);
  }
  for (const [file, below] of byFile) {
    out.push(`<rect x="${left + file * S}" y="${top}" width="${S}" height="${8 * S + 20 + below * S}" fill="${DESIGNATION_TINT}" fill-opacity="0.45"/>`);
  }
  out.push(`<rect x="${left}" y="${top}" width="${8 * S}" height="${8 * S}" fill="none" stroke="#555"/>`);
  for (let i = 0; i < 8; i++) {
    out.push(`<text x="${left - 8}" y="${top + (7 - i + 0.5) * S + 4}" font-family="sans-serif" font-size="11" text-anchor="middle" fill="#555">${i + 1}</text>`);
    out.push(`<text x="${left + (i + 0.5) * S}" y="${top + 8 * S + 13}" font-family="sans-serif" font-size="11" text-anchor="middle" fill="#555">${String.fromCharCode(97 + i)}</text>`);
  }
  out.push('</g>');
  return out;
}

/**
 * The legend: the normal-form convention (a move pattern's, as patternLayout's MOVE_PATTERN_LEGEND has it), then
 * only the edge styles the drawing uses.
 */
function legendText(types: EdgeType[], relations: EdgeRelation[], width: number, movePattern = false): string[] {
  const chars = Math.max(40, Math.floor(width / 6.2));
  const places = 'purple dot: an empty square next to a king; grey disc: a node with only a rank, a file or no square.';
  const parts = [
    movePattern
      ? 'A move pattern, drawn before the move: the mover is the side to move, Black, moving down the board. ' +
        "The thick orange arrow is the move, from the moving piece (its square tinted) to the move's destination " +
        "(ringed in orange, with the safety the piece will have there); the arrows out of the destination are what " +
        `the moved piece will attack or defend from there; ${places}`
      : `Normal form: White is the side that just moved (moving up the board), Black the side to move; ${places}`,
  ];
  const order: EdgeRelation[] = ['move', 'attack', 'defend', 'square'];
  const usedRelations = order.filter((r) => relations.includes(r)).map((r) => `${RELATION_COLOR_NAMES[r]} ${RELATION_WORDS[r]}`);
  const styles: Record<EdgeType, string> = { direct: 'solid', indirect: 'dashed', discovered: 'dotted', attacks: 'dash-dot' };
  const usedTypes = [...new Set(types)].map((t) => `${styles[t]} ${t === 'direct' ? 'direct' : `${t}: ${EDGE_MEANINGS[t]}`}`);
  if (usedRelations.length) parts.push(`Arrows: ${usedRelations.join(', ')}; ${usedTypes.join('; ')}.`);
  return parts.flatMap((part) => wrap(part, chars));
}

/** A material pattern: the extra pieces of each side, White being the side that just moved. */
function materialSvg(diff: readonly number[], options: PatternSvgOptions): string {
  const S = options.squareSize ?? 44;
  const top = options.title ? 30 : 8;
  const rows: { label: string; side: 'moved' | 'toMove'; pieces: PieceLetter[] }[] = [
    { label: 'side that just moved (White) has more', side: 'moved', pieces: [] },
    { label: 'side to move (Black) has more', side: 'toMove', pieces: [] },
  ];
  MATERIAL_PIECES.forEach((piece, i) => {
    for (let n = 0; n < Math.abs(diff[i]); n++) rows[diff[i] > 0 ? 0 : 1].pieces.push(piece);
  });
  const width = Math.max(8, ...rows.map((row) => row.pieces.length)) * S + 30;
  const out: string[] = [];
  const height = top + 2 * (S + 18) + 24;
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="morph-pattern" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
      `role="img" aria-label="${escapeXml(options.title ?? 'Morph material pattern')}">`,
  );
  out.push(`<rect width="100%" height="100%" fill="#fff"/>`);
  if (options.title) {
    out.push(`<text x="10" y="20" font-family="sans-serif" font-size="14" font-weight="bold" fill="#222">${escapeXml(options.title)}</text>`);
  }
  rows.forEach((row, r) => {
    const y = top + r * (S + 18);
    out.push(`<text x="10" y="${y + 12}" font-family="sans-serif" font-size="11" fill="#555">${escapeXml(row.label)}:${row.pieces.length ? '' : ' nothing'}</text>`);
    row.pieces.forEach((piece, i) => {
      out.push(`<rect x="${10 + i * S}" y="${y + 16}" width="${S}" height="${S}" fill="${i % 2 ? LIGHT : DARK}"/>`);
      out.push(pieceGlyph({ piece, side: row.side }, 10 + (i + 0.5) * S, y + 16 + S / 2, S));
    });
  });
  out.push(`<text x="10" y="${height - 8}" font-family="sans-serif" font-size="11" fill="#333">${escapeXml(describeMaterial(diff))}</text>`);
  out.push('</svg>');
  return out.join('\n');
}
