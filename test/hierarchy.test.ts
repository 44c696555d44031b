import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hierarchy } from '../src/store/hierarchy.ts';
import type { PatternRecord } from '../src/store/patternRecord.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { isSubpattern } from '../src/pattern/subpattern.ts';
import { matches } from '../src/pattern/matcher.ts';
import { usesSafety, type GraphPattern } from '../src/pattern/pattern.ts';
import { Random } from '../src/util/random.ts';
import { safetySeedPatterns, seedPatterns } from '../src/learn/seeding.ts';
import { fixturePositions, graphOf, samplePattern } from './helpers/patternSamples.ts';
import { actualLinks, checkHierarchyInvariants } from './helpers/hierarchyInvariants.ts';

const le = (p: PatternRecord, q: PatternRecord) => isSubpattern(p.pattern as GraphPattern, q.pattern as GraphPattern);

describe('pattern hierarchy', () => {
  const fens = fixturePositions();

  it('stays the exact transitive reduction through thousands of random inserts and deletes', () => {
    const rng = new Random(11);
    const hierarchy = new Hierarchy();
    let nextId = 1;
    let inserts = 0;
    let deletes = 0;
    for (let op = 1; op <= 2400; op++) {
      const records = [...hierarchy.byId.values()];
      if (records.length > 150 && rng.next() < 0.45) {
        hierarchy.delete(rng.pick(records));
        deletes++;
      } else {
        const pattern = samplePattern(graphOf(rng.pick(fens)), rng, 4);
        if (hierarchy.insert(pattern, nextId).created) {
          nextId++;
          inserts++;
        }
      }
      if (op % 400 === 0) checkHierarchyInvariants(hierarchy);
    }
    expect(inserts).toBeGreaterThan(1000);
    expect(deletes).toBeGreaterThan(500);
    // The order is not trivial: links exist and some patterns have several parents.
    const records = [...hierarchy.byId.values()];
    expect(records.some((r) => r.parents.length >= 2)).toBe(true);
    expect(records.some((r) => r.children.length >= 2)).toBe(true);
  });

  it('returns the existing record when the same pattern is inserted again', () => {
    const rng = new Random(3);
    const hierarchy = new Hierarchy();
    const pattern = samplePattern(graphOf(fens[10]), rng, 4);
    const first = hierarchy.insert(pattern, 1);
    const permuted: GraphPattern = {
      kind: 'graph',
      labels: [...pattern.labels].reverse(),
      desigs: [...pattern.desigs].reverse(),
      edges: pattern.edges.map(([a, b, c]) => [pattern.labels.length - 1 - a, pattern.labels.length - 1 - b, c]),
    };
    const second = hierarchy.insert(permuted, 2);
    expect(second.created).toBe(false);
    expect(second.record).toBe(first.record);
    expect(hierarchy.size).toBe(1);
  });
});

describe('retrieval', () => {
  it('equals brute force (test everything, keep the most specific) with seeds, after deletes and after reload', () => {
    const fens = fixturePositions();
    const rng = new Random(5);
    const dir = mkdtempSync(join(tmpdir(), 'morph-retrieval-'));
    const positions = fens.filter((_, i) => i % 6 === 0).slice(0, 80);
    const checkAgainstBruteForce = (store: PatternStore): void => {
      const graphRecords = [...store.hierarchy.byId.values()].filter((r) => r.kind === 'graph');
      let totalTested = 0;
      let totalMatches = 0;
      for (const fen of positions) {
        const graph = graphOf(fen);
        const { matches: found, tested } = store.retrieve(graph);
        const matched = graphRecords.filter((r) => matches(r.pattern as GraphPattern, graph));
        const mostSpecific = matched.filter((p) => !matched.some((q) => q !== p && le(p, q)));
        expect(found.map((r) => r.id).sort((a, b) => a - b)).toEqual(mostSpecific.map((r) => r.id).sort((a, b) => a - b));
        totalTested += tested;
        totalMatches += found.length;
      }
      expect(totalMatches).toBeGreaterThan(positions.length); // not vacuous: positions do match patterns
      // ...including patterns that require a piece en prise (sampled patterns keep it, seeds say only that).
      expect(graphRecords.some((r) => usesSafety(r.pattern as GraphPattern))).toBe(true);
      expect(totalTested).toBeLessThan(positions.length * graphRecords.length); // and the hierarchy prunes
    };
    try {
      const path = join(dir, 'r.db');
      const store = PatternStore.open(path);
      store.transaction(() => {
        for (const seed of [...seedPatterns(), ...safetySeedPatterns()]) store.insert(seed, 'seed', 0);
        for (let i = 0; i < 700; i++) store.insert(samplePattern(graphOf(rng.pick(fens)), rng, 5), 'manual', 0);
      });
      checkAgainstBruteForce(store);
      const victims = [...store.hierarchy.byId.values()].filter(() => rng.next() < 0.25);
      store.transaction(() => victims.forEach((record) => store.delete(record)));
      checkAgainstBruteForce(store);
      store.close();
      const reopened = PatternStore.open(path, { readonly: true });
      checkAgainstBruteForce(reopened);
      reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('persists the hierarchy: reopening gives the same patterns and links', () => {
    const fens = fixturePositions();
    const rng = new Random(9);
    const dir = mkdtempSync(join(tmpdir(), 'morph-persist-'));
    try {
      const path = join(dir, 'p.db');
      const store = PatternStore.open(path);
      store.transaction(() => {
        for (let i = 0; i < 300; i++) store.insert(samplePattern(graphOf(rng.pick(fens)), rng, 4), 'manual', 0);
      });
      const victims = [...store.hierarchy.byId.values()].filter((_, i) => i % 5 === 0);
      store.transaction(() => victims.forEach((record) => store.delete(record)));
      const before = actualLinks(store.hierarchy);
      const keys = [...store.hierarchy.byKey.keys()].sort();
      store.close();
      const reopened = PatternStore.open(path);
      expect([...reopened.hierarchy.byKey.keys()].sort()).toEqual(keys);
      expect(actualLinks(reopened.hierarchy)).toEqual(before);
      checkHierarchyInvariants(reopened.hierarchy);
      reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
