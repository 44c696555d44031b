/**
 * The position graph's direct edges checked against an independent computation on thousands of random
 * positions: chess.js `attackers()` lists the pieces of a colour that attack (or defend) a square, which is
 * exactly the set of direct edges into that square's node.
 */
import { describe, expect, it } from 'vitest';
import { Chess, type Square } from 'chess.js';
import { applyMove, boardToFen, squareName, WHITE, type Board } from '../src/chess/board.ts';
import { boardFromFen } from '../src/chess/board.ts';
import { START_FEN } from '../src/chess/fen.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { buildPositionGraph, PositionGraph } from '../src/graph/positionGraph.ts';
import { EDGE_DIRECT, SAFETY_ANY, SAFETY_DEFENDED, SAFETY_EN_PRISE, SAFETY_UNATTACKED } from '../src/graph/labels.ts';
import { mirrorSquare } from '../src/graph/normalForm.ts';
import { Random } from '../src/util/random.ts';

function randomPositions(count: number, seed: number): Board[] {
  const rng = new Random(seed);
  const positions: Board[] = [];
  while (positions.length < count) {
    const board = boardFromFen(START_FEN);
    const length = 10 + rng.int(150);
    for (let ply = 0; ply < length; ply++) {
      const moves = generateLegalMoves(board);
      if (moves.length === 0) break;
      applyMove(board, rng.pick(moves));
      if (ply % 7 === 6) positions.push({ ...board, squares: board.squares.slice() });
    }
  }
  return positions.slice(0, count);
}

describe('position graph direct edges against chess.js attackers()', () => {
  it('agree on every node of 2000 random positions', () => {
    const seed = 4242;
    const graph = new PositionGraph();
    let nodes = 0;
    let edges = 0;
    const safetyCounts = [0, 0, 0, 0];
    for (const board of randomPositions(2000, seed)) {
      const fen = boardToFen(board);
      const chess = new Chess(fen);
      buildPositionGraph(board, graph);
      const realSquare = (node: number) => (graph.mirrored ? mirrorSquare(graph.nodeSquare[node]) : graph.nodeSquare[node]);
      for (let target = 0; target < graph.nodeCount; target++) {
        const square = squareName(realSquare(target)) as Square;
        const expected = [...chess.attackers(square, 'w'), ...chess.attackers(square, 'b')].sort();
        const found: string[] = [];
        for (let from = 0; from < graph.nodeCount; from++) {
          if (graph.edgeType(from, target) === EDGE_DIRECT) found.push(squareName(realSquare(from)));
        }
        expect(found.sort(), `${seed}: ${fen} into ${square}`).toEqual(expected);
        // Safety: the opponent's attackers against the owner's defenders (a king is never defended).
        const piece = chess.get(square);
        if (piece) {
          const attackers = chess.attackers(square, piece.color === 'w' ? 'b' : 'w').length;
          const defenders = piece.type === 'k' ? 0 : chess.attackers(square, piece.color).length;
          const safety = attackers === 0 ? SAFETY_UNATTACKED : attackers > defenders ? SAFETY_EN_PRISE : SAFETY_DEFENDED;
          expect(graph.nodeSafety[target], `${fen} safety of ${square}`).toBe(safety);
          safetyCounts[safety]++;
        } else expect(graph.nodeSafety[target]).toBe(SAFETY_ANY);
        nodes++;
        edges += found.length;
      }
      // Nodes are the pieces plus the empty squares next to either king.
      const pieces = board.squares.filter((p) => p !== 0).length;
      expect(graph.nodeCount).toBeGreaterThanOrEqual(pieces);
      expect(graph.mirrored).toBe(board.turn === WHITE);
    }
    expect(nodes).toBeGreaterThan(30_000);
    // Every safety occurs often enough for the comparison to mean something.
    for (const safety of [SAFETY_UNATTACKED, SAFETY_DEFENDED, SAFETY_EN_PRISE]) expect(safetyCounts[safety]).toBeGreaterThan(500);
    expect(edges).toBeGreaterThan(30_000);
  });
});
