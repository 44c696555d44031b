/**
 * The pattern language (reference sections 1-3). A graph pattern is a small labelled directed graph: nodes are
 * colour-relative piece labels or "square" with an optional square designation, edges are direct / indirect /
 * discovered or the generalised "attacks". A material pattern is the 5-vector of piece-count differences.
 *
 * In memory a graph pattern is plain arrays (nodes numbered 0..n-1). At rest (database, exports) it is a
 * graphology graph, serialised with graphology's own export format plus a format version.
 */
import { DirectedGraph } from 'graphology';
import type { SerializedGraph } from 'graphology-types';
import {
  EDGE_ATTACKS, EDGE_TYPES, LABEL_COUNT, PIECE_TYPES, SQUARE_LABEL, edgeCode, edgeTypeName, labelPiece, labelSide,
  pieceLabel, describeLabel, SAFETY_ANY, SAFETY_EN_PRISE, SAFETY_NAMES, type EdgeType, type SafetyName, type Side,
} from '../graph/labels.ts';
import { badInput } from '../util/errors.ts';
import { desigFromAttributes, desigSquare, desigToAttributes, describeDesig } from './designation.ts';

export const PATTERN_FORMAT_VERSION = 1;

export interface GraphPattern {
  kind: 'graph';
  /** Node labels (labels.ts codes). */
  labels: number[];
  /** Node square designations (designation.ts codes). */
  desigs: number[];
  /** Edges as [from node, to node, edge code 1..4]. */
  edges: [number, number, number][];
  /**
   * Required safety of each node (labels.ts SAFETY_*, 0 = any), the extended language's only addition. Absent
   * or all 0 in the paper's language; read it through nodeSafety().
   */
  safety?: number[];
}

/** The safety a pattern node requires (0 = any). */
export function nodeSafety(pattern: GraphPattern, node: number): number {
  return pattern.safety?.[node] ?? SAFETY_ANY;
}

/** Does any node of the pattern require a safety? */
export function usesSafety(pattern: GraphPattern): boolean {
  return pattern.safety !== undefined && pattern.safety.some((s) => s !== SAFETY_ANY);
}

/**
 * `pattern` with these node safeties (0 = any). The array is kept only when some node requires a safety, so a
 * pattern that requires none is exactly the paper's.
 */
export function withSafety(pattern: GraphPattern, safety: number[]): GraphPattern {
  if (safety.some((code) => code !== SAFETY_ANY)) pattern.safety = safety;
  return pattern;
}

/** The same pattern in the paper's language: every safety requirement dropped. */
export function withoutSafety(pattern: GraphPattern): GraphPattern {
  if (pattern.safety === undefined) return pattern;
  const { safety: _dropped, ...paper } = pattern;
  return paper;
}

/** Piece-count differences P, N, B, R, Q: side that just moved minus side to move. */
export interface MaterialPattern {
  kind: 'material';
  diff: [number, number, number, number, number];
}

export type Pattern = GraphPattern | MaterialPattern;

export const MATERIAL_PIECES = ['P', 'N', 'B', 'R', 'Q'] as const;

export function materialPattern(diff: ArrayLike<number>): MaterialPattern {
  return { kind: 'material', diff: [diff[0], diff[1], diff[2], diff[3], diff[4]] };
}

export function patternSize(pattern: Pattern): number {
  return pattern.kind === 'graph' ? pattern.labels.length : 0;
}

/** Throws badInput when a graph pattern is malformed (used on everything read from outside). */
export function validatePattern(pattern: Pattern): void {
  if (pattern.kind === 'material') {
    if (pattern.diff.length !== 5 || !pattern.diff.every(Number.isInteger)) throw badInput('material pattern needs 5 integers');
    return;
  }
  const n = pattern.labels.length;
  if (n === 0) throw badInput('a graph pattern needs at least one node');
  if (pattern.desigs.length !== n) throw badInput('pattern designations do not match its nodes');
  if (pattern.safety !== undefined && pattern.safety.length !== n) throw badInput('pattern safety does not match its nodes');
  // Designated squares seen, as a 64-bit set in two words (no allocation: this runs for every pattern loaded).
  let squaresLow = 0;
  let squaresHigh = 0;
  for (let v = 0; v < n; v++) {
    const label = pattern.labels[v];
    if (!Number.isInteger(label) || label < 0 || label >= LABEL_COUNT) throw badInput(`bad pattern node label ${label}`);
    const safety = nodeSafety(pattern, v);
    if (!Number.isInteger(safety) || safety < SAFETY_ANY || safety > SAFETY_EN_PRISE) throw badInput(`bad pattern node safety ${safety}`);
    // A square node with a safety, or with out-edges, is a move's destination (graph/moveGraph.ts): move patterns.
    const sq = desigSquare(pattern.desigs[v]);
    if (sq >= 0) {
      const bit = 1 << (sq & 31);
      const seen = sq < 32 ? squaresLow : squaresHigh;
      if ((seen & bit) !== 0) throw badInput('two pattern nodes designate the same square');
      if (sq < 32) squaresLow |= bit;
      else squaresHigh |= bit;
    }
  }
  const edges = pattern.edges;
  for (let e = 0; e < edges.length; e++) {
    const [from, to, code] = edges[e];
    if (!(from >= 0 && from < n && to >= 0 && to < n) || from === to) throw badInput('bad pattern edge endpoints');
    if (!(code >= 1 && code <= EDGE_ATTACKS)) throw badInput(`bad pattern edge type ${code}`);
    // Patterns have a handful of edges: comparing with the earlier ones beats building a set.
    for (let f = 0; f < e; f++) {
      if (edges[f][0] === from && edges[f][1] === to) throw badInput('two edges between the same ordered pair of pattern nodes');
    }
  }
}

/** The graphology graph of a pattern: node keys "0".."n-1"; material patterns are node-less graphs. */
export function patternToGraphology(pattern: Pattern): DirectedGraph {
  const graph = new DirectedGraph({ allowSelfLoops: false });
  graph.setAttribute('format', PATTERN_FORMAT_VERSION);
  graph.setAttribute('kind', pattern.kind);
  if (pattern.kind === 'material') {
    const diff: Record<string, number> = {};
    MATERIAL_PIECES.forEach((piece, i) => (diff[piece] = pattern.diff[i]));
    graph.setAttribute('diff', diff);
    return graph;
  }
  pattern.labels.forEach((label, v) => {
    const side = labelSide(label);
    const safety = nodeSafety(pattern, v);
    graph.addNode(String(v), {
      piece: labelPiece(label),
      ...(side ? { side } : {}),
      ...desigToAttributes(pattern.desigs[v]),
      ...(safety !== SAFETY_ANY ? { safety: SAFETY_NAMES[safety] } : {}),
    });
  });
  for (const [from, to, code] of pattern.edges) graph.addEdge(String(from), String(to), { type: edgeTypeName(code) });
  return graph;
}

function labelFromAttributes(attrs: Record<string, unknown>): number {
  if (attrs.piece === 'square') return SQUARE_LABEL;
  const type = PIECE_TYPES.indexOf(attrs.piece as never) + 1;
  if (type === 0) throw badInput(`unknown pattern piece ${JSON.stringify(attrs.piece)}`);
  if (attrs.side !== 'moved' && attrs.side !== 'toMove') throw badInput(`unknown pattern side ${JSON.stringify(attrs.side)}`);
  return pieceLabel(attrs.side as Side, type);
}

/**
 * The pattern's JSON at rest: graphology's serialised graph, written directly (every insert writes one, and going
 * through a graphology instance was a tenth of an insert's time and garbage). The text is what
 * `JSON.stringify(patternToGraphology(pattern).export())` gives, key for key; only the generated edge keys'
 * instance number differs, which graphology itself starts from a random byte in each process.
 */
export function patternToJson(pattern: Pattern): string {
  if (pattern.kind === 'material') {
    const [p, n, b, r, q] = pattern.diff;
    return `${JSON_HEAD}"material","diff":{"P":${p},"N":${n},"B":${b},"R":${r},"Q":${q}}},"nodes":[],"edges":[]}`;
  }
  let text = `${JSON_HEAD}"graph"},"nodes":[`;
  for (let v = 0; v < pattern.labels.length; v++) {
    const label = pattern.labels[v];
    const side = labelSide(label);
    const safety = nodeSafety(pattern, v);
    text += `${v > 0 ? ',' : ''}{"key":"${v}","attributes":{"piece":"${labelPiece(label)}"`;
    if (side) text += `,"side":"${side}"`;
    text += desigJson(pattern.desigs[v]);
    if (safety !== SAFETY_ANY) text += `,"safety":"${SAFETY_NAMES[safety]}"`;
    text += '}}';
  }
  text += '],"edges":[';
  const edgeKey = `geid_${edgeKeyInstance++ & 0xff}_`;
  for (let e = 0; e < pattern.edges.length; e++) {
    const [from, to, code] = pattern.edges[e];
    text += `${e > 0 ? ',' : ''}{"key":"${edgeKey}${e}","source":"${from}","target":"${to}","attributes":{"type":"${edgeTypeName(code)}"}}`;
  }
  return text + ']}';
}

const JSON_HEAD = `{"options":{"type":"directed","multi":false,"allowSelfLoops":false},"attributes":{"format":${PATTERN_FORMAT_VERSION},"kind":`;

/** Numbers generated edge keys as graphology does: one number per graph, "geid_<number>_<edge index>". */
let edgeKeyInstance = 0;

/** A designation's attributes (desigToAttributes) as JSON members, each led by a comma. */
function desigJson(desig: number): string {
  const attrs = desigToAttributes(desig);
  if (attrs.square !== undefined) return `,"square":"${attrs.square}"`;
  if (attrs.rank !== undefined) return `,"rank":${attrs.rank}`;
  if (attrs.file !== undefined) return `,"file":"${attrs.file}"`;
  return '';
}

export function patternFromJson(text: string): Pattern {
  let data: SerializedGraph;
  try {
    data = JSON.parse(text);
  } catch {
    throw badInput('pattern JSON does not parse');
  }
  return patternFromSerialized(data);
}

/**
 * Reads graphology's serialised form directly (no Graph instance): loading 100k patterns at start-up is on the
 * critical path, and this is several times faster than importing each into a graphology graph.
 */
export function patternFromSerialized(data: SerializedGraph): Pattern {
  if (!data || typeof data !== 'object' || !Array.isArray(data.nodes)) throw badInput('pattern JSON is not a serialised graph');
  const attrs = (data.attributes ?? {}) as Record<string, unknown>;
  if (typeof attrs.format === 'number' && attrs.format > PATTERN_FORMAT_VERSION) {
    throw badInput(`pattern format ${attrs.format} is newer than this build understands (${PATTERN_FORMAT_VERSION})`);
  }
  if (attrs.kind === 'material') {
    const diff = (attrs.diff ?? {}) as Record<string, unknown>;
    const pattern: MaterialPattern = {
      kind: 'material',
      diff: MATERIAL_PIECES.map((p) => Number(diff[p] ?? 0)) as MaterialPattern['diff'],
    };
    validatePattern(pattern);
    return pattern;
  }
  if (attrs.kind !== 'graph') throw badInput(`unknown pattern kind ${JSON.stringify(attrs.kind)}`);
  const index = new Map<string, number>();
  const labels: number[] = [];
  const desigs: number[] = [];
  const safety: number[] = [];
  for (const node of data.nodes) {
    const nodeAttrs = (node.attributes ?? {}) as Record<string, unknown>;
    index.set(String(node.key), labels.length);
    labels.push(labelFromAttributes(nodeAttrs));
    desigs.push(desigFromAttributes(nodeAttrs));
    safety.push(safetyFromAttributes(nodeAttrs));
  }
  const edges: GraphPattern['edges'] = [];
  for (const edge of data.edges ?? []) {
    const type = (edge.attributes ?? {}).type as EdgeType;
    if (!EDGE_TYPES.includes(type)) throw badInput(`unknown pattern edge type ${JSON.stringify(type)}`);
    const from = index.get(String(edge.source));
    const to = index.get(String(edge.target));
    if (from === undefined || to === undefined) throw badInput('pattern edge refers to a missing node');
    edges.push([from, to, edgeCode(type)]);
  }
  const pattern = withSafety({ kind: 'graph', labels, desigs, edges }, safety);
  validatePattern(pattern);
  return pattern;
}

function safetyFromAttributes(attrs: Record<string, unknown>): number {
  if (attrs.safety === undefined) return SAFETY_ANY;
  const code = SAFETY_NAMES.indexOf(attrs.safety as SafetyName);
  if (code <= SAFETY_ANY) throw badInput(`unknown pattern node safety ${JSON.stringify(attrs.safety)}`);
  return code;
}

/** One line a person can read, e.g. "moved N on f3 -direct-> toMove Q; ...". */
export function describePattern(pattern: Pattern): string {
  if (pattern.kind === 'material') return describeMaterial(pattern.diff);
  const node = (v: number): string => {
    const where = describeDesig(pattern.desigs[v]);
    const safety = nodeSafety(pattern, v);
    return `${describeLabel(pattern.labels[v])}${safety !== SAFETY_ANY ? ` (${SAFETY_NAMES[safety]})` : ''}${where ? ' ' + where : ''}`;
  };
  const parts = pattern.edges.map(([from, to, code]) => `${node(from)} -${edgeTypeName(code)}-> ${node(to)}`);
  const touched = new Set(pattern.edges.flatMap(([a, b]) => [a, b]));
  pattern.labels.forEach((_, v) => {
    if (!touched.has(v)) parts.push(node(v));
  });
  return parts.join('; ');
}

export function describeMaterial(diff: readonly number[]): string {
  const up: string[] = [];
  const down: string[] = [];
  const names = ['pawn', 'knight', 'bishop', 'rook', 'queen'];
  diff.forEach((d, i) => {
    const text = `${Math.abs(d)} ${names[i]}${Math.abs(d) > 1 ? 's' : ''}`;
    if (d > 0) up.push(text);
    if (d < 0) down.push(text);
  });
  if (!up.length && !down.length) return 'material even';
  return [up.length ? `up ${up.join(', ')}` : '', down.length ? `down ${down.join(', ')}` : ''].filter(Boolean).join(', ') +
    ' (side that just moved)';
}
