/**
 * Database file layer benchmark: bulk-insert and bulk-load 100k synthetic patterns (~300-byte JSON bodies) and
 * 200k links, plus the cost of opening the resulting file with and without PRAGMA quick_check.
 * Run alone with `node bin/run-ts.js bench/database.bench.ts`.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { insertPatternRow, loadLinkPairs, loadPatternKeysAndStats, writePatternParents, type NewPatternRow } from '../src/store/patternRows.ts';
import { openMorphDatabase } from '../src/store/database.ts';
import { Random } from '../src/util/random.ts';

const PATTERN_COUNT = 100_000;
const LINK_COUNT = 200_000;

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
}

function syntheticPattern(index: number, random: Random): NewPatternRow {
  const size = 2 + random.int(5);
  const nodes = Array.from({ length: size }, () => ({ sq: random.int(64), piece: random.int(13) - 6 }));
  const edges = Array.from({ length: size }, (_, i) => ({ from: i, to: (i + 1) % size, kind: 'attack' }));
  let body = JSON.stringify({ nodes, edges, toMove: random.int(2) === 0 ? 'w' : 'b' });
  body = JSON.stringify({ nodes, edges, pad: 'x'.repeat(Math.max(0, 300 - body.length - 10)) });
  return {
    kind: 'graph',
    key: `g${index.toString(36)}:${nodes.map((n) => `${n.piece}@${n.sq}`).join(',')}`,
    body,
    size,
    weight: random.next(),
    updates: random.int(100),
    variance: random.next() * 3,
    uses: random.int(1000),
    origin: 'forward',
    createdGame: random.int(2000),
    lastUsedGame: random.int(2000),
  };
}

function time<T>(action: () => T): [T, number] {
  const start = performance.now();
  const result = action();
  return [result, performance.now() - start];
}

export async function benchDatabaseLoad(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'morph-db-bench-'));
  const path = join(dir, 'bench.db');
  const random = new Random(20240601);
  const results: BenchResult[] = [];
  try {
    const patterns = Array.from({ length: PATTERN_COUNT }, (_, i) => syntheticPattern(i, random));
    const parentsOf = new Map<number, number[]>();
    const seen = new Set<number>();
    for (let links = 0; links < LINK_COUNT; ) {
      const parent = 1 + random.int(PATTERN_COUNT);
      const child = 1 + random.int(PATTERN_COUNT);
      const pairKey = parent * (PATTERN_COUNT + 1) + child;
      if (parent === child || seen.has(pairKey)) continue;
      seen.add(pairKey);
      parentsOf.set(child, [...(parentsOf.get(child) ?? []), parent]);
      links++;
    }

    let db = openMorphDatabase(path);
    const [, insertPatternsMs] = time(() =>
      db.transaction(() => {
        for (const row of patterns) insertPatternRow(db, row);
      })(),
    );
    const [, insertLinksMs] = time(() =>
      db.transaction(() => {
        for (const [child, parents] of parentsOf) writePatternParents(db, child, parents);
      })(),
    );
    db.close(); // checkpoints the WAL into the main file
    const fileMb = statSync(path).size / 1e6;

    const [checkedDb, openCheckedMs] = time(() => openMorphDatabase(path, { readonly: true }));
    checkedDb.close();
    db = openMorphDatabase(path, { readonly: true, quickCheck: false });
    // The two loaders PatternStore uses at start-up: keys and statistics, and bare link pairs.
    const [loadedPatterns, loadPatternsMs] = time(() => loadPatternKeysAndStats(db));
    const [loadedLinks, loadLinksMs] = time(() => loadLinkPairs(db));
    db.close();
    if (loadedPatterns.length !== PATTERN_COUNT || loadedLinks?.length !== 2 * LINK_COUNT) {
      throw new Error(`loaded ${loadedPatterns.length} patterns and ${(loadedLinks?.length ?? 0) / 2} links`);
    }
    const [, openUncheckedMs] = time(() => openMorphDatabase(path, { readonly: true, quickCheck: false }).close());

    results.push(
      { name: 'db: insert 100k patterns (one transaction)', value: insertPatternsMs, unit: 'ms' },
      { name: 'db: write 200k links as parent lists (one transaction)', value: insertLinksMs, unit: 'ms' },
      { name: 'db: file size (100k patterns, 200k links)', value: fileMb, unit: 'MB' },
      { name: 'db: open read-only with quick_check', value: openCheckedMs, unit: 'ms' },
      { name: 'db: open read-only without quick_check', value: openUncheckedMs, unit: 'ms' },
      { name: 'db: load 100k pattern keys and statistics', value: loadPatternsMs, unit: 'ms' },
      { name: 'db: load 200k links (parent, child pairs)', value: loadLinksMs, unit: 'ms' },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return results.map((r) => ({ ...r, value: Math.round(r.value * 10) / 10 }));
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  for (const { name, value, unit } of await benchDatabaseLoad()) console.log(`${name}: ${value} ${unit}`);
}
