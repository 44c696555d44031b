/**
 * Brute-force checks of the pattern hierarchy (reference section 3): the stored links must be exactly the
 * transitive reduction of subpattern-of over the graph patterns, the roots exactly the parentless patterns, and
 * every link recorded on both ends. Quadratic in the number of patterns: for tests of a few hundred patterns.
 */
import { expect } from 'vitest';
import type { Hierarchy } from '../../src/store/hierarchy.ts';
import type { PatternRecord } from '../../src/store/patternRecord.ts';
import { isSubpattern } from '../../src/pattern/subpattern.ts';
import type { GraphPattern } from '../../src/pattern/pattern.ts';
import { compilePlan } from '../../src/pattern/matcher.ts';
import { ENTRY_PARENTS } from '../../src/store/flatHierarchy.ts';

const le = (p: PatternRecord, q: PatternRecord) => isSubpattern(p.pattern as GraphPattern, q.pattern as GraphPattern);

/** The transitive reduction of subpattern-of over `records`, computed by brute force, as "parent>child" strings. */
export function bruteForceLinks(records: PatternRecord[]): Set<string> {
  const n = records.length;
  const below = records.map((p) => records.map((q) => p !== q && le(p, q)));
  const links = new Set<string>();
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (!below[i][j]) continue;
      let immediate = true;
      for (let k = 0; k < n && immediate; k++) if (below[i][k] && below[k][j]) immediate = false;
      if (immediate) links.add(`${records[i].id}>${records[j].id}`);
    }
  }
  return links;
}

export function actualLinks(hierarchy: Hierarchy): Set<string> {
  const links = new Set<string>();
  for (const record of hierarchy.byId.values()) for (const child of record.children) links.add(`${record.id}>${child.id}`);
  return links;
}

/** Asserts the hierarchy's links, roots and back-links against brute force (material patterns stand apart). */
export function checkHierarchyInvariants(hierarchy: Hierarchy): void {
  const records = [...hierarchy.byId.values()].filter((r) => r.kind === 'graph');
  expect(actualLinks(hierarchy)).toEqual(bruteForceLinks(records));
  const triggeredBy = new Map<PatternRecord, PatternRecord[]>();
  for (const record of records) {
    expect(hierarchy.roots.has(record)).toBe(record.parents.length === 0);
    for (const child of record.children) expect(child.parents).toContain(record);
    // Depth: retrieval tests in order of depth, so every parent must come strictly before its children.
    for (const parent of record.parents) expect(record.depth).toBeGreaterThan(parent.depth);
    for (const child of record.triggers) triggeredBy.set(child, [...(triggeredBy.get(child) ?? []), record]);
  }
  checkCompiledIndex(hierarchy, records);
  // Triggers: a pattern with parents is put up for testing by exactly one of them, its trigger; a root by none.
  for (const record of records) {
    if (record.parents.length === 0) {
      expect(record.trigger).toBeNull();
      expect(triggeredBy.get(record)).toBeUndefined();
    } else {
      expect(record.parents).toContain(record.trigger);
      expect(triggeredBy.get(record)).toEqual([record.trigger]);
    }
  }
}

/**
 * The compiled index retrieval walks (flatHierarchy.ts) says what the records say: every graph pattern in a slot
 * of its own, no deleted pattern in any, and each slot's depth, parents and triggers those of its record.
 */
export function checkCompiledIndex(hierarchy: Hierarchy, records = [...hierarchy.byId.values()].filter((r) => r.kind === 'graph')): void {
  const flat = hierarchy.flat;
  for (const record of records) {
    expect(flat.records[record.slot]).toBe(record);
    expect(flat.depthOf[record.slot]).toBe(record.depth);
    // Its parents, as the entry in its trigger's list gives them (insertion reads them there).
    const entry = flat.parentEntry(record.slot);
    // A root has no entry at all, not one read from another pattern's list (test/flatHierarchyEntries.test.ts).
    if (record.parents.length === 0) expect(entry).toBe(-1);
    const parentSlots = entry < 0 ? [] : [...flat.triggers.pool.subarray(entry + ENTRY_PARENTS + 1, entry + ENTRY_PARENTS + 1 + flat.triggers.pool[entry + ENTRY_PARENTS])];
    expect(parentSlots.sort((a, b) => a - b)).toEqual(record.parents.map((p) => p.slot).sort((a, b) => a - b));
    // For each child it triggers: the child, its depth, its parent count, its other parents and this record.
    const entries = record.triggers.flatMap((child) => {
      const others = child.parents.filter((p) => p !== record).map((p) => p.slot);
      return [child.slot, child.depth, child.parents.length, ...others, record.slot];
    });
    expect(flat.triggers.list(record.slot)).toEqual(entries);
    // Its match plan, when compiled, is the pattern's.
    if (flat.planAt[record.slot] > 0) {
      const at = flat.planAt[record.slot] - 1;
      const plan = compilePlan(record.pattern as GraphPattern);
      expect([...flat.plans.subarray(at, at + plan.length)]).toEqual([...plan]);
    }
  }
  const occupied = flat.records.filter((r) => r !== undefined);
  expect(occupied.length).toBe(records.length);
  for (let slot = 0; slot < flat.slotCount; slot++) {
    if (flat.records[slot] !== undefined) continue;
    expect(flat.triggers.count[slot]).toBe(0);
  }
}
