import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** Files that replace a module with vi.mock: they need Vite's module runner (Node 20 cannot mock native imports). */
const MOCKING = ['test/readSnapshot.test.ts'];

/**
 * The slow tier: the files that build opponent models and move policies or learn against an engine, each 40-170 s
 * of a worker's time (about half the suite's 1,200 s, 2026-12-06). `npm test` leaves them out so that a change is
 * checked in minutes; `npm run test:all`, what CI runs, includes them (issue 70).
 */
const SLOW = [
  'test/ownPolicy.test.ts',
  'test/choiceSquares.test.ts',
  'test/settledMaterial.test.ts',
  'test/opponentModel.test.ts',
  'test/modelLine.test.ts',
  'test/modelMobility.test.ts',
  'test/learningCheck.test.ts',
];

/** How the native and slow tiers run their files. */
const NATIVE = {
  // Node's own import of the sources (compiled by tsx, as bin/run-ts.js runs them) instead of Vite's module
  // runner, whose rewritten imports made the search and model code 2-3 times slower in the tests than in
  // `morph` (a two-ply model build: 35 s against 13 s, 2026-12-05).
  execArgv: ['--import', 'tsx/esm'],
  experimental: { viteModuleRunner: false, nodeLoader: false },
  // One process per worker for all its files, not one per file: a fork with tsx and the sources took
  // about 0.8 s of a worker's time per file (the 51 files that each take under 10 s: 102 s -> 62 s wall,
  // 193 s -> 112 s of processor time, 2026-12-05). The files share only modules, whose state is scratch
  // buffers and caches of pure functions; a test that spies on something restores it (vi.restoreAllMocks,
  // mockRestore), and signal handlers are removed by whoever adds them (runTraining).
  isolate: false,
};

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default leaves one core idle (cores - 1: a single worker on CI's 2 cores). The suite's files are
    // CPU-bound and independent, so one worker per core: 337 s against 545-578 s on 2 cores (2026-12-04).
    maxWorkers: availableParallelism(),
    projects: [
      { extends: true, test: { name: 'native', include: ['test/**/*.test.ts'], exclude: [...MOCKING, ...SLOW], ...NATIVE } },
      { extends: true, test: { name: 'slow', include: SLOW, ...NATIVE } },
      { extends: true, test: { name: 'mocking', include: MOCKING } },
    ],
  },
});
