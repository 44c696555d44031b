/**
 * Where inspect, report and export read from: a Morph database opened read-only (they never write, so they can
 * run beside a training run that is writing the same file: SQLite's WAL lets readers see the last committed game
 * while the writer carries on), and one read transaction per command so that every number printed comes from
 * the same committed state.
 */
import { existsSync } from 'node:fs';
import { inSnapshot, openMorphDatabase, toMorphError, type MorphDatabase } from '../store/database.ts';
import { defaultDatabasePath } from '../store/location.ts';
import { badInput } from '../util/errors.ts';

export interface InspectionSource {
  db: MorphDatabase;
  /** The path as the user gave it (or the default one). */
  path: string;
}

/** Opens the database at `path` (or the default one) read-only; a missing file is a one-line error (exit 2). */
export function openForInspection(path: string | undefined): InspectionSource {
  const target = path ?? defaultDatabasePath();
  if (!path && !existsSync(target)) {
    throw badInput(`no Morph database at ${target} yet (train first, or give --db FILE)`);
  }
  return { db: openMorphDatabase(target, { readonly: true }), path: target };
}

/** Opens, reads in one snapshot, closes. SQLite errors met while reading (a corrupt page) become one line. */
export function withSnapshot<T>(path: string | undefined, read: (source: InspectionSource) => T): T {
  const source = openForInspection(path);
  try {
    return inSnapshot(source.db, () => read(source));
  } catch (error) {
    throw toMorphError(source.path, error);
  } finally {
    source.db.close();
  }
}
