/**
 * explain's terms (src/player/explain.ts, explainChoice): every term of a move's score, computed from the player's own
 * ranking, adds up to the score the player ranked the move by, for every search and with or without a policy, square
 * values and graph terms; the line it names leads to the position whose material it counts, and that material is
 * worth what piece values fitted afresh say.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyMove, boardToFen, cloneBoard, parseUciMove, uciMove, type Board } from '../src/chess/board.ts';
import { GameHistory } from '../src/chess/history.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { GraphTerms } from '../src/eval/graphTerms.ts';
import { SQUARE_VALUES } from '../src/eval/squareValues.ts';
import { RELATION_TERM_FEATURES } from '../src/eval/relationTerms.ts';
import { materialDifference } from '../src/graph/positionGraph.ts';
import { explainChoice, explanationText, type MoveExplanation } from '../src/player/explain.ts';
import { MorphPlayer, type MorphPlayerOptions, type MovePolicy, type RankedMove } from '../src/player/morphPlayer.ts';
import { databasePieceValues } from '../src/eval/evaluate.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { buildSampleDatabase } from './helpers/sampleDatabase.ts';
import { runMorph } from './helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'morph-explain-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const path = join(dir, 'sample.db');
buildSampleDatabase(path);

/** Positions with captures, a defended piece, a back-rank mate, a fork, promotions, and Black to move. */
const POSITIONS = [
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3',
  'rnbqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/RNBQKBNR b KQkq d3 0 2',
  '4k3/8/2p5/3n4/8/8/8/3QK3 w - - 0 1',
  '4r1k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1',
  'r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1',
  '8/P5k1/8/8/8/8/6p1/4K3 b - - 0 1',
];

/** A policy that prefers some moves to others by a fixed rule (the move's squares), with square values or without. */
function policy(withSquares: boolean): MovePolicy {
  const squareValues = Array.from({ length: SQUARE_VALUES }, (_, i) => (((i * 37) % 11) - 5) / 20);
  return {
    name: 'by squares',
    logProbabilities: (history) => {
      const moves = generateLegalMoves(history.board);
      const scores = moves.map((m) => ((m.from * 7 + m.to * 3) % 10) / 4);
      const total = Math.log(scores.reduce((sum, s) => sum + Math.exp(s), 0));
      return new Map(moves.map((m, i) => [uciMove(m), scores[i] - total]));
    },
    ...(withSquares ? { squares: { values: [1, 3, 3, 5, 9], squareValues } } : {}),
  };
}

/** A term for every graph pattern of the database, some positive, some negative. */
function graphTerms(store: PatternStore): GraphTerms {
  const terms = new GraphTerms();
  for (const record of store.hierarchy.byId.values()) terms.set(record.id, (((record.id * 13) % 9) - 4) / 10, 5);
  return terms;
}

/** A weight for every relation feature, some positive, some negative. */
const relationWeights = () => Float64Array.from({ length: RELATION_TERM_FEATURES }, (_, f) => (((f * 7) % 11) - 5) / 50);

const PLAYERS: [string, (store: PatternStore) => Partial<MorphPlayerOptions>][] = [
  ['material-forks', () => ({ search: 'material-forks' })],
  ['material-forks, policy with square values', () => ({ search: 'material-forks', policy: policy(true) })],
  ['material-forks, policy, graph terms', (store) => ({ search: 'material-forks', policy: policy(true), graphTerms: graphTerms(store) })],
  ['material-forks, policy, relation terms', () => ({ search: 'material-forks', policy: policy(true), relationWeights: relationWeights() })],
  ['material-threats, material weights alone', () => ({ search: 'material-threats', evaluation: { function: 'paper', prior: 0, materialPrior: 0 } })],
  ['material-quiescence, policy without square values', () => ({ search: 'material-quiescence', policy: policy(false) })],
  ['captures-mates, policy', () => ({ search: 'captures-mates', policy: policy(false) })],
  ['one-ply (the paper\'s player)', () => ({ search: 'one-ply' })],
];

const termSum = (explanation: MoveExplanation) => explanation.score!.terms.reduce((sum, t) => sum + t.value, 0);

function afterMove(board: Board, move: string): Board {
  const next = cloneBoard(board);
  applyMove(board, parseUciMove(move)!, next);
  return next;
}

describe('explain: the terms of a move\'s score', () => {
  const store = PatternStore.open(path, { readonly: true });
  afterAll(() => store.close());
  const fittedAfresh = databasePieceValues(store);

  for (const [name, options] of PLAYERS) {
    it(`add up to the score the player ranked every move by: ${name}`, () => {
      const player = new MorphPlayer(store, { maturity: 0, seed: 1, ...options(store) });
      let lines = 0;
      let relationLines = 0;
      let relationTerms = 0;
      for (const fen of POSITIONS) {
        const history = new GameHistory(fen);
        const ranking = player.rankMoves(history, true);
        for (const ranked of ranking) {
          const explanation = explainChoice(player, history, ranked);
          const score = explanation.score!;
          if (score.terms.some((t) => t.term === 'relations')) relationTerms++;
          expect(score.score).toBeCloseTo(player.choiceScore(ranked), 4);
          // Each term is rounded to 1e-4: their sum is within half that per term of the score.
          expect(Math.abs(termSum(explanation) - player.choiceScore(ranked))).toBeLessThanOrEqual(5e-5 * (score.terms.length + 1));
          expect(score.terms.map((t) => t.term)).not.toContain('unexplained');
          expect(score.scale).toBe(player.valueScale);
          if (ranked.policy !== undefined) expect(score.terms.find((t) => t.term === 'policy')?.value).toBeCloseTo(ranked.policy, 4);
          if (ranked.graphTerm !== undefined) expect(score.terms.find((t) => t.term === 'graph')?.value).toBeCloseTo(ranked.graphTerm, 4);
          if (options(store).relationWeights && score.line?.ucis && ranked.source === 'patterns') relationLines++;
          if (score.line?.ucis) {
            lines++;
            checkLine(player, history, ranked, explanation);
          }
          if (player.valueScale === 'probability') expect(score.terms[0].value).toBeCloseTo(ranked.value, 4);
        }
      }
      // The material searches read every value that no rule set at the end of a line they found.
      if (player.valueScale === 'log-odds') expect(lines).toBeGreaterThan(100);
      if (relationLines > 0) expect(relationTerms).toBeGreaterThan(relationLines / 2);
    });
  }

  /**
   * The line is legal from the move and ends where the explanation says; the material there, counted with piece
   * values fitted afresh from the database, is the material term; and on the value's scale the terms of the line's
   * end give its value.
   */
  function checkLine(player: MorphPlayer, history: GameHistory, ranked: RankedMove, explanation: MoveExplanation): void {
    const line = explanation.score!.line!;
    let board = afterMove(history.board, ranked.move);
    for (const uci of line.ucis!) {
      expect(generateLegalMoves(board).map(uciMove)).toContain(uci);
      board = afterMove(board, uci);
    }
    expect(boardToFen(board)).toBe(line.fen);
    const forMorph = board.turn !== history.board.turn ? 1 : -1;
    expect(forMorph === 1 ? line.value : 1 - line.value).toBeCloseTo(ranked.value, 4);
    const material = explanation.score!.terms.find((t) => t.term === 'material');
    if (material !== undefined) {
      const difference = materialDifference(board, new Int8Array(5));
      const expected = forMorph * difference.reduce((sum, d, i) => sum + d * fittedAfresh[i], 0);
      expect(material.value).toBeCloseTo(expected, 3);
    }
  }

  it('name the capture that takes back a defended piece, and count the exchange by the piece values', () => {
    const player = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'material-forks' });
    const history = new GameHistory('4k3/8/2p5/3n4/8/8/8/3QK3 w - - 0 1');
    const ranked = player.rankMoves(history, true).find((r) => r.move === 'd1d5')!;
    const explanation = explainChoice(player, history, ranked);
    expect(explanation.score!.line).toMatchObject({ moves: ['cxd5'], ucis: ['c6d5'] });
    // The queen for the knight leaves White a pawn down (a queen against a knight and a pawn before): -P, by values
    // fitted afresh.
    const material = explanation.score!.terms.find((t) => t.term === 'material')!;
    expect(material.value).toBeCloseTo(-fittedAfresh[0], 3);
    expect(material.detail).toBe(`material P-1 by the fitted piece values P ${player.pieceValuesInPlay![0].toFixed(3)}`);
    const text = explanationText(explanation);
    expect(text).toContain('line: Qxd5 cxd5, valued where it ends');
    // One line a term, below the header, the score and the line.
    expect(text.split('\n')).toHaveLength(3 + explanation.score!.terms.length);
  });

  it('count a mate by the rules, and a move the opponent mates after as the rules and the proven loss', () => {
    const player = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'material-forks', policy: policy(true) });
    const history = new GameHistory('4r1k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1');
    const ranking = player.rankMoves(history, true);
    const lost = ranking.find((r) => r.move === 'a1a2')!; // ...Re1#
    const explained = explainChoice(player, history, lost).score!;
    expect(explained.terms.map((t) => t.term)).toEqual(['rules', 'policy', 'proven-loss']);
    expect(explained.terms[0].detail).toBe('the opponent mates, starting with Re1#');
    expect(explained.terms[0].value).toBeCloseTo(Math.log(1e-12 / (1 - 1e-12)), 3);
    expect(explained.terms[2].value).toBe(-1000);
    const mates = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'material-forks' });
    const mating = new GameHistory('6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1');
    const mate = explainChoice(mates, mating, mates.rankMoves(mating, true)[0]);
    expect(mate.move).toBe('a1a8');
    expect(mate.score!.terms).toEqual([{ term: 'rules', value: expect.closeTo(27.631, 3), detail: 'it mates' }]);
  });

  it('list the graph patterns behind the graph term, largest first, and name them in the text up to three', () => {
    const terms = graphTerms(store);
    const player = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'material-forks', graphTerms: terms });
    const history = new GameHistory('r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3');
    const explained = player.rankMoves(history, true).map((r) => explainChoice(player, history, r));
    const withPatterns = explained.filter((e) => (e.score!.graphPatterns?.length ?? 0) > 3);
    expect(withPatterns.length).toBeGreaterThan(0);
    for (const e of withPatterns) {
      const listed = e.score!.graphPatterns!;
      const graph = e.score!.terms.find((t) => t.term === 'graph')!;
      // The patterns listed are those whose terms make the graph term (each term as the database holds it).
      expect(listed.reduce((sum, p) => sum + p.term, 0)).toBeCloseTo(graph.value, 3);
      for (const p of listed) expect(p.term).toBeCloseTo(terms.get(p.id)!.term, 4);
      const sizes = listed.map((p) => Math.abs(p.term));
      expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
      expect(graph.detail).toMatch(new RegExp(`^#${listed[0].id} .*; and ${listed.length - 3} more$`));
    }
  });

  it("on the paper's player, list the patterns matched and their combination, as the value", () => {
    const player = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'one-ply' });
    const history = new GameHistory(POSITIONS[1]);
    const ranked = player.rankMoves(history, true)[0];
    const explanation = explainChoice(player, history, ranked);
    expect(explanation.score!.terms).toEqual([{ term: 'value', value: explanation.value, detail: 'the patterns matched after the move, combined as below' }]);
    expect(explanation.patterns.length).toBeGreaterThan(0);
    expect(explanation.combination.at(-1)!.runningValue).toBeCloseTo(ranked.value, 4);
    const text = explanationText(explanation);
    expect(text).toContain('most-specific patterns matched after the move');
    if (explanation.patterns.length > 8) expect(text).toContain(`and ${explanation.patterns.length - 8} more (--json lists them all)`);
  });
});

describe('morph move --explain', () => {
  it('carries the terms as numbers in --json, adding up to the score the ranking shows', async () => {
    const fen = '4k3/8/2p5/3n4/8/8/8/3QK3 w - - 0 1';
    const result = await runMorph(['move', '--db', path, '--fen', fen, '--json', '--explain', '--move', 'd1d5', '--no-policy']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    const ranked = report.ranking.find((r: { move: string }) => r.move === 'd1d5');
    const score = report.explanation.score;
    expect(score.score).toBe(ranked.score);
    for (const term of score.terms) expect(typeof term.value).toBe('number');
    expect(score.terms.reduce((sum: number, t: { value: number }) => sum + t.value, 0)).toBeCloseTo(ranked.score, 3);
    // The ranking is by score, best first.
    const scores = report.ranking.map((r: { score: number }) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const text = await runMorph(['move', '--db', path, '--fen', fen, '--explain', '--move', 'd1d5', '--no-policy']);
    // The line starts with the capture and its recapture; how far it goes on depends on the search's plies.
    expect(text.stdout).toMatch(/line: Qxd5 cxd5( \S+)*, valued where it ends/);
    expect(text.stdout).toMatch(/\n {4}material +-\d\.\d{4} {2}material P-1 by the fitted piece values P \d\.\d{3}\n/);
  });
});
