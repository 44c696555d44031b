/** Shared test material: real positions from the fixture file and patterns cut from their graphs. */
import { readFileSync } from 'node:fs';
import { boardFromFen } from '../../src/chess/board.ts';
import { buildPositionGraph, type PositionGraph } from '../../src/graph/positionGraph.ts';
import { orderedSubpattern } from '../../src/learn/nodeOrder.ts';
import { DESIG_NONE, desigSquare, fileDesig, rankDesig } from '../../src/pattern/designation.ts';
import { EDGE_ATTACKS } from '../../src/graph/labels.ts';
import type { GraphPattern } from '../../src/pattern/pattern.ts';
import type { Random } from '../../src/util/random.ts';

export function fixturePositions(): string[] {
  const url = new URL('../fixtures/positions.fen', import.meta.url);
  return readFileSync(url, 'utf8').split('\n').filter(Boolean);
}

export function graphOf(fen: string): PositionGraph {
  return buildPositionGraph(boardFromFen(fen));
}

/**
 * A pattern cut from a real position: a connected node-ordered subgraph of 1..maxSize nodes, sometimes with
 * edges generalised to "attacks" and designations relaxed, so the partial order has depth and breadth.
 */
export function samplePattern(graph: PositionGraph, rng: Random, maxSize = 5): GraphPattern {
  const start = rng.int(graph.nodeCount);
  const pattern = orderedSubpattern(graph, start, 1 + rng.int(maxSize), rng);
  if (rng.next() < 0.3) {
    pattern.edges = pattern.edges.map(([a, b, code]) => [a, b, rng.next() < 0.5 ? EDGE_ATTACKS : code]);
  }
  if (rng.next() < 0.4) {
    pattern.desigs = pattern.desigs.map((desig) => {
      const sq = desigSquare(desig);
      if (sq < 0) return desig;
      const roll = rng.next();
      return roll < 0.3 ? DESIG_NONE : roll < 0.5 ? rankDesig(sq >> 3) : roll < 0.7 ? fileDesig(sq & 7) : desig;
    });
  }
  return pattern;
}
