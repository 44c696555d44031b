import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** Files that replace a module with vi.mock: they need Vite's module runner (Node 20 cannot mock native imports). */
const MOCKING = ['test/readSnapshot.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default leaves one core idle (cores - 1: a single worker on CI's 2 cores). The suite's files are
    // CPU-bound and independent, so one worker per core: 337 s against 545-578 s on 2 cores (2026-12-04).
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          name: 'native',
          include: ['test/**/*.test.ts'],
          exclude: MOCKING,
          // Node's own import of the sources (compiled by tsx, as bin/run-ts.js runs them) instead of Vite's module
          // runner, whose rewritten imports made the search and model code 2-3 times slower in the tests than in
          // `morph` (a two-ply model build: 35 s against 13 s, 2026-12-05).
          execArgv: ['--import', 'tsx/esm'],
          experimental: { viteModuleRunner: false, nodeLoader: false },
        },
      },
      { extends: true, test: { name: 'mocking', include: MOCKING } },
    ],
  },
});
