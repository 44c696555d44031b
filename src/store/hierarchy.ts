/**
 * The pattern hierarchy in memory (reference section 3): graph patterns ordered by subpattern-of, stored as its
 * transitive reduction (each pattern links to its immediate parents and children only). Material patterns are
 * kept beside it in a table keyed by their vector: a position matches exactly one of them.
 *
 * Pure data structure: no SQL. PatternStore (patternStore.ts) persists what changes here. Retrieval walks a compiled
 * copy of the links (flatHierarchy.ts), built after loading and told of every change made here.
 */
import { NO_RECORDS, PatternRecord, type RecordStats } from './patternRecord.ts';
import { canonicalKey } from '../pattern/canonical.ts';
import { isSubpattern } from '../pattern/subpattern.ts';
import type { GraphPattern, Pattern } from '../pattern/pattern.ts';
import { LABEL_COUNT } from '../graph/labels.ts';
import { RootIndex } from './rootIndex.ts';
import { ENTRY_PARENTS, FlatHierarchy } from './flatHierarchy.ts';
import { mostSpecificSubpatterns } from './retrieval.ts';
import { SUPERPATTERN_KEY_COUNT, patternFeatures, setSignature, superpatternFeatures } from './patternFeatures.ts';

/**
 * Cheap necessary condition for p <= q: q has at least p's nodes, edges and nodes of each label, and all its
 * exact nodes.
 */
function mayBeSubpattern(p: PatternRecord, q: PatternRecord): boolean {
  const pg = p.pattern as GraphPattern;
  const qg = q.pattern as GraphPattern;
  if (pg.labels.length > qg.labels.length || pg.edges.length > qg.edges.length) return false;
  return isSortedSubset(p.exactCodes, q.exactCodes) && labelsFit(pg.labels, qg.labels);
}

const labelSurplus = new Int8Array(LABEL_COUNT);

/** Has q at least p's number of nodes of each label? (Before the matcher lays q out as a target.) */
function labelsFit(p: readonly number[], q: readonly number[]): boolean {
  for (const label of q) labelSurplus[label]++;
  let fits = true;
  for (const label of p) if (--labelSurplus[label] < 0) fits = false;
  labelSurplus.fill(0);
  return fits;
}

function isSortedSubset(small: readonly number[], large: readonly number[]): boolean {
  let j = 0;
  for (let i = 0; i < small.length; i++) {
    while (j < large.length && large[j] < small[i]) j++;
    if (j === large.length || large[j] !== small[i]) return false;
    j++;
  }
  return true;
}

function subpatternOf(p: PatternRecord, q: PatternRecord): boolean {
  return mayBeSubpattern(p, q) && isSubpattern(p.pattern as GraphPattern, q.pattern as GraphPattern);
}

/** How unlikely a pattern is to match, for choosing triggers: exact squares first, then size. */
function rarity(record: PatternRecord): number {
  return record.exactCodes.length * 16 + record.size;
}

/**
 * Triggers are reviewed by how often patterns match once this many positions have been retrieved, then after
 * twice as many, and so on up to every TRIGGER_REVIEW_CAP: a long match or training run settles its triggers
 * early, and a review (a pass over every pattern, a few milliseconds at 100k) costs little against the
 * retrievals between two.
 */
const FIRST_TRIGGER_REVIEW = 2048;
const TRIGGER_REVIEW_CAP = 131072;
/** A parent's match rate counts once it has been in the hierarchy for this many retrievals (noise below). */
const TRIGGER_EVIDENCE = 1024;

/** Links created and removed by one change, so the store can persist exactly those. */
export interface LinkChanges {
  added: [PatternRecord, PatternRecord][];
  removed: [PatternRecord, PatternRecord][];
}

export class Hierarchy {
  readonly byId = new Map<number, PatternRecord>();
  readonly byKey = new Map<string, PatternRecord>();
  /** Graph patterns without parents: where retrieval starts. */
  readonly roots = new RootIndex();
  /** Material patterns by canonical key. */
  readonly material = new Map<string, PatternRecord>();
  /**
   * Graph patterns by each feature they have (superpatternFeatures): any superpattern of P has every feature of P,
   * so the patterns under P's rarest feature hold all of P's superpatterns. Lists drop deleted records lazily
   * (see `forgetFeatures`); `deadInFeature` counts them. Built on the first insert: a store opened to play never
   * needs it, and at 100k patterns it costs about half a second and 20 MB.
   */
  private byFeature: (FeatureList | undefined)[] | null = null;
  private readonly deadInFeature = new Int32Array(SUPERPATTERN_KEY_COUNT);
  /** The compiled index retrieval walks; null while loading (finishLoading builds it). */
  private flatIndex: FlatHierarchy | null = new FlatHierarchy();

  /** The compiled index of the graph patterns, with every link made so far. */
  get flat(): FlatHierarchy {
    return (this.flatIndex ??= FlatHierarchy.build(this.graphRecords()));
  }

  get size(): number {
    return this.byId.size;
  }

  graphRecords(): IterableIterator<PatternRecord> {
    return [...this.byId.values()].filter((r) => r.kind === 'graph').values();
  }

  /** Adds a record with known links (used when loading from the database). */
  addLoaded(record: PatternRecord): void {
    this.dropIndexes();
    this.addRecord(record);
  }

  private addRecord(record: PatternRecord): void {
    this.byId.set(record.id, record);
    this.byKey.set(record.key, record);
    if (record.kind === 'material') {
      this.material.set(record.key, record);
      return;
    }
    // A slot first: the feature lists note it (none while loading: finishLoading gives every slot).
    this.flatIndex?.add(record);
    if (this.byFeature) this.indexFeatures(this.byFeature, record);
  }

  private indexFeatures(byFeature: (FeatureList | undefined)[], record: PatternRecord): void {
    const features = superpatternFeatures(record.pattern as GraphPattern);
    setSignature(record, features);
    for (const key of features) (byFeature[key] ??= new FeatureList()).push(record);
  }

  private featureIndex(): (FeatureList | undefined)[] {
    if (!this.byFeature) {
      // Gathered in plain arrays first, so each list's signatures are allocated once, at their size.
      const lists: (PatternRecord[] | undefined)[] = new Array(SUPERPATTERN_KEY_COUNT).fill(undefined);
      for (const record of this.byId.values()) {
        if (record.kind !== 'graph') continue;
        // A store that inserts compares patterns on every insert and delete: parsing keys each time would cost.
        record.holdPattern();
        const features = superpatternFeatures(record.pattern as GraphPattern);
        setSignature(record, features);
        for (const key of features) (lists[key] ??= []).push(record);
      }
      this.byFeature = lists.map((records) => records && new FeatureList(records));
    }
    return this.byFeature;
  }

  /** Drops the compiled index, and the feature lists that note its slots (both are built again when needed). */
  private dropIndexes(): void {
    this.flatIndex = null;
    if (!this.byFeature) return;
    this.byFeature = null;
    this.deadInFeature.fill(0);
  }

  /** A deleted record stays in its feature lists until a list is half dead, then that list is compacted. */
  private forgetFeatures(record: PatternRecord): void {
    if (!this.byFeature) return;
    for (const key of superpatternFeatures(record.pattern as GraphPattern)) {
      const list = this.byFeature[key]!;
      if (++this.deadInFeature[key] * 2 <= list.length) continue;
      list.keepLive();
      this.deadInFeature[key] = 0;
    }
  }

  /**
   * Adds the loaded links, `pairs` = [parent id, child id, ...] (records added with addLoaded). Each record's
   * parent and child lists are made at their exact size: grown link by link, an array keeps room for 17 entries
   * (about 100 bytes each, a tenth of a loaded database's memory).
   */
  linkAllLoaded(pairs: Int32Array, badLink: (parent: number, child: number) => Error): void {
    this.dropIndexes();
    const records = [...this.byId.values()];
    const indexOfId = recordIndexById(records);
    const ends = new Int32Array(pairs.length);
    const childCount = new Int32Array(records.length);
    const parentCount = new Int32Array(records.length);
    for (let i = 0; i < pairs.length; i += 2) {
      const parent = indexOfId(pairs[i]);
      const child = indexOfId(pairs[i + 1]);
      if (parent < 0 || child < 0) throw badLink(pairs[i], pairs[i + 1]);
      ends[i] = parent;
      ends[i + 1] = child;
      childCount[parent]++;
      parentCount[child]++;
    }
    for (let i = 0; i < records.length; i++) {
      if (childCount[i] > 0) records[i].children = new Array<PatternRecord>(childCount[i]);
      if (parentCount[i] > 0) records[i].parents = new Array<PatternRecord>(parentCount[i]);
    }
    childCount.fill(0);
    parentCount.fill(0);
    for (let i = 0; i < ends.length; i += 2) {
      const parent = records[ends[i]];
      const child = records[ends[i + 1]];
      parent.children[childCount[ends[i]]++] = child;
      child.parents[parentCount[ends[i + 1]]++] = parent;
    }
  }

  /** Recomputes roots, depths and triggers after loading, and builds the compiled index. */
  finishLoading(): void {
    this.roots.clear();
    const loaded = [...this.graphRecords()];
    for (const record of loaded) this.retrigger(record);
    const graphs = inTriggerOrder(loaded);
    const flat = FlatHierarchy.withSlots(graphs);
    // Depths in topological order (Kahn): each pattern one deeper than its deepest parent.
    const waiting = new Int32Array(graphs.length);
    const ready: PatternRecord[] = [];
    for (const record of graphs) {
      if (record.parents.length === 0) {
        this.roots.add(record);
        ready.push(record);
      } else waiting[record.slot] = record.parents.length;
    }
    while (ready.length) {
      const record = ready.pop()!;
      for (const child of record.children) {
        if (child.depth <= record.depth) child.depth = record.depth + 1;
        if (--waiting[child.slot] === 0) ready.push(child);
      }
    }
    for (const record of graphs) if (record.triggers.length > 0) record.triggers = record.triggers.slice(); // exact size
    flat.setLists(graphs);
    this.flatIndex = flat;
  }

  private nextTriggerReview = FIRST_TRIGGER_REVIEW;
  /** Trigger reviews run after a retrieval so far (benchmarks tell the retrievals that ran one apart). */
  triggerReviewsRun = 0;

  /** After each position's retrieval (retrieval.ts): reviews the triggers when it is time. */
  afterRetrieval(): void {
    const flat = this.flatIndex;
    if (!flat || flat.retrievals < this.nextTriggerReview) return;
    this.nextTriggerReview = flat.retrievals + Math.min(TRIGGER_REVIEW_CAP, flat.retrievals);
    this.triggerReviewsRun++;
    this.reviewTriggers();
  }

  /**
   * Makes each pattern's trigger the parent that matched the fewest of the positions retrieved, where every
   * parent has been seen for at least `evidence` retrievals; ties keep the current trigger. A child is put up
   * for testing whenever its trigger matches, and most fail because another parent did not (86% at 100k trained
   * patterns): a parent's shape (rarity) guesses which parent matches least, the counts measure it, and on
   * trained databases they put up about half as many children (docs/scaling.md). Returns how many triggers moved.
   * Any parent is a correct trigger (a child is tested only once all its parents matched), so results are the
   * same patterns; only the order retrieval returns them in can change.
   */
  reviewTriggers(evidence = TRIGGER_EVIDENCE): number {
    const flat = this.flat;
    flat.flush();
    const moved: PatternRecord[] = [];
    const movedTo: PatternRecord[] = [];
    // Read from the compiled index's trigger entries, which list each child's parents with its trigger last: a
    // pass over typed arrays, where the records' parent lists are scattered objects (5-6 ms against 12-15 at
    // 100k patterns, measured when nothing moves).
    const pool = flat.triggers.pool;
    for (let slot = 0; slot < flat.slotCount; slot++) {
      const at = flat.parentEntry(slot);
      if (at < 0) continue;
      const count = pool[at + ENTRY_PARENTS];
      if (count < 2) continue;
      const first = at + ENTRY_PARENTS + 1;
      const trigger = pool[first + count - 1];
      let best = trigger;
      let bestRate = flat.matchRate(trigger, evidence);
      if (bestRate < 0) continue;
      let judged = true;
      for (let i = first; i < first + count - 1; i++) {
        const rate = flat.matchRate(pool[i], evidence);
        if (rate < 0) {
          judged = false;
          break;
        }
        if (rate < bestRate) {
          best = pool[i];
          bestRate = rate;
        }
      }
      if (!judged || best === trigger) continue;
      moved.push(flat.records[slot]!);
      movedTo.push(flat.records[best]!);
    }
    if (moved.length === 0) return 0;
    // As in retrigger: a moved child leaves its old trigger's list, keeping the order of the rest, and goes to the
    // end of its new trigger's list (the order flatHierarchy.ts triggerEntries rewrites lists in).
    const losing = new Set<PatternRecord>();
    for (const record of moved) {
      flat.setTrigger(record);
      losing.add(record.trigger!);
    }
    for (let i = 0; i < moved.length; i++) moved[i].trigger = movedTo[i];
    for (const previous of losing) {
      previous.triggers = previous.triggers.filter((child) => child.trigger === previous);
      flat.setTriggers(previous);
    }
    for (let i = 0; i < moved.length; i++) {
      const best = movedTo[i];
      if (best.triggers === NO_RECORDS) best.triggers = [];
      best.triggers.push(moved[i]);
      flat.setTriggers(best);
    }
    flat.flush();
    return moved.length;
  }

  /** Chooses the record's trigger parent again after its parents changed. */
  private retrigger(record: PatternRecord): void {
    let best: PatternRecord | null = null;
    for (const parent of record.parents) if (!best || rarity(parent) > rarity(best)) best = parent;
    if (best === record.trigger) return;
    this.flatIndex?.setTrigger(record);
    const previous = record.trigger;
    if (previous) {
      previous.triggers.splice(previous.triggers.indexOf(record), 1);
      this.flatIndex?.setTriggers(previous);
    }
    record.trigger = best;
    if (best) {
      // Most patterns trigger nothing: they share one empty list until their first trigger child.
      if (best.triggers === NO_RECORDS) best.triggers = [];
      best.triggers.push(record);
      this.flatIndex?.setTriggers(best);
    }
  }

  /** Keeps every child deeper than its parents after a new link. */
  private deepen(record: PatternRecord, depth: number): void {
    if (record.depth >= depth) return;
    record.depth = depth;
    this.flatIndex?.setDepth(record);
    for (const child of record.children) this.deepen(child, depth + 1);
  }

  /**
   * Inserts a pattern under its most specific existing subpatterns and above its most general existing
   * superpatterns, removing links that become transitive. An existing pattern (same canonical key) is returned
   * unchanged with `created` false. A caller that has the canonical key already passes it (it costs).
   */
  insert(
    pattern: Pattern,
    id: number,
    stats: Partial<RecordStats> = {},
    changes: LinkChanges = { added: [], removed: [] },
    key = canonicalKey(pattern),
  ): { record: PatternRecord; created: boolean; changes: LinkChanges } {
    const existing = this.byKey.get(key);
    if (existing) return { record: existing, created: false, changes };
    const record = new PatternRecord(id, key, pattern, stats);
    const flat = this.flat; // built (if it must be) before the new record joins the maps
    this.featureIndex(); // after the compiled index: it notes each record's slot
    this.addRecord(record);
    if (pattern.kind === 'material') return { record, created: true, changes };

    const parents = mostSpecificSubpatterns(this, record, patternFeatures(pattern));
    const children = this.mostGeneralSuperpatterns(record, superpatternFeatures(pattern));
    for (const parent of parents) {
      let removed = 0;
      for (const child of children) {
        // The child's parent list is the short side of the link.
        if (child.parents.includes(parent)) {
          this.unlinkChild(parent, child);
          changes.removed.push([parent, child]);
          removed++;
        }
      }
      // A parent can have thousands of children: they leave its list together, in one pass.
      if (removed > 0) removeAll(parent.children, changes.removed, changes.removed.length - removed);
      this.link(parent, record);
      changes.added.push([parent, record]);
    }
    for (const child of children) {
      this.link(record, child);
      changes.added.push([record, child]);
    }
    if (parents.length === 0) this.roots.add(record);
    flat.flush();
    return { record, created: true, changes };
  }

  /** Removes a pattern, re-linking each parent to each child unless another path already connects them. */
  delete(record: PatternRecord, changes: LinkChanges = { added: [], removed: [] }): LinkChanges {
    this.byId.delete(record.id);
    this.byKey.delete(record.key);
    record.deleted = true;
    if (record.kind === 'material') {
      this.material.delete(record.key);
      return changes;
    }
    this.forgetFeatures(record);
    const parents = [...record.parents];
    const children = [...record.children];
    for (const parent of parents) {
      this.unlink(parent, record);
      changes.removed.push([parent, record]);
    }
    for (const child of children) {
      this.unlink(record, child);
      changes.removed.push([record, child]);
    }
    this.roots.delete(record);
    for (const child of children) {
      for (const parent of parents) {
        // parent -> child is needed unless parent is below another of child's parents (then it is transitive).
        const implied = child.parents.some((other) => other !== parent && subpatternOf(parent, other));
        if (!implied) {
          this.link(parent, child);
          changes.added.push([parent, child]);
        }
      }
      if (child.parents.length === 0) this.roots.add(child);
    }
    this.flatIndex?.remove(record);
    this.flatIndex?.flush();
    return changes;
  }

  private link(parent: PatternRecord, child: PatternRecord): void {
    parent.children.push(child);
    child.parents.push(parent);
    this.flatIndex?.setParents(child);
    this.roots.delete(child);
    this.deepen(child, parent.depth + 1);
    this.retrigger(child);
  }

  private unlink(parent: PatternRecord, child: PatternRecord): void {
    parent.children.splice(parent.children.indexOf(child), 1);
    this.unlinkChild(parent, child);
  }

  /** Unlinks `child` from `parent`'s side only: the caller takes it out of `parent.children`. */
  private unlinkChild(parent: PatternRecord, child: PatternRecord): void {
    child.parents.splice(child.parents.indexOf(parent), 1);
    this.flatIndex?.setParents(child);
    this.retrigger(child);
  }

  /**
   * The existing patterns above `record` none of whose parents are also above it. Candidates: the patterns
   * under record's rarest feature (they hold every superpattern), less those whose feature signature lacks one
   * of record's bits. They are decided in order of depth, so a candidate with a parent already known to be
   * above is above too, and not most general, without a test. A generalisation can have ten thousand
   * candidates: they are read from the compiled index by slot (depth, parents, a stamp), not from their records.
   */
  private mostGeneralSuperpatterns(record: PatternRecord, features: readonly number[]): PatternRecord[] {
    const byFeature = this.featureIndex();
    const flat = this.flat;
    let list = byFeature[features[0]]!;
    for (const key of features) if (byFeature[key]!.length < list.length) list = byFeature[key]!;
    const { signature0: s0, signature1: s1, signature2: s2, signature3: s3 } = record;
    const { records: listed, signatures, slots } = list;
    const inSlot = flat.records;
    const depthOf = flat.depthOf;
    for (let i = 0, at = 0; i < list.length; i++, at += 4) {
      const missing = (s0 & ~signatures[at]) | (s1 & ~signatures[at + 1]) | (s2 & ~signatures[at + 2]) | (s3 & ~signatures[at + 3]);
      if (missing !== 0) continue;
      const slot = slots[i];
      // A deleted pattern stays listed until its list is compacted, and its slot may hold another pattern since.
      if (slot === record.slot || inSlot[slot] !== listed[i]) continue;
      pushAtDepth(depthOf[slot], slot);
    }
    // Superpatterns found so far carry this search's stamp (the compiled index's retrieval stamps, reused).
    const stamp = flat.nextEpoch();
    const above = flat.matchedEpoch;
    const entries = flat.triggers.pool;
    const mostGeneral: PatternRecord[] = [];
    for (let depth = 0; depth < bucketCounts.length; depth++) {
      const bucket = depthBuckets[depth];
      for (let i = 0, n = bucketCounts[depth]; i < n; i++) {
        const slot = bucket[i];
        let parentAbove = false;
        const entry = flat.parentEntry(slot);
        if (entry >= 0) {
          for (let p = entry + ENTRY_PARENTS + 1, end = p + entries[entry + ENTRY_PARENTS]; p < end && !parentAbove; p++) parentAbove = above[entries[p]] === stamp;
        }
        if (parentAbove) above[slot] = stamp;
        else if (subpatternOf(record, inSlot[slot]!)) {
          above[slot] = stamp;
          mostGeneral.push(inSlot[slot]!);
        }
      }
      bucketCounts[depth] = 0;
    }
    return mostGeneral;
  }
}

/**
 * Each record's index in `records`, by id (-1: none). Ids are SQLite's rowids, dense enough for an array indexed
 * by id: a Map lookup per link end cost a tenth of the load time.
 */
function recordIndexById(records: readonly PatternRecord[]): (id: number) => number {
  let maxId = 0;
  for (const record of records) if (record.id > maxId) maxId = record.id;
  const byId = new Int32Array(maxId + 1).fill(-1);
  records.forEach((record, i) => (byId[record.id] = i));
  return (id) => (id >= 0 && id <= maxId ? byId[id] : -1);
}

/**
 * The graph patterns that have one feature, each with its feature signature beside it in one Int32Array: the
 * superpattern search reads every signature of a list and few of its records (about a tenth of the time of an
 * insert at 100k patterns went to fetching each candidate record's signature from the heap).
 */
class FeatureList {
  signatures: Int32Array;
  /** Each listed record's slot in the compiled index (FlatHierarchy), beside it. */
  slots: Int32Array;

  constructor(readonly records: PatternRecord[] = []) {
    // Room to grow by an eighth: built at its exact size, every list a new pattern joined doubled on the first
    // inserts after loading (up to a hundred milliseconds for one insert at 100k patterns).
    const room = Math.max(4, records.length + (records.length >> 3));
    this.signatures = new Int32Array(room * 4);
    this.slots = new Int32Array(room);
    records.forEach((record, i) => this.write(i, record));
  }

  get length(): number {
    return this.records.length;
  }

  push(record: PatternRecord): void {
    const i = this.records.length;
    if (i === this.slots.length) {
      const signatures = new Int32Array(this.signatures.length * 2);
      signatures.set(this.signatures);
      this.signatures = signatures;
      const slots = new Int32Array(this.slots.length * 2);
      slots.set(this.slots);
      this.slots = slots;
    }
    this.records.push(record);
    this.write(i, record);
  }

  /** Drops deleted records. */
  keepLive(): void {
    let kept = 0;
    for (const record of this.records) {
      if (record.deleted) continue;
      this.records[kept] = record;
      this.write(kept, record);
      kept++;
    }
    this.records.length = kept;
  }

  private write(i: number, record: PatternRecord): void {
    this.slots[i] = record.slot;
    const at = i * 4;
    this.signatures[at] = record.signature0;
    this.signatures[at + 1] = record.signature1;
    this.signatures[at + 2] = record.signature2;
    this.signatures[at + 3] = record.signature3;
  }
}


/** Removes from `list` the children of links[from..] (in place, keeping the order of the rest). */
function removeAll(list: PatternRecord[], links: [PatternRecord, PatternRecord][], from: number): void {
  const gone = new Set<PatternRecord>();
  for (let i = from; i < links.length; i++) gone.add(links[i][1]);
  let kept = 0;
  for (const record of list) if (!gone.has(record)) list[kept++] = record;
  list.length = kept;
}

/** Scratch for mostGeneralSuperpatterns: candidates' slots by depth (emptied after each use). */
const depthBuckets: Int32Array[] = [];
const bucketCounts: number[] = [];

function pushAtDepth(depth: number, slot: number): void {
  while (depthBuckets.length <= depth) {
    depthBuckets.push(new Int32Array(64));
    bucketCounts.push(0);
  }
  const count = bucketCounts[depth];
  if (count === depthBuckets[depth].length) {
    const bigger = new Int32Array(2 * count);
    bigger.set(depthBuckets[depth]);
    depthBuckets[depth] = bigger;
  }
  depthBuckets[depth][count] = slot;
  bucketCounts[depth] = count + 1;
}

/**
 * Graph records in the order their slots are given at load: the roots, then breadth first along the trigger
 * lists, so that the children one match puts up for testing sit in neighbouring slots, and a retrieval's reads
 * of their stamps and plans share cache lines (retrieval waits on memory).
 */
function inTriggerOrder(records: readonly PatternRecord[]): PatternRecord[] {
  const order: PatternRecord[] = [];
  for (const record of records) if (record.parents.length === 0) order.push(record);
  for (let next = 0; next < order.length; next++) for (const child of order[next].triggers) order.push(child);
  // Every other pattern's trigger is a parent, so all are reached; an order is no reason to fail a load if not.
  if (order.length < records.length) {
    const placed = new Set(order);
    for (const record of records) if (!placed.has(record)) order.push(record);
  }
  return order;
}
