/**
 * The hierarchy compiled for retrieval (issue 13): each graph pattern gets a dense slot, and what retrieval walks
 * (trigger children, compiled match plans, per-retrieval stamps) sits in arrays indexed by slot. A
 * retrieval then reads a few contiguous typed arrays instead of chasing a scattered heap object per pattern, which
 * is where its time went (memory latency, not arithmetic).
 *
 * Most children a match triggers fail because another of their parents did not match (about 80% on a trained
 * database), so a trigger list carries, for each child, what deciding that takes: the child's slot, its depth
 * and its other parents. A retrieval touches a failing child's own memory not at all. The entry ends with the
 * trigger itself, so that a child that matches marks all its parents "not most specific" from the entry it was
 * decided by, and retrieval needs no list of each pattern's parents.
 *
 * The PatternRecord stays the readable view and the structure the hierarchy edits (hierarchy.ts); the hierarchy
 * tells this index what changed (a record's parents, triggers or depth), or builds it afresh after loading. The
 * lists a change touches are rewritten once, when the hierarchy's insert or delete is done (`flush`). One insert
 * can deepen a whole subtree: a deepened pattern's depth is patched in its trigger's entry in place, since
 * rewriting the trigger lists of thousands of deepened patterns was most of a new root's insert.
 */
import { compilePlan, planLength } from '../pattern/matcher.ts';
import type { GraphPattern } from '../pattern/pattern.ts';
import type { PatternRecord } from './patternRecord.ts';

/** Stamps are Int32: the epoch starts again from 1, every stamp cleared, before it would overflow. */
const LAST_EPOCH = 0x7fffffff;

/**
 * One list of slots per slot, packed into one Int32Array. A list is rewritten whole when it changes (the
 * hierarchy changes a few lists per insert or delete); one that outgrows its room moves to the end of the pool
 * with room to grow by half again (a seed's trigger list grows by one entry many times: moving it whole each time
 * filled the pool with abandoned room), and the pool is compacted once half of it is abandoned room.
 */
export class SlotLists {
  /** Where each slot's list starts in `pool`, and how long it is. */
  start = new Int32Array(0);
  count = new Int32Array(0);
  /** Every list (valid until the next `set`, which may move or compact it). */
  pool = new Int32Array(1024);
  private room = new Int32Array(0);
  /** The previous pool, reused by the next compaction (a new one per compaction was most of an insert's garbage). */
  private spare = new Int32Array(0);
  private used = 0;
  private abandoned = 0;

  /** Makes room for slots below `capacity` (lists of new slots are empty). */
  grow(capacity: number): void {
    if (capacity <= this.start.length) return;
    this.start = resized(this.start, capacity);
    this.count = resized(this.count, capacity);
    this.room = resized(this.room, capacity);
  }

  /** The first `count` of `values` become `slot`'s list. */
  set(slot: number, values: ArrayLike<number>, count = values.length): void {
    if (count > this.room[slot]) {
      // A list that has never had room is written at its size (loading writes every list once).
      const room = this.room[slot] === 0 ? count : count + (count >> 1);
      if (this.used + room > this.pool.length) this.makeRoom(room);
      this.abandoned += this.room[slot];
      this.start[slot] = this.used;
      this.room[slot] = room;
      this.used += room;
    }
    const at = this.start[slot];
    for (let i = 0; i < count; i++) this.pool[at + i] = values[i];
    this.count[slot] = count;
  }

  /** A slot's list, for checks (retrieval reads the pool in place). */
  list(slot: number): number[] {
    return [...this.pool.subarray(this.start[slot], this.start[slot] + this.count[slot])];
  }

  /** Empties a slot's list and gives up its room (the slot is being freed). */
  clear(slot: number): void {
    this.abandoned += this.room[slot];
    this.room[slot] = 0;
    this.count[slot] = 0;
  }

  private makeRoom(count: number): void {
    if (this.abandoned * 2 > this.used) this.compact();
    if (this.used + count > this.pool.length) {
      const pool = new Int32Array(Math.max(2 * this.pool.length, this.used + count));
      pool.set(this.pool.subarray(0, this.used));
      this.pool = pool;
    }
  }

  /** Packs every list to the front of a new pool, each with room for just its length. */
  private compact(): void {
    const pool = this.spare.length === this.pool.length ? this.spare : new Int32Array(this.pool.length);
    let used = 0;
    for (let slot = 0; slot < this.start.length; slot++) {
      const count = this.count[slot];
      pool.set(this.pool.subarray(this.start[slot], this.start[slot] + count), used);
      this.start[slot] = used;
      this.room[slot] = count;
      used += count;
    }
    this.spare = this.pool;
    this.pool = pool;
    this.used = used;
    this.abandoned = 0;
  }
}

function resized(array: Int32Array, capacity: number): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(capacity);
  bigger.set(array);
  return bigger;
}

/** Scratch for writing one list. */
const values = { slots: new Int32Array(256), count: 0 };

/** Appends to `values`, growing it when full. */
function pushValue(value: number): void {
  if (values.count === values.slots.length) {
    const bigger = new Int32Array(values.slots.length * 2);
    bigger.set(values.slots);
    values.slots = bigger;
  }
  values.slots[values.count++] = value;
}

/** Appends the trigger entry of `child` in the list of `trigger` to `values`. */
function pushEntry(child: PatternRecord, trigger: PatternRecord): void {
  pushValue(child.slot);
  pushValue(child.depth);
  pushValue(child.parents.length);
  for (const parent of child.parents) if (parent !== trigger) pushValue(parent.slot);
  pushValue(trigger.slot);
}

/**
 * A trigger entry: [child slot, its depth, k, its k - 1 other parents' slots, the trigger's slot] (see
 * triggerEntries); it takes ENTRY_PARENTS + 1 + k places.
 */
export const ENTRY_DEPTH = 1;
export const ENTRY_PARENTS = 2;

export class FlatHierarchy {
  /** The record in each slot (undefined when the slot is free). */
  readonly records: (PatternRecord | undefined)[] = [];
  /** Each slot's depth (its record's): insertion's superpattern search reads it for thousands of candidates. */
  depthOf = new Int32Array(0);
  /** Each slot's trigger entries, one per child it triggers (hierarchy.ts retrigger). */
  readonly triggers = new SlotLists();
  /**
   * Where each slot's entry sits in its trigger's list: from the list's start, and in which slot's list (plus 1,
   * 0: none). A new link can deepen thousands of patterns, whose depths are patched in place (setDepth), and a
   * rewritten trigger list copies the entries that did not change (flush).
   */
  private entryAt = new Int32Array(0);
  private entryIn = new Int32Array(0);
  /** Slots whose entry is to be written afresh at the next flush: stamped with `flushStamp`. */
  private entryStale = new Int32Array(0);
  /** Slots whose trigger changed since the last flush (stamped likewise): their entries move to another list. */
  private triggerMoved = new Int32Array(0);
  private flushStamp = 1;
  /**
   * Compiled match plans (matcher.ts compilePlan), one after another, each copied in on its pattern's first test;
   * `planAt` holds where each slot's plan starts, plus 1 (0: not compiled yet).
   */
  plans = new Uint8Array(4096);
  planAt = new Int32Array(0);
  private plansUsed = 0;
  private plansAbandoned = 0;
  /**
   * Per-walk bookkeeping (retrieval.ts, and insertion's superpattern search), valid where a stamp equals the
   * walk's epoch: the slots matched, and those a child of which matched (not most specific). A walk of several
   * targets (up to 32 positions retrieved together) also keeps, where `matchedEpoch` holds its epoch, in which of
   * them each slot matched (bit i: target i) and in which a child of it matched. A walk of one target reads the
   * stamps alone: retrieval waits on memory, and those arrays are the smallest.
   */
  matchedEpoch = new Int32Array(0);
  childMatchedEpoch = new Int32Array(0);
  matchedBits = new Int32Array(0);
  childMatchedBits = new Int32Array(0);
  /** The current retrieval's stamp. */
  epoch = 0;
  /**
   * How often each slot matched in the positions retrieved since the slot was given (retrieval.ts counts, only
   * for positions, not for insertion's walks): what the hierarchy chooses triggers by, once enough positions have
   * been seen (hierarchy.ts reviewTriggers).
   */
  matchCount = new Int32Array(0);
  /** `retrievals` when each slot was given: its count covers the positions retrieved since. */
  countedFrom = new Float64Array(0);
  /** Positions retrieved over this index. */
  retrievals = 0;
  private readonly freeSlots: number[] = [];
  /** Records whose trigger list is to be rewritten at the next flush. */
  private readonly staleTriggers = new Set<PatternRecord>();

  /** One past the highest slot in use. */
  get slotCount(): number {
    return this.records.length;
  }

  /** Gives a graph record a slot (its links are set separately, once its parents and triggers have slots). */
  add(record: PatternRecord): void {
    const slot = this.freeSlots.pop() ?? this.records.length;
    if (slot === this.records.length) {
      this.records.push(record);
      if (slot >= this.depthOf.length) this.grow(Math.max(1024, 2 * this.depthOf.length));
    } else this.records[slot] = record;
    record.slot = slot;
    this.depthOf[slot] = record.depth;
    this.matchCount[slot] = 0;
    this.countedFrom[slot] = this.retrievals;
  }

  /**
   * The share of positions the slot's pattern matched in, since it was given a slot, or -1 when fewer than
   * `atLeast` positions were retrieved since.
   */
  matchRate(slot: number, atLeast: number): number {
    const seen = this.retrievals - this.countedFrom[slot];
    return seen >= atLeast && seen > 0 ? this.matchCount[slot] / seen : -1;
  }

  /** Frees a deleted record's slot. */
  remove(record: PatternRecord): void {
    const slot = record.slot;
    this.records[slot] = undefined;
    if (this.planAt[slot] > 0) {
      this.plansAbandoned += planLength(this.plans, this.planAt[slot] - 1);
      this.planAt[slot] = 0;
    }
    this.triggers.clear(slot);
    this.entryIn[slot] = 0;
    this.freeSlots.push(slot);
    record.slot = -1;
  }

  /** After the record's parents changed (its trigger's entry for it lists them). */
  setParents(record: PatternRecord): void {
    this.entryStale[record.slot] = this.flushStamp;
    if (record.trigger) this.staleTriggers.add(record.trigger);
  }

  /**
   * Before the record's trigger changes (the hierarchy moves it to the end of its new trigger's children). Its
   * entry's place is forgotten until its new trigger's list is written: a record left with no trigger (a root now)
   * gets no list, and a place kept in its old trigger's list could later point into another record's list that
   * happens to hold its slot there (the old trigger deleted, its slot and list reused), making a root read as
   * having parents (test/flatHierarchyEntries.test.ts).
   */
  setTrigger(record: PatternRecord): void {
    this.triggerMoved[record.slot] = this.flushStamp;
    this.entryStale[record.slot] = this.flushStamp;
    this.entryIn[record.slot] = 0;
  }

  /** After the children the record triggers changed. */
  setTriggers(record: PatternRecord): void {
    this.staleTriggers.add(record);
  }

  /** After the record's depth changed (its trigger's entry for it holds it). */
  setDepth(record: PatternRecord): void {
    this.depthOf[record.slot] = record.depth;
    const trigger = record.trigger;
    if (!trigger) return;
    const at = this.entryOf(record.slot, trigger.slot);
    if (at >= 0) this.triggers.pool[at + ENTRY_DEPTH] = record.depth;
    else {
      this.entryStale[record.slot] = this.flushStamp;
      this.staleTriggers.add(trigger);
    }
  }

  /**
   * Where the trigger entry of `slot` starts in `triggers.pool`, or -1 for a root: it lists the slot's parents,
   * at ENTRY_PARENTS + 1 on, the trigger last. Valid after a flush.
   */
  parentEntry(slot: number): number {
    const trigger = this.entryIn[slot] - 1;
    return trigger >= 0 ? this.entryOf(slot, trigger) : -1;
  }

  /** Where the entry of `slot` is in the pool, when `trigger`'s list holds one (-1: it does not). */
  private entryOf(slot: number, trigger: number): number {
    if (this.entryIn[slot] !== trigger + 1) return -1;
    const offset = this.entryAt[slot];
    const at = this.triggers.start[trigger] + offset;
    return offset < this.triggers.count[trigger] && this.triggers.pool[at] === slot ? at : -1;
  }

  /** Rewrites the lists changes have touched since the last flush (records deleted meanwhile have no slot). */
  flush(): void {
    if (this.staleTriggers.size > 0) {
      for (const record of this.staleTriggers) if (record.slot >= 0) this.triggers.set(record.slot, this.triggerEntries(record), values.count);
      this.staleTriggers.clear();
      if (++this.flushStamp === LAST_EPOCH) {
        this.entryStale.fill(0);
        this.triggerMoved.fill(0);
        this.flushStamp = 1;
      }
    }
  }

  /** Where the plan of the pattern in `slot` starts in `plans` (read `plans` after this: it may grow). */
  planOffset(slot: number): number {
    const at = this.planAt[slot] - 1;
    return at >= 0 ? at : this.compile(slot);
  }

  private compile(slot: number): number {
    const plan = compilePlan(this.records[slot]!.pattern as GraphPattern);
    if (this.plansUsed + plan.length > this.plans.length) {
      if (this.plansAbandoned * 2 > this.plansUsed) this.compactPlans();
      if (this.plansUsed + plan.length > this.plans.length) {
        const plans = new Uint8Array(Math.max(2 * this.plans.length, this.plansUsed + plan.length));
        plans.set(this.plans.subarray(0, this.plansUsed));
        this.plans = plans;
      }
    }
    const at = this.plansUsed;
    this.plans.set(plan, at);
    this.plansUsed += plan.length;
    this.planAt[slot] = at + 1;
    return at;
  }

  /** Packs the plans of the patterns still here to the front of the store. */
  private compactPlans(): void {
    const plans = new Uint8Array(this.plans.length);
    let used = 0;
    for (let slot = 0; slot < this.records.length; slot++) {
      const at = this.planAt[slot] - 1;
      if (at < 0) continue;
      const length = planLength(this.plans, at);
      plans.set(this.plans.subarray(at, at + length), used);
      this.planAt[slot] = used + 1;
      used += length;
    }
    this.plans = plans;
    this.plansUsed = used;
    this.plansAbandoned = 0;
  }

  /** The stamp of a new retrieval. */
  nextEpoch(): number {
    if (this.epoch === LAST_EPOCH) {
      this.matchedEpoch.fill(0);
      this.childMatchedEpoch.fill(0);
      this.epoch = 0;
    }
    return ++this.epoch;
  }

  private grow(capacity: number): void {
    this.matchedEpoch = resized(this.matchedEpoch, capacity);
    this.childMatchedEpoch = resized(this.childMatchedEpoch, capacity);
    this.matchedBits = resized(this.matchedBits, capacity);
    this.childMatchedBits = resized(this.childMatchedBits, capacity);
    this.matchCount = resized(this.matchCount, capacity);
    const countedFrom = new Float64Array(capacity);
    countedFrom.set(this.countedFrom);
    this.countedFrom = countedFrom;
    this.planAt = resized(this.planAt, capacity);
    this.depthOf = resized(this.depthOf, capacity);
    this.entryAt = resized(this.entryAt, capacity);
    this.entryIn = resized(this.entryIn, capacity);
    this.entryStale = resized(this.entryStale, capacity);
    this.triggerMoved = resized(this.triggerMoved, capacity);
    this.triggers.grow(capacity);
  }

  /** The index of these graph records, their links complete (after loading). */
  static build(records: Iterable<PatternRecord>): FlatHierarchy {
    const all = [...records];
    const flat = FlatHierarchy.withSlots(all);
    flat.setLists(all);
    return flat;
  }

  /** An index giving these records slots 0, 1, ... in order, with no lists yet (setLists writes them). */
  static withSlots(records: readonly PatternRecord[]): FlatHierarchy {
    const flat = new FlatHierarchy();
    flat.grow(Math.max(1024, records.length));
    for (const record of records) flat.add(record);
    return flat;
  }

  /**
   * The trigger entries of a record, in `values`: for each child it triggers, [child slot, its depth, k, its
   * k - 1 other parents, this record]. A wide insert changes a few entries each of a hundred lists, some of them
   * thousands of entries long, and reading every child's record for them was most of its time. So the record's
   * current list is walked instead: the entries of children whose trigger did not change stay, in order (copied,
   * or written afresh when their parents changed), and the children that came since follow; they are the end of
   * the record's list, since a child whose trigger changes leaves its old list and goes to the end of the new one.
   */
  private triggerEntries(record: PatternRecord): Int32Array {
    values.count = 0;
    const slot = record.slot;
    const { pool, start, count } = this.triggers;
    const stamp = this.flushStamp;
    let kept = 0;
    let lastKept = -1;
    for (let at = start[slot], end = at + count[slot]; at < end; at += ENTRY_PARENTS + 1 + pool[at + ENTRY_PARENTS]) {
      const child = pool[at];
      if (this.triggerMoved[child] === stamp) continue;
      const written = values.count;
      if (this.entryStale[child] !== stamp) {
        for (let i = at, entryEnd = at + ENTRY_PARENTS + 1 + pool[at + ENTRY_PARENTS]; i < entryEnd; i++) pushValue(pool[i]);
      } else {
        const childRecord = this.records[child];
        if (!childRecord) return this.allTriggerEntries(record);
        pushEntry(childRecord, record);
      }
      this.entryAt[child] = written;
      this.entryIn[child] = slot + 1;
      kept++;
      lastKept = child;
    }
    const triggers = record.triggers;
    // What the walk kept must be the start of the record's list; anything else means a change this index was not
    // told of, and the list is written from the records.
    if (kept > triggers.length || (kept > 0 && triggers[kept - 1].slot !== lastKept)) return this.allTriggerEntries(record);
    for (let i = kept; i < triggers.length; i++) {
      this.entryAt[triggers[i].slot] = values.count;
      this.entryIn[triggers[i].slot] = slot + 1;
      pushEntry(triggers[i], record);
    }
    return values.slots;
  }

  /** The trigger entries of a record, each written from its child's record. */
  private allTriggerEntries(record: PatternRecord): Int32Array {
    values.count = 0;
    for (const child of record.triggers) {
      this.entryAt[child.slot] = values.count;
      this.entryIn[child.slot] = record.slot + 1;
      pushEntry(child, record);
    }
    return values.slots;
  }

  /** Writes the parent and trigger lists of these records, once their depths and triggers are final. */
  setLists(records: readonly PatternRecord[]): void {
    for (const record of records) {
      this.depthOf[record.slot] = record.depth;
      this.triggers.set(record.slot, this.triggerEntries(record), values.count);
    }
  }
}
