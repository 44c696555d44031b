/**
 * The pattern database: the in-memory hierarchy (hierarchy.ts) loaded from SQLite at start, and every change
 * written through to SQLite. Callers group the changes of one game in `transaction`, so a crash loses at most
 * the game in progress.
 */
import {
  deleteChildLinks,
  deleteLink,
  deletePatternRow,
  insertChildLinks,
  insertParentLinks,
  insertPatternRow,
  loadLinkPairs,
  eachPatternKeyAndStats,
  updatePatternStats,
  type PatternOrigin,
} from './patternRows.ts';
import { closeMorphDatabase, inSnapshot, openMorphDatabase, type MorphDatabase, type OpenOptions } from './database.ts';
import { Hierarchy, type LinkChanges } from './hierarchy.ts';
import { PatternRecord, type RecordStats } from './patternRecord.ts';
import { mostSpecificMatches, type Retrieval } from './retrieval.ts';
import { canonicalKey, transientPatternFromKey } from '../pattern/canonical.ts';
import { patternSize, patternToJson, validatePattern, type Pattern } from '../pattern/pattern.ts';
import type { PositionGraph } from '../graph/positionGraph.ts';
import { BAD_INPUT, MorphError } from '../util/errors.ts';
import { getMetaNumber } from './meta.ts';
import { openDatabaseOfKind, requireDatabaseKind, type DatabaseKind } from './databaseKind.ts';

export class PatternStore {
  /** How many `transaction` calls are running (the outermost writes the pending links before it commits). */
  private depth = 0;
  /**
   * Link changes made by inserts and not yet written, net of what SQLite holds: by parent id, then child id, true
   * to add and false to remove. Written by the outermost `transaction` before it commits, in one statement per
   * parent: a learner's game inserts dozens of patterns, some above a hundred others, and one statement per
   * link per insert was most of a wide insert's time; links added and removed within the game cost nothing.
   */
  private readonly pendingLinks = new Map<number, Map<number, boolean>>();

  private constructor(
    readonly db: MorphDatabase,
    private loaded: Hierarchy,
    readonly path: string,
    readonly readonly: boolean,
  ) {}

  /** The hierarchy in memory: always what the database holds, outside a transaction in progress. */
  get hierarchy(): Hierarchy {
    return this.loaded;
  }

  /**
   * Opens (creating when allowed) the database at `path` and loads the whole hierarchy into memory. A database
   * of another kind (databaseKind.ts; default: a value database) is refused before anything is written to it.
   */
  static open(path: string, options: OpenOptions & { kind?: DatabaseKind } = {}): PatternStore {
    const db = openDatabaseOfKind(path, options.kind ?? 'value', options);
    try {
      return new PatternStore(db, loadHierarchy(db, path), path, options.readonly ?? false);
    } catch (error) {
      closeMorphDatabase(db);
      throw error;
    }
  }

  /**
   * Opens a read-only snapshot of the database for a game worker (`morph train --jobs N`), with the number of
   * games learned in what was loaded, read in the same read transaction (so it names the weights exactly).
   */
  static openSnapshot(path: string): { store: PatternStore; gamesLearned: number } {
    const db = openMorphDatabase(path, { readonly: true, quickCheck: false });
    try {
      requireDatabaseKind(db, path, 'value');
      const { hierarchy, gamesLearned } = inSnapshot(db, () => ({
        hierarchy: loadHierarchyRows(db, path),
        gamesLearned: getMetaNumber(db, 'games_played') ?? 0,
      }));
      return { store: new PatternStore(db, hierarchy, path, true), gamesLearned };
    } catch (error) {
      closeMorphDatabase(db);
      throw error;
    }
  }

  close(): void {
    closeMorphDatabase(this.db);
  }

  get size(): number {
    return this.hierarchy.size;
  }

  /**
   * Runs `fn` in one SQLite transaction (nested calls join the outer one). When the outermost transaction
   * fails, SQLite rolls it back and the hierarchy is reloaded from the database, so memory never keeps
   * changes the file does not have (weights moved, patterns added or deleted before the failure).
   */
  transaction<T>(fn: () => T): T {
    const outermost = !this.db.inTransaction;
    const outermostHere = this.depth === 0;
    this.depth++;
    try {
      return this.db.transaction(() => {
        const result = fn();
        if (outermostHere) this.writePendingLinks();
        return result;
      })();
    } catch (error) {
      if (outermostHere) this.pendingLinks.clear();
      if (outermost && this.db.open) this.loaded = loadHierarchy(this.db, this.path);
      throw error;
    } finally {
      this.depth--;
    }
  }

  retrieve(graph: PositionGraph): Retrieval {
    return mostSpecificMatches(this.hierarchy, graph);
  }

  byKey(pattern: Pattern): PatternRecord | undefined {
    return this.hierarchy.byKey.get(canonicalKey(pattern));
  }

  /** Inserts a pattern (a no-op returning the existing record when its canonical key is present). */
  insert(
    pattern: Pattern,
    origin: PatternOrigin,
    createdGame: number,
    stats: Partial<RecordStats> = {},
  ): { record: PatternRecord; created: boolean } {
    const key = canonicalKey(pattern);
    const existing = this.hierarchy.byKey.get(key);
    if (existing) return { record: existing, created: false };
    return this.transaction(() => {
      const weight = stats.weight ?? 0.5;
      const id = insertPatternRow(this.db, {
        kind: pattern.kind,
        key,
        body: patternToJson(pattern),
        size: patternSize(pattern),
        origin,
        createdGame,
        weight,
        updates: stats.updates ?? 0,
        variance: stats.variance ?? 0,
        uses: stats.uses ?? 0,
        lastUsedGame: stats.lastUsedGame ?? null,
      });
      const { record, changes } = this.hierarchy.insert(pattern, id, { ...stats, weight, origin, createdGame }, undefined, key);
      for (const [parent, child] of changes.removed) this.changeLink(parent.id, child.id, false);
      for (const [parent, child] of changes.added) this.changeLink(parent.id, child.id, true);
      return { record, created: true };
    });
  }

  delete(record: PatternRecord): void {
    this.transaction(() => {
      // Pending links may name this pattern, and SQLite may give its id to the next insert: written first.
      this.writePendingLinks();
      const changes = this.hierarchy.delete(record);
      deletePatternRow(this.db, record.id); // cascades its own links
      this.writeLinkChanges({ added: changes.added, removed: [] });
    });
  }

  /** Writes a record's learning statistics. */
  saveStats(record: PatternRecord): void {
    updatePatternStats(this.db, record.id, record);
  }

  /** Notes a link added (true) or removed (false), cancelling a pending opposite change of the same link. */
  private changeLink(parent: number, child: number, add: boolean): void {
    let children = this.pendingLinks.get(parent);
    if (!children) this.pendingLinks.set(parent, (children = new Map()));
    if (children.get(child) === !add) children.delete(child);
    else children.set(child, add);
  }

  /** Writes the pending link changes: removals, then additions, one statement per parent and kind. */
  private writePendingLinks(): void {
    if (this.pendingLinks.size === 0) return;
    const parents = [...this.pendingLinks.keys()].sort((a, b) => a - b);
    const added: number[][] = [];
    for (const parent of parents) {
      const removed: number[] = [];
      const adding: number[] = [];
      for (const [child, add] of this.pendingLinks.get(parent)!) (add ? adding : removed).push(child);
      deleteChildLinks(this.db, parent, removed);
      added.push(adding);
    }
    parents.forEach((parent, i) => insertChildLinks(this.db, parent, added[i]));
    this.pendingLinks.clear();
  }

  /**
   * One statement per run of links that share a parent or a child (the hierarchy lists a pattern's links to its
   * parents together, and to its children, and each removed link of one parent together).
   */
  private writeLinkChanges(changes: LinkChanges): void {
    forEachRun(changes.removed, (parent, children) => deleteChildLinks(this.db, parent, children), (parents, child) => {
      for (const parent of parents) deleteLink(this.db, parent, child);
    });
    // No mapping is stored (db/migrations/002): nothing reads one, and a stored one went stale on reload.
    forEachRun(
      changes.added,
      (parent, children) => insertChildLinks(this.db, parent, children),
      (parents, child) => insertParentLinks(this.db, parents, child),
    );
  }
}

/**
 * Splits links into runs of consecutive links with one parent (`byParent` gets its id and the children's) or,
 * where the next links share their child instead, with one child (`byChild`).
 */
function forEachRun(
  links: LinkChanges['added'],
  byParent: (parent: number, children: number[]) => void,
  byChild: (parents: number[], child: number) => void,
): void {
  for (let start = 0; start < links.length; ) {
    const [parent, child] = links[start];
    let end = start + 1;
    while (end < links.length && links[end][0] === parent) end++;
    if (end === start + 1) {
      while (end < links.length && links[end][1] === child) end++;
      if (end > start + 1) {
        byChild(ids(links, start, end, 0), child.id);
        start = end;
        continue;
      }
    }
    byParent(parent.id, ids(links, start, end, 1));
    start = end;
  }
}

/** The ids of one end (0 parent, 1 child) of links[start..end). */
function ids(links: LinkChanges['added'], start: number, end: number, side: 0 | 1): number[] {
  const result = new Array<number>(end - start);
  for (let i = start; i < end; i++) result[i - start] = links[i][side].id;
  return result;
}

/** Loads in one read transaction, so a writer's commit between the pattern and the link queries is not seen. */
function loadHierarchy(db: MorphDatabase, path: string): Hierarchy {
  return inSnapshot(db, () => loadHierarchyRows(db, path));
}

function loadHierarchyRows(db: MorphDatabase, path: string): Hierarchy {
  const hierarchy = new Hierarchy();
  for (const row of eachPatternKeyAndStats(db)) {
    const pattern = patternOfKey(row.key, row.kind, path, row.id);
    // The record keeps the key, not the pattern (read into reused arrays: patternOfKey).
    hierarchy.addLoaded(new PatternRecord(row.id, row.key, pattern, row, false));
  }
  hierarchy.linkAllLoaded(loadLinkPairs(db), (parent, child) => new MorphError(`${path} is corrupt: link ${parent}->${child} has no pattern`, 2));
  hierarchy.finishLoading();
  return hierarchy;
}

/**
 * The pattern a stored key spells. The canonical key is the one source of truth for a pattern (the JSON body is
 * a copy written from the same pattern, for other tools, and never read back), so a key that does not spell a
 * valid pattern of the row's kind makes the database corrupt: refused here, in one line, not later as a crash.
 * The pattern is valid until the next call (canonical.ts transientPatternFromKey): a loaded record keeps its key.
 */
function patternOfKey(key: string, kind: string, path: string, id: number): Pattern {
  const pattern = transientPatternFromKey(key);
  if (!pattern) throw corruptKey(path, id, 'it does not spell a pattern');
  if (pattern.kind !== kind) throw corruptKey(path, id, `a ${pattern.kind} key on a ${kind} row`);
  try {
    validatePattern(pattern);
  } catch (error) {
    throw corruptKey(path, id, (error as Error).message);
  }
  return pattern;
}

function corruptKey(path: string, id: number, why: string): MorphError {
  return new MorphError(`${path} is corrupt: pattern ${id} has an invalid key (${why})`, BAD_INPUT);
}
