import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hierarchy } from '../src/store/hierarchy.ts';
import { mostSpecificMatches, mostSpecificMatchesTogether } from '../src/store/retrieval.ts';
import { applyMove, boardFromFen, cloneBoard } from '../src/chess/board.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import type { PatternRecord } from '../src/store/patternRecord.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { SlotLists } from '../src/store/flatHierarchy.ts';
import { isSubpattern } from '../src/pattern/subpattern.ts';
import { matches } from '../src/pattern/matcher.ts';
import { usesSafety, type GraphPattern } from '../src/pattern/pattern.ts';
import { DESIG_NONE } from '../src/pattern/designation.ts';
import { EDGE_ATTACKS } from '../src/graph/labels.ts';
import { buildPositionGraph, PositionGraph } from '../src/graph/positionGraph.ts';
import { Random } from '../src/util/random.ts';
import { safetySeedPatterns, seedPatterns } from '../src/learn/seeding.ts';
import { fixturePositions, graphOf, samplePattern } from './helpers/patternSamples.ts';
import { actualLinks, checkCompiledIndex, checkHierarchyInvariants } from './helpers/hierarchyInvariants.ts';

const le = (p: PatternRecord, q: PatternRecord) => isSubpattern(p.pattern as GraphPattern, q.pattern as GraphPattern);
const ids = (records: PatternRecord[]) => records.map((r) => r.id).sort((a, b) => a - b);

/**
 * A sampled pattern, often generalised further the way learning's generalisations come out: no square
 * designations at all, only "attacks" edges, no safety, sometimes no edges. Such patterns have no exact square
 * to be indexed by, and lie below no seed: they become roots.
 */
function generalisedSample(graph: PositionGraph, rng: Random): GraphPattern {
  const pattern = samplePattern(graph, rng, 4);
  if (rng.next() < 0.5) pattern.desigs = pattern.desigs.map(() => DESIG_NONE);
  if (rng.next() < 0.4) pattern.edges = pattern.edges.map(([a, b]) => [a, b, EDGE_ATTACKS]);
  if (rng.next() < 0.3) delete pattern.safety;
  if (rng.next() < 0.1) pattern.edges = [];
  return pattern;
}

/** The seeds and 200 patterns sampled from fixture positions, at most `maxNodes` nodes each. */
function seededHierarchy(seed: number, maxNodes: number): Hierarchy {
  const fens = fixturePositions();
  const rng = new Random(seed);
  const hierarchy = new Hierarchy();
  for (const pattern of seedPatterns()) hierarchy.insert(pattern, hierarchy.size + 1);
  for (let i = 0; i < 200; i++) hierarchy.insert(samplePattern(graphOf(rng.pick(fens)), rng, maxNodes), hierarchy.size + 1);
  return hierarchy;
}

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

  it('links each insert under exactly its most specific subpatterns and above its most general superpatterns (brute force)', () => {
    // Candidate superpatterns come from a feature index and subpatterns from the root index: a candidate the
    // indexes miss shows up here as a missing link, on the insert that missed it.
    const rng = new Random(17);
    const hierarchy = new Hierarchy();
    let nextId = 1;
    let withSuperpatterns = 0;
    let squareLessWithSuperpatterns = 0;
    for (let op = 0; op < 1500; op++) {
      const records = [...hierarchy.byId.values()];
      if (records.length > 120 && rng.next() < 0.4) {
        hierarchy.delete(rng.pick(records));
        continue;
      }
      const { record, created } = hierarchy.insert(generalisedSample(graphOf(rng.pick(fens)), rng), nextId);
      if (!created) continue;
      nextId++;
      const others = [...hierarchy.byId.values()].filter((r) => r !== record);
      const above = others.filter((q) => le(record, q));
      const below = others.filter((p) => le(p, record));
      const mostGeneral = above.filter((q) => !above.some((r) => r !== q && le(r, q)));
      const mostSpecific = below.filter((p) => !below.some((r) => r !== p && le(p, r)));
      expect(ids(record.children)).toEqual(ids(mostGeneral));
      expect(ids(record.parents)).toEqual(ids(mostSpecific));
      if (mostGeneral.length > 0) {
        withSuperpatterns++;
        if (record.exactCodes.length === 0) squareLessWithSuperpatterns++;
      }
    }
    // Not vacuous: many inserts went in above existing patterns, square-less ones included.
    expect(withSuperpatterns).toBeGreaterThan(100);
    expect(squareLessWithSuperpatterns).toBeGreaterThan(50);
    checkHierarchyInvariants(hierarchy);
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
  it('equals brute force (test everything, keep the most specific) with seeds, after deletes, after reload and after inserts and deletes on the reloaded store', () => {
    const fens = fixturePositions();
    const rng = new Random(5);
    const dir = mkdtempSync(join(tmpdir(), 'morph-retrieval-'));
    const positions = fens.filter((_, i) => i % 6 === 0).slice(0, 80);
    const checkAgainstBruteForce = (store: PatternStore): void => {
      const graphRecords = [...store.hierarchy.byId.values()].filter((r) => r.kind === 'graph');
      let totalTested = 0;
      let totalMatches = 0;
      for (const graph of positions.map(graphOf)) {
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
    const insertSome = (store: PatternStore, count: number): void => {
      store.transaction(() => {
        for (let i = 0; i < count; i++) {
          const graph = graphOf(rng.pick(fens));
          store.insert(rng.next() < 0.5 ? samplePattern(graph, rng, 5) : generalisedSample(graph, rng), 'manual', 0);
        }
      });
    };
    try {
      const path = join(dir, 'r.db');
      const store = PatternStore.open(path);
      store.transaction(() => {
        for (const seed of [...seedPatterns(), ...safetySeedPatterns()]) store.insert(seed, 'seed', 0);
      });
      insertSome(store, 700);
      checkAgainstBruteForce(store);
      const victims = [...store.hierarchy.byId.values()].filter(() => rng.next() < 0.25);
      store.transaction(() => victims.forEach((record) => store.delete(record)));
      checkAgainstBruteForce(store);
      checkCompiledIndex(store.hierarchy); // kept up to date through the inserts and deletes
      store.close();
      const reopened = PatternStore.open(path);
      checkCompiledIndex(reopened.hierarchy); // built afresh on load
      checkAgainstBruteForce(reopened);
      // Deletes before the first insert too: the superpattern index is built on the first insert after a load.
      const early = [...reopened.hierarchy.byId.values()].filter(() => rng.next() < 0.05);
      reopened.transaction(() => early.forEach((record) => reopened.delete(record)));
      insertSome(reopened, 200);
      const moreVictims = [...reopened.hierarchy.byId.values()].filter(() => rng.next() < 0.1);
      reopened.transaction(() => moreVictims.forEach((record) => reopened.delete(record)));
      checkAgainstBruteForce(reopened);
      checkHierarchyInvariants(reopened.hierarchy);
      reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('looks up roots without exact squares by their features instead of testing them on every retrieval', () => {
    // Square-less patterns of 3-4 nodes with only "attacks" edges and no seeds: many of them are roots. A bare endgame
    // (rook and king against king) has few of their features, so few are tested; results stay brute force's.
    const fens = fixturePositions();
    const rng = new Random(23);
    const hierarchy = new Hierarchy();
    for (let id = 1; id <= 400; id++) {
      const pattern = samplePattern(graphOf(rng.pick(fens)), rng, 4);
      if (pattern.labels.length < 3) continue;
      pattern.desigs = pattern.desigs.map(() => DESIG_NONE);
      pattern.edges = pattern.edges.map(([a, b]) => [a, b, EDGE_ATTACKS]);
      hierarchy.insert(pattern, id);
    }
    const records = [...hierarchy.byId.values()];
    const bare = graphOf('4k3/8/8/8/8/8/8/R3K3 w - - 0 1');
    for (const graph of [bare, ...fens.slice(0, 40).map(graphOf)]) {
      const matched = records.filter((r) => matches(r.pattern as GraphPattern, graph));
      const mostSpecific = matched.filter((p) => !matched.some((q) => q !== p && le(p, q)));
      expect(ids(mostSpecificMatches(hierarchy, graph).matches)).toEqual(ids(mostSpecific));
    }
    expect(hierarchy.roots.size).toBeGreaterThan(40);
    expect(mostSpecificMatches(hierarchy, bare).tested).toBeLessThan(hierarchy.roots.size / 4);
  });

  it('retrieves many positions together (a position\'s successors) exactly as brute force, also after inserts and deletes', () => {
    const fens = fixturePositions();
    const rng = new Random(47);
    const hierarchy = new Hierarchy();
    for (const seed of [...seedPatterns(), ...safetySeedPatterns()]) hierarchy.insert(seed, hierarchy.size + 1);
    let nextId = 1000;
    for (let i = 0; i < 300; i++) {
      const graph = graphOf(rng.pick(fens));
      hierarchy.insert(rng.next() < 0.5 ? samplePattern(graph, rng, 5) : generalisedSample(graph, rng), nextId++);
    }
    // Every legal move's position of a few fixture positions: more than 32 of them, so more than one walk.
    const successors = fens.slice(0, 4).flatMap((fen) => {
      const board = boardFromFen(fen);
      const next = cloneBoard(board);
      return generateLegalMoves(board).map((move) => {
        applyMove(board, move, next);
        return buildPositionGraph(next, new PositionGraph());
      });
    });
    expect(successors.length).toBeGreaterThan(64);
    const bruteForce = (graph: PositionGraph) => {
      const records = [...hierarchy.byId.values()].filter((r) => r.kind === 'graph');
      const matched = records.filter((r) => matches(r.pattern as GraphPattern, graph));
      return ids(matched.filter((p) => !matched.some((q) => q !== p && le(p, q))));
    };
    for (let round = 0; round < 3; round++) {
      const counted = new Map([...hierarchy.byId.values()].filter((r) => r.kind === 'graph').map((r) => [r, hierarchy.flat.matchCount[r.slot]]));
      const together = mostSpecificMatchesTogether(hierarchy, successors);
      expect(together.length).toBe(successors.length);
      successors.forEach((graph, i) => {
        expect(ids(together[i].matches)).toEqual(bruteForce(graph));
        expect(together[i].tested).toBe(mostSpecificMatches(hierarchy, graph).tested);
      });
      // Each pattern counted once per position it matched in (the counts the triggers are reviewed by), here
      // twice: once together, once alone.
      for (const [record, before] of counted) {
        const matchedIn = successors.filter((graph) => matches(record.pattern as GraphPattern, graph)).length;
        expect(hierarchy.flat.matchCount[record.slot] - before).toBe(2 * matchedIn);
      }
      // Change the hierarchy between rounds.
      for (let i = 0; i < 40; i++) hierarchy.insert(generalisedSample(graphOf(rng.pick(fens)), rng), nextId++);
      const records = [...hierarchy.byId.values()].filter((r) => r.kind === 'graph');
      for (const record of records.filter(() => rng.next() < 0.05)) hierarchy.delete(record);
      checkHierarchyInvariants(hierarchy);
    }
  });

  it('stays right when the epoch stamps of the compiled index wrap around', () => {
    const fens = fixturePositions();
    const hierarchy = seededHierarchy(31, 4);
    const records = [...hierarchy.byId.values()].filter((r) => r.kind === 'graph');
    const graphs = fens.slice(0, 6).map(graphOf);
    const bruteForce = graphs.map((graph) => {
      const matched = records.filter((r) => matches(r.pattern as GraphPattern, graph));
      return ids(matched.filter((p) => !matched.some((q) => q !== p && le(p, q))));
    });
    hierarchy.flat.epoch = 0x7fffffff - 3; // stamps are Int32: the next few retrievals cross the limit
    for (let round = 0; round < 2; round++) {
      graphs.forEach((graph, i) => expect(ids(mostSpecificMatches(hierarchy, graph).matches)).toEqual(bruteForce[i]));
    }
    expect(hierarchy.flat.epoch).toBeLessThan(20);
  });

  it('reviews triggers by how often parents matched: each becomes its least-matched parent, and results stay brute force\'s', () => {
    const fens = fixturePositions();
    const rng = new Random(41);
    const hierarchy = new Hierarchy();
    for (const seed of [...seedPatterns(), ...safetySeedPatterns()]) hierarchy.insert(seed, hierarchy.size + 1);
    for (let i = 0; i < 400; i++) {
      const graph = graphOf(rng.pick(fens));
      hierarchy.insert(rng.next() < 0.5 ? samplePattern(graph, rng, 5) : generalisedSample(graph, rng), hierarchy.size + 1);
    }
    const records = [...hierarchy.byId.values()].filter((r) => r.kind === 'graph');
    const graphs = fens.slice(0, 150).map(graphOf);
    // Match counts by brute force, independent of the hierarchy's own counting.
    const count = new Map(records.map((r) => [r, graphs.filter((graph) => matches(r.pattern as GraphPattern, graph)).length]));
    const putUp = () => records.reduce((sum, r) => sum + (r.trigger ? count.get(r.trigger)! : 0), 0);
    for (const graph of graphs) mostSpecificMatches(hierarchy, graph);
    for (const record of records) expect(hierarchy.flat.matchCount[record.slot]).toBe(count.get(record));
    const before = putUp();
    const moved = hierarchy.reviewTriggers(1);
    expect(moved).toBeGreaterThan(0); // not vacuous: shape alone did not pick the least-matched parent everywhere
    for (const record of records) {
      if (record.parents.length < 2) continue;
      expect(count.get(record.trigger!)).toBe(Math.min(...record.parents.map((p) => count.get(p)!)));
    }
    expect(putUp()).toBeLessThan(before);
    checkHierarchyInvariants(hierarchy);
    for (const graph of graphs.slice(0, 40)) {
      const matched = records.filter((r) => matches(r.pattern as GraphPattern, graph));
      expect(ids(mostSpecificMatches(hierarchy, graph).matches)).toEqual(ids(matched.filter((p) => !matched.some((q) => q !== p && le(p, q)))));
    }
    // Inserts and deletes after a review keep the index whole.
    for (let i = 0; i < 60; i++) hierarchy.insert(samplePattern(graphOf(rng.pick(fens)), rng, 5), hierarchy.size + 1000);
    for (const record of records.filter(() => rng.next() < 0.1)) hierarchy.delete(record);
    checkHierarchyInvariants(hierarchy);
  });

  it('reviews its triggers on its own as positions are retrieved', () => {
    const fens = fixturePositions();
    const hierarchy = seededHierarchy(43, 5);
    const graphs = fens.slice(0, 64).map(graphOf);
    const triggers = () => [...hierarchy.byId.values()].map((r) => r.trigger?.id ?? 0);
    const shaped = triggers();
    for (let round = 0; round < 31; round++) for (const graph of graphs) mostSpecificMatches(hierarchy, graph);
    expect(triggers()).toEqual(shaped); // 1,984 retrievals: not yet
    for (const graph of graphs) mostSpecificMatches(hierarchy, graph);
    expect(triggers()).not.toEqual(shaped); // 2,048: reviewed
    checkHierarchyInvariants(hierarchy);
  });

  it('writes exactly its links to SQLite through wide inserts and deletes (read back with SQL after each)', () => {
    // Generalised patterns lie above many stored ones: their links to all of them are written, and the links
    // they make transitive removed: each changed pattern's parent list rewritten at commit (patternStore.ts).
    const fens = fixturePositions();
    const rng = new Random(21);
    const dir = mkdtempSync(join(tmpdir(), 'morph-links-'));
    try {
      const store = PatternStore.open(join(dir, 'links.db'));
      const stored = () => new Set((store.db.prepare('SELECT parent, child FROM links').raw().all() as number[][]).map(([p, c]) => `${p}>${c}`));
      let wide = 0;
      for (let round = 0; round < 12; round++) {
        store.transaction(() => {
          for (let i = 0; i < 40; i++) {
            const { record, created } = store.insert(samplePattern(graphOf(rng.pick(fens)), rng, 5), 'manual', round);
            if (created && record.parents.length > 0 && record.children.length >= 2) wide++;
          }
          for (let i = 0; i < 6; i++) {
            const { record, created } = store.insert(generalisedSample(graphOf(rng.pick(fens)), rng), 'generalisation', round);
            if (created && record.parents.length > 0 && record.children.length >= 2) wide++;
          }
          const records = [...store.hierarchy.byId.values()];
          for (let i = 0; i < 8; i++) store.delete(rng.pick(records.filter((r) => !r.deleted)));
        });
        expect(stored()).toEqual(actualLinks(store.hierarchy));
      }
      expect(wide).toBeGreaterThan(5);
      checkHierarchyInvariants(store.hierarchy);
      // Outside a transaction each insert is its own, written when it returns.
      for (let i = 0; i < 10; i++) {
        store.insert(generalisedSample(graphOf(rng.pick(fens)), rng), 'generalisation', 20);
        expect(stored()).toEqual(actualLinks(store.hierarchy));
      }
      // A failed transaction leaves nothing pending: the next one writes only its own links.
      expect(() =>
        store.transaction(() => {
          for (let i = 0; i < 30; i++) store.insert(samplePattern(graphOf(rng.pick(fens)), rng, 5), 'manual', 21);
          throw new Error('game abandoned');
        }),
      ).toThrow('game abandoned');
      store.transaction(() => {
        for (let i = 0; i < 30; i++) store.insert(samplePattern(graphOf(rng.pick(fens)), rng, 5), 'manual', 22);
      });
      expect(stored()).toEqual(actualLinks(store.hierarchy));
      store.close();
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

describe('slot lists (the compiled index\'s packed lists)', () => {
  it('hold what was last set for each slot through growth, moves, clears and compactions (against plain arrays)', () => {
    const rng = new Random(5);
    const lists = new SlotLists();
    const expected = new Map<number, number[]>();
    const slots = 300;
    lists.grow(slots);
    let biggestPool = 0;
    for (let op = 0; op < 20000; op++) {
      const slot = rng.int(slots);
      if (rng.next() < 0.05) {
        lists.clear(slot);
        expected.delete(slot);
        continue;
      }
      // Mostly one longer or shorter than before, as a trigger list changes by a child at a time; sometimes anew.
      const before = expected.get(slot) ?? [];
      const length = rng.next() < 0.1 ? rng.int(60) : Math.max(0, before.length + (rng.next() < 0.7 ? 1 : -1));
      const values = Array.from({ length }, () => rng.int(1000));
      lists.set(slot, values);
      expected.set(slot, values);
      biggestPool = Math.max(biggestPool, lists.pool.length);
      if (op % 1000 === 0) for (let s = 0; s < slots; s++) expect(lists.list(s)).toEqual(expected.get(s) ?? []);
    }
    for (let s = 0; s < slots; s++) expect(lists.list(s)).toEqual(expected.get(s) ?? []);
    // Compaction keeps the pool within a small multiple of what the lists hold.
    const held = [...expected.values()].reduce((n, list) => n + list.length, 0);
    expect(biggestPool).toBeLessThan(8 * Math.max(held, 1024));
  });
});
