#!/usr/bin/env node
/**
 * Compiles the `morph` command to JavaScript, so a start does not compile TypeScript: run by `npm ci` /
 * `npm install` (the `prepare` script), and again by bin/morph.js whenever a source file is newer than the build
 * (a checkout being edited). Uses the esbuild that tsx ships with.
 *
 * Each build goes to its own folder, build/<id>/, and build/current names the one to run (replaced by an atomic
 * rename), so morph commands started together never see a half-written or vanishing build. The folder sits at the
 * same depth below the checkout as src/cli/, so the paths the code finds relative to its own module
 * (package.json, db/migrations, data/) land in the same places.
 */
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, mkdirSync, utimesSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_DIR = join(ROOT, 'src');
const BUILDS = join(ROOT, 'build');
const CURRENT = join(BUILDS, 'current');
/** Older builds are removed once they are this old (a command may still be loading one). */
const KEEP_OLD_MS = 60_000;

/** The newest modification time (ms) of any file under dir. */
function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const time = entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs;
    if (time > newest) newest = time;
  }
  return newest;
}

/** The entry point of the current build, or null when there is none. */
export function currentEntry() {
  try {
    const entry = join(BUILDS, readFileSync(CURRENT, 'utf8').trim(), 'main.js');
    return existsSync(entry) ? entry : null;
  } catch {
    return null;
  }
}

/** True when there is no build or a source file is newer than it (an installed copy without src/ is never stale). */
export function buildIsStale() {
  if (currentEntry() === null) return true;
  // A millisecond of slack: file systems and utimes keep times at different precisions.
  return existsSync(SOURCE_DIR) && newestMtime(SOURCE_DIR) > statSync(CURRENT).mtimeMs + 1;
}

/** Bundles src/cli/main.ts (npm packages stay external) and makes it the current build; returns its entry. */
export async function build() {
  const requireFromTsx = createRequire(createRequire(import.meta.url).resolve('tsx/package.json'));
  const esbuild = await import(pathToFileURL(requireFromTsx.resolve('esbuild')).href);
  const sourcesAsOf = newestMtime(SOURCE_DIR);
  const id = `${Date.now().toString(36)}-${process.pid}`;
  await esbuild.build({
    entryPoints: [join(SOURCE_DIR, 'cli', 'main.ts')],
    outdir: join(BUILDS, id),
    bundle: true,
    splitting: true, // `morph report` loads its charting libraries only when run
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'error',
  });
  const pointer = `${CURRENT}.${id}`;
  writeFileSync(pointer, id + '\n');
  // The pointer carries the sources' time, so an edit made during the build still counts as newer.
  utimesSync(pointer, new Date(), new Date(sourcesAsOf));
  renameSync(pointer, CURRENT);
  for (const name of readdirSync(BUILDS)) {
    const path = join(BUILDS, name);
    if (name !== id && !name.startsWith('current') && Date.now() - statSync(path).mtimeMs > KEEP_OLD_MS) {
      rmSync(path, { recursive: true, force: true });
    }
  }
  return join(BUILDS, id, 'main.js');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    mkdirSync(BUILDS, { recursive: true });
    console.log(`morph: built ${relative(ROOT, await build())}`);
  } catch (error) {
    console.error(`morph: build failed: ${error instanceof Error ? error.message.split('\n')[0] : error}`);
    process.exit(1);
  }
}
