/**
 * The position graph against hand-worked positions (reference section 1). Every expected node and edge below
 * was derived by hand from the definition, not from the code's output: small positions (kings plus a few
 * pieces) so that the full lists stay checkable by eye.
 *
 * Spec format: one line per (attacker, edge type): "d1 discovered d7" means d1 -> d7 with type discovered.
 * Nodes: "a1:wK" a piece (real colour), "a2:*" an empty square next to a king.
 */
import { Chess } from 'chess.js';
import { describe, expect, it } from 'vitest';
import { boardFromFen } from '../src/chess/board.ts';
import { graphToJson, type GraphJson } from '../src/graph/graphJson.ts';
import {
  buildPositionGraph, FILE_MASKS, IN_MASKS, LABEL_MASKS, MAX_NODES, OUT_MASKS, PositionGraph, RANK_MASKS, SAFETY_MASKS,
} from '../src/graph/positionGraph.ts';
import { Random } from '../src/util/random.ts';

interface HandCase {
  name: string;
  /** Placement only; the side to move is added per test. */
  placement: string;
  /** Who moves in the hand-worked version (material is stated for this side to move). */
  turn: 'w' | 'b';
  nodes: string;
  edges: string;
  /** Side that just moved minus side to move, for `turn`. */
  material: { P: number; N: number; B: number; R: number; Q: number };
}

const HAND_CASES: HandCase[] = [
  {
    name: 'queen-rook battery: the rook x-rays through its own queen (discovered), the enemy rook pins (indirect)',
    placement: '7k/3r4/8/8/8/8/3Q4/K2R4',
    turn: 'b',
    nodes: 'a1:wK a2:* b1:* b2:* d1:wR d2:wQ d7:bR g7:* g8:* h7:* h8:bK',
    edges: `
      a1 direct a2 b1 b2
      d1 direct a1 b1 d2
      d1 discovered d7
      d2 direct a2 b2 d1 d7
      d7 direct d2 g7 h7
      d7 indirect d1
      h8 direct g7 g8 h7`,
    material: { P: 0, N: 0, B: 0, R: 0, Q: 1 },
  },
  {
    name: 'absolute pin: indirect edges through the pinned knight to the king and the square before it',
    placement: '4k3/8/8/4n3/8/8/8/K3R3',
    turn: 'b',
    nodes: 'a1:wK a2:* b1:* b2:* d7:* d8:* e1:wR e5:bN e7:* e8:bK f7:* f8:*',
    edges: `
      a1 direct a2 b1 b2
      e1 direct a1 b1 e5
      e1 indirect e7 e8
      e5 direct d7 f7
      e8 direct d7 d8 e7 f7 f8`,
    material: { P: 0, N: -1, B: 0, R: 1, Q: 0 },
  },
  {
    name: 'discovered attack: bishop behind its own knight aims at the queen; the queen x-rays back (indirect)',
    placement: 'k7/8/5q2/8/3N4/8/1B6/7K',
    turn: 'b',
    nodes: 'a7:* a8:bK b2:wB b7:* b8:* d4:wN f6:bQ g1:* g2:* h1:wK h2:*',
    edges: `
      a8 direct a7 b7 b8
      b2 direct d4
      b2 discovered f6
      f6 direct d4
      f6 indirect b2
      h1 direct g1 g2 h2`,
    material: { P: 0, N: 1, B: 1, R: 0, Q: -1 },
  },
  {
    name: 'knight fork of king and rook; the rook defends its king and x-rays past it (discovered)',
    placement: 'r3k3/2N5/8/8/8/8/8/K7',
    turn: 'b',
    nodes: 'a1:wK a2:* a8:bR b1:* b2:* c7:wN d7:* d8:* e7:* e8:bK f7:* f8:*',
    edges: `
      a1 direct a2 b1 b2
      a8 direct a1 a2 d8 e8
      a8 discovered f8
      c7 direct a8 e8
      e8 direct d7 d8 e7 f7 f8`,
    material: { P: 0, N: 1, B: 0, R: -1, Q: 0 },
  },
  {
    // Wrap-around traps: a4 would "attack" h4, h4 -> a6, black a6 -> h4, black h7 -> a7 (a king square).
    name: 'pawn attacks of both colours, edge files included (no wrap to the other side of the board)',
    placement: '1k6/7p/p7/1p2p1p1/P2P3P/8/8/7K',
    turn: 'b',
    nodes: 'a4:wP a6:bP a7:* a8:* b5:bP b7:* b8:bK c7:* c8:* d4:wP e5:bP g1:* g2:* g5:bP h1:wK h2:* h4:wP h7:bP',
    edges: `
      a4 direct b5
      a6 direct b5
      b5 direct a4
      b8 direct a7 a8 b7 c7 c8
      d4 direct e5
      e5 direct d4
      g5 direct h4
      h1 direct g1 g2 h2
      h4 direct g5`,
    material: { P: -2, N: 0, B: 0, R: 0, Q: 0 },
  },
  {
    name: 'king neighbours: empty ones are square nodes, occupied ones are piece nodes, nothing else is a node',
    placement: '3nk3/5p2/8/8/8/8/3PP3/4K3',
    turn: 'b',
    nodes: 'd1:* d2:wP d7:* d8:bN e1:wK e2:wP e7:* e8:bK f1:* f2:* f7:bP f8:*',
    edges: `
      d8 direct f7
      e1 direct d1 d2 e2 f1 f2
      e8 direct d7 d8 e7 f7 f8`,
    material: { P: 1, N: -1, B: 0, R: 0, Q: 0 },
  },
  {
    // Ra1's file: a3 (pawn, first blocker), then a5 (king square) and a6 (bishop, second occupied square) are
    // x-rayed; a7, a king square past the second occupied square, is not reached. a3 must not wrap to h1.
    name: 'x-ray through exactly one blocker, up to and including the next occupied square',
    placement: '8/8/bk6/8/8/p7/8/R6K',
    turn: 'b',
    nodes: 'a1:wR a3:bP a5:* a6:bB a7:* b5:* b6:bK b7:* c5:* c6:* c7:* g1:* g2:* h1:wK h2:*',
    edges: `
      a1 direct a3 g1 h1
      a1 indirect a5 a6
      a6 direct b5 b7
      b6 direct a5 a6 a7 b5 b7 c5 c6 c7
      h1 direct g1 g2 h2`,
    material: { P: -1, N: 0, B: -1, R: 1, Q: 0 },
  },
  {
    name: 'White to move: a black rook pins a white knight to the white king (real squares and colours)',
    placement: 'k3r3/8/8/8/4N3/8/8/4K3',
    turn: 'w',
    nodes: 'a7:* a8:bK b7:* b8:* d1:* d2:* e1:wK e2:* e4:wN e8:bR f1:* f2:*',
    edges: `
      a8 direct a7 b7 b8
      e1 direct d1 d2 e2 f1 f2
      e4 direct d2 f2
      e8 direct a8 b8 e4
      e8 indirect e1 e2`,
    // Black just moved: up a rook, down a knight.
    material: { P: 0, N: -1, B: 0, R: 1, Q: 0 },
  },
];

function parseEdgeSpec(spec: string): string[] {
  const edges: string[] = [];
  for (const line of spec.trim().split('\n')) {
    const [from, type, ...targets] = line.trim().split(/\s+/);
    for (const to of targets) edges.push(`${from}>${to} ${type}`);
  }
  return edges.sort();
}

function jsonOf(fen: string): GraphJson {
  return graphToJson(buildPositionGraph(boardFromFen(fen)), fen);
}

function edgeStrings(json: GraphJson): string[] {
  return json.edges.map((e) => `${e.from}>${e.to} ${e.type}`).sort();
}

function nodeStrings(json: GraphJson): string[] {
  return json.nodes.map((n) => (n.kind === 'square' ? `${n.square}:*` : `${n.square}:${n.color}${n.piece}`)).sort();
}

/** `0 - x` rather than `-x`: toEqual tells -0 from 0. */
const negate = (m: HandCase['material']): HandCase['material'] => ({ P: 0 - m.P, N: 0 - m.N, B: 0 - m.B, R: 0 - m.R, Q: 0 - m.Q });

describe('position graph: hand-checked positions, every node and edge', () => {
  for (const c of HAND_CASES) {
    it(c.name, () => {
      const fen = `${c.placement} ${c.turn} - - 0 1`;
      const json = jsonOf(fen);
      expect(nodeStrings(json)).toEqual(c.nodes.split(' ').sort());
      expect(edgeStrings(json)).toEqual(parseEdgeSpec(c.edges));
      expect(json.material).toEqual(c.material);
      expect(json.turn).toBe(c.turn);
      expect(json.fen).toBe(fen);
    });

    it(`${c.name} -- with the other side to move: same real-square graph, material negated`, () => {
      const other = c.turn === 'w' ? 'b' : 'w';
      const json = jsonOf(`${c.placement} ${other} - - 0 1`);
      expect(nodeStrings(json)).toEqual(c.nodes.split(' ').sort());
      expect(edgeStrings(json)).toEqual(parseEdgeSpec(c.edges));
      expect(json.material).toEqual(negate(c.material));
      expect(json.turn).toBe(other);
    });
  }

  it('JSON node objects carry the real colour and piece letter when White is to move', () => {
    const json = jsonOf('k3r3/8/8/8/4N3/8/8/4K3 w - - 0 1');
    const find = (square: string) => json.nodes.find((n) => n.square === square);
    // Safety by hand: the rook attacks the knight, which nothing defends; the rook only x-rays the king.
    expect(find('e1')).toEqual({ square: 'e1', kind: 'piece', color: 'w', piece: 'K', safety: 'unattacked' });
    expect(find('e4')).toEqual({ square: 'e4', kind: 'piece', color: 'w', piece: 'N', safety: 'en prise' });
    expect(find('e8')).toEqual({ square: 'e8', kind: 'piece', color: 'b', piece: 'R', safety: 'unattacked' });
    expect(find('e2')).toEqual({ square: 'e2', kind: 'square' });
    // Nodes sorted by square name, edges by (from, to).
    expect(json.nodes.map((n) => n.square)).toEqual([...json.nodes.map((n) => n.square)].sort());
    const pairs = json.edges.map((e) => `${e.from}${e.to}`);
    expect(pairs).toEqual([...pairs].sort());
  });
});

describe('position graph: normal form', () => {
  it('internally the side to move is Black: labels 0..5 are the side that just moved', () => {
    // White to move: Black just moved, so the black rook is "moved R" (label 3) and the white king "toMove K"
    // (label 11); squares are mirrored (real e8 is normal-form e1 = 4).
    const graph = buildPositionGraph(boardFromFen('k3r3/8/8/8/4N3/8/8/4K3 w - - 0 1'));
    expect(graph.mirrored).toBe(true);
    const at = (normalSquare: number) => graph.nodeLabel[graph.squareToNode[normalSquare]];
    expect(at(4)).toBe(3); // real e8 black rook
    expect(at(60)).toBe(11); // real e1 white king
    expect(at(36)).toBe(7); // real e4 white knight -> normal e5
    expect(at(52)).toBe(12); // real e2 empty king square -> normal e7
    expect(Array.from(graph.material)).toEqual([0, -1, 0, 1, 0]);
  });

  it('material: side that just moved minus side to move, negated when the turn changes', () => {
    // White: Q N PPP. Black: R R B ppppp.
    const placement = 'rr2k3/pppppb2/8/8/8/8/PPP5/QN2K3';
    const blackToMove = buildPositionGraph(boardFromFen(`${placement} b - - 0 1`));
    expect(Array.from(blackToMove.material)).toEqual([-2, 1, -1, -2, 1]);
    const whiteToMove = buildPositionGraph(boardFromFen(`${placement} w - - 0 1`));
    expect(Array.from(whiteToMove.material)).toEqual([2, -1, 1, 2, -1]);
  });

  const mirroredPositions = [
    ...HAND_CASES.map((c) => `${c.placement} w - - 0 1`),
    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1',
    'r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4',
    ...randomPlayoutFens(12345, 6, 60).filter((fen) => fen.split(' ')[1] === 'w'),
  ];

  it(`a White-to-move position and its mirror with Black to move give the same normal-form graph (${mirroredPositions.length} positions)`, () => {
    for (const fen of mirroredPositions) {
      const original = buildPositionGraph(boardFromFen(fen));
      const mirror = buildPositionGraph(boardFromFen(mirrorFen(fen)));
      expect(original.mirrored).toBe(true);
      expect(mirror.mirrored).toBe(false);
      expect(sameNormalForm(original, mirror), fen).toBe(true);
      // And the user-facing JSON shows each in its own real orientation.
      const realJson = graphToJson(original, fen);
      const mirrorJson = graphToJson(mirror, mirrorFen(fen));
      expect(edgeStrings(mirrorJson)).toEqual(
        realJson.edges.map((e) => `${flipName(e.from)}>${flipName(e.to)} ${e.type}`).sort(),
      );
      expect(nodeStrings(mirrorJson)).toEqual(
        realJson.nodes
          .map((n) => (n.kind === 'square' ? `${flipName(n.square)}:*` : `${flipName(n.square)}:${n.color === 'w' ? 'b' : 'w'}${n.piece}`))
          .sort(),
      );
      expect(mirrorJson.material).toEqual(realJson.material);
    }
  });

  it('building into a reused graph object gives the same result as a fresh build (no stale state)', () => {
    const reused = new PositionGraph();
    const fens = [...randomPlayoutFens(777, 3, 80), ...HAND_CASES.map((c) => `${c.placement} ${c.turn} - - 0 1`)];
    for (const fen of fens) {
      buildPositionGraph(boardFromFen(fen), reused);
      const fresh = buildPositionGraph(boardFromFen(fen));
      expect(graphToJson(reused, fen)).toEqual(graphToJson(fresh, fen));
      expect(sameNormalForm(reused, fresh)).toBe(true);
      expect(sameNormalForm(reused.clone(), fresh)).toBe(true);
    }
  });
});

describe('node masks (the matcher\'s bit-parallel search)', () => {
  it('each mask is the node set its definition gives, read from the labels, squares, safety and edge matrix', () => {
    const graph = new PositionGraph();
    const fens = [...randomPlayoutFens(4242, 4, 70), ...HAND_CASES.map((c) => `${c.placement} ${c.turn} - - 0 1`)];
    const setOf = (at: number): number[] => {
      const nodes: number[] = [];
      for (let v = 0; v < MAX_NODES; v++) if (graph.masks[at + (v >>> 5)] & (1 << (v & 31))) nodes.push(v);
      return nodes;
    };
    const nodesWhere = (test: (v: number) => boolean): number[] => Array.from({ length: graph.nodeCount }, (_, v) => v).filter(test);
    for (const fen of fens) {
      buildPositionGraph(boardFromFen(fen), graph); // reused: no stale bits from the previous position
      for (let label = 0; label < 13; label++) expect(setOf(LABEL_MASKS + 2 * label)).toEqual(nodesWhere((v) => graph.nodeLabel[v] === label));
      for (let i = 0; i < 8; i++) {
        expect(setOf(RANK_MASKS + 2 * i)).toEqual(nodesWhere((v) => graph.nodeSquare[v] >> 3 === i));
        expect(setOf(FILE_MASKS + 2 * i)).toEqual(nodesWhere((v) => (graph.nodeSquare[v] & 7) === i));
      }
      for (let safety = 1; safety <= 3; safety++) expect(setOf(SAFETY_MASKS + 2 * safety)).toEqual(nodesWhere((v) => graph.nodeSafety[v] === safety));
      for (let v = 0; v < graph.nodeCount; v++) {
        for (let code = 1; code <= 4; code++) {
          const wanted = (found: number) => found !== 0 && (code === 4 || found === code);
          expect(setOf(OUT_MASKS + 2 * (v * 5 + code))).toEqual(nodesWhere((w) => wanted(graph.edgeType(v, w))));
          expect(setOf(IN_MASKS + 2 * (v * 5 + code))).toEqual(nodesWhere((w) => wanted(graph.edgeType(w, v))));
        }
      }
    }
  });
});

/** Node labels, squares, edge matrix, material and masks equal (the matcher reads nothing else of a position). */
function sameNormalForm(a: PositionGraph, b: PositionGraph): boolean {
  const n = a.nodeCount;
  if (n !== b.nodeCount || a.edgeCount !== b.edgeCount) return false;
  const same = (x: ArrayLike<number>, y: ArrayLike<number>, length: number) =>
    Array.from({ length }, (_, i) => x[i] === y[i]).every(Boolean);
  return (
    same(a.nodeLabel, b.nodeLabel, n) &&
    same(a.nodeSquare, b.nodeSquare, n) &&
    same(a.nodeDesig, b.nodeDesig, n) &&
    same(a.edges, b.edges, MAX_NODES * MAX_NODES) &&
    same(a.material, b.material, 5) &&
    same(a.tripleBits, b.tripleBits, a.tripleBits.length) &&
    same(a.masks, b.masks, a.masks.length)
  );
}

const flipName = (square: string): string => square[0] + String(9 - Number(square[1]));

/** Ranks flipped, colours swapped, side to move swapped. */
function mirrorFen(fen: string): string {
  const [placement, turn, castling, ep, half, full] = fen.split(' ');
  const swapCase = (s: string) => [...s].map((ch) => (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase())).join('');
  const rows = placement.split('/').reverse().map(swapCase);
  const rights = castling === '-' ? '-' : [...swapCase(castling)].sort((x, y) => 'KQkq'.indexOf(x) - 'KQkq'.indexOf(y)).join('');
  return [rows.join('/'), turn === 'w' ? 'b' : 'w', rights, ep === '-' ? '-' : flipName(ep), half, full].join(' ');
}

/** FENs of seeded random legal playouts from the start position. */
function randomPlayoutFens(seed: number, games: number, plies: number): string[] {
  const random = new Random(seed);
  const fens: string[] = [];
  for (let g = 0; g < games; g++) {
    const chess = new Chess();
    for (let p = 0; p < plies && !chess.isGameOver(); p++) {
      chess.move(random.pick(chess.moves()));
      fens.push(chess.fen());
    }
  }
  return fens;
}
