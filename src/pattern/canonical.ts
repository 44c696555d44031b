/**
 * Canonical keys: the same pattern written with its nodes in any order gets the same key, and non-isomorphic
 * patterns get different keys (the key spells out the whole graph). Method: colour refinement (1-WL) of nodes
 * by label, designation and typed neighbourhood, then individualisation of the first ambiguous colour class,
 * recursively, keeping the lexicographically smallest encoding. Patterns are small, so this is cheap.
 */
import { nodeSafety, withSafety, type GraphPattern, type Pattern } from './pattern.ts';

/** Complete node orders encoded by the last graph key's search: its cost, which symmetric patterns could blow up. */
let searchLeaves = 0;

/** How many node orders the last canonicalKey of a graph pattern encoded (1 when refinement alone sufficed). */
export function lastKeySearchLeaves(): number {
  return searchLeaves;
}

export function canonicalKey(pattern: Pattern): string {
  return pattern.kind === 'material' ? materialKey(pattern.diff) : graphKey(pattern);
}

/**
 * Material keys already written, by a number that spells the difference (each count offset into 0..63): the
 * material searches look one up at every position they value, and the same string keeps its hash where a new one
 * is built and hashed each time (about half of such a lookup's time, measured).
 */
const materialKeys = new Map<number, string>();

export function materialKey(diff: ArrayLike<number>): string {
  const code = diff[0] + 32 + (diff[1] + 32) * 64 + (diff[2] + 32) * 4096 + (diff[3] + 32) * 262_144 + (diff[4] + 32) * 16_777_216;
  const known = materialKeys.get(code);
  if (known !== undefined) return known;
  const key = `M:${diff[0]},${diff[1]},${diff[2]},${diff[3]},${diff[4]}`;
  // Piece counts differ by 16 at most; anything else is keyed, not remembered.
  if (diff.length === 5 && Array.prototype.every.call(diff, (d: number) => Number.isInteger(d) && Math.abs(d) < 32)) materialKeys.set(code, key);
  return key;
}

interface Adjacency {
  out: [number, number][][];
  inc: [number, number][][];
}

function graphKey(pattern: GraphPattern): string {
  const n = pattern.labels.length;
  const adjacency: Adjacency = {
    out: Array.from({ length: n }, () => []),
    inc: Array.from({ length: n }, () => []),
  };
  for (const [from, to, code] of pattern.edges) {
    adjacency.out[from].push([to, code]);
    adjacency.inc[to].push([from, code]);
  }
  const initial = pattern.labels.map((_, v) => nodeToken(pattern, v));
  const colours = refine(rankStrings(initial), adjacency);
  searchLeaves = 0;
  return 'G:' + (search(pattern, adjacency, colours) ?? '');
}

/** Replaces strings by their rank among the distinct values, so colours are small integers ordered by value. */
function rankStrings(values: string[]): number[] {
  const distinct = [...new Set(values)].sort();
  return values.map((v) => distinct.indexOf(v));
}

/** Colour refinement until stable: a node's new colour is its colour plus the multiset of typed neighbour colours. */
function refine(colours: number[], adjacency: Adjacency): number[] {
  let current = colours;
  for (;;) {
    const signatures = current.map((c, v) => {
      const outs = adjacency.out[v].map(([u, code]) => `>${code}:${current[u]}`).sort();
      const ins = adjacency.inc[v].map(([u, code]) => `<${code}:${current[u]}`).sort();
      return `${String(c).padStart(3, '0')}|${outs.join(',')}|${ins.join(',')}`;
    });
    const next = rankStrings(signatures);
    if (new Set(next).size === new Set(current).size) return next;
    current = next;
  }
}

/** Smallest encoding over all individualisations of ambiguous colour classes. */
function search(pattern: GraphPattern, adjacency: Adjacency, colours: number[]): string | null {
  const n = colours.length;
  const classSizes = new Map<number, number>();
  for (const c of colours) classSizes.set(c, (classSizes.get(c) ?? 0) + 1);
  let ambiguous = -1;
  for (const c of [...classSizes.keys()].sort((a, b) => a - b)) {
    if (classSizes.get(c)! > 1) {
      ambiguous = c;
      break;
    }
  }
  if (ambiguous < 0) {
    searchLeaves++;
    return encode(pattern, colours);
  }
  let best: string | null = null;
  const tried: number[] = [];
  for (let v = 0; v < n; v++) {
    if (colours[v] !== ambiguous) continue;
    // Swapping two nodes with the same neighbourhood is an automorphism: their branches give the same leaves.
    if (tried.some((u) => interchangeable(adjacency, u, v))) continue;
    tried.push(v);
    // Individualise v: it gets a colour just below its class, then refine again.
    const split = colours.map((c, u) => (u === v ? c * 2 : c * 2 + 1));
    const candidate = search(pattern, adjacency, refine(rankInts(split), adjacency));
    if (candidate !== null && (best === null || candidate < best)) best = candidate;
  }
  return best;
}

/** Same label class assumed: do u and v have the same typed in- and out-neighbours (apart from each other)? */
function interchangeable(adjacency: Adjacency, u: number, v: number): boolean {
  const edgeCode = (list: [number, number][], to: number) => list.find(([w]) => w === to)?.[1] ?? 0;
  if (edgeCode(adjacency.out[u], v) !== edgeCode(adjacency.out[v], u)) return false;
  const signature = (list: [number, number][], other: number) =>
    list.filter(([w]) => w !== other).map(([w, code]) => `${w}:${code}`).sort().join(',');
  return (
    signature(adjacency.out[u], v) === signature(adjacency.out[v], u) &&
    signature(adjacency.inc[u], v) === signature(adjacency.inc[v], u)
  );
}

function rankInts(values: number[]): number[] {
  const distinct = [...new Set(values)].sort((a, b) => a - b);
  return values.map((v) => distinct.indexOf(v));
}

/**
 * A node as "label.designation", with ".safety" appended only when the node requires one, so that keys of the
 * paper's language are unchanged by the extension.
 */
function nodeToken(pattern: GraphPattern, v: number): string {
  const safety = nodeSafety(pattern, v);
  return `${pattern.labels[v]}.${pattern.desigs[v]}${safety ? `.${safety}` : ''}`;
}

/** Encoding under a discrete colouring (a node order): nodes as label.designation, then sorted edges. */
function encode(pattern: GraphPattern, colours: number[]): string {
  const n = colours.length;
  const nodeAt = new Array<number>(n);
  colours.forEach((c, v) => (nodeAt[c] = v));
  const nodes = nodeAt.map((v) => nodeToken(pattern, v));
  const edges = pattern.edges
    .map(([from, to, code]) => [colours[from], colours[to], code])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .map(([a, b, code]) => `${a}>${b}:${code}`);
  return `${nodes.join(' ')}|${edges.join(' ')}`;
}

/**
 * The pattern a canonical key spells out (the key lists every node and edge, in canonical order), or null when
 * the text is not a key. Loading 100k patterns from their keys is several times faster than from their JSON.
 */
// The key patternFromKey is scanning, and where (module state rather than closures: no allocation per key).
let scanned = '';
let at = 0;

/** The decimal number at the scan position (NaN when there is none). */
function scanNumber(): number {
  let value = 0;
  const start = at;
  for (let c = scanned.charCodeAt(at); c >= 48 && c <= 57; c = scanned.charCodeAt(++at)) value = value * 10 + c - 48;
  return at > start ? value : NaN;
}

function scanExpect(code: number): boolean {
  return scanned.charCodeAt(at++) === code;
}

export function patternFromKey(key: string): Pattern | null {
  if (key.startsWith('M:')) return materialFromKey(key);
  const scratch = scanGraphKey(key, keyScratch);
  if (!scratch) return null;
  // Exact-size copies: an array grown by push keeps room for 17 elements, and a database holds four per pattern.
  const edges = scratch.edges.map(([from, to, code]): [number, number, number] => [from, to, code]);
  return withSafety({ kind: 'graph', labels: scratch.labels.slice(), desigs: scratch.desigs.slice(), edges }, scratch.safety.slice());
}

/**
 * The same, for a caller that only reads the pattern before its next call (loading checks and summarises every
 * key, and keeps none of them): a graph pattern is read into arrays this module reuses, so reading a key makes no
 * garbage. Its `safety` is always present (zeros where the key has none).
 */
export function transientPatternFromKey(key: string): Pattern | null {
  return key.startsWith('M:') ? materialFromKey(key) : scanGraphKey(key, keyScratch);
}

type ScratchPattern = GraphPattern & { safety: number[] };

const keyScratch: ScratchPattern = { kind: 'graph', labels: [], desigs: [], edges: [], safety: [] };
/** Edge triples of keyScratch, reused from key to key. */
const scratchEdges: [number, number, number][] = [];

function materialFromKey(key: string): Pattern | null {
  const diff = key.slice(2).split(',').map(Number);
  if (diff.length !== 5 || !diff.every(Number.isInteger)) return null;
  return { kind: 'material', diff: diff as [number, number, number, number, number] };
}

/** Reads a graph key into `into` (its arrays emptied first), or null when the text is not a graph key. */
function scanGraphKey(key: string, into: ScratchPattern): ScratchPattern | null {
  if (!key.startsWith('G:')) return null;
  // A hand-rolled scanner: this runs once per pattern at start-up, and split/Number cost several times more.
  const { labels, desigs, safety, edges } = into;
  labels.length = desigs.length = safety.length = edges.length = 0;
  scanned = key;
  at = 2;
  while (at < key.length && key.charCodeAt(at) !== 124 /* | */) {
    const label = scanNumber();
    if (!scanExpect(46 /* . */)) return null;
    const desig = scanNumber();
    let nodeSafetyCode = 0;
    if (key.charCodeAt(at) === 46) {
      at++;
      nodeSafetyCode = scanNumber();
    }
    if (Number.isNaN(label) || Number.isNaN(desig) || Number.isNaN(nodeSafetyCode)) return null;
    labels.push(label);
    desigs.push(desig);
    safety.push(nodeSafetyCode);
    if (key.charCodeAt(at) === 32) at++;
  }
  if (!scanExpect(124)) return null;
  while (at < key.length) {
    const from = scanNumber();
    if (!scanExpect(62 /* > */)) return null;
    const to = scanNumber();
    if (!scanExpect(58 /* : */)) return null;
    const code = scanNumber();
    if (Number.isNaN(from) || Number.isNaN(to) || Number.isNaN(code)) return null;
    const edge = (scratchEdges[edges.length] ??= [0, 0, 0]);
    edge[0] = from;
    edge[1] = to;
    edge[2] = code;
    edges.push(edge);
    if (key.charCodeAt(at) === 32) at++;
  }
  return into;
}
