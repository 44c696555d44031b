/**
 * The move patterns' lessons from Morph's own search (issue 71 phase 2, src/train/moveLessons.ts): a quiet move the
 * play search finds worth more than its settled material (a fork) is a positive, a quiet move that changes nothing is
 * not; and the move patterns learned from such lessons count them over the quiet moves and rank positives higher.
 */
import { restartingPlayout } from './helpers/chessMoves.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyMove, boardFromFen, cloneBoard, KNIGHT, uciMove } from '../src/chess/board.ts';
import { generateLegalMoves, isInCheck } from '../src/chess/movegen.ts';
import { DEFAULT_CONFIG } from '../src/learn/config.ts';
import { learnMovePatternLessons, movePatternMatches, movePatternScore, type MoveLesson } from '../src/model/movePatterns.ts';
import { isFollowed, QUIESCENCE } from '../src/search/search.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { DEFAULT_MOVE_LESSON_GAP, MOVE_LESSON_LOOKS, quietMoveLessons, searchQuietMoves } from '../src/train/moveLessons.ts';
import { Random } from '../src/util/random.ts';
import { materialOnlyStore } from './helpers/materialStore.ts';
import { runMorph } from './helpers/cli.ts';
import { runTraining } from '../src/train/harness.ts';

describe('search lessons for the move patterns', () => {
  it.each(MOVE_LESSON_LOOKS)('a quiet knight fork of king and rook is a positive; quiet moves that win nothing are not (%s)', (look) => {
    const store = materialOnlyStore();
    // White's Nc7+ forks the king on e8 and the rook on a8; nothing of Black's reaches c7 (the pawns keep the material
    // short of a draw by rule).
    const fen = 'r3k3/7p/8/1N6/8/8/P7/4K3 w - - 0 1';
    const positions = searchQuietMoves(store, { ...DEFAULT_CONFIG, maturity: 0 }, [{ game: 1, startFen: fen, before: [], chosen: 'b5c7' }], 1, new Random(1), look);
    store.close();
    expect(positions).toHaveLength(1);
    const gaps = new Map(positions[0].quiet.map((q) => [q.move, q.gap]));
    // Every legal move here is quiet, and each was searched.
    expect([...gaps.keys()].sort()).toEqual(generateLegalMoves(boardFromFen(fen)).map(uciMove).sort());
    expect(gaps.get('b5c7')!).toBeGreaterThan(DEFAULT_MOVE_LESSON_GAP);
    for (const quiet of ['e1d2', 'e1f2', 'b5d4']) expect(Math.abs(gaps.get(quiet)!)).toBeLessThan(DEFAULT_MOVE_LESSON_GAP);
    const [lesson] = [...quietMoveLessons(positions)()];
    expect(lesson.positives).toContain('b5c7');
    expect(lesson.positives).not.toContain('e1d2');
    expect(lesson.considered!.size).toBe(gaps.size);
  });

  /**
   * Lessons of a made-up rule in positions of seeded random playouts: among the quiet moves, a knight move that
   * checks is a positive.
   */
  function ruleLessons(count: number, seed: number): { fen: string; positives: string[]; quiet: string[] }[] {
    const lessons: { fen: string; positives: string[]; quiet: string[] }[] = [];
    for (const chess of restartingPlayout(new Random(seed))) {
      if (lessons.length >= count) break;
      const board = boardFromFen(chess.fen());
      const quiet = generateLegalMoves(board).filter((m) => !isFollowed(board, m, QUIESCENCE));
      const positives = quiet.filter((m) => {
        if (Math.abs(board.squares[m.from]) !== KNIGHT) return false;
        const after = cloneBoard(board);
        applyMove(board, m, after);
        return isInCheck(after);
      });
      if (positives.length === 0 || quiet.length < 3) continue;
      lessons.push({ fen: chess.fen(), positives: positives.map(uciMove), quiet: quiet.map(uciMove) });
    }
    return lessons;
  }
  const asLessons = (lessons: ReturnType<typeof ruleLessons>) => (): Iterable<MoveLesson> =>
    lessons.map((l) => ({ board: boardFromFen(l.fen), positives: l.positives, considered: new Set(l.quiet) }));

  it('learns the positives from lessons of several per position, counting over the quiet moves only', () => {
    const training = ruleLessons(120, 3);
    const store = PatternStore.open(':memory:');
    const summary = learnMovePatternLessons(store, asLessons(training), training.length, {}, 1);
    expect(summary.positives).toBe(training.reduce((s, l) => s + l.positives.length, 0));
    // Each move matches exactly one seed of its mover's type and destination safety: their uses add up to the
    // quiet moves, their updates to the positives (captures, not considered, are not counted).
    const moverSeeds = [...store.hierarchy.byId.values()].filter(
      (r) => r.pattern.kind === 'graph' && r.pattern.labels.length === 2 && r.pattern.edges.length === 1 && r.pattern.edges[0][0] === 1 && r.pattern.desigs.every((d) => d === 0),
    );
    expect(moverSeeds.reduce((s, r) => s + r.uses, 0)).toBe(training.reduce((s, l) => s + l.quiet.length, 0));
    expect(moverSeeds.reduce((s, r) => s + r.updates, 0)).toBe(summary.positives);
    // On held-out positions a positive is ranked first among the quiet moves far more often than chance.
    const heldOut = ruleLessons(60, 4);
    let first = 0;
    let chance = 0;
    for (const lesson of heldOut) {
      const scored = movePatternMatches(store, boardFromFen(lesson.fen))
        .filter((m) => lesson.quiet.includes(m.move))
        .map((m) => ({ move: m.move, score: movePatternScore(m.patterns) }))
        .sort((a, b) => b.score - a.score);
      if (lesson.positives.includes(scored[0].move)) first++;
      chance += lesson.positives.length / lesson.quiet.length;
    }
    store.close();
    expect(first).toBeGreaterThan(2 * chance);
    expect(first / heldOut.length).toBeGreaterThan(0.5);
  });

  describe('from the command line', () => {
    const folder = mkdtempSync(join(tmpdir(), 'morph-move-lessons-'));
    afterAll(() => rmSync(folder, { recursive: true, force: true }));

    it("learns a database's games' search lessons into move patterns, which a patterns=K search then reads in agree, move and match", async () => {
      const db = join(folder, 'value.db');
      await runTraining({ db, games: 2, opponent: 'random', seed: 4, maxPlies: 40, progress: 'none', maxFailures: 3, jobs: 1 });
      const out = join(folder, 'moves.db');
      const learned = await runMorph(['model', '--move-patterns', '--move-pattern-target', 'search', '--from-db', db, '--last', '2', '--positions-per-game', '3', '--out', out, '--seed', '1', '--json', '--no-progress']);
      expect(learned.stderr).toBe('');
      expect(learned.code).toBe(0);
      const summary = JSON.parse(learned.stdout);
      expect(summary).toMatchObject({ target: 'search', look: 'followed', gap: DEFAULT_MOVE_LESSON_GAP, games: 2, decisions: 6, positionsPerGame: 3 });
      expect(summary.quietMoves).toBeGreaterThan(30);
      expect(summary.positives).toBe(summary.positiveMoves);
      const fen = 'r3k3/7p/8/1N6/8/8/P7/4K3 w - - 0 1';
      const positions = join(folder, 'one.jsonl');
      writeFileSync(positions, JSON.stringify({ fen, best: 'b5c7' }) + '\n');
      const search = 'material,quiescence,mates=1,patterns=2';
      const without = await runMorph(['agree', '--positions', positions, '--db', db, '--search', search]);
      expect(without.code).toBe(2);
      expect(without.stderr).toMatch(/move-pattern database/);
      const agreed = await runMorph(['agree', '--positions', positions, '--db', db, '--search', search, '--move-patterns', out, '--json']);
      expect(agreed.stderr).toBe('');
      expect(JSON.parse(agreed.stdout.trim().split('\n')[0])).toMatchObject({ positions: 1 });
      // move and match read them too.
      const moved = await runMorph(['move', '--db', db, '--fen', fen, '--search', search, '--move-patterns', out, '--json']);
      expect(moved.stderr).toBe('');
      expect(generateLegalMoves(boardFromFen(fen)).map(uciMove)).toContain(JSON.parse(moved.stdout).best);
      const matched = await runMorph(['match', '--white', `morph:${db}`, '--black', 'random', '--games', '2', '--seed', '1', '--max-plies', '20', '--search', search, '--move-patterns', out, '--json', '--no-progress']);
      expect(matched.stderr).toBe('');
      expect(JSON.parse(matched.stdout)).toMatchObject({ games: 2 });
      const wrongKind = await runMorph(['move', '--db', db, '--fen', fen, '--search', search, '--move-patterns', db]);
      expect(wrongKind.code).toBe(2);
      const wrong = await runMorph(['model', '--move-patterns', '--move-pattern-target', 'search', '--pgn', positions, '--player', 'x', '--out', join(folder, 'x.db')]);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toMatch(/--move-pattern-target search learns from --from-db/);
    });
  });
});
