/**
 * Graph-pattern terms (eval/graphTerms.ts): a bounded read of a position's matches, TD-Leaf(lambda) learning
 * (learn/graphTermLearning.ts) checked against targets computed by hand, and the player's use of them and the
 * `--no-graph-patterns` ablation.
 */
import { describe, expect, it } from 'vitest';
import { GraphTerms, GRAPH_TERMS_READ, GRAPH_TERM_LIMIT } from '../src/eval/graphTerms.ts';
import { learnGraphTerms, settledMaterialValue } from '../src/learn/graphTermLearning.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { PatternRecord } from '../src/store/patternRecord.ts';
import { materialPattern, type GraphPattern } from '../src/pattern/pattern.ts';
import { DEFAULT_CONFIG, saveConfig } from '../src/learn/config.ts';
import { MorphPlayer, type MovePolicy } from '../src/player/morphPlayer.ts';
import { GameHistory } from '../src/chess/history.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { parseSquare, uciMove } from '../src/chess/board.ts';
import { parseFen } from '../src/chess/fen.ts';
import { logistic, logit } from '../src/eval/combine.ts';
import { exactDesig } from '../src/pattern/designation.ts';
import { pieceLabel } from '../src/graph/labels.ts';

/** A one-node graph pattern record with its own id (what the term table and read() look at). */
function graphRecord(id: number): PatternRecord {
  const pattern: GraphPattern = { kind: 'graph', labels: [pieceLabel('moved', 1)], desigs: [exactDesig(id % 64)], edges: [] };
  return new PatternRecord(id, `g${id}`, pattern);
}

describe('graph terms', () => {
  it('a position reads at most GRAPH_TERMS_READ matches, the best-evidenced first, and sums their terms', () => {
    const terms = new GraphTerms();
    const matches = Array.from({ length: 100 }, (_, i) => graphRecord(i + 1));
    // Evidence on the last 70: ids 31..100, id k with k updates, so the best-evidenced 64 are ids 37..100.
    for (const record of matches.slice(30)) for (let u = 0; u < record.id; u++) terms.add(record.id, 0.001);
    const read = terms.read(matches).map((r) => r.id);
    expect(read).toHaveLength(GRAPH_TERMS_READ);
    expect(new Set(read)).toEqual(new Set(Array.from({ length: 64 }, (_, i) => 37 + i)));
    let expected = 0;
    for (let id = 37; id <= 100; id++) expected += terms.get(id)!.term;
    expect(terms.sum(matches)).toBeCloseTo(expected, 12);
    // A few matches: every one is read, material patterns never.
    const material = new PatternRecord(500, 'm', materialPattern([1, 0, 0, 0, 0]));
    expect(terms.read([matches[0], material, matches[50]]).map((r) => r.id)).toEqual([1, 51]);
  });

  it('keeps a term within its limit', () => {
    const terms = new GraphTerms();
    for (let i = 0; i < 10; i++) terms.add(7, 1);
    expect(terms.get(7)).toEqual({ term: GRAPH_TERM_LIMIT, updates: 10 });
    expect(terms.takeChanged()).toEqual([7]);
    expect(terms.takeChanged()).toEqual([]);
  });

  it('learns by TD-Leaf(lambda): each position toward the next values and the result, as computed by hand', () => {
    const terms = new GraphTerms();
    // Three quiet positions with no captures for the side to move (the settled value is the position's own), each
    // with its own pattern; a value function that reads material only from a fixed table.
    const fens = ['4k3/8/8/8/8/8/4P3/4K3 b - - 0 1', '4k3/8/8/8/8/4P3/8/4K3 b - - 0 2', '4k3/8/8/8/4P3/8/8/4K3 b - - 0 3'];
    const own = [0.6, 0.55, 0.7];
    const boards = fens.map(parseFen);
    const valueOf = (board: ReturnType<typeof parseFen>) => own[boards.findIndex((b) => b.squares.every((v, i) => v === board.squares[i]))];
    for (let t = 0; t < 3; t++) expect(settledMaterialValue(boards[t], valueOf)).toBe(own[t]);
    const records = [graphRecord(1), graphRecord(2), graphRecord(3)];
    const lessons = boards.map((board, t) => ({ board, matches: [records[t]] }));
    const settings = { rate: 1, lambda: 0.5, annealing: 50 };
    learnGraphTerms(terms, lessons, 1, valueOf, settings);
    // Targets from the values before the game (terms 0, bias 0): y2 = 1, y1 = .5·v2 + .5·y2, y0 = .5·v1 + .5·y1.
    const y2 = 1;
    const y1 = 0.5 * own[2] + 0.5 * y2;
    const y0 = 0.5 * own[1] + 0.5 * y1;
    // The bias is updated before each term, but the errors come from the values before the game.
    expect(terms.get(3)!.term).toBeCloseTo(y2 - own[2], 12);
    expect(terms.get(2)!.term).toBeCloseTo(y1 - own[1], 12);
    expect(terms.get(1)!.term).toBeCloseTo(y0 - own[0], 12);
    // A second game: the values now include the bias and the terms.
    const before = terms.get(1)!.term;
    const bias = terms.bias;
    learnGraphTerms(terms, [lessons[0]], 0, valueOf, settings);
    const value = logistic(logit(own[0]) + bias + before);
    expect(terms.get(1)!.term - before).toBeCloseTo(((0 - value) * 50) / 51, 12);
  });
});

describe('the player with graph terms, and without its graph patterns', () => {
  const level = '4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1';
  function store(): PatternStore {
    const s = PatternStore.open(':memory:');
    saveConfig(s.db, { ...DEFAULT_CONFIG, materialPrior: 0 });
    return s;
  }
  const prefersD3: MovePolicy = {
    name: 'prefers d3',
    weight: 0.5,
    logProbabilities: (history) => new Map(generateLegalMoves(history.board).map((m) => [uciMove(m), uciMove(m) === 'd2d3' ? 0 : -3])),
  };

  it('adds each move\'s graph term and the policy term to its log-odds; --no-graph-patterns adds neither', () => {
    const s = store();
    // A pattern that matches only when a white pawn stands on e4 (the graph is from the side to move: after White's
    // move, Black's view, mirrored): learned directly into the player's terms by its id.
    const pattern: GraphPattern = { kind: 'graph', labels: [pieceLabel('moved', 1)], desigs: [exactDesig(parseSquare('e4'))], edges: [] };
    const { record } = s.insert(pattern, 'manual', 0);
    const terms = new GraphTerms();
    terms.add(record.id, 2);
    const history = new GameHistory(level);
    const withPatterns = new MorphPlayer(s, { maturity: 0, seed: 1, search: 'material-quiescence', policy: prefersD3, graphTerms: terms });
    const ranked = withPatterns.rankMoves(history);
    const termed = ranked.filter((r) => (r.graphTerm ?? 0) !== 0).map((r) => r.move);
    for (const r of ranked) {
      expect(withPatterns.choiceScore(r)).toBeCloseTo(logit(r.value) + (r.graphTerm ?? 0) + r.policy!, 9);
    }
    const ablated = new MorphPlayer(s, { maturity: 0, seed: 1, search: 'material-quiescence', policy: prefersD3, graphTerms: terms, graphPatterns: false });
    for (const r of ablated.rankMoves(history)) {
      expect(r.graphTerm).toBeUndefined();
      expect(r.policy).toBeUndefined();
      expect(ablated.choiceScore(r)).toBeCloseTo(logit(r.value), 9);
    }
    // The term goes to exactly the move that puts a pawn on e4 (retrieval's most-specific matches include it).
    expect(termed).toEqual(['e2e4']);
    expect(ranked.find((r) => r.move === 'e2e4')!.graphTerm).toBeCloseTo(terms.get(record.id)!.term, 12);
    s.close();
  });
});
