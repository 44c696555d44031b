/** Run metadata: the meta table's text values (games played, temperature, seeds, the learning settings...). */
import type { MorphDatabase } from './database.ts';
import { stmt } from './statements.ts';
import { MorphError } from '../util/errors.ts';

/** Well-known meta keys; any other key may be used too. */
export type MetaKey =
  | 'games_played'
  | 'temperature'
  | 'seed'
  | 'rng_state'
  | 'config'
  | 'created_at'
  | 'morph_version'
  | (string & {});

export function getMeta(db: MorphDatabase, key: MetaKey): string | undefined {
  return storedMeta(db, key) as string | undefined;
}

/** The meta table's value for `key` as stored: text, or a BLOB's bytes (setMetaBytes). */
const storedMeta = (db: MorphDatabase, key: MetaKey): unknown =>
  (stmt(db, 'SELECT value FROM meta WHERE key = ?').get(key) as { value: unknown } | undefined)?.value;

const storeMeta = (db: MorphDatabase, key: MetaKey, value: string | Buffer): void => {
  stmt(db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
};

/** Strings are stored as they are, numbers as their shortest round-tripping text, anything else as JSON. */
export function setMeta(db: MorphDatabase, key: MetaKey, value: unknown): void {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`meta ${key}: ${value} is not a finite number`);
    text = String(value);
  } else {
    const json = JSON.stringify(value);
    if (json === undefined) throw new TypeError(`meta ${key}: ${typeof value} cannot be stored`);
    text = json;
  }
  storeMeta(db, key, text);
}

/** Removes `key` (a value an older build kept and this one no longer reads). */
export function deleteMeta(db: MorphDatabase, key: MetaKey): void {
  stmt(db, 'DELETE FROM meta WHERE key = ?').run(key);
}

export function getMetaNumber(db: MorphDatabase, key: MetaKey): number | undefined {
  const text = getMeta(db, key);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) throw new MorphError(`meta ${key} is not a number: ${text}`);
  return value;
}

export function getMetaJson<T = unknown>(db: MorphDatabase, key: MetaKey): T | undefined {
  const text = getMeta(db, key);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new MorphError(`meta ${key} is not valid JSON`);
  }
}

/** Bytes, stored as a BLOB (large numeric arrays, where text would be several times the size). */
export function setMetaBytes(db: MorphDatabase, key: MetaKey, bytes: Uint8Array): void {
  storeMeta(db, key, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

/** The bytes setMetaBytes stored, or undefined when the key is absent or holds text. */
export function getMetaBytes(db: MorphDatabase, key: MetaKey): Uint8Array | undefined {
  const value = storedMeta(db, key);
  return value instanceof Uint8Array ? value : undefined;
}
