/**
 * Loading the pattern database: the canonical key is the one source of truth for a pattern, and a key that is
 * not a valid pattern is refused at load in one line (exit code 2 from the CLI), never a TypeError later.
 */
import { afterAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { START_FEN } from '../src/chess/fen.ts';
import { pieceLabel, EDGE_DIRECT } from '../src/graph/labels.ts';
import { DESIG_NONE } from '../src/pattern/designation.ts';
import { canonicalKey } from '../src/pattern/canonical.ts';
import type { GraphPattern } from '../src/pattern/pattern.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { MORPH_APPLICATION_ID } from '../src/store/database.ts';
import { listMigrations, SCHEMA_VERSION } from '../src/store/migrations.ts';
import { MorphError } from '../src/util/errors.ts';
import { runMorph } from './helpers/cli.ts';
import { fixturePositions, graphOf, samplePattern } from './helpers/patternSamples.ts';
import { Random } from '../src/util/random.ts';

const dir = mkdtempSync(join(tmpdir(), 'morph-load-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const knightAttacksPawn: GraphPattern = {
  kind: 'graph',
  labels: [pieceLabel('moved', 2), pieceLabel('toMove', 1)],
  desigs: [DESIG_NONE, DESIG_NONE],
  edges: [[0, 1, EDGE_DIRECT]],
};

/** A database with one pattern whose key is then overwritten behind Morph's back. */
function tampered(name: string, key: string): string {
  const path = join(dir, `${name}.db`);
  const store = PatternStore.open(path);
  store.insert(knightAttacksPawn, 'manual', 0, { weight: 0.7, updates: 3 });
  store.close();
  const db = new Database(path);
  db.prepare('UPDATE patterns SET key = ? WHERE kind = ?').run(key, 'graph');
  db.close();
  return path;
}

describe('pattern keys validated at load', () => {
  const good = canonicalKey(knightAttacksPawn);
  const cases: Array<[string, string]> = [
    ['an edge to a node that does not exist', good.replace(/\|.*$/, '|0>5:1')],
    ['a label out of range', good.replace(/^G:\d+/, 'G:99')],
    ['an edge type out of range', good.replace(/:\d+$/, ':9')],
    ['text that is no key at all', 'G:not a key'],
    ['a material key on a graph row', 'M:1,0,0,0,0'],
  ];
  for (const [what, key] of cases) {
    it(`refuses ${what} in one line`, () => {
      expect(key).not.toBe(good);
      const path = tampered(what.replace(/\W+/g, '-'), key);
      let error: unknown;
      try {
        PatternStore.open(path, { readonly: true }).close();
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(MorphError);
      expect((error as MorphError).message).toMatch(new RegExp(`^${path} is corrupt: pattern 1 has an invalid key \\(.+\\)$`));
      expect((error as Error).message).not.toContain('\n');
    });
  }

  it('loads the untampered key, and the CLI reports a tampered one with exit code 2', async () => {
    const path = tampered('fine', good);
    const store = PatternStore.open(path, { readonly: true });
    expect(store.size).toBe(1);
    store.close();
    const bad = tampered('cli', cases[0][1]);
    const run = await runMorph(['move', '--fen', START_FEN, '--db', bad]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^morph: .* is corrupt: pattern 1 has an invalid key .*\n$/);
  });
});

describe('loaded patterns are spelled by their keys', () => {
  it('a loaded record parses its pattern from its key until the store first inserts, then holds it', () => {
    const path = join(dir, 'held.db');
    const writer = PatternStore.open(path);
    const rng = new Random(5);
    const positions = fixturePositions();
    const inserted = new Map<number, string>();
    for (let i = 0; i < 60; i++) {
      const { record } = writer.insert(samplePattern(graphOf(positions[rng.int(positions.length)]), rng, 5), 'manual', 1);
      inserted.set(record.id, record.key);
    }
    writer.close();

    const store = PatternStore.open(path);
    const graphs = [...store.hierarchy.byId.values()].filter((record) => record.kind === 'graph');
    for (const record of graphs) {
      const pattern = record.pattern;
      expect(canonicalKey(pattern)).toBe(record.key);
      expect(record.pattern).toEqual(pattern);
      expect(record.pattern).not.toBe(pattern); // parsed again: nothing held
      expect(record.size).toBe((pattern as GraphPattern).labels.length);
    }
    for (const [id, key] of inserted) expect(store.hierarchy.byId.get(id)!.key).toBe(key);
    store.insert(samplePattern(graphOf(positions[0]), new Random(6), 4), 'manual', 2);
    for (const record of graphs) expect(record.pattern).toBe(record.pattern); // held from the first insert on
    store.close();
  });
});

describe('links validated at load', () => {
  it('refuses a link to a pattern that does not exist in one line', () => {
    const path = join(dir, 'dangling-link.db');
    const store = PatternStore.open(path);
    const { record } = store.insert(knightAttacksPawn, 'manual', 0);
    store.close();
    const db = new Database(path);
    db.pragma('foreign_keys = OFF');
    db.prepare("INSERT INTO pattern_parents (id, parents) VALUES (?, '[999]')").run(record.id);
    db.close();
    expect(() => PatternStore.open(path, { readonly: true }).close()).toThrow(
      new MorphError(`${path} is corrupt: link 999->${record.id} has no pattern`, 2),
    );
  });
});

describe('parent lists validated at load', () => {
  it.each([
    ['not JSON', '[12,oops'],
    ['an object', '{"a":1}'],
    ['a bare number', '5'],
    ['a string id', '["7"]'],
    ['a negative id', '[-3]'],
    ['a nested list', '[[1]]'],
  ])('refuses a parent list that is %s in one line', (label, text) => {
    const path = join(dir, `parents ${label}.db`);
    const store = PatternStore.open(path);
    const { record } = store.insert(knightAttacksPawn, 'manual', 0);
    store.close();
    const db = new Database(path);
    db.prepare('INSERT INTO pattern_parents (id, parents) VALUES (?, ?)').run(record.id, text);
    db.close();
    expect(() => PatternStore.open(path, { readonly: true }).close()).toThrow(
      new MorphError(`${path} is corrupt: a pattern's parent list is not a JSON array of ids`, 2),
    );
  });
});

describe('links as stored', () => {
  const pawn: GraphPattern = { kind: 'graph', labels: [pieceLabel('toMove', 1)], desigs: [DESIG_NONE], edges: [] };

  it("writes a link into its child's parent list, and a v1 database's links (with stale mappings) survive the migrations", () => {
    const path = join(dir, 'links.db');
    const store = PatternStore.open(path);
    store.insert(pawn, 'manual', 0);
    store.insert(knightAttacksPawn, 'manual', 0);
    expect(store.hierarchy.byKey.get(canonicalKey(knightAttacksPawn))!.parents.length).toBe(1);
    const count = (sql: string) => store.db.prepare(sql).pluck().get() as number;
    expect(count('SELECT count(*) FROM links')).toBe(1);
    expect(count('SELECT count(*) FROM pattern_parents')).toBe(1);
    store.close();

    // A v1 database whose link has a (stale) mapping is upgraded on its next opening for writing.
    const v1 = join(dir, 'v1.db');
    const raw = new Database(v1);
    raw.pragma(`application_id = ${MORPH_APPLICATION_ID}`);
    raw.exec(listMigrations()[0].sql);
    raw.pragma('user_version = 1');
    const insert = raw.prepare(
      "INSERT INTO patterns (id, kind, key, body, size, origin, created_game) VALUES (?, 'graph', ?, '{}', ?, 'manual', 0)",
    );
    insert.run(1, canonicalKey(pawn), 1);
    insert.run(2, canonicalKey(knightAttacksPawn), 2);
    raw.prepare("INSERT INTO links (parent, child, mapping) VALUES (1, 2, '[1]')").run();
    raw.close();
    const upgraded = PatternStore.open(v1);
    expect(upgraded.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(upgraded.db.prepare('SELECT parent, child FROM links').raw().all()).toEqual([[1, 2]]);
    expect(upgraded.db.prepare('SELECT id, parents FROM pattern_parents').raw().all()).toEqual([[2, '[1]']]);
    expect(upgraded.size).toBe(2);
    expect(upgraded.hierarchy.byId.get(2)!.parents.map((parent) => parent.id)).toEqual([1]);
    upgraded.close();
  });
});
