/**
 * Learning the relation terms (learn/relationLearning.ts): the learner recovers weights that generated the gaps
 * it is shown (checked against those weights, on positions it never saw), and a training run with relation
 * lessons keeps the learner's state in the database, where a resumed run carries it on and players read it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RelationLearner, loadRelationLearner } from '../src/learn/relationLearning.ts';
import { relationLogOdds, storedRelationWeights, RELATION_TERM_FEATURES } from '../src/eval/relationTerms.ts';
import { applyMove, boardFromFen, cloneBoard, type Board } from '../src/chess/board.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { Random } from '../src/util/random.ts';
import { runTraining } from '../src/train/harness.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { loadConfig } from '../src/learn/config.ts';

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
  it('recovers the weights that made the gaps, on positions it never saw', () => {
    const random = new Random(9);
    const truth = Float64Array.from({ length: RELATION_TERM_FEATURES }, () => (random.next() - 0.5) * 0.1);
    const learner = new RelationLearner({ rate: 0.01, pull: 0, clip: 2 });
    const settledOf = (k: number) => (k % 7) * 0.1 - 0.3;
    for (const [k, board] of positions(6000, 1).entries()) learner.learn(board, settledOf(k), settledOf(k) + relationLogOdds(board, truth));
    const heldOut = positions(300, 2);
    const rms = (weights: ArrayLike<number>) => Math.sqrt(heldOut.reduce((sum, board) => sum + (relationLogOdds(board, truth) - relationLogOdds(board, weights)) ** 2, 0) / heldOut.length);
    const none = rms(new Float64Array(RELATION_TERM_FEATURES));
    // The gaps' spread is mostly what the learner took back.
    expect(rms(learner.weights)).toBeLessThan(0.3 * none);
    expect(learner.lessons).toBe(6000);
  });

  it('a run with relation lessons keeps the learner in the database and a resumed run carries it on', async () => {
    const db = join(folder, 'lessons.db');
    const run = (games: number) =>
      runTraining({ db, games, opponent: 'random', seed: 4, maxPlies: 40, progress: 'none', maxFailures: 3, jobs: 1, config: { relationLessons: 12 } });
    await run(2);
    const read = () => {
      const store = PatternStore.open(db, { readonly: true });
      try {
        return { learner: loadRelationLearner(store.db), weights: storedRelationWeights(store.db), config: loadConfig(store.db) };
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
    expect(first.learner.weights).toEqual(first.weights);
    await run(1);
    const second = read();
    expect(second.learner.lessons).toBeGreaterThan(first.learner.lessons);
    expect(second.learner.lessons).toBeLessThanOrEqual(first.learner.lessons + 12);
    expect(second.learner.weights).not.toEqual(first.learner.weights);
  });
});
