/**
 * Move graphs (src/graph/moveGraph.ts) checked against chess.js: for every legal move of positions from seeded random
 * playouts, the destination node's direct edges to pieces are exactly the pieces the moving piece attacks or defends
 * from its destination after the move (chess.js attackers), plus the piece it captures; its safety says whether the
 * opponent attacks the destination; the rest of the graph is the position graph before the move, and move patterns
 * cut from it are valid and match it.
 */
import { Chess, type Square } from 'chess.js';
import { describe, expect, it } from 'vitest';
import { boardFromFen, parseUciMove, squareName } from '../src/chess/board.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { EDGE_DIRECT, SAFETY_UNATTACKED, SQUARE_LABEL } from '../src/graph/labels.ts';
import { buildMoveGraph } from '../src/graph/moveGraph.ts';
import { mirrorSquare } from '../src/graph/normalForm.ts';
import { buildPositionGraph, MAX_NODES } from '../src/graph/positionGraph.ts';
import { matches } from '../src/pattern/matcher.ts';
import { validatePattern } from '../src/pattern/pattern.ts';
import { inducedMovePattern } from '../src/model/movePatterns.ts';
import { Random } from '../src/util/random.ts';

function playoutFens(seed: number, count: number): string[] {
  const random = new Random(seed);
  const fens: string[] = [
    'r3k2r/pppq1ppp/2n2n2/3pp3/1b1PP1b1/2N2N2/PPPQBPPP/R3K2R w KQkq - 4 8', // castling both ways
    'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3', // en passant
    '8/2P3k1/8/8/8/8/5p2/K7 b - - 0 1', // promotions
  ];
  const chess = new Chess();
  while (fens.length < count) {
    const moves = chess.moves();
    if (moves.length === 0 || chess.isDraw()) chess.reset();
    else chess.move(moves[random.int(moves.length)]);
    if (random.int(3) === 0) fens.push(chess.fen());
  }
  return fens;
}

describe('move graphs', () => {
  const fens = playoutFens(7, 40);

  it('the destination node relates to what the moving piece attacks and defends from there, as chess.js sees it', () => {
    let moves = 0;
    for (const fen of fens) {
      const board = boardFromFen(fen);
      const before = buildPositionGraph(board);
      const beforeMove = new Chess(fen);
      for (const move of generateLegalMoves(board)) {
        const { graph, mover, destination } = buildMoveGraph(board, move, undefined, before);
        moves++;
        const real = (node: number) => (graph.mirrored ? mirrorSquare(graph.nodeSquare[node]) : graph.nodeSquare[node]);
        expect(destination).toBe(before.nodeCount);
        expect(graph.nodeCount).toBe(before.nodeCount + 1);
        expect(graph.nodeLabel[destination]).toBe(SQUARE_LABEL);
        expect(real(destination)).toBe(move.to);
        expect(real(mover)).toBe(move.from);
        // The one edge into the destination: from the moving piece.
        const into = [];
        for (let v = 0; v < graph.nodeCount; v++) if (graph.edgeType(v, destination) !== 0) into.push(v);
        expect(into).toEqual([mover]);
        expect(graph.edgeType(mover, destination)).toBe(EDGE_DIRECT);
        // Everything else is the graph before the move.
        let differences = 0;
        for (let a = 0; a < before.nodeCount; a++) {
          if (graph.nodeLabel[a] !== before.nodeLabel[a] || graph.nodeSafety[a] !== before.nodeSafety[a]) differences++;
          for (let b = 0; b < before.nodeCount; b++) if (graph.edgeType(a, b) !== before.edgeType(a, b)) differences++;
        }
        expect(differences).toBe(0);
        // The independent computation: chess.js after the move.
        const chess = new Chess(fen);
        const uci = { from: squareName(move.from), to: squareName(move.to), promotion: move.promotion ? 'nbrq'[move.promotion - 2] : undefined };
        const played = chess.move(uci);
        const moverColor = played.color;
        const capturedSquare = played.isEnPassant() ? squareName(move.to + (move.to > move.from ? -8 : 8)) : played.captured ? uci.to : null;
        const expected = new Set<string>();
        for (const row of chess.board()) {
          for (const cell of row) {
            if (!cell || cell.square === uci.to) continue;
            if (chess.attackers(cell.square as Square, moverColor).includes(uci.to as Square)) expected.add(cell.square);
          }
        }
        if (capturedSquare) expected.add(capturedSquare);
        // A piece that stands after the move where it stood before (castling's rook moved, the origin is empty).
        const direct = new Set<string>();
        for (let v = 0; v < before.nodeCount; v++) {
          if (graph.edgeType(destination, v) === EDGE_DIRECT && graph.nodeLabel[v] !== SQUARE_LABEL) direct.add(squareName(real(v)));
        }
        const stillThere = [...expected].filter((sq) => sq === capturedSquare || beforeMove.get(sq as Square)?.type === chess.get(sq as Square)?.type);
        expect([...direct].sort()).toEqual(stillThere.sort());
        // Safety on the destination: unattacked exactly when no opponent piece attacks it after the move.
        const opponent = moverColor === 'w' ? 'b' : 'w';
        expect(graph.nodeSafety[destination] === SAFETY_UNATTACKED).toBe(chess.attackers(uci.to as Square, opponent).length === 0);
      }
    }
    expect(moves).toBeGreaterThan(500);
  });

  it('patterns cut from a move graph around its destination are valid and match it', () => {
    const random = new Random(3);
    for (const fen of fens.slice(0, 10)) {
      const board = boardFromFen(fen);
      for (const legal of generateLegalMoves(board).slice(0, 8)) {
        const move = buildMoveGraph(board, legal);
        const { graph, destination } = move;
        expect(graph.nodeCount).toBeLessThanOrEqual(MAX_NODES);
        const pattern = inducedMovePattern(move, 2 + random.int(4), random);
        expect(pattern.labels[0]).toBe(SQUARE_LABEL);
        expect(pattern.safety![0]).toBe(graph.nodeSafety[destination]);
        validatePattern(pattern);
        expect(matches(pattern, graph)).toBe(true);
      }
    }
  });

  it("the pattern language accepts a move's destination: a square node with a safety and out-edges (once refused)", () => {
    const destination = { kind: 'graph' as const, labels: [SQUARE_LABEL, 1], desigs: [0, 0], edges: [[0, 1, EDGE_DIRECT]] as [number, number, number][], safety: [SAFETY_UNATTACKED, 0] };
    expect(() => validatePattern(destination)).not.toThrow();
  });

  it('a quiet move and a capture of the same piece type differ in their destination edges', () => {
    const board = boardFromFen('4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1');
    const capture = buildMoveGraph(board, parseUciMove('c3d5')!);
    const victim = capture.graph.squareToNode[mirrorSquare(35)];
    expect(capture.graph.edgeType(capture.destination, victim)).toBe(EDGE_DIRECT);
    const quiet = buildMoveGraph(board, parseUciMove('c3b5')!);
    expect(quiet.graph.edgeType(quiet.destination, quiet.graph.squareToNode[mirrorSquare(35)])).toBe(0);
  });
});
