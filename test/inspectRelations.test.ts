/**
 * `morph inspect relations`: the relation terms a database plays with, both sets, strongest first, checked against
 * the weights stored (sorted here by size) and the learner's progress.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { boardFromFen } from '../src/chess/board.ts';
import { relationFeatureName, storedRelationWeights, RELATION_TERM_FEATURES } from '../src/eval/relationTerms.ts';
import { RelationLearner, saveRelationLearner } from '../src/learn/relationLearning.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { morph } from './helpers/sampleDatabase.ts';

const folder = mkdtempSync(join(tmpdir(), 'morph-relations-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const FENS = [
  'k7/8/8/5n2/8/8/8/K6R w - - 0 1',
  'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3',
  'rnbqkb1r/pppp1ppp/5n2/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 2 3',
  'r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R b KQkq - 0 5',
];

describe('morph inspect relations', () => {
  it('lists each set of terms strongest first, with the lessons and bias they were fitted with', () => {
    const path = join(folder, 'terms.db');
    const store = PatternStore.open(path);
    const learner = new RelationLearner({ penalty: 1, clip: 2, staticClip: 2, staticPenalty: 1 });
    FENS.forEach((fen, i) => learner.add(boardFromFen(fen), 0, 0.3 * (i - 1), -0.2 * i));
    learner.solve();
    store.db.transaction(() => saveRelationLearner(store.db, learner))();
    const stored = { settled: storedRelationWeights(store.db)!, static: storedRelationWeights(store.db, 'static')! };
    store.close();

    const run = morph(['inspect', 'relations', '--db', path, '--json', '--limit', '3']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const shown = JSON.parse(run.stdout) as { sets: { kind: 'settled' | 'static'; lessons: number; bias: number; nonZero: number; strongest: { pattern: string; weight: number }[] }[] };
    expect(shown.sets.map((set) => set.kind)).toEqual(['settled', 'static']);
    for (const set of shown.sets) {
      const weights = stored[set.kind];
      const bySize = Array.from({ length: RELATION_TERM_FEATURES }, (_, f) => f).sort((a, b) => Math.abs(weights[b]) - Math.abs(weights[a]));
      expect(set.strongest).toEqual(bySize.slice(0, 3).map((f) => ({ pattern: relationFeatureName(f), weight: weights[f] })));
      expect(set.nonZero).toBe(weights.filter((w) => w !== 0).length);
      expect(set.lessons).toBe(FENS.length);
      expect(set.bias).toBe(set.kind === 'settled' ? learner.bias : learner.staticBias);
    }

    const text = morph(['inspect', 'relations', '--db', path, '--limit', '2']);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^settled terms: .*4 lessons/m);
    expect(text.stdout).toMatch(/^static terms: .*material-one-ply.*4 lessons/m);
    // Two rows a set, each a signed weight and the pattern's name.
    expect(text.stdout.split('\n').filter((line) => /^ {2}[+-]\d\.\d{3} {2}\S/.test(line))).toHaveLength(4);
  });

  it('says so when a database has none yet, and refuses a bad --limit in one line', () => {
    const path = join(folder, 'empty.db');
    PatternStore.open(path).close();
    const none = morph(['inspect', 'relations', '--db', path]);
    expect(none.status).toBe(0);
    expect(none.stdout).toMatch(/^no relation terms yet/);
    const bad = morph(['inspect', 'relations', '--db', path, '--limit', '0']);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });
});
