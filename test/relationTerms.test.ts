/**
 * Relation terms (eval/relationTerms.ts): the small patterns read straight from the board are those of the
 * position graph (graph/positionGraph.ts, built independently, with its own edge and safety code), on positions
 * from engine games and the positions a few moves past them; a position worked out by hand; and the material
 * searches reading the weights.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  forEachRelationFeature, relationFeatureName, relationLogOdds, storedRelationWeights, storeRelationWeights, CENSUS_FEATURES, RELATION_TERM_FEATURES,
} from '../src/eval/relationTerms.ts';
import { buildPositionGraph } from '../src/graph/positionGraph.ts';
import { EDGE_DIRECT, SQUARE_LABEL } from '../src/graph/labels.ts';
import { applyMove, boardFromFen, cloneBoard, uciMove, type Board } from '../src/chess/board.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { Random } from '../src/util/random.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { DEFAULT_CONFIG, evaluationSettings, saveConfig } from '../src/learn/config.ts';
import { MorphPlayer } from '../src/player/morphPlayer.ts';
import { GameHistory } from '../src/chess/history.ts';

/** The small patterns of a position as its graph has them: each piece node, each direct edge between pieces. */
function fromGraph(board: Board): number[] {
  const graph = buildPositionGraph(board);
  const features: number[] = [];
  for (let a = 0; a < graph.nodeCount; a++) {
    const label = graph.nodeLabel[a];
    if (label === SQUARE_LABEL) continue;
    features.push(label * 3 + graph.nodeSafety[a] - 1);
    for (let b = 0; b < graph.nodeCount; b++) {
      if (graph.nodeLabel[b] === SQUARE_LABEL || graph.edgeType(a, b) !== EDGE_DIRECT) continue;
      features.push(CENSUS_FEATURES + (label * 12 + graph.nodeLabel[b]) * 3 + graph.nodeSafety[b] - 1);
    }
  }
  return features.sort((x, y) => x - y);
}

function fromBoard(board: Board): number[] {
  const features: number[] = [];
  forEachRelationFeature(board, (feature) => features.push(feature));
  return features.sort((x, y) => x - y);
}

describe('relation terms', () => {
  it('reads the same one- and two-node patterns as the position graph, on engine positions and a few random moves past them', () => {
    const fens = readFileSync('positions/move-scores.jsonl', 'utf8').trim().split('\n').slice(0, 60).map((line) => JSON.parse(line).fen as string);
    const random = new Random(5);
    let positions = 0;
    for (const fen of fens) {
      let board = boardFromFen(fen);
      for (let ply = 0; ply < 6; ply++) {
        expect(fromBoard(board)).toEqual(fromGraph(board));
        positions++;
        const moves = generateLegalMoves(board);
        if (moves.length === 0) break;
        const next = cloneBoard(board);
        applyMove(board, moves[random.int(moves.length)], next);
        board = next;
      }
    }
    expect(positions).toBeGreaterThan(300);
  });

  it('names the patterns of a position worked out by hand, from the side that just moved', () => {
    // White just moved: its rook on d2, defended by its king, attacks Black's queen on d5, which nothing defends.
    const board = boardFromFen('4k3/8/8/3q4/8/8/3R4/4K3 b - - 0 1');
    expect(fromBoard(board).map(relationFeatureName).sort()).toEqual(
      [
        'moved K unattacked',
        'moved R defended',
        'toMove K unattacked',
        'toMove Q en prise',
        'moved K > moved R defended',
        'moved R > toMove Q en prise',
        'toMove Q > moved R defended',
      ].sort(),
    );
    const weights = new Float64Array(RELATION_TERM_FEATURES);
    weights[fromBoard(board).find((f) => relationFeatureName(f) === 'toMove Q en prise')!] = 0.7;
    weights[fromBoard(board).find((f) => relationFeatureName(f) === 'moved R > toMove Q en prise')!] = -0.2;
    expect(relationLogOdds(board, weights)).toBeCloseTo(0.5);
  });

  it('the material searches add the weights to the positions they value, given or kept in the database, and --no-graph-patterns drops them', () => {
    const store = PatternStore.open(':memory:');
    const config = { ...DEFAULT_CONFIG, search: 'material-quiescence' as const, playSearch: 'material-quiescence' as const, materialPrior: 1_000_000 };
    saveConfig(store.db, config);
    // Kings in the corners, White's rook, Black's knight: nothing can be taken, so every move's value is its
    // material (level) plus what the weights say of the position after it.
    const fen = 'k7/8/8/3n4/8/8/8/K6R w - - 0 1';
    const weights = new Float64Array(RELATION_TERM_FEATURES);
    const byName = (name: string) => Array.from({ length: RELATION_TERM_FEATURES }, (_, f) => f).find((f) => relationFeatureName(f) === name)!;
    // The side that just moved rewarded for its rook attacking an undefended knight.
    weights[byName('moved R > toMove N en prise')] = 1;
    const options = { maturity: 0, search: 'material-quiescence' as const, seed: 0, evaluation: evaluationSettings(config) };
    const plain = new MorphPlayer(store, options).rankMoves(new GameHistory(fen));
    const withTerms = new MorphPlayer(store, { ...options, relationWeights: weights }).rankMoves(new GameHistory(fen));
    const ablated = new MorphPlayer(store, { ...options, relationWeights: weights, graphPatterns: false }).rankMoves(new GameHistory(fen));
    const valueOf = (ranked: { move: string; value: number }[], move: string) => ranked.find((r) => r.move === move)!.value;
    // h1-h5 attacks the knight along the fifth rank (as h1-d1 does along the d-file), h1-h2 attacks nothing.
    expect(valueOf(withTerms, 'h1h5')).toBeGreaterThan(valueOf(plain, 'h1h5'));
    expect(valueOf(withTerms, 'h1h2')).toBeCloseTo(valueOf(plain, 'h1h2'));
    expect(ablated.map((r) => r.value)).toEqual(plain.map((r) => r.value));
    // Kept in the database, the weights are read as given ones are.
    storeRelationWeights(store.db, weights);
    expect(storedRelationWeights(store.db)).toEqual(weights);
    expect(new MorphPlayer(store, options).rankMoves(new GameHistory(fen))).toEqual(withTerms);
    store.close();
  });

  it('the one-ply material player reads the static terms, with no capture search: they can say what a piece en prise costs', () => {
    const store = PatternStore.open(':memory:');
    const config = { ...DEFAULT_CONFIG, search: 'material-one-ply' as const, playSearch: 'material-one-ply' as const, materialPrior: 1_000_000 };
    saveConfig(store.db, config);
    // Black's knight on f5 covers h4 and h6, and nothing defends White's rook there.
    const fen = 'k7/8/8/5n2/8/8/8/K6R w - - 0 1';
    const byName = (name: string) => Array.from({ length: RELATION_TERM_FEATURES }, (_, f) => f).find((f) => relationFeatureName(f) === name)!;
    const options = { maturity: 0, search: 'material-one-ply' as const, seed: 0, evaluation: evaluationSettings(config) };
    const rank = (search: 'material-one-ply' | 'material-quiescence' = 'material-one-ply', graphPatterns = true) =>
      new MorphPlayer(store, { ...options, search, graphPatterns }).rankMoves(new GameHistory(fen));
    const valueOf = (ranked: { move: string; value: number }[], move: string) => ranked.find((r) => r.move === move)!.value;
    const plain = rank();
    // No capture look: a rook move into the knight's reach is worth what any quiet rook move is.
    expect(valueOf(plain, 'h1h4')).toBeCloseTo(valueOf(plain, 'h1h2'));
    // The settled terms are the capture searches', not this player's.
    const settled = new Float64Array(RELATION_TERM_FEATURES);
    settled[byName('moved K unattacked')] = 1;
    storeRelationWeights(store.db, settled);
    expect(rank()).toEqual(plain);
    expect(valueOf(rank('material-quiescence'), 'h1h2')).toBeGreaterThan(valueOf(rank('material-quiescence', false), 'h1h2'));
    // The static terms are this player's: a rook en prise costs what they say, and the moves that put it there come last.
    const statics = new Float64Array(RELATION_TERM_FEATURES);
    statics[byName('moved R en prise')] = -2;
    storeRelationWeights(store.db, statics, 'static');
    const read = rank();
    const enPrise = generateLegalMoves(boardFromFen(fen))
      .filter((move) => {
        const board = boardFromFen(fen);
        const after = cloneBoard(board);
        applyMove(board, move, after);
        return fromBoard(after).some((f) => relationFeatureName(f) === 'moved R en prise');
      })
      .map(uciMove)
      .sort();
    expect(enPrise).toEqual(['h1h4', 'h1h6']);
    for (const move of enPrise) expect(valueOf(read, move)).toBeLessThan(valueOf(plain, move));
    expect(read.slice(-2).map((r) => r.move).sort()).toEqual(enPrise);
    store.close();
  });
});
