/**
 * No import cycles in src/ (type-only imports included: a cycle of types still ties the modules together), and
 * production code imports nothing from outside src/. A small scan of import lines, so no tool is needed.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** Relative imports of a file, resolved to absolute paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)) {
    found.push(resolve(dirname(file), match[1]));
  }
  return found;
}

describe('module structure', () => {
  const files = sourceFiles(SRC);
  const graph = new Map(files.map((file) => [file, importsOf(file)]));

  it('has no import cycles in src/', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string): void => {
      state.set(file, 'open');
      stack.push(file);
      for (const next of graph.get(file) ?? []) {
        if (!graph.has(next)) continue;
        if (state.get(next) === 'open') {
          cycles.push(stack.slice(stack.indexOf(next)).concat(next).map((f) => relative(SRC, f)).join(' -> '));
        } else if (!state.has(next)) visit(next);
      }
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of files) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });

  it("has no import cycles between src/'s folders", () => {
    // Folder A reaches folder B when some file of A imports one of B; folders that reach each other, both ways.
    const folderOf = (file: string) => relative(SRC, file).split('/')[0];
    const reaches = new Map<string, Set<string>>();
    for (const [file, imports] of graph) {
      for (const target of imports) {
        if (!graph.has(target) || folderOf(target) === folderOf(file)) continue;
        if (!reaches.has(folderOf(file))) reaches.set(folderOf(file), new Set());
        reaches.get(folderOf(file))!.add(folderOf(target));
      }
    }
    const closure = (from: string): Set<string> => {
      const seen = new Set<string>();
      const pending = [from];
      while (pending.length) for (const next of reaches.get(pending.pop()!) ?? []) if (!seen.has(next)) seen.add(next), pending.push(next);
      return seen;
    };
    const tied = [...reaches.keys()].filter((folder) => closure(folder).has(folder)).sort();
    expect(tied).toEqual([]);
  });

  it('imports nothing from outside src/ but package.json', () => {
    const outside = [...graph].flatMap(([file, imports]) =>
      imports.filter((target) => relative(SRC, target).startsWith('..') && !target.endsWith('package.json')).map((target) => `${relative(SRC, file)} -> ${target}`),
    );
    expect(outside).toEqual([]);
  });

  it("keeps Morph's player and learner from ever reaching the textbook piece values", () => {
    const reachable = new Set<string>();
    const visit = (file: string): void => {
      if (reachable.has(file) || !graph.has(file)) return;
      reachable.add(file);
      for (const next of graph.get(file)!) visit(next);
    };
    for (const root of ['player/morphPlayer.ts', 'learn/learner.ts', 'eval/combine.ts']) visit(join(SRC, root));
    expect(reachable.size).toBeGreaterThan(20);
    expect([...reachable].map((f) => relative(SRC, f)).filter((f) => f === 'chess/pieceValues.ts')).toEqual([]);
  });
});
