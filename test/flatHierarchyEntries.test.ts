/**
 * The compiled index's parent entries (flatHierarchy.ts parentEntry), which the trigger review and insertion's
 * superpattern search read, through a sequence of changes made exactly as hierarchy.ts makes them. A pattern
 * whose parents have all been deleted becomes a root and must have no parent entry, however the slots and lists
 * its old trigger left are reused. It once kept a pointer into its deleted trigger's list: when the freed slot
 * went to a new pattern whose list held the root's slot at the old offset (as another child's parent), the root
 * read as having parents, and a training run died in the trigger review ("Cannot read properties of null
 * (reading 'triggers')").
 */
import { describe, expect, it } from 'vitest';
import { ENTRY_PARENTS, FlatHierarchy } from '../src/store/flatHierarchy.ts';
import type { PatternRecord } from '../src/store/patternRecord.ts';

interface Node {
  name: string;
  slot: number;
  depth: number;
  parents: Node[];
  triggers: Node[];
  trigger: Node | null;
}

const node = (name: string, depth: number): Node => ({ name, slot: -1, depth, parents: [], triggers: [], trigger: null });
const asRecord = (n: Node) => n as unknown as PatternRecord;

/** The parents the index gives a slot, in slot order ([] for a root). */
function indexedParents(flat: FlatHierarchy, n: Node): number[] {
  const at = flat.parentEntry(n.slot);
  if (at < 0) return [];
  const pool = flat.triggers.pool;
  return [...pool.subarray(at + ENTRY_PARENTS + 1, at + ENTRY_PARENTS + 1 + pool[at + ENTRY_PARENTS])].sort((a, b) => a - b);
}

/** As hierarchy.ts retrigger: the child's trigger becomes `to` (null: it is a root now). */
function retrigger(flat: FlatHierarchy, child: Node, to: Node | null): void {
  flat.setTrigger(asRecord(child));
  const previous = child.trigger;
  if (previous) {
    previous.triggers.splice(previous.triggers.indexOf(child), 1);
    flat.setTriggers(asRecord(previous));
  }
  child.trigger = to;
  if (to) {
    to.triggers.push(child);
    flat.setTriggers(asRecord(to));
  }
}

describe('parent entries of the compiled index', () => {
  it('a pattern left without parents has no entry, though its old trigger\'s slot and list offset are reused', () => {
    // T, a root, triggers C1 and C (C's entry at offset 4 of T's list); X, a root, triggers D (parents X, C).
    const T = node('T', 0);
    const X = node('X', 0);
    const C1 = node('C1', 1);
    const C = node('C', 1);
    const D = node('D', 2);
    C1.parents = [T];
    C.parents = [T];
    D.parents = [X, C];
    T.triggers = [C1, C];
    C1.trigger = T;
    C.trigger = T;
    X.triggers = [D];
    D.trigger = X;
    const flat = FlatHierarchy.build([T, X, C1, C, D].map(asRecord));
    expect(indexedParents(flat, C)).toEqual([T.slot]);

    // T is deleted as hierarchy.ts deletes: its children lose it (C1 and C become roots), then its slot is freed.
    for (const child of [C1, C]) {
      child.parents = [];
      flat.setParents(asRecord(child));
      retrigger(flat, child, null);
    }
    flat.remove(asRecord(T));
    flat.flush();
    expect(flat.parentEntry(C.slot)).toBe(-1);

    // A new pattern N takes T's slot and becomes D's third parent and its trigger: N's list is then
    // [D, depth, 3, X, C, N], which holds C's slot at offset 4, where C's entry in T's list used to be.
    const N = node('N', 0);
    flat.add(asRecord(N));
    expect(N.slot).toBe(0);
    D.parents = [X, C, N];
    flat.setParents(asRecord(D));
    retrigger(flat, D, N);
    flat.flush();
    expect([...flat.triggers.list(N.slot)]).toEqual([D.slot, D.depth, 3, X.slot, C.slot, N.slot]);

    // A root has no entry at all (parentEntry's -1), not an entry read from another pattern's list.
    expect(flat.parentEntry(C.slot)).toBe(-1);
    expect(flat.parentEntry(C1.slot)).toBe(-1);
    expect(indexedParents(flat, D)).toEqual([X.slot, C.slot, N.slot].sort((a, b) => a - b));
  });
});
