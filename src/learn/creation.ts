/**
 * Pattern creation after a game (reference section 7). Each method proposes patterns; the learner inserts them
 * (an existing canonical key is a no-op) and counts what each method created.
 *
 *  - node-ordered induced subgraphs, forward (from the piece just moved) and reverse (from the piece that moves
 *    next), of random size;
 *  - goal regression: an extreme pattern matched at position t is traced back through the two plies before it
 *    to the learner's previous position, whose induced subgraph on those pieces (and the moved ones) becomes a
 *    pattern. Decided: the paper says "the position before the move"; one ply back the learner is to move, a
 *    position its 1-ply search never evaluates, so we regress to the previous position it moved to;
 *  - generalisation: the maximum common subpattern of two patterns with similar weights;
 *  - specialisation: a pattern whose weight moved a lot gains one adjacent node and its edges, preferring the
 *    piece just moved (which stands where any capture happened).
 */
import type { CompactMove } from '../chess/board.ts';
import { MAX_NODES, type PositionGraph } from '../graph/positionGraph.ts';
import { DESIG_NONE, exactDesig } from '../pattern/designation.ts';
import { extractedSafety, inducedPattern, keepsSquare, neighbours } from '../pattern/extract.ts';
import { maximumCommonSubpattern } from '../pattern/generalise.ts';
import { nodeSafety, withSafety, type GraphPattern } from '../pattern/pattern.ts';
import type { PatternRecord } from '../store/patternRecord.ts';
import type { Random } from '../util/random.ts';
import { nodeAtSquare, squareOfNode, type LearnedPosition } from './learningGame.ts';
import { orderedSubpattern } from './nodeOrder.ts';

export type CreationMethod = 'forward' | 'reverse' | 'regression' | 'generalisation' | 'specialisation';

export interface Proposal {
  pattern: GraphPattern;
  method: CreationMethod;
  /** Starting weight (a regressed pattern starts from its source's weight). */
  weight?: number;
}

export function nodeOrderedProposals(
  positions: LearnedPosition[],
  count: number,
  maxSize: number,
  rng: Random,
): Proposal[] {
  const proposals: Proposal[] = [];
  if (positions.length === 0) return proposals;
  for (let i = 0; i < count; i++) {
    const position = rng.pick(positions);
    const reverse = i % 2 === 1 && position.reply !== null;
    const square = reverse ? position.reply!.from : position.move.to;
    const start = nodeAtSquare(position.graph, square);
    if (start < 0) continue;
    const size = 2 + rng.int(maxSize - 1);
    const pattern = orderedSubpattern(position.graph, start, size, rng);
    if (pattern.labels.length >= 2) proposals.push({ pattern, method: reverse ? 'reverse' : 'forward' });
  }
  return proposals;
}

/** Where a piece on `square` after `moves` (applied in order) stood before them. */
function traceBack(square: number, moves: CompactMove[]): number {
  let sq = square;
  for (let i = moves.length - 1; i >= 0; i--) if (moves[i].to === sq) sq = moves[i].from;
  return sq;
}

export function regressionProposals(
  positions: LearnedPosition[],
  matchesAt: PatternRecord[][],
  config: { perGame: number; extremeness: number; maxSize: number },
): Proposal[] {
  const candidates: { record: PatternRecord; t: number }[] = [];
  for (let t = 1; t < positions.length; t++) {
    for (const record of matchesAt[t]) {
      if (record.kind === 'graph' && record.updates > 0 && Math.abs(record.weight - 0.5) >= config.extremeness) {
        candidates.push({ record, t });
      }
    }
  }
  candidates.sort((a, b) => Math.abs(b.record.weight - 0.5) - Math.abs(a.record.weight - 0.5));
  const proposals: Proposal[] = [];
  for (const { record, t } of candidates) {
    if (proposals.length >= config.perGame) break;
    const now = positions[t];
    const before = positions[t - 1];
    const images = record.compiled.embedding(now.graph);
    if (!images || before.reply === null) continue;
    const moves = [before.reply, now.move];
    const squares = new Set(images.map((node) => traceBack(squareOfNode(now.graph, node), moves)));
    squares.add(now.move.from);
    squares.add(before.reply.from);
    const nodes = [...squares].map((sq) => nodeAtSquare(before.graph, sq)).filter((node) => node >= 0);
    if (nodes.length < 2 || nodes.length > config.maxSize) continue;
    const pattern = inducedPattern(before.graph, nodes);
    if (pattern.edges.length > 0) proposals.push({ pattern, method: 'regression', weight: record.weight });
  }
  return proposals;
}

export function generalisationProposals(
  touched: PatternRecord[],
  config: { perGame: number; weightTolerance: number },
  rng: Random,
): Proposal[] {
  const graphs = touched.filter((r) => r.kind === 'graph' && r.updates > 0 && r.size >= 2);
  const proposals: Proposal[] = [];
  for (let attempt = 0; attempt < config.perGame * 10 && proposals.length < config.perGame && graphs.length > 1; attempt++) {
    const a = rng.pick(graphs);
    const b = rng.pick(graphs);
    if (a === b || Math.abs(a.weight - b.weight) > config.weightTolerance || Math.abs(a.size - b.size) > 1) continue;
    const common = maximumCommonSubpattern(a.pattern as GraphPattern, b.pattern as GraphPattern);
    if (common && common.labels.length >= 2) {
      proposals.push({ pattern: common, method: 'generalisation', weight: (a.weight + b.weight) / 2 });
    }
  }
  return proposals;
}

/** `pattern` plus graph node `extra` and every edge between it and the pattern's images. */
function withExtraNode(pattern: GraphPattern, images: number[], graph: PositionGraph, extra: number): GraphPattern {
  const index = pattern.labels.length;
  const label = graph.nodeLabel[extra];
  const edges: GraphPattern['edges'] = [...pattern.edges];
  images.forEach((image, v) => {
    const out = graph.edges[extra * MAX_NODES + image];
    const inc = graph.edges[image * MAX_NODES + extra];
    if (out) edges.push([index, v, out]);
    if (inc) edges.push([v, index, inc]);
  });
  const special: GraphPattern = {
    kind: 'graph',
    labels: [...pattern.labels, label],
    desigs: [...pattern.desigs, keepsSquare(label) ? exactDesig(graph.nodeSquare[extra]) : DESIG_NONE],
    edges,
  };
  return withSafety(special, [...pattern.labels.map((_, v) => nodeSafety(pattern, v)), extractedSafety(graph, extra)]);
}

export function specialisationProposals(
  changes: { record: PatternRecord; change: number; position: LearnedPosition }[],
  config: { perGame: number; minChange: number; maxSize: number },
): Proposal[] {
  const proposals: Proposal[] = [];
  const big = changes
    .filter((c) => c.record.kind === 'graph' && Math.abs(c.change) >= config.minChange && c.record.size < config.maxSize)
    .sort((a, b) => Math.abs(b.change) - Math.abs(a.change));
  for (const { record, position } of big) {
    if (proposals.length >= config.perGame) break;
    const images = record.compiled.embedding(position.graph);
    if (!images) continue;
    const moved = nodeAtSquare(position.graph, position.move.to);
    const taken = new Set(images);
    const adjacent = new Set(images.flatMap((node) => neighbours(position.graph, node)).filter((u) => !taken.has(u)));
    let extra = -1;
    if (moved >= 0 && adjacent.has(moved)) extra = moved;
    else if (moved >= 0) extra = neighbours(position.graph, moved).find((u) => adjacent.has(u)) ?? -1;
    if (extra < 0) extra = [...adjacent][0] ?? -1;
    if (extra < 0) continue;
    proposals.push({
      pattern: withExtraNode(record.pattern as GraphPattern, images, position.graph, extra),
      method: 'specialisation',
      weight: record.weight,
    });
  }
  return proposals;
}
