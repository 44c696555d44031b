/**
 * Where the database lives when the user names none: one default file inside the Morph checkout
 * (data/morph.db), or $MORPH_DB. Commands that only read (move, play, uci, inspect) fall back to a fresh
 * in-memory database when the default file does not exist yet, so a newcomer can play before training.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PatternStore } from './patternStore.ts';

const CHECKOUT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function defaultDatabasePath(): string {
  return process.env.MORPH_DB ? resolve(process.env.MORPH_DB) : join(CHECKOUT_ROOT, 'data', 'morph.db');
}

/**
 * Opens a database to write to (train, learn), creating the default file and its folder when needed. Only one
 * writer at a time: another process writing the same file makes this a one-line refusal.
 */
export function openStoreForWriting(path: string | undefined): PatternStore {
  const target = path ?? defaultDatabasePath();
  if (!path) mkdirSync(dirname(target), { recursive: true });
  return PatternStore.open(target, { exclusiveWriter: true });
}

/**
 * Opens a database read-only. A missing explicit path is an error; a missing default file gives a fresh,
 * empty in-memory database (every move then values .5, so Morph plays legal moves at random).
 */
export function openStoreForReading(path: string | undefined): { store: PatternStore; fresh: boolean } {
  if (!path && !existsSync(defaultDatabasePath())) return { store: PatternStore.open(':memory:'), fresh: true };
  return { store: PatternStore.open(path ?? defaultDatabasePath(), { readonly: true }), fresh: false };
}
