/**
 * A reader loading the hierarchy while a trainer commits: the patterns and the links must come from one committed
 * state. The writer's commit is placed, deterministically, between the reader's two queries (patterns, then
 * links) by wrapping the link query.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { PatternStore } from '../src/store/patternStore.ts';
import { Random } from '../src/util/random.ts';
import { fixturePositions, graphOf, samplePattern } from './helpers/patternSamples.ts';

const between = vi.hoisted(() => ({ hook: null as null | (() => void) }));

vi.mock('../src/store/patternRows.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/store/patternRows.ts')>();
  return {
    ...original,
    loadLinkPairs: (db: Parameters<typeof original.loadLinkPairs>[0]) => {
      const hook = between.hook;
      between.hook = null;
      hook?.();
      return original.loadLinkPairs(db);
    },
  };
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'morph-snapshot-'));
});
afterEach(() => {
  between.hook = null;
  rmSync(dir, { recursive: true, force: true });
});

function insertSamples(store: PatternStore, rng: Random, count: number): void {
  const positions = fixturePositions();
  for (let i = 0; i < count; i++) {
    store.insert(samplePattern(graphOf(positions[rng.int(positions.length)]), rng, 4), 'manual', 1);
  }
}

it('loads patterns and links from one snapshot while a writer commits in between', () => {
  const path = join(dir, 'live.db');
  const writer = PatternStore.open(path);
  const rng = new Random(17);
  try {
    insertSamples(writer, rng, 40);
    const committedBefore = [...writer.hierarchy.byId.keys()].sort();
    let newLinks = 0;
    between.hook = () => {
      const known = new Set(writer.hierarchy.byId.keys());
      insertSamples(writer, rng, 40);
      for (const record of writer.hierarchy.byId.values()) {
        if (!known.has(record.id)) newLinks += record.parents.length + record.children.length;
      }
    };
    const reader = PatternStore.open(path, { readonly: true });
    try {
      // The commit did add links to patterns the reader had not seen, so a reader without a snapshot would fail.
      expect(newLinks).toBeGreaterThan(0);
      // The reader holds exactly what was committed when it started reading.
      expect([...reader.hierarchy.byId.keys()].sort()).toEqual(committedBefore);
      expect(writer.size).toBeGreaterThan(committedBefore.length);
    } finally {
      reader.close();
    }
  } finally {
    writer.close();
  }
});
