/**
 * The pattern matcher, subpattern-of, canonical keys and pattern JSON (reference section 3), checked against
 * brute force written here: every injective map of pattern nodes into target nodes, tested for labels,
 * designations (desigSatisfies) and edges. Position graphs come from seeded random legal playouts (chess.js).
 */
import { Chess } from 'chess.js';
import { describe, expect, it } from 'vitest';
import { boardFromFen } from '../src/chess/board.ts';
import { EDGE_ATTACKS, LABEL_COUNT, SQUARE_LABEL } from '../src/graph/labels.ts';
import { buildPositionGraph, type PositionGraph } from '../src/graph/positionGraph.ts';
import { patternFromKey, canonicalKey, lastKeySearchLeaves, transientPatternFromKey } from '../src/pattern/canonical.ts';
import { DESIG_NONE, desigSatisfies, desigSquare, exactDesig, fileDesig, rankDesig } from '../src/pattern/designation.ts';
import { inducedPattern } from '../src/pattern/extract.ts';
import { compilePattern, matches } from '../src/pattern/matcher.ts';
import { materialPattern, patternFromJson, patternToGraphology, patternToJson, validatePattern, type GraphPattern } from '../src/pattern/pattern.ts';
import { isSubpattern, subpatternMapping } from '../src/pattern/subpattern.ts';
import { MorphError } from '../src/util/errors.ts';
import { Random } from '../src/util/random.ts';

// ---------------------------------------------------------------------------------------------------------
// Brute force

/** A target as the brute force sees it: node labels, designations and an edge-code lookup. */
interface PlainTarget {
  labels: number[];
  desigs: number[];
  /** Node safety (0 on a pattern target node that requires none). */
  safety: number[];
  edge(from: number, to: number): number;
}

function plainFromGraph(graph: PositionGraph): PlainTarget {
  const n = graph.nodeCount;
  return {
    labels: Array.from(graph.nodeLabel.subarray(0, n)),
    desigs: Array.from(graph.nodeDesig.subarray(0, n)),
    safety: Array.from(graph.nodeSafety.subarray(0, n)),
    edge: (a, b) => graph.edgeType(a, b),
  };
}

function plainFromPattern(pattern: GraphPattern): PlainTarget {
  const codes = new Map<number, number>();
  for (const [a, b, code] of pattern.edges) codes.set(a * 64 + b, code);
  return {
    labels: pattern.labels,
    desigs: pattern.desigs,
    safety: pattern.labels.map((_, v) => pattern.safety?.[v] ?? 0),
    edge: (a, b) => codes.get(a * 64 + b) ?? 0,
  };
}

/** A pattern node's required safety (0 = any) is met by the target node's. */
function safetyMet(pattern: GraphPattern, v: number, target: PlainTarget, t: number): boolean {
  const required = pattern.safety?.[v] ?? 0;
  return required === 0 || required === target.safety[t];
}

/** A pattern edge of `wanted` type is met by a target edge `found` (0 = none). */
function edgeMet(wanted: number, found: number): boolean {
  return found !== 0 && (wanted === EDGE_ATTACKS || wanted === found);
}

/** Is `map` (pattern node -> target node) an embedding? Checks everything, including injectivity. */
function isEmbedding(pattern: GraphPattern, target: PlainTarget, map: readonly number[]): boolean {
  if (map.length !== pattern.labels.length) return false;
  if (new Set(map).size !== map.length) return false;
  for (let v = 0; v < map.length; v++) {
    const t = map[v];
    if (!(t >= 0 && t < target.labels.length)) return false;
    if (target.labels[t] !== pattern.labels[v]) return false;
    if (!desigSatisfies(pattern.desigs[v], target.desigs[t])) return false;
    if (!safetyMet(pattern, v, target, t)) return false;
  }
  return pattern.edges.every(([a, b, code]) => edgeMet(code, target.edge(map[a], map[b])));
}

/**
 * Every injective map, node by node; a branch is cut only on a node's own label or designation (the edges are
 * checked on complete maps), so this is the plain definition with the hopeless label choices skipped.
 */
function bruteEmbedding(pattern: GraphPattern, target: PlainTarget): number[] | null {
  const n = pattern.labels.length;
  const map: number[] = [];
  const used = new Set<number>();
  const extend = (v: number): boolean => {
    if (v === n) return pattern.edges.every(([a, b, code]) => edgeMet(code, target.edge(map[a], map[b])));
    for (let t = 0; t < target.labels.length; t++) {
      if (used.has(t) || target.labels[t] !== pattern.labels[v]) continue;
      if (!desigSatisfies(pattern.desigs[v], target.desigs[t])) continue;
      if (!safetyMet(pattern, v, target, t)) continue;
      map[v] = t;
      used.add(t);
      if (extend(v + 1)) return true;
      used.delete(t);
    }
    return false;
  };
  return extend(0) ? map.slice(0, n) : null;
}

/** Isomorphism by brute force: a bijection keeping labels, designations and every edge with its exact type. */
function bruteIsomorphic(p: GraphPattern, q: GraphPattern): boolean {
  const n = p.labels.length;
  if (n !== q.labels.length || p.edges.length !== q.edges.length) return false;
  const pEdge = plainFromPattern(p).edge;
  const qEdge = plainFromPattern(q).edge;
  const map: number[] = [];
  const used = new Array<boolean>(n).fill(false);
  const extend = (v: number): boolean => {
    if (v === n) return true;
    for (let t = 0; t < n; t++) {
      if (used[t] || q.labels[t] !== p.labels[v] || q.desigs[t] !== p.desigs[v]) continue;
      if ((p.safety?.[v] ?? 0) !== (q.safety?.[t] ?? 0)) continue;
      let ok = true;
      for (let u = 0; u < v && ok; u++) ok = pEdge(u, v) === qEdge(map[u], t) && pEdge(v, u) === qEdge(t, map[u]);
      if (!ok) continue;
      map[v] = t;
      used[t] = true;
      if (extend(v + 1)) return true;
      used[t] = false;
    }
    return false;
  };
  return extend(0);
}

// ---------------------------------------------------------------------------------------------------------
// Positions and patterns

function playoutGraphs(seed: number, games: number, plies: number): PositionGraph[] {
  const random = new Random(seed);
  const graphs: PositionGraph[] = [];
  for (let g = 0; g < games; g++) {
    const chess = new Chess();
    for (let p = 0; p < plies && !chess.isGameOver(); p++) {
      chess.move(random.pick(chess.moves()));
      graphs.push(buildPositionGraph(boardFromFen(chess.fen())));
    }
  }
  return graphs;
}

function graphNeighbours(graph: PositionGraph, v: number): number[] {
  const out: number[] = [];
  for (let u = 0; u < graph.nodeCount; u++) if (u !== v && (graph.edgeType(v, u) || graph.edgeType(u, v))) out.push(u);
  return out;
}

/** Random node set of the graph, grown through edges (falling back to any node when stuck). */
function randomNodeSet(graph: PositionGraph, random: Random, size: number): number[] {
  const chosen = [random.int(graph.nodeCount)];
  while (chosen.length < Math.min(size, graph.nodeCount)) {
    const frontier = chosen.flatMap((v) => graphNeighbours(graph, v)).filter((u) => !chosen.includes(u));
    const pool = frontier.length && random.next() < 0.9 ? frontier : Array.from({ length: graph.nodeCount }, (_, i) => i).filter((u) => !chosen.includes(u));
    chosen.push(random.pick(pool));
  }
  return chosen;
}

/**
 * The induced subgraph on `nodes`, every node with its exact square (written here, independent of extract.ts).
 * With a `random`, some piece nodes also require the safety they have in the graph.
 */
function inducedWithSquares(graph: PositionGraph, nodes: number[], random?: Random): GraphPattern {
  const edges: GraphPattern['edges'] = [];
  nodes.forEach((a, i) =>
    nodes.forEach((b, j) => {
      const code = i === j ? 0 : graph.edgeType(a, b);
      if (code) edges.push([i, j, code]);
    }),
  );
  const pattern: GraphPattern = { kind: 'graph', labels: nodes.map((v) => graph.nodeLabel[v]), desigs: nodes.map((v) => graph.nodeDesig[v]), edges };
  if (random) {
    const safety = nodes.map((v) => (graph.nodeSafety[v] !== 0 && random.next() < 0.3 ? graph.nodeSafety[v] : 0));
    if (safety.some((code) => code !== 0)) pattern.safety = safety;
  }
  return pattern;
}

/** Relax a designation: keep it, or its rank, or its file, or drop it. */
function relaxDesig(desig: number, random: Random): number {
  const square = desigSquare(desig);
  if (square < 0) return random.next() < 0.5 ? desig : DESIG_NONE;
  const r = random.next();
  return r < 0.3 ? desig : r < 0.5 ? rankDesig(square >> 3) : r < 0.7 ? fileDesig(square & 7) : DESIG_NONE;
}

/** A generalisation that must still match wherever the input does: edges to "attacks" or dropped, designations relaxed. */
function generalise(pattern: GraphPattern, random: Random, dropEdges = 0.15): GraphPattern {
  const edges: GraphPattern['edges'] = [];
  for (const [a, b, code] of pattern.edges) {
    const r = random.next();
    if (r < dropEdges) continue;
    edges.push([a, b, r < dropEdges + 0.3 ? EDGE_ATTACKS : code]);
  }
  const general: GraphPattern = { kind: 'graph', labels: [...pattern.labels], desigs: pattern.desigs.map((d) => relaxDesig(d, random)), edges };
  if (pattern.safety) general.safety = pattern.safety.map((code) => (random.next() < 0.3 ? 0 : code));
  return general;
}

/** One small change that may or may not keep the match: retype, add or reverse an edge, relabel, move a square. */
function perturb(pattern: GraphPattern, random: Random): GraphPattern {
  const p: GraphPattern = {
    kind: 'graph',
    labels: [...pattern.labels],
    desigs: [...pattern.desigs],
    edges: pattern.edges.map((e) => [...e] as [number, number, number]),
    ...(pattern.safety ? { safety: [...pattern.safety] } : {}),
  };
  const n = p.labels.length;
  const hasEdge = (a: number, b: number) => p.edges.some(([x, y]) => x === a && y === b);
  const change = random.int(6);
  if (change === 5) {
    // Require a safety (1-3) of a piece node: kept or broken depending on the position.
    const v = random.int(n);
    if (p.labels[v] !== SQUARE_LABEL) {
      p.safety ??= new Array<number>(n).fill(0);
      p.safety[v] = 1 + random.int(3);
    }
    return p;
  }
  if (change <= 1 && p.edges.length) {
    const edge = random.pick(p.edges);
    const [a, b] = edge;
    if (change === 0) edge[2] = 1 + (((edge[2] % 3) + random.int(2)) % 3); // another type ("attacks" becomes specific)
    else if (p.labels[b] !== SQUARE_LABEL && !hasEdge(b, a)) [edge[0], edge[1]] = [b, a];
  } else if (change <= 2) {
    const a = random.int(n);
    const b = random.int(n);
    if (a !== b && p.labels[a] !== SQUARE_LABEL && !hasEdge(a, b)) p.edges.push([a, b, 1 + random.int(4)]);
  } else if (change === 3) {
    const v = random.int(n);
    const hasOut = p.edges.some(([a]) => a === v);
    p.labels[v] = hasOut ? random.int(12) : random.int(LABEL_COUNT); // an empty square cannot attack
    if (p.labels[v] === SQUARE_LABEL && p.safety) p.safety[v] = 0; // nor has a safety
  } else {
    const v = random.int(n);
    const square = random.int(64);
    if (!p.desigs.some((d) => desigSquare(d) === square)) p.desigs[v] = exactDesig(square);
  }
  return p;
}

/** Labels weighted toward what boards are full of (pawns, king squares), so that some random patterns match. */
const COMMON_LABELS = [0, 0, 0, 6, 6, 6, 12, 12, 12, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11];

/** A random valid pattern of 2-4 nodes. */
function randomPattern(random: Random, edgeChance = 0.4): GraphPattern {
  const n = 2 + random.int(3);
  const labels = Array.from({ length: n }, () => random.pick(COMMON_LABELS));
  const taken = new Set<number>();
  const desigs = labels.map(() => {
    const r = random.next();
    if (r < 0.6) return DESIG_NONE;
    if (r < 0.75) return rankDesig(random.int(8));
    if (r < 0.9) return fileDesig(random.int(8));
    const square = random.int(64);
    if (taken.has(square)) return DESIG_NONE;
    taken.add(square);
    return exactDesig(square);
  });
  const edges: GraphPattern['edges'] = [];
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      if (a !== b && labels[a] !== SQUARE_LABEL && random.next() < edgeChance) edges.push([a, b, random.pick([1, 1, 1, 2, 3, 4, 4])]);
    }
  }
  return { kind: 'graph', labels, desigs, edges };
}

/** The same pattern with nodes renumbered by a random permutation and edges listed in random order. */
function relabel(pattern: GraphPattern, random: Random): GraphPattern {
  const n = pattern.labels.length;
  const perm = shuffle(Array.from({ length: n }, (_, i) => i), random); // old node v becomes perm[v]
  const labels = new Array<number>(n);
  const desigs = new Array<number>(n);
  const safety = new Array<number>(n);
  for (let v = 0; v < n; v++) {
    labels[perm[v]] = pattern.labels[v];
    desigs[perm[v]] = pattern.desigs[v];
    safety[perm[v]] = pattern.safety?.[v] ?? 0;
  }
  const edges = shuffle(pattern.edges.map(([a, b, c]) => [perm[a], perm[b], c] as [number, number, number]), random);
  return { kind: 'graph', labels, desigs, edges, ...(pattern.safety ? { safety } : {}) };
}

function shuffle<T>(items: T[], random: Random): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

const GRAPHS = playoutGraphs(2024, 12, 80);

function rate(count: number, total: number): string {
  return `${count}/${total} (${((100 * count) / total).toFixed(1)}%)`;
}

// ---------------------------------------------------------------------------------------------------------
// (a) matches() against brute force

describe('matches() against brute-force subgraph monomorphism', () => {
  it('agrees on 3000 random pattern/position pairs, and embedding() gives a valid map exactly when it matches', () => {
    const random = new Random(99);
    const kinds = ['induced+generalised', 'induced+perturbed', 'random', 'two-node, no squares'] as const;
    const stats = Object.fromEntries(kinds.map((k) => [k, { pairs: 0, matched: 0 }])) as Record<(typeof kinds)[number], { pairs: number; matched: number }>;
    const disagreements: string[] = [];
    let sameGraphGeneralisedMisses = 0;
    const withSafety = { pairs: 0, matched: 0 };
    for (let i = 0; i < 3000; i++) {
      const kind = kinds[i % kinds.length];
      const source = random.pick(GRAPHS);
      // Half the time the pattern is tested on the graph it came from, otherwise on another position.
      const sameGraph = random.next() < 0.5;
      const target = sameGraph ? source : random.pick(GRAPHS);
      let pattern: GraphPattern;
      if (kind === 'random') pattern = randomPattern(random);
      else if (kind === 'two-node, no squares') {
        // Exercises the one-bit fast path (tripleBits) of two-node one-edge patterns without designations.
        const base = inducedWithSquares(source, randomNodeSet(source, random, 2));
        pattern = { ...generalise(base, random, 0), desigs: [DESIG_NONE, DESIG_NONE] };
        if (random.next() < 0.4) pattern = perturb(pattern, random);
        pattern.desigs = [DESIG_NONE, DESIG_NONE];
      } else {
        const base = inducedWithSquares(source, randomNodeSet(source, random, 2 + random.int(4)), random);
        pattern = generalise(base, random);
        if (kind === 'induced+perturbed') pattern = perturb(pattern, random);
      }
      validatePattern(pattern);
      const plain = plainFromGraph(target);
      const expected = bruteEmbedding(pattern, plain) !== null;
      const actual = matches(pattern, target);
      if (actual !== expected) disagreements.push(`${JSON.stringify(pattern)} expected ${expected}`);
      if (kind === 'induced+generalised' && sameGraph && !expected) sameGraphGeneralisedMisses++;
      const embedding = compilePattern(pattern).embedding(target);
      if (actual) expect(embedding !== null && isEmbedding(pattern, plain, embedding), JSON.stringify(pattern)).toBe(true);
      else expect(embedding).toBeNull();
      stats[kind].pairs++;
      if (expected) stats[kind].matched++;
      if (pattern.safety?.some((code) => code !== 0)) {
        withSafety.pairs++;
        if (expected) withSafety.matched++;
      }
    }
    // Safety requirements are exercised both ways.
    expect(withSafety.matched).toBeGreaterThan(50);
    expect(withSafety.pairs - withSafety.matched).toBeGreaterThan(50);
    const total = kinds.reduce((s, k) => s + stats[k].pairs, 0);
    const matched = kinds.reduce((s, k) => s + stats[k].matched, 0);
    console.log(
      `matcher vs brute force over ${GRAPHS.length} playout positions: overall match rate ${rate(matched, total)}; ` +
        kinds.map((k) => `${k} ${rate(stats[k].matched, stats[k].pairs)}`).join('; '),
    );
    expect(disagreements.slice(0, 5)).toEqual([]);
    // A pattern cut from a graph and only generalised always matches that graph (checks the brute force too).
    expect(sameGraphGeneralisedMisses).toBe(0);
    // Not vacuous: both outcomes are common overall and within the perturbed and random kinds.
    expect(matched / total).toBeGreaterThan(0.3);
    expect(matched / total).toBeLessThan(0.7);
    for (const k of ['induced+perturbed', 'random', 'two-node, no squares'] as const) {
      expect(stats[k].matched / stats[k].pairs, k).toBeGreaterThan(0.05);
      expect(stats[k].matched / stats[k].pairs, k).toBeLessThan(0.9);
    }
  });

  it('inducedPattern (extract.ts): induced edges, the reference designation rule, and it matches its own position', () => {
    const random = new Random(5);
    for (let i = 0; i < 300; i++) {
      const graph = random.pick(GRAPHS);
      const nodes = randomNodeSet(graph, random, 1 + random.int(6));
      const pattern = inducedPattern(graph, nodes);
      validatePattern(pattern);
      expect(matches(pattern, graph)).toBe(true);
      const embedding = compilePattern(pattern).embedding(graph)!;
      expect(isEmbedding(pattern, plainFromGraph(graph), embedding)).toBe(true);
      // Nodes that keep their exact square can only map to themselves.
      pattern.desigs.forEach((d, v) => d !== DESIG_NONE && expect(embedding[v]).toBe(nodes[v]));
      // Induced: exactly the graph's edges among the chosen nodes.
      const sortEdges = (edges: GraphPattern['edges']) => edges.map((e) => e.join()).sort();
      expect(sortEdges(pattern.edges)).toEqual(sortEdges(inducedWithSquares(graph, nodes).edges));
      // Reference section 1: kings, pawns and squares keep their square; other pieces only when disconnected.
      pattern.labels.forEach((label, v) => {
        const pieceType = label === SQUARE_LABEL ? 0 : (label % 6) + 1;
        const connected = pattern.edges.some(([a, b]) => a === v || b === v);
        const keepsSquare = pieceType === 0 || pieceType === 1 || pieceType === 6 || !connected;
        expect(pattern.desigs[v]).toBe(keepsSquare ? exactDesig(graph.nodeSquare[nodes[v]]) : DESIG_NONE);
      });
    }
  });
});

// ---------------------------------------------------------------------------------------------------------
// (b) subpattern-of

/** Families of related patterns (cut, then shrunk and generalised) plus unrelated random ones. */
function patternFamilies(random: Random, families: number): GraphPattern[] {
  const patterns: GraphPattern[] = [];
  for (let f = 0; f < families; f++) {
    const graph = random.pick(GRAPHS);
    const big = inducedWithSquares(graph, randomNodeSet(graph, random, 3 + random.int(4)), random);
    patterns.push(big);
    let current = big;
    for (let step = 0; step < 3; step++) {
      // Drop a random node (renumbering the rest), then generalise a little.
      const n = current.labels.length;
      if (n <= 1) break;
      const drop = random.int(n);
      const keep = (v: number) => v !== drop;
      const renumber = (v: number) => (v > drop ? v - 1 : v);
      const smaller: GraphPattern = {
        kind: 'graph',
        labels: current.labels.filter((_, v) => keep(v)),
        desigs: current.desigs.filter((_, v) => keep(v)),
        edges: current.edges.filter(([a, b]) => keep(a) && keep(b)).map(([a, b, c]) => [renumber(a), renumber(b), c]),
        ...(current.safety ? { safety: current.safety.filter((_, v) => keep(v)) } : {}),
      };
      current = generalise(smaller, random, 0.1);
      patterns.push(random.next() < 0.5 ? relabel(current, random) : current);
    }
    patterns.push(perturb(big, random));
  }
  for (let i = 0; i < families; i++) patterns.push(randomPattern(random, 0.3));
  return patterns;
}

describe('isSubpattern', () => {
  const patterns = patternFamilies(new Random(31), 40);
  const n = patterns.length;
  const relation = patterns.map((p) => patterns.map((q) => isSubpattern(p, q)));

  it(`agrees with brute force on all ${n}x${n} ordered pairs; subpatternMapping is a valid map when it holds`, () => {
    let holds = 0;
    const wrong: string[] = [];
    const targets = patterns.map(plainFromPattern);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const expected = bruteEmbedding(patterns[i], targets[j]) !== null;
        const mapping = subpatternMapping(patterns[i], patterns[j]);
        const mappingOk = expected ? mapping !== null && isEmbedding(patterns[i], targets[j], mapping) : mapping === null;
        if (relation[i][j] !== expected || !mappingOk) {
          wrong.push(`${JSON.stringify(patterns[i])} <= ${JSON.stringify(patterns[j])}: expected ${expected}`);
        }
        if (expected) holds++;
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    console.log(`isSubpattern: holds for ${rate(holds, n * n)} of ordered pairs (${n} on the diagonal)`);
    expect(holds - n).toBeGreaterThan(100);
  });

  it('the conservative reading: a specific edge is not implied by "attacks", nor an exact square by a rank', () => {
    const knightOnRook = (code: number, desig: number): GraphPattern => ({ kind: 'graph', labels: [1, 9], desigs: [desig, DESIG_NONE], edges: [[0, 1, code]] });
    expect(isSubpattern(knightOnRook(EDGE_ATTACKS, DESIG_NONE), knightOnRook(1, DESIG_NONE))).toBe(true);
    expect(isSubpattern(knightOnRook(1, DESIG_NONE), knightOnRook(EDGE_ATTACKS, DESIG_NONE))).toBe(false);
    expect(isSubpattern(knightOnRook(1, rankDesig(2)), knightOnRook(1, exactDesig(20)))).toBe(true); // e3 is on rank 3
    expect(isSubpattern(knightOnRook(1, fileDesig(4)), knightOnRook(1, exactDesig(20)))).toBe(true); // and the e-file
    expect(isSubpattern(knightOnRook(1, fileDesig(3)), knightOnRook(1, exactDesig(20)))).toBe(false);
    expect(isSubpattern(knightOnRook(1, exactDesig(20)), knightOnRook(1, rankDesig(2)))).toBe(false);
    expect(isSubpattern(knightOnRook(1, rankDesig(2)), knightOnRook(1, DESIG_NONE))).toBe(false);
  });

  it('is a partial order: reflexive, transitive, antisymmetric up to isomorphism', () => {
    let chains = 0;
    for (let i = 0; i < n; i++) {
      expect(relation[i][i]).toBe(true);
      for (let j = 0; j < n; j++) {
        if (!relation[i][j]) continue;
        if (i !== j && relation[j][i]) expect(bruteIsomorphic(patterns[i], patterns[j])).toBe(true);
        for (let k = 0; k < n; k++) {
          if (!relation[j][k]) continue;
          if (i !== j && j !== k) chains++;
          expect(relation[i][k], `${i} <= ${j} <= ${k}`).toBe(true);
        }
      }
    }
    console.log(`transitivity checked on ${chains} chains P <= Q <= R of distinct indices`);
    expect(chains).toBeGreaterThan(100);
  });

  it('P <= Q and Q matches a position imply P matches it', () => {
    const positions = GRAPHS.filter((_, i) => i % 4 === 0);
    let applicable = 0;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        if (i === j || !relation[i][j]) continue;
        for (const graph of positions) {
          if (!matches(patterns[j], graph)) continue;
          applicable++;
          expect(matches(patterns[i], graph)).toBe(true);
        }
      }
    }
    console.log(`soundness checked on ${applicable} (P <= Q, Q matches G) cases`);
    expect(applicable).toBeGreaterThan(500);
  });
});

// ---------------------------------------------------------------------------------------------------------
// (c) canonical keys

/** Hand-made near pairs: equal label multisets (and degree sequences where possible), not isomorphic. */
function nearPairs(): [string, GraphPattern, GraphPattern][] {
  const g = (labels: number[], edges: [number, number, number][], desigs = labels.map(() => DESIG_NONE)): GraphPattern => ({ kind: 'graph', labels, desigs, edges });
  const N = 1; // moved knight
  const cycle = (from: number, length: number): [number, number, number][] =>
    Array.from({ length }, (_, i) => [from + i, from + ((i + 1) % length), 1]);
  return [
    // Every node has in- and out-degree 1: colour refinement alone cannot tell these apart.
    ['one 6-cycle vs two 3-cycles of knights', g([N, N, N, N, N, N], cycle(0, 6)), g([N, N, N, N, N, N], [...cycle(0, 3), ...cycle(3, 3)])],
    ['8-cycle vs two 4-cycles', g(Array(8).fill(N), cycle(0, 8)), g(Array(8).fill(N), [...cycle(0, 4), ...cycle(4, 4)])],
    // R -> Q and B -> N vs R -> N and B -> Q: same labels, same degrees.
    ['same labels and degrees, different wiring', g([3, 10, 2, 7], [[0, 1, 1], [2, 3, 1]]), g([3, 10, 2, 7], [[0, 3, 1], [2, 1, 1]])],
    ['edge direction reversed', g([1, 7], [[0, 1, 1]]), g([1, 7], [[1, 0, 1]])],
    ['edge type direct vs indirect', g([4, 11], [[0, 1, 1]]), g([4, 11], [[0, 1, 2]])],
    ['edge type indirect vs discovered', g([4, 11], [[0, 1, 2]]), g([4, 11], [[0, 1, 3]])],
    ['edge type discovered vs attacks', g([4, 11], [[0, 1, 3]]), g([4, 11], [[0, 1, 4]])],
    ['directed 3-cycle R->N->B->R vs R->B->N->R', g([3, 1, 2], [[0, 1, 1], [1, 2, 1], [2, 0, 1]]), g([3, 1, 2], [[0, 2, 1], [2, 1, 1], [1, 0, 1]])],
    ['path types (direct, indirect) vs (indirect, direct)', g([3, 3, 3], [[0, 1, 1], [1, 2, 2]]), g([3, 3, 3], [[0, 1, 2], [1, 2, 1]])],
    ['side swapped on one node', g([1, 7], [[0, 1, 1]]), g([7, 1], [[0, 1, 1]])],
    ['square on rank 3 vs file 3', g([5, 12], [[0, 1, 1]], [DESIG_NONE, rankDesig(2)]), g([5, 12], [[0, 1, 1]], [DESIG_NONE, fileDesig(2)])],
    ['exact square moved by one', g([5, 12], [[0, 1, 1]], [exactDesig(4), exactDesig(12)]), g([5, 12], [[0, 1, 1]], [exactDesig(4), exactDesig(13)])],
    ['designation on the other of two equal nodes', g([0, 0, 6], [[0, 2, 1]], [exactDesig(8), DESIG_NONE, DESIG_NONE]), g([0, 0, 6], [[0, 2, 1]], [DESIG_NONE, exactDesig(8), DESIG_NONE])],
    ['isolated node vs node with edge elsewhere', g([0, 0, 6, 6], [[0, 2, 1], [1, 3, 1]]), g([0, 0, 6, 6], [[0, 2, 1], [0, 3, 1]])],
  ];
}

describe('canonicalKey', () => {
  it('is invariant under renumbering the nodes (600 patterns, 3 renumberings each)', () => {
    const random = new Random(77);
    for (let i = 0; i < 600; i++) {
      const graph = random.pick(GRAPHS);
      const pattern =
        i % 3 === 0
          ? randomPattern(random, 0.5)
          : generalise(inducedWithSquares(graph, randomNodeSet(graph, random, 2 + random.int(7))), random);
      const key = canonicalKey(pattern);
      for (let r = 0; r < 3; r++) expect(canonicalKey(relabel(pattern, random)), JSON.stringify(pattern)).toBe(key);
    }
    for (const [name, a, b] of nearPairs()) {
      expect(canonicalKey(relabel(a, random)), name).toBe(canonicalKey(a));
      expect(canonicalKey(relabel(b, random)), name).toBe(canonicalKey(b));
    }
  });

  it('tells apart the hand-made near pairs', () => {
    for (const [name, a, b] of nearPairs()) {
      validatePattern(a);
      validatePattern(b);
      expect(bruteIsomorphic(a, b), name).toBe(false);
      expect(canonicalKey(a), name).not.toBe(canonicalKey(b));
    }
  });

  it('equal keys exactly when isomorphic, on all pairs of a set with many near-duplicates', () => {
    const random = new Random(13);
    const patterns: GraphPattern[] = [];
    for (let i = 0; i < 60; i++) {
      const graph = random.pick(GRAPHS);
      const base =
        i % 3 === 0 ? randomPattern(random, 0.5) : generalise(inducedWithSquares(graph, randomNodeSet(graph, random, 2 + random.int(5))), random);
      patterns.push(base, relabel(base, random), relabel(perturb(base, random), random), relabel(generalise(base, random), random));
    }
    const keys = patterns.map(canonicalKey);
    let isomorphicPairs = 0;
    let nearMisses = 0;
    for (let i = 0; i < patterns.length; i++) {
      for (let j = i + 1; j < patterns.length; j++) {
        const p = patterns[i];
        const q = patterns[j];
        const sameKey = keys[i] === keys[j];
        expect(sameKey, `${JSON.stringify(p)} vs ${JSON.stringify(q)}`).toBe(bruteIsomorphic(p, q));
        if (sameKey) {
          isomorphicPairs++;
          expect(isSubpattern(p, q) && isSubpattern(q, p)).toBe(true);
          expect([p.labels.length, p.edges.length]).toEqual([q.labels.length, q.edges.length]);
        } else if (p.labels.length === q.labels.length && [...p.labels].sort().join() === [...q.labels].sort().join()) nearMisses++;
      }
    }
    console.log(`canonicalKey: ${isomorphicPairs} isomorphic pairs, ${nearMisses} non-isomorphic pairs with equal label multisets`);
    expect(isomorphicPairs).toBeGreaterThan(60);
    expect(nearMisses).toBeGreaterThan(60);
  });

  it('stays cheap on symmetric patterns (interchangeable empty squares around kings)', () => {
    // Empty king squares whose designations were generalised away are interchangeable; a canonical search that
    // tries every order of them is factorial (8 such squares: ~1 s; two kings with 6 each: ~22 s; 8 each:
    // hours). Skipping twin nodes (same neighbourhood) brings both to ~1 ms.
    const kingArea = (squaresPerKing: number[]): GraphPattern => {
      const labels = [5, 11];
      const edges: GraphPattern['edges'] = [];
      squaresPerKing.forEach((count, king) => {
        for (let i = 0; i < count; i++) {
          edges.push([king, labels.length, 1]);
          labels.push(SQUARE_LABEL);
        }
      });
      return { kind: 'graph', labels, desigs: labels.map(() => DESIG_NONE), edges };
    };
    // The cost is counted, not timed: the node orders the search encodes (8! = 40320 and (5!)^2 = 14400
    // without the twin rule, one with it).
    for (const shape of [[8, 0], [5, 5]]) {
      const pattern = kingArea(shape);
      const key = canonicalKey(pattern);
      expect(key.startsWith('G:')).toBe(true);
      expect(lastKeySearchLeaves(), `kings with ${shape.join(' and ')} undesignated squares`).toBe(1);
    }
  });

  it('material keys differ from graph keys and from each other', () => {
    const a = canonicalKey(materialPattern([1, 0, 0, 0, 0]));
    expect(a).toBe(canonicalKey(materialPattern([1, 0, 0, 0, 0])));
    expect(a).not.toBe(canonicalKey(materialPattern([0, 1, 0, 0, 0])));
    expect(a).not.toBe(canonicalKey(materialPattern([-1, 0, 0, 0, 0])));
    expect(a.startsWith('G:')).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------------------
// (d) pattern JSON

describe('pattern JSON', () => {
  it('round trip keeps the canonical key (graph and material patterns)', () => {
    const random = new Random(4);
    const patterns = [...patternFamilies(random, 30), ...nearPairs().flatMap(([, a, b]) => [a, b])];
    for (const pattern of patterns) {
      const back = patternFromJson(patternToJson(pattern));
      expect(back.kind).toBe('graph');
      expect(canonicalKey(back)).toBe(canonicalKey(pattern));
      expect(bruteIsomorphic(back as GraphPattern, pattern)).toBe(true);
    }
    for (const diff of [[0, 0, 0, 0, 0], [1, -1, 0, 2, -3], [-8, 2, 2, 2, 1]]) {
      const material = materialPattern(diff);
      expect(canonicalKey(patternFromJson(patternToJson(material)))).toBe(canonicalKey(material));
    }
  });

  it('is the text graphology exports for the pattern, written without a graphology instance', () => {
    // Edge keys are graphology's generated "geid_<instance>_<edge>": the instance number starts from a random byte
    // in each process, so it is the one part compared by shape only.
    const sameEdgeKeys = (text: string) => text.replace(/"geid_\d+_/g, '"geid_N_');
    const random = new Random(12);
    const patterns = [...patternFamilies(random, 40), ...nearPairs().flatMap(([, a, b]) => [a, b])];
    const seen = new Set<string>();
    for (const pattern of patterns) {
      const expected = JSON.stringify(patternToGraphology(pattern).export());
      for (const attribute of ['"square"', '"rank"', '"file"', '"safety"', '"side"', '"edges":[{']) if (expected.includes(attribute)) seen.add(attribute);
      expect(sameEdgeKeys(patternToJson(pattern))).toBe(sameEdgeKeys(expected));
    }
    expect([...seen].sort()).toEqual(['"edges":[{', '"file"', '"rank"', '"safety"', '"side"', '"square"']);
    for (const diff of [[0, 0, 0, 0, 0], [1, -1, 0, 2, -3], [-8, 2, 2, 2, 1]]) {
      const material = materialPattern(diff);
      expect(patternToJson(material)).toBe(JSON.stringify(patternToGraphology(material).export()));
    }
  });

  it('a key read into reused arrays is the pattern the key spells', () => {
    const random = new Random(14);
    const patterns = [...patternFamilies(random, 20), materialPattern([1, 0, -2, 0, 0])];
    const keys = patterns.map(canonicalKey);
    for (const key of keys) {
      const held = patternFromKey(key)!;
      const transient = transientPatternFromKey(key)!;
      expect(canonicalKey(transient)).toBe(key);
      if (transient.kind === 'graph') validatePattern(transient);
      expect(canonicalKey(held)).toBe(key);
    }
    expect(transientPatternFromKey('nonsense')).toBeNull();
    expect(transientPatternFromKey('G:1.0 2|0>1:1')).toBeNull();
  });

  it('a canonical key spells out the pattern, safety included; a pattern requiring no safety keeps its paper key', () => {
    const random = new Random(8);
    const patterns = patternFamilies(random, 30);
    expect(patterns.some((p) => p.safety?.some((code) => code !== 0))).toBe(true);
    for (const pattern of patterns) {
      const back = patternFromKey(canonicalKey(pattern)) as GraphPattern;
      expect(bruteIsomorphic(back, pattern), JSON.stringify(pattern)).toBe(true);
      const paper = { kind: 'graph' as const, labels: pattern.labels, desigs: pattern.desigs, edges: pattern.edges };
      expect(canonicalKey({ ...paper, safety: pattern.labels.map(() => 0) })).toBe(canonicalKey(paper));
      if (pattern.safety?.some((code) => code !== 0)) expect(canonicalKey(pattern)).not.toBe(canonicalKey(paper));
    }
  });

  const good = JSON.parse(
    patternToJson({ kind: 'graph', labels: [1, 11], desigs: [DESIG_NONE, exactDesig(60)], edges: [[0, 1, 1]] }),
  );
  const edited = (change: (data: any) => void): string => {
    const data = structuredClone(good);
    change(data);
    return JSON.stringify(data);
  };
  const badInputs: [string, string][] = [
    ['not JSON', '{"nodes": ['],
    ['a number', '42'],
    ['null', 'null'],
    ['an array', '[]'],
    ['no nodes array', '{"attributes": {"kind": "graph"}}'],
    ['unknown kind', edited((d) => (d.attributes.kind = 'sketch'))],
    ['newer format', edited((d) => (d.attributes.format = 99))],
    ['unknown piece', edited((d) => (d.nodes[0].attributes.piece = 'X'))],
    ['unknown side', edited((d) => (d.nodes[0].attributes.side = 'white'))],
    ['bad square', edited((d) => (d.nodes[1].attributes.square = 'z9'))],
    ['bad rank', edited((d) => (d.nodes[0].attributes.rank = 9))],
    ['bad file', edited((d) => (d.nodes[0].attributes.file = 'q'))],
    ['unknown edge type', edited((d) => (d.edges[0].attributes.type = 'sideways'))],
    ['edge to a missing node', edited((d) => (d.edges[0].target = '7'))],
    ['self-loop', edited((d) => (d.edges[0].target = d.edges[0].source))],
    ['two nodes on one square', edited((d) => (d.nodes[0].attributes.square = 'e8'))],
    ['no nodes', edited((d) => ((d.nodes = []), (d.edges = [])))],
    ['unknown safety', edited((d) => (d.nodes[0].attributes.safety = 'hanging'))],
    ['material with a non-number', JSON.stringify({ attributes: { kind: 'material', diff: { P: 'abc' } }, nodes: [], edges: [] })],
    ['material with a fraction', JSON.stringify({ attributes: { kind: 'material', diff: { N: 0.5 } }, nodes: [], edges: [] })],
  ];

  it('the unedited base of the bad-input cases reads fine', () => {
    expect(canonicalKey(patternFromJson(JSON.stringify(good)))).toBe(
      canonicalKey({ kind: 'graph', labels: [1, 11], desigs: [DESIG_NONE, exactDesig(60)], edges: [[0, 1, 1]] }),
    );
  });

  for (const [name, text] of badInputs) {
    it(`bad input gives MorphError with exit code 2: ${name}`, () => {
      let caught: unknown;
      try {
        patternFromJson(text);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(MorphError);
      expect((caught as MorphError).exitCode).toBe(2);
    });
  }
});
