/**
 * Move patterns (issue 71, src/model/movePatterns.ts): learned from a teacher's choices, they make its chosen moves
 * likelier, on the decisions learned and on held-out ones; SYLPH's counts are kept; the file is a database of its
 * own kind, ranked by `morph agree --ranker move-patterns:FILE`.
 */
import { restartingPlayout } from './helpers/chessMoves.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { boardFromFen, uciMove } from '../src/chess/board.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { materialGain } from '../src/engines/simplePlayers.ts';
import { createRanker } from '../src/agree/rankers.ts';
import type { Decision } from '../src/model/decisions.ts';
import { buildMovePatterns, learnMovePatterns, movePatternMatches, movePatternScore, MovePatterns, partnerLessons } from '../src/model/movePatterns.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { Random } from '../src/util/random.ts';
import { GameHistory } from '../src/chess/history.ts';
import { jointPolicy, movePatternPolicy } from '../src/model/policy.ts';
import type { MovePolicy } from '../src/player/morphPlayer.ts';
import { writeMovePatternFile } from './helpers/movePatternFile.ts';
import { morphPlayerWithModels } from '../src/model/predictedReplies.ts';
import { materialOnlyStore } from './helpers/materialStore.ts';
import { buildSampleDatabase } from './helpers/sampleDatabase.ts';
import { runMorph } from './helpers/cli.ts';

/**
 * A teacher that takes the most material it can and otherwise prefers moving a knight, at random among equals: its
 * decisions at positions of seeded random playouts (each a game of its own, from that position).
 */
function teacherDecisions(count: number, seed: number): Decision[] {
  const random = new Random(seed);
  const decisions: Decision[] = [];
  for (const chess of restartingPlayout(random)) {
    if (decisions.length >= count) break;
    if (random.int(2) !== 0) continue;
    const fen = chess.fen();
    const board = boardFromFen(fen);
    const legal = generateLegalMoves(board);
    if (legal.length < 2) continue;
    const value = (move: (typeof legal)[number]) => 10 * materialGain(board, move) + (Math.abs(board.squares[move.from]) === 2 ? 1 : 0);
    const best = Math.max(...legal.map(value));
    const top = legal.filter((move) => value(move) === best);
    decisions.push({ game: decisions.length + 1, startFen: fen, before: [], chosen: uciMove(top[random.int(top.length)]) });
  }
  return decisions;
}

/** Mean log-probability of the chosen moves under the move patterns' scores (softmax), and under a uniform choice. */
function meanLogProbability(store: PatternStore, decisions: readonly Decision[]): { learned: number; uniform: number } {
  let learned = 0;
  let uniform = 0;
  for (const decision of decisions) {
    const moves = movePatternMatches(store, boardFromFen(decision.startFen)).map((m) => ({ move: m.move, score: movePatternScore(m.patterns) }));
    const top = Math.max(...moves.map((m) => m.score));
    const z = moves.reduce((sum, m) => sum + Math.exp(m.score - top), 0);
    learned += moves.find((m) => m.move === decision.chosen)!.score - top - Math.log(z);
    uniform -= Math.log(moves.length);
  }
  return { learned: learned / decisions.length, uniform: uniform / decisions.length };
}

describe('move patterns', () => {
  const training = teacherDecisions(300, 5);
  const heldOut = teacherDecisions(100, 6);
  const store = PatternStore.open(':memory:');
  const summary = learnMovePatterns(store, training, {}, 1);
  const dir = mkdtempSync(join(tmpdir(), 'move-patterns-'));
  afterAll(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("learning makes the teacher's chosen moves likelier, on its own decisions and on held-out ones", () => {
    expect(summary.decisions).toBe(300);
    expect(summary.patterns).toBeGreaterThan(500);
    const trained = meanLogProbability(store, training);
    expect(trained.learned).toBeGreaterThan(trained.uniform + 0.5);
    const held = meanLogProbability(store, heldOut);
    expect(held.learned).toBeGreaterThan(held.uniform + 0.3);
  });

  it("keeps SYLPH's counts: how many legal moves each pattern matched and how many of them were chosen", () => {
    let chosen = 0;
    for (const record of store.hierarchy.byId.values()) {
      expect(record.updates).toBeLessThanOrEqual(record.uses);
      chosen += record.updates;
    }
    expect(chosen).toBeGreaterThan(0);
    // A knight moving (the teacher's preference among quiet moves) is chosen more often than a move in general.
    const knight = [...store.hierarchy.byId.values()].filter(
      (r) => r.pattern.kind === 'graph' && r.pattern.labels.length === 2 && r.pattern.labels[1] === 7 && r.pattern.edges.length === 1 && r.pattern.edges[0][0] === 1,
    );
    const rate = (records: typeof knight) => records.reduce((s, r) => s + r.updates, 0) / records.reduce((s, r) => s + r.uses, 0);
    expect(knight.length).toBeGreaterThan(0);
    expect(rate(knight)).toBeGreaterThan(1 / 25);
  });

  it('writes a database of its own kind, ranked by the agree ranker and refused as a value database', () => {
    const file = join(dir, 'moves.db');
    buildMovePatterns(file, partnerLessons(training.slice(0, 60)), { source: 'test', games: 60 }, {}, 1);
    const patterns = MovePatterns.open(file);
    expect(patterns.info()).toMatchObject({ source: 'test', decisions: 60 });
    patterns.close();
    const ranker = createRanker(`move-patterns:${file}`);
    const scored = ranker.score(heldOut[0].startFen);
    ranker.close();
    expect(scored.map((m) => m.move).sort()).toEqual(generateLegalMoves(boardFromFen(heldOut[0].startFen)).map(uciMove).sort());
    expect(() => PatternStore.open(file, { readonly: true })).toThrow(/move-pattern database/);
  });
});

describe('move patterns as a move policy', () => {
  const dir = mkdtempSync(join(tmpdir(), 'morph-move-policy-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives every legal move the log of the softmax of its score, and joins another policy times a scale', () => {
    const file = join(dir, 'moves.db');
    writeMovePatternFile(file, 40);
    const patterns = MovePatterns.open(file);
    const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';
    const policy = movePatternPolicy(patterns, 0.5);
    expect(policy.weight).toBe(0.5);
    const logProbabilities = policy.logProbabilities(new GameHistory(fen));
    const scores = new Map(patterns.rank(fen).map((m) => [m.move, m.score]));
    expect([...logProbabilities.keys()].sort()).toEqual(generateLegalMoves(boardFromFen(fen)).map(uciMove).sort());
    expect([...logProbabilities.values()].reduce((sum, lp) => sum + Math.exp(lp), 0)).toBeCloseTo(1, 12);
    // Differences between moves are the differences of their scores.
    const [a, b] = [...scores.keys()];
    expect(logProbabilities.get(a)! - logProbabilities.get(b)!).toBeCloseTo(scores.get(a)! - scores.get(b)!, 12);

    const flat: MovePolicy = { name: 'flat', weight: 2, logProbabilities: () => new Map([...scores.keys()].map((move) => [move, move === a ? 1 : 0])) };
    const joint = jointPolicy(flat, policy, 3).logProbabilities(new GameHistory(fen));
    for (const [move, lp] of logProbabilities) expect(joint.get(move)).toBeCloseTo((move === a ? 1 : 0) + 3 * lp, 12);
    expect(jointPolicy(flat, policy, 3).weight).toBe(2);
    patterns.close();
  });
});

describe('a Morph player with move patterns as its second policy', () => {
  const dir = mkdtempSync(join(tmpdir(), 'morph-move-policy-player-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'moves.db');
  writeMovePatternFile(file, 40);

  it("adds their weighted log-probability to each move's score, joined to a model policy when there is one", () => {
    const store = materialOnlyStore();
    const patterns = MovePatterns.open(file);
    const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';
    const expected = movePatternPolicy(patterns).logProbabilities(new GameHistory(fen));
    const player = morphPlayerWithModels(store, { maturity: 0, seed: 1, search: 'material-quiescence' }, { movePolicy: patterns, policyWeight: 0.5 });
    const ranked = player.rankMoves(new GameHistory(fen));
    expect(ranked).toHaveLength(expected.size);
    for (const move of ranked) expect(move.policy).toBeCloseTo(0.5 * expected.get(move.move)!, 12);
    const without = morphPlayerWithModels(store, { maturity: 0, seed: 1, search: 'material-quiescence' }, {});
    expect(without.rankMoves(new GameHistory(fen)).every((move) => move.policy === undefined)).toBe(true);
    patterns.close();
    store.close();
  });

  it('plays in a match as --white-move-policy, for a Morph player only', async () => {
    const db = join(dir, 'sample.db');
    buildSampleDatabase(db, 5);
    const played = await runMorph(['match', '--white', `morph:${db}`, '--white-move-policy', file, '--black', 'random', '--games', '2', '--seed', '1', '--json', '--no-progress']);
    expect(played.stderr).toBe('');
    expect(played.code).toBe(0);
    expect(JSON.parse(played.stdout).first).toContain(`+move-policy:${file}@`);
    const notMorph = await runMorph(['match', '--white', 'ab:1', '--white-move-policy', file, '--black', 'random', '--games', '2']);
    expect(notMorph.code).toBe(2);
    expect(notMorph.stderr).toBe('morph: a move policy needs a Morph player (morph:FILE), not ab:1\n');
    const wrongKind = await runMorph(['match', '--white', `morph:${db}`, '--white-move-policy', db, '--black', 'random', '--games', '2']);
    expect(wrongKind.code).toBe(2);
    expect(wrongKind.stderr.trim().split('\n')).toHaveLength(1);
  });
});
