/**
 * Forgetting (reference section 8). A pattern's utility grows with how extreme its weight is (it says
 * something), how often it was updated (it is trusted) and how recently it was used; it shrinks with size
 * (specific patterns match rarely) and with its average weight change per update (it is unstable).
 * Patterns younger than `minAge` games are never judged. Decided: seeds and material patterns are protected:
 * seeds are the roots retrieval starts from, and material patterns are few (one per material vector).
 */
import type { PatternRecord } from '../store/patternRecord.ts';

export interface DeletionConfig {
  enabled: boolean;
  threshold: number;
  minAge: number;
  cap: number;
}

export function isProtected(record: PatternRecord): boolean {
  return record.kind === 'material' || record.origin === 'seed';
}

/**
 * The part of a pattern's utility that changes only when the pattern itself does (learning, not the passing
 * games): utility = intrinsicUtility x recency, so patterns last used in the same game keep their order.
 */
export function intrinsicUtility(record: PatternRecord): number {
  const extremeness = Math.abs(record.weight - 0.5) * 2;
  const confidence = record.updates / (record.updates + 10);
  const instability = record.updates > 0 ? record.variance / record.updates : 0;
  const sizeCost = 1 + 0.1 * record.size;
  return ((0.1 + extremeness) * (0.1 + confidence)) / (sizeCost * (1 + 2 * instability));
}

/** The game a pattern was last used in (its creation if never). */
function lastUsed(record: PatternRecord): number {
  return record.lastUsedGame ?? record.createdGame;
}

function recency(lastUsedGame: number, gamesPlayed: number): number {
  return 1 / (1 + Math.max(0, gamesPlayed - lastUsedGame) / 50);
}

export function utility(record: PatternRecord, gamesPlayed: number): number {
  return intrinsicUtility(record) * recency(lastUsed(record), gamesPlayed);
}

/** Whether deletion judges a pattern after game `gamesPlayed` (protected and young patterns are never judged). */
function judged(record: PatternRecord, gamesPlayed: number, minAge: number): boolean {
  return !isProtected(record) && gamesPlayed - record.createdGame >= minAge;
}

/**
 * The patterns to delete after game `gamesPlayed`: those below the threshold, then the least useful over the cap
 * (ties by id). Scans every pattern: the reference that UtilityOrder must agree with.
 */
export function patternsToDelete(records: Iterable<PatternRecord>, total: number, gamesPlayed: number, config: DeletionConfig): PatternRecord[] {
  if (!config.enabled) return [];
  const candidates: { record: PatternRecord; utility: number }[] = [];
  for (const record of records) {
    if (judged(record, gamesPlayed, config.minAge)) candidates.push({ record, utility: utility(record, gamesPlayed) });
  }
  const doomed = candidates.filter((j) => j.utility < config.threshold);
  const remaining = total - doomed.length;
  if (remaining > config.cap) {
    const survivors = candidates
      .filter((j) => j.utility >= config.threshold)
      .sort((a, b) => a.utility - b.utility || a.record.id - b.record.id);
    doomed.push(...survivors.slice(0, remaining - config.cap));
  }
  return doomed.map((j) => j.record);
}

interface Entry {
  record: PatternRecord;
  intrinsic: number;
  lastUsed: number;
  /** The group holding it; null while it waits among the young (UtilityOrder.young). */
  group: Group | null;
}

/**
 * Patterns last used in one game, by intrinsic utility: within it, the utility order never changes. A game has
 * one group that learning appends to, and may have more: the patterns that came of age together (see `young`).
 */
interface Group {
  used: number;
  entries: Entry[];
  /** Entries before it are all superseded (deleted patterns gather at the low end): the merge starts here. */
  start: number;
  sorted: boolean;
  /** Entries superseded (the pattern changed or was deleted), dropped at the next compaction. */
  stale: number;
}

/**
 * A cursor into a group during the merge: its next entry, that entry's utility now, and its id for ties. Entries
 * of equal utility (equal after rounding, though their intrinsic utilities may differ in the last bit) are taken
 * as one run, in id order, so the merge breaks ties exactly as the scan does.
 */
interface Cursor {
  group: Group;
  /** Where the next run starts. */
  index: number;
  /** The rest of the current run, by decreasing id (the next one last). */
  run: Entry[];
  entry: Entry | null;
  utility: number;
  id: number;
}

/**
 * Deletion without scanning every pattern every game. Utility is intrinsic (changes only when a pattern is learned
 * into) times recency (the same for every pattern last used in the same game). So patterns are kept in groups by
 * the game they were last used in, each sorted by intrinsic utility, and the least useful patterns now come from
 * merging the groups' heads: the cost is the number of groups (distinct last-used games) and of patterns deleted,
 * not the database's size. The learner tells it about every pattern it changes, creates or deletes.
 */
export class UtilityOrder {
  /** Every group; the merge takes the heads of all of them. */
  private readonly groups = new Set<Group>();
  /** The group `track` appends to, by the game last used in. */
  private readonly open = new Map<number, Group>();
  private readonly current = new Map<PatternRecord, Entry>();
  /** Patterns it knows of, protected ones included: compared with the store's size to notice outside changes. */
  private known = new Set<PatternRecord>();
  /**
   * Patterns found too young to judge, by the game they were created in: out of their groups until they come of
   * age, so each is passed over once, not at every pass (a database growing by a hundred patterns a game holds
   * thousands of them, and passing over them was most of a pass at 100k patterns). Those that come of age in one
   * pass form new groups, one per game last used in, sorted once.
   */
  private readonly young = new Map<number, Entry[]>();

  constructor(records: Iterable<PatternRecord>) {
    for (const record of records) this.track(record);
  }

  get size(): number {
    return this.known.size;
  }

  /** A pattern created, or whose statistics changed. */
  track(record: PatternRecord): void {
    this.known.add(record);
    if (isProtected(record)) return;
    const old = this.current.get(record);
    const intrinsic = intrinsicUtility(record);
    const used = lastUsed(record);
    if (old && old.intrinsic === intrinsic && old.lastUsed === used) return;
    if (old?.group) old.group.stale++;
    let group = this.open.get(used);
    if (!group) {
      group = { used, entries: [], start: 0, sorted: true, stale: 0 };
      this.open.set(used, group);
      this.groups.add(group);
    }
    const entry: Entry = { record, intrinsic, lastUsed: used, group };
    this.current.set(record, entry);
    const last = group.entries.at(-1);
    if (last && compareEntries(last, entry) > 0) group.sorted = false;
    group.entries.push(entry);
  }

  /** Moves a pattern too young to judge (never a protected one: those are not tracked) out of its group. */
  private setAside(entry: Entry): void {
    entry.group!.stale++;
    const waiting: Entry = { record: entry.record, intrinsic: entry.intrinsic, lastUsed: entry.lastUsed, group: null };
    this.current.set(entry.record, waiting);
    const created = entry.record.createdGame;
    const list = this.young.get(created);
    if (list) list.push(waiting);
    else this.young.set(created, [waiting]);
  }

  /** Gives the patterns that have come of age by `gamesPlayed` groups again (new ones, sorted). */
  private admitYoung(gamesPlayed: number, minAge: number): void {
    let byUse: Map<number, Entry[]> | null = null;
    for (const [created, entries] of this.young) {
      if (gamesPlayed - created < minAge) continue;
      this.young.delete(created);
      for (const entry of entries) {
        if (this.current.get(entry.record) !== entry) continue;
        byUse ??= new Map();
        const list = byUse.get(entry.lastUsed);
        if (list) list.push(entry);
        else byUse.set(entry.lastUsed, [entry]);
      }
    }
    if (!byUse) return;
    for (const [used, entries] of byUse) {
      const group: Group = { used, entries: entries.sort(compareEntries), start: 0, sorted: true, stale: 0 };
      for (const entry of entries) entry.group = group;
      this.groups.add(group);
    }
  }

  /** A pattern deleted. */
  forget(record: PatternRecord): void {
    this.known.delete(record);
    const old = this.current.get(record);
    if (!old) return;
    this.current.delete(record);
    if (old.group) old.group.stale++;
  }

  /** What patternsToDelete would return for the same patterns (as a set; in increasing utility here). */
  patternsToDelete(total: number, gamesPlayed: number, config: DeletionConfig): PatternRecord[] {
    if (!config.enabled) return [];
    this.admitYoung(gamesPlayed, config.minAge);
    const heap: Cursor[] = [];
    for (const group of this.groups) {
      if (!this.tidy(group)) continue;
      const cursor: Cursor = { group, index: group.start, run: [], entry: null, utility: 0, id: 0 };
      if (this.advance(cursor, gamesPlayed, config.minAge)) heap.push(cursor);
    }
    heapify(heap);
    const doomed: PatternRecord[] = [];
    let overCap = -1; // unknown until the threshold's share is counted
    while (heap.length > 0) {
      const top = heap[0];
      if (top.utility >= config.threshold) {
        if (overCap < 0) overCap = total - doomed.length - config.cap;
        if (overCap <= 0) break;
        overCap--;
      }
      doomed.push(top.entry!.record);
      if (this.advance(top, gamesPlayed, config.minAge)) siftDown(heap, 0);
      else {
        heap[0] = heap[heap.length - 1];
        heap.pop();
        if (heap.length > 0) siftDown(heap, 0);
      }
    }
    return doomed;
  }

  /** Moves a cursor to its group's next live, judged entry in (utility, id) order; false at the end. */
  private advance(cursor: Cursor, gamesPlayed: number, minAge: number): boolean {
    if (cursor.run.length === 0) {
      const entries = cursor.group.entries;
      let runUtility = NaN;
      for (; cursor.index < entries.length; cursor.index++) {
        const entry = entries[cursor.index];
        if (this.current.get(entry.record) !== entry) continue;
        if (!judged(entry.record, gamesPlayed, minAge)) {
          this.setAside(entry);
          continue;
        }
        const value = entry.intrinsic * recency(entry.lastUsed, gamesPlayed);
        if (cursor.run.length > 0 && value !== runUtility) break;
        runUtility = value;
        cursor.run.push(entry);
      }
      if (cursor.run.length === 0) return false;
      cursor.run.sort((a, b) => b.record.id - a.record.id);
      cursor.utility = runUtility;
    }
    const entry = cursor.run.pop()!;
    cursor.entry = entry;
    cursor.id = entry.record.id;
    return true;
  }

  /**
   * Drops superseded entries once they are half a group, sorts a group that was appended out of order, and moves
   * the group's start past the superseded entries at its low end.
   */
  private tidy(group: Group): boolean {
    if (group.stale * 2 > group.entries.length - group.start) {
      group.entries = group.entries.filter((entry) => this.current.get(entry.record) === entry);
      group.start = 0;
      group.stale = 0;
      if (group.entries.length === 0) {
        this.groups.delete(group);
        if (this.open.get(group.used) === group) this.open.delete(group.used);
        return false;
      }
    }
    if (!group.sorted) {
      group.entries.sort(compareEntries);
      group.start = 0;
      group.sorted = true;
    }
    const live = (entry: Entry) => this.current.get(entry.record) === entry;
    while (group.start < group.entries.length && !live(group.entries[group.start])) {
      group.start++;
      group.stale--;
    }
    return true;
  }
}

function compareEntries(a: Entry, b: Entry): number {
  return a.intrinsic - b.intrinsic || a.record.id - b.record.id;
}

function before(a: Cursor, b: Cursor): boolean {
  return a.utility < b.utility || (a.utility === b.utility && a.id < b.id);
}

function heapify(heap: Cursor[]): void {
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, i);
}

function siftDown(heap: Cursor[], start: number): void {
  let i = start;
  for (;;) {
    const left = 2 * i + 1;
    const right = left + 1;
    let smallest = i;
    if (left < heap.length && before(heap[left], heap[smallest])) smallest = left;
    if (right < heap.length && before(heap[right], heap[smallest])) smallest = right;
    if (smallest === i) return;
    [heap[i], heap[smallest]] = [heap[smallest], heap[i]];
    i = smallest;
  }
}
