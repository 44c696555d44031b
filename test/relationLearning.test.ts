/**
 * Learning the relation terms (learn/relationLearning.ts): the learner recovers weights that generated the gaps
 * it is shown (checked against those weights, on positions it never saw), and a training run with relation
 * lessons keeps every lesson in the database, from which a resumed run rebuilds the learner, and the weights
 * players read.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RelationLearner, loadRelationLearner, saveRelationLearner, storedRelationLessons } from '../src/learn/relationLearning.ts';
import { getMeta, setMeta, setMetaBytes } from '../src/store/meta.ts';
import { lessonsForGame, relationLessons } from '../src/train/relationLessons.ts';
import { materialOnlyStore } from './helpers/materialStore.ts';
import { relationLogOdds, storedRelationWeights, storeRelationWeights, RELATION_TERM_FEATURES } from '../src/eval/relationTerms.ts';
import { applyMove, boardFromFen, cloneBoard, type Board } from '../src/chess/board.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { Random } from '../src/util/random.ts';
import { runTraining } from '../src/train/harness.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { DEFAULT_CONFIG, loadConfig, mergeConfig, saveConfig } from '../src/learn/config.ts';
import { runMorph } from './helpers/cli.ts';

/** Positions from the scored set and a few random moves past each. */
function positions(count: number, seed: number): Board[] {
  const fens = readFileSync('positions/move-scores.jsonl', 'utf8').trim().split('\n').map((line) => JSON.parse(line).fen as string);
  const random = new Random(seed);
  const boards: Board[] = [];
  while (boards.length < count) {
    let board = boardFromFen(fens[random.int(fens.length)]);
    for (let ply = random.int(6); ply > 0; ply--) {
      const moves = generateLegalMoves(board);
      if (moves.length === 0) break;
      const next = cloneBoard(board);
      applyMove(board, moves[random.int(moves.length)], next);
      board = next;
    }
    boards.push(board);
  }
  return boards;
}

const folder = mkdtempSync(join(tmpdir(), 'morph-relations-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('relation learning', () => {
  it('recovers the weights that made the gaps, on positions it never saw, and the gaps\' shared part as its bias', () => {
    const random = new Random(9);
    const truth = Float64Array.from({ length: RELATION_TERM_FEATURES }, () => (random.next() - 0.5) * 0.1);
    // The static terms' own truth: what the gap over static material adds (a piece en prise, say).
    const staticTruth = Float64Array.from({ length: RELATION_TERM_FEATURES }, () => (random.next() - 0.5) * 0.1);
    const settledOf = (k: number) => (k % 7) * 0.1 - 0.3;
    const fit = (penalty: number) => {
      const learner = new RelationLearner({ penalty, clip: 2, staticClip: 2, staticPenalty: penalty });
      for (const [k, board] of positions(6000, 1).entries()) {
        const target = settledOf(k) + 0.2 + relationLogOdds(board, truth);
        learner.add(board, settledOf(k), target, target - (relationLogOdds(board, staticTruth) - 0.1));
      }
      learner.solve();
      return learner;
    };
    const heldOut = positions(300, 2);
    const rmsFrom = (want: ArrayLike<number>) => (weights: ArrayLike<number>) =>
      Math.sqrt(heldOut.reduce((sum, board) => sum + (relationLogOdds(board, want) - relationLogOdds(board, weights)) ** 2, 0) / heldOut.length);
    const rms = rmsFrom(truth);
    const none = rms(new Float64Array(RELATION_TERM_FEATURES));
    const exact = fit(0.01);
    // Noise-free gaps: least squares takes back nearly all of their spread, and the constant they share.
    expect(rms(exact.weights)).toBeLessThan(0.1 * none);
    expect(exact.bias).toBeCloseTo(0.2, 1);
    expect(exact.lessons).toBe(6000);
    // The static fit, from the same lessons, takes back its own truth and constant, not the settled one's.
    const staticRms = rmsFrom(staticTruth);
    expect(staticRms(exact.staticWeights)).toBeLessThan(0.1 * staticRms(new Float64Array(RELATION_TERM_FEATURES)));
    expect(staticRms(exact.weights)).toBeGreaterThan(0.5 * staticRms(new Float64Array(RELATION_TERM_FEATURES)));
    expect(exact.staticBias).toBeCloseTo(-0.1, 1);
    expect(exact.staticLessons).toBe(6000);
    // The penalty shrinks the weights toward 0, and the fit with it.
    const norm = (weights: ArrayLike<number>) => Math.hypot(...Array.from(weights));
    const shrunk = fit(3000);
    expect(norm(shrunk.weights)).toBeLessThan(0.8 * norm(exact.weights));
    expect(rms(shrunk.weights)).toBeGreaterThan(rms(exact.weights));
  });

  it('gives one lesson a game once the database keeps relationLessonsFullAt of them', async () => {
    expect(lessonsForGame({ relationLessons: 4, relationLessonsFullAt: 4000 }, 3999)).toBe(4);
    expect(lessonsForGame({ relationLessons: 4, relationLessonsFullAt: 4000 }, 4000)).toBe(1);
    expect(lessonsForGame({ relationLessons: 0, relationLessonsFullAt: 0 }, 9)).toBe(0);
    // A new database's defaults never fall to one a game, however long the run (session 80).
    expect(lessonsForGame(DEFAULT_CONFIG, 10_000_000)).toBe(DEFAULT_CONFIG.relationLessons);
    const db = join(folder, 'full.db');
    const run = (games: number) =>
      runTraining({ db, games, opponent: 'random', seed: 4, maxPlies: 40, progress: 'none', maxFailures: 3, jobs: 1, config: { relationLessons: 12, relationLessonsFullAt: 5 } });
    await run(1);
    const kept = () => {
      const store = PatternStore.open(db, { readonly: true });
      try {
        const byGame = new Map<number, number>();
        for (const lesson of storedRelationLessons(store.db)) byGame.set(lesson.game, (byGame.get(lesson.game) ?? 0) + 1);
        return byGame;
      } finally {
        store.close();
      }
    };
    // The first game, with none kept, gives up to 12 (none where the game is over); every later one a single lesson.
    expect(kept().get(1)).toBeGreaterThan(5);
    await run(3);
    expect([...kept()].filter(([game]) => game > 1).map(([, count]) => count)).toEqual([1, 1, 1]);
    // Asked for N a game on the command line, a run draws N every game, however many the database keeps.
    const asked = await runMorph(['train', '--db', db, '--games', '2', '--opponent', 'random', '--seed', '4', '--max-plies', '40',
      '--jobs', '1', '--no-policy', '--progress', 'none', '--relation-lessons', '3']);
    expect(asked.code, asked.stderr).toBe(0);
    expect([...kept()].filter(([game]) => game > 4).map(([, count]) => count)).toEqual([3, 3]);
  }, 60_000);

  it("saving drops the AdaGrad learner's step sizes an older database kept, and keeps its other meta", () => {
    const store = PatternStore.open(':memory:');
    setMetaBytes(store.db, 'relation_squares', new Uint8Array(8));
    setMeta(store.db, 'seed', 7);
    saveRelationLearner(store.db, new RelationLearner());
    expect(getMeta(store.db, 'relation_squares')).toBeUndefined();
    expect(getMeta(store.db, 'seed')).toBe('7');
    store.close();
  });

  it('solves again once the lessons since the last solve reach a hundredth of all, and the weights stay as solved between', () => {
    const random = new Random(3);
    const truth = Float64Array.from({ length: RELATION_TERM_FEATURES }, () => (random.next() - 0.5) * 0.1);
    const boards = positions(700, 5);
    const learner = new RelationLearner();
    const solvedAt: number[] = [];
    const add = (board: Board) => {
      const before = learner.weights;
      learner.add(board, 0, relationLogOdds(board, truth));
      if (learner.solveWhenDue()) solvedAt.push(learner.lessons);
      else expect(learner.weights).toBe(before);
    };
    // Early in a run every lesson is a hundredth of them or more.
    boards.slice(0, 5).forEach(add);
    expect(solvedAt).toEqual([1, 2, 3, 4, 5]);
    // Later a solve once more than a hundredth are new: every 6th or 7th lesson past 600.
    for (const board of boards.slice(5, 600)) learner.add(board, 0, relationLogOdds(board, truth));
    expect(learner.solveWhenDue()).toBe(true);
    solvedAt.length = 0;
    boards.slice(600).forEach(add);
    expect(solvedAt.length).toBeGreaterThan(12);
    expect(solvedAt.length).toBeLessThan(17);
    for (let i = 1; i < solvedAt.length; i++) expect(solvedAt[i] - solvedAt[i - 1]).toBe(Math.ceil(solvedAt[i] / 100));
    // Then solve() brings them to the fit of every lesson: the same as a learner that solved after each.
    const everyLesson = new RelationLearner();
    for (const board of boards) everyLesson.add(board, 0, relationLogOdds(board, truth));
    everyLesson.solve();
    expect(learner.unsolved).toBe(700 - solvedAt.at(-1)!);
    learner.solve();
    expect(learner.unsolved).toBe(0);
    expect(learner.weights).toEqual(everyLesson.weights);
  });

  it('bootstrapped lessons (config bootstrapLessons) are valued by a search that reads the relation terms as they stand', () => {
    const store = materialOnlyStore();
    const config = { ...DEFAULT_CONFIG, materialPrior: 1_000_000 };
    saveConfig(store.db, config);
    const game = { startFen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', moves: ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4', 'g8f6'] };
    const lessons = (bootstrapLessons: boolean) => relationLessons(store, game, 6, new Random(1), { ...config, bootstrapLessons });
    // With no terms learned the two targets are the same.
    expect(lessons(true)).toEqual(lessons(false));
    const rng = new Random(7);
    storeRelationWeights(store.db, Float64Array.from({ length: RELATION_TERM_FEATURES }, () => (rng.next() - 0.5) * 0.6));
    const [plain, bootstrapped] = [lessons(false), lessons(true)];
    expect(bootstrapped.map((l) => [l.fen, l.settled, l.static])).toEqual(plain.map((l) => [l.fen, l.settled, l.static]));
    expect(bootstrapped.filter((l, i) => Math.abs(l.target - plain[i].target) > 1e-6).length).toBeGreaterThan(0);
    expect(() => mergeConfig(DEFAULT_CONFIG, { bootstrapLessons: 'yes' as unknown as boolean })).toThrow(/bootstrapLessons must be true or false/);
    // A new database bootstraps; one saved before the setting existed keeps valuing its lessons by material alone.
    expect(DEFAULT_CONFIG.bootstrapLessons).toBe(true);
    const { bootstrapLessons: _, ...older } = DEFAULT_CONFIG;
    setMeta(store.db, 'config', older);
    expect(loadConfig(store.db).bootstrapLessons).toBe(false);
    store.close();
  });

  it('a run with relation lessons keeps the learner in the database and a resumed run carries it on', async () => {
    const db = join(folder, 'lessons.db');
    const run = (games: number) =>
      runTraining({ db, games, opponent: 'random', seed: 4, maxPlies: 40, progress: 'none', maxFailures: 3, jobs: 1, config: { relationLessons: 12 } });
    await run(2);
    const read = () => {
      const store = PatternStore.open(db, { readonly: true });
      try {
        return { learner: loadRelationLearner(store.db), weights: storedRelationWeights(store.db), staticWeights: storedRelationWeights(store.db, 'static'), config: loadConfig(store.db), kept: [...storedRelationLessons(store.db)].length };
      } finally {
        store.close();
      }
    };
    const first = read();
    expect(first.config.relationLessons).toBe(12);
    // At most 12 a game: none where the game is over.
    expect(first.learner.lessons).toBeGreaterThan(12);
    expect(first.learner.lessons).toBeLessThanOrEqual(24);
    expect(first.weights!.some((w) => w !== 0)).toBe(true);
    // The weights played with are the fit of every kept lesson.
    expect(first.learner.weights).toEqual(first.weights);
    expect(first.kept).toBe(first.learner.lessons);
    // Every lesson also keeps its static material, and the static terms are the fit of them all.
    expect(first.learner.staticLessons).toBe(first.learner.lessons);
    expect(first.staticWeights!.some((w) => w !== 0)).toBe(true);
    expect(first.learner.staticWeights).toEqual(first.staticWeights);
    await run(1);
    const second = read();
    expect(second.learner.lessons).toBeGreaterThan(first.learner.lessons);
    expect(second.learner.lessons).toBeLessThanOrEqual(first.learner.lessons + 12);
    expect(second.learner.weights).not.toEqual(first.learner.weights);
    expect(second.learner.weights).toEqual(second.weights);
  });
});
