/**
 * The pattern database: the in-memory hierarchy (hierarchy.ts) loaded from SQLite at start, and every change
 * written through to SQLite. Callers group the changes of one game in `transaction`, so a crash loses at most
 * the game in progress.
 */
import {
  deletePatternRow,
  insertPatternRow,
  loadLinkPairs,
  eachPatternKeyAndStats,
  updatePatternStats,
  writePatternParents,
  type PatternOrigin,
} from './patternRows.ts';
import { closeMorphDatabase, inSnapshot, openMorphDatabase, type MorphDatabase, type OpenOptions } from './database.ts';
import { Hierarchy, type LinkChanges } from './hierarchy.ts';
import { PatternRecord, type RecordStats } from './patternRecord.ts';
import { everyGraphMatch, mostSpecificMatches, mostSpecificMatchesTogether, type Retrieval } from './retrieval.ts';
import { canonicalKey, transientPatternFromKey } from '../pattern/canonical.ts';
import { patternSize, patternToJson, validatePattern, type Pattern } from '../pattern/pattern.ts';
import type { PositionGraph } from '../graph/positionGraph.ts';
import { BAD_INPUT, MorphError } from '../util/errors.ts';
import { getMetaNumber } from './meta.ts';
import { openDatabaseOfKind, requireDatabaseKind, type DatabaseKind } from './databaseKind.ts';

export class PatternStore {
  /** How many `transaction` calls are running (the outermost writes the changed parent lists before it commits). */
  private depth = 0;
  /**
   * The patterns whose parents changed since the last write. The outermost `transaction` writes each one's
   * parent list once, from memory, before it commits: a learner's game changes thousands of links, many of them
   * several times over (a pattern relinked by one deletion and again by the next).
   */
  private readonly parentsChanged = new Set<PatternRecord>();

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
        if (outermostHere) this.writeChangedParents();
        return result;
      })();
    } catch (error) {
      if (outermostHere) this.parentsChanged.clear();
      if (outermost && this.db.open) this.loaded = loadHierarchy(this.db, this.path);
      throw error;
    } finally {
      this.depth--;
    }
  }

  retrieve(graph: PositionGraph): Retrieval {
    return mostSpecificMatches(this.hierarchy, graph);
  }

  /** Every graph pattern matching a position, not only the most specific (retrieval.ts everyGraphMatch). */
  everyGraphMatch(graph: PositionGraph): PatternRecord[] {
    return everyGraphMatch(this.hierarchy, graph);
  }

  /** The retrieval of each of several positions, in one walk of the hierarchy for up to 32 of them (retrieval.ts). */
  retrieveTogether(graphs: readonly PositionGraph[]): Retrieval[] {
    return mostSpecificMatchesTogether(this.hierarchy, graphs);
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
      this.noteParentsChanged(changes);
      return { record, created: true };
    });
  }

  delete(record: PatternRecord): void {
    this.transaction(() => {
      this.noteParentsChanged(this.hierarchy.delete(record));
      deletePatternRow(this.db, record.id); // its own parent list goes with it
    });
  }

  /** Writes a record's learning statistics. */
  saveStats(record: PatternRecord): void {
    updatePatternStats(this.db, record.id, record);
  }

  private noteParentsChanged(changes: LinkChanges): void {
    for (const [, child] of changes.removed) this.parentsChanged.add(child);
    for (const [, child] of changes.added) this.parentsChanged.add(child);
  }

  /**
   * Writes the parent list of each pattern whose parents changed, as memory holds it now. A deleted pattern's
   * row went with it; a parent id in a list is always a live pattern's, since memory never links a deleted one,
   * even when SQLite has given the id to a pattern inserted since.
   */
  private writeChangedParents(): void {
    for (const record of this.parentsChanged) {
      if (!record.deleted) writePatternParents(this.db, record.id, record.parents.map((parent) => parent.id));
    }
    this.parentsChanged.clear();
  }
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
  const links = loadLinkPairs(db);
  if (!links) throw new MorphError(`${path} is corrupt: a pattern's parent list is not a JSON array of ids`, 2);
  hierarchy.linkAllLoaded(links, (parent, child) => new MorphError(`${path} is corrupt: link ${parent}->${child} has no pattern`, 2));
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
