/**
 * Issue-3 and issue-4 figures for one database size, run in its own process so memory is measured cleanly:
 *   node bin/run-ts.js bench/hierarchy.bench.ts --size 10000
 * The database is grown once from seeds plus node-ordered subgraphs of real game positions and cached in
 * bench/.cache; then: load time, resident memory, retrieval time and fraction of the database tested on
 * held-out middlegame positions, and milliseconds per 1-ply move.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { applyMove, boardFromFen, cloneBoard, uciMove } from '../src/chess/board.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { GameHistory } from '../src/chess/history.ts';
import { buildPositionGraph, PositionGraph } from '../src/graph/positionGraph.ts';
import { orderedSubpattern } from '../src/learn/nodeOrder.ts';
import { allSeedPatterns } from '../src/learn/seeding.ts';
import type { SearchSpec } from '../src/search/extensions.ts';
import { RELATION_TERM_FEATURES } from '../src/eval/relationTerms.ts';
import { MorphPlayer, type MovePolicy } from '../src/player/morphPlayer.ts';
import { TAPERED_SQUARE_VALUES } from '../src/eval/squareValues.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { Random } from '../src/util/random.ts';
import { type Figure, percentile } from './figures.ts';
import { splitFens } from './positions.ts';

const CACHE = resolve(new URL('.', import.meta.url).pathname, '.cache');

const cachedPath = (size: number) => resolve(CACHE, `hierarchy-${size}.db`);

/** The cached database of `size` patterns, grown on first use. */
export function hierarchyDatabase(size: number): string {
  mkdirSync(CACHE, { recursive: true });
  const path = cachedPath(size);
  if (existsSync(path)) return path;
  const building = `${path}.building`;
  rmSync(building, { force: true });
  const store = PatternStore.open(building);
  const rng = new Random(size);
  const graphs = splitFens().train.map((fen) => buildPositionGraph(boardFromFen(fen)));
  const started = performance.now();
  store.transaction(() => {
    for (const seed of allSeedPatterns()) store.insert(seed, 'seed', 0);
  });
  while (store.size < size) {
    store.transaction(() => {
      for (let i = 0; i < 1000 && store.size < size; i++) {
        const graph = rng.pick(graphs);
        const pattern = orderedSubpattern(graph, rng.int(graph.nodeCount), 2 + rng.int(5), rng);
        // Weights spread over [0,1] and enough updates to be mature, as in a trained database.
        store.insert(pattern, 'forward', 0, { weight: rng.next(), updates: 1 + rng.int(50) });
      }
    });
    process.stderr.write(`\rgrowing ${size}-pattern database: ${store.size} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  process.stderr.write('\n');
  store.close();
  renameSync(building, path);
  return path;
}

export function benchHierarchy(size: number): Figure[] {
  const label = size >= 1000 ? `${size / 1000}k` : String(size);
  return benchStoreFile(hierarchyDatabase(size), label, size >= 100_000);
}

/** Rounds of the held-out positions timed for the retrieval figure. */
const RETRIEVAL_ROUNDS = 10;

/** Load, memory, retrieval and 1-ply move figures of one database file; `withTargets` attaches the 100k targets. */
export function benchStoreFile(path: string, label: string, withTargets: boolean): Figure[] {
  const rssBefore = process.memoryUsage().rss;
  // CPU time beside wall time throughout: on a shared machine wall times are inflated, CPU times much less.
  let cpu = process.cpuUsage();
  const loadStarted = performance.now();
  const store = PatternStore.open(path, { readonly: true, quickCheck: false });
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  const loadCpuSeconds = cpuMs(process.cpuUsage(cpu)) / 1000;
  const rssLoaded = process.memoryUsage().rss;
  const { test } = splitFens();
  const graphs = test.map((fen) => buildPositionGraph(boardFromFen(fen)));
  // Warm up: patterns are compiled on first use, and the JIT needs a pass too.
  const warmPlayer = new MorphPlayer(store, { maturity: 0, seed: 2, search: 'one-ply' }); // warms retrieval, as before the play search
  for (const fen of test.slice(0, 200)) warmPlayer.choose(new GameHistory(fen));
  for (const graph of graphs) store.retrieve(graph);
  // A retrieval that ends in a trigger review (hierarchy.ts: one at each doubling of the process's retrievals, then
  // one every 131,072) is timed apart: the review is upkeep of the index, amortised over those retrievals, and
  // whether one falls into this short window depends only on how many retrievals came before it.
  const times: number[] = [];
  const reviewTimes: number[] = [];
  let tested = 0;
  cpu = process.cpuUsage();
  // Ten rounds (about 3,700 retrievals, under a second at 100k): with three, the mean moved by a tenth from run
  // to run, and the first rounds run slower than later ones.
  for (let round = 0; round < RETRIEVAL_ROUNDS; round++) {
    for (const graph of graphs) {
      const reviews = store.hierarchy.triggerReviewsRun;
      const started = performance.now();
      tested += store.retrieve(graph).tested;
      (store.hierarchy.triggerReviewsRun === reviews ? times : reviewTimes).push(performance.now() - started);
    }
  }
  const retrievalCpu = cpuMs(process.cpuUsage(cpu)) / (times.length + reviewTimes.length);
  times.sort((a, b) => a - b);
  const meanWithReviews = [...times, ...reviewTimes].reduce((a, b) => a + b, 0) / (times.length + reviewTimes.length);
  const reviewNote = reviewTimes.length === 0 ? 'no trigger review in the window' :
    `${reviewTimes.length} of the ${times.length + reviewTimes.length} retrievals ended in a trigger review (${reviewTimes.map((t) => round(t, 1)).join(', ')} ms), not in the mean; with them ${round(meanWithReviews, 4)} ms`;

  // Every legal move's position of a held-out position, retrieved one by one and together (one walk for up to 32
  // of them, as the player judges a position's moves): the same matches, in the same run.
  const successorSets = test.slice(0, 200).map((fen) => {
    const board = boardFromFen(fen);
    const next = cloneBoard(board);
    return generateLegalMoves(board).map((move) => {
      applyMove(board, move, next);
      return buildPositionGraph(next, new PositionGraph());
    });
  });
  const oneByOne: number[] = [];
  const together: number[] = [];
  for (let round = 0; round < 2; round++) {
    for (const successors of successorSets) {
      let started = performance.now();
      for (const graph of successors) store.retrieve(graph);
      oneByOne.push(performance.now() - started);
      started = performance.now();
      store.retrieveTogether(successors);
      together.push(performance.now() - started);
    }
  }
  oneByOne.sort((a, b) => a - b);
  together.sort((a, b) => a - b);
  const meanRetrieval = times.reduce((a, b) => a + b, 0) / times.length;
  const fractionTested = tested / (times.length + reviewTimes.length) / store.size;

  const moveCpu: Partial<Record<SearchSpec, number>> = {};
  const moveTimesWith = (search: SearchSpec): number[] => {
    const player = new MorphPlayer(store, { maturity: 0, seed: 1, search });
    const moveTimes: number[] = [];
    const cpuStarted = process.cpuUsage();
    for (const fen of test.slice(0, 200)) {
      const history = new GameHistory(fen);
      const started = performance.now();
      player.choose(history);
      moveTimes.push(performance.now() - started);
    }
    moveCpu[search] = cpuMs(process.cpuUsage(cpuStarted)) / moveTimes.length;
    return moveTimes.sort((a, b) => a - b);
  };
  const moveTimes = moveTimesWith('one-ply');
  const captureTimes = moveTimesWith('captures');
  const mateTimes = moveTimesWith('captures-mates');
  const quiescenceTimes = moveTimesWith('material-quiescence');
  const threatTimes = moveTimesWith('material-threats');
  const forkTimes = moveTimesWith('material-forks');
  // The move a game plays (bestMove: moves that cannot win are not looked at), whose worst case a clock meets.
  const gameMoveTimesWith = (policy?: MovePolicy, relationWeights?: Float64Array) => {
    const player = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'material-forks', policy, ...(relationWeights ? { relationWeights } : {}) });
    const moveTimes: number[] = [];
    for (const fen of test.slice(0, 200)) {
      const history = new GameHistory(fen);
      const started = performance.now();
      player.bestMove(history);
      moveTimes.push(performance.now() - started);
    }
    return moveTimes.sort((a, b) => a - b);
  };
  const gameMoveTimes = gameMoveTimesWith();
  // A policy's square values (tapered, as policies carry them) add a sum over the board to every position the
  // material searches judge: their cost, against the same policy without them (one that prefers no move, so that
  // only the squares differ).
  const squareRng = new Random(7);
  const squares = { values: [1, 3, 3, 5, 9], squareValues: Array.from({ length: TAPERED_SQUARE_VALUES }, () => 0.4 * (squareRng.next() - 0.5)) };
  const indifferent = (withSquares: boolean): MovePolicy => ({
    name: 'indifferent',
    logProbabilities: (history) => new Map(generateLegalMoves(history.board).map((m) => [uciMove(m), 0])),
    ...(withSquares ? { squares } : {}),
  });
  const plainPolicyTimes = gameMoveTimesWith(indifferent(false));
  const squarePolicyTimes = gameMoveTimesWith(indifferent(true));
  // Relation terms (eval/relationTerms.ts) read the board's attacks at every position the material searches value:
  // their cost against the same search without them. Weights too small to change which move is best, so that only
  // the reading differs (the moves' searches are the same).
  const relationTimes = gameMoveTimesWith(undefined, new Float64Array(RELATION_TERM_FEATURES).fill(1e-9));
  const rss = process.memoryUsage().rss;
  store.close();
  const at100k = withTargets;
  return [
    { name: `load ${label} patterns`, value: round(loadSeconds, 3), unit: 's', note: `CPU ${round(loadCpuSeconds, 3)} s`, ...(at100k ? { target: '< 3' } : {}) },
    // Judged right after loading, as the figure says; the searches measured below grow the heap with their own
    // garbage (material-forks and the policy's square values since this target was set), shown apart.
    { name: `resident memory after load, ${label}`, value: Math.round(rssLoaded / 1e6), unit: 'MB', note: `+${Math.round((rssLoaded - rssBefore) / 1e6)} MB for the database`, ...(at100k ? { target: '< 300' } : {}) },
    { name: `resident memory after the move benchmarks, ${label}`, value: Math.round(rss / 1e6), unit: 'MB', note: 'this process, after every search below has played its moves' },
    { name: `retrieval per position, ${label} (mean)`, value: round(meanRetrieval, 4), unit: 'ms', note: `p95 ${round(percentile(times, 0.95), 3)} ms; CPU ${round(retrievalCpu, 4)} ms (reviews included); ${reviewNote}`, ...(at100k ? { target: '< 0.3' } : {}) },
    { name: `fraction of database tested, ${label}`, value: round(100 * fractionTested, 2), unit: '%', ...(at100k ? { target: '< 5' } : {}) },
    { name: `1-ply move, ${label} (median)`, value: round(percentile(moveTimes, 0.5), 2), unit: 'ms', note: `CPU mean ${round(moveCpu['one-ply']!, 2)} ms`, ...(at100k ? { target: '< 10' } : {}) },
    { name: `1-ply move, ${label} (95th percentile)`, value: round(percentile(moveTimes, 0.95), 2), unit: 'ms' },
    {
      name: `a position's successors retrieved together, ${label} (median)`,
      value: round(percentile(together, 0.5), 2),
      unit: 'ms',
      note: `p95 ${round(percentile(together, 0.95), 2)} ms; one by one: median ${round(percentile(oneByOne, 0.5), 2)} ms, p95 ${round(percentile(oneByOne, 0.95), 2)} ms (${round(percentile(oneByOne, 0.5) / percentile(together, 0.5), 2)}x and ${round(percentile(oneByOne, 0.95) / percentile(together, 0.95), 2)}x)`,
    },
    {
      name: `move with search captures, ${label} (median)`,
      value: round(percentile(captureTimes, 0.5), 2),
      unit: 'ms',
      note: `p95 ${round(percentile(captureTimes, 0.95), 2)} ms; ${round(percentile(captureTimes, 0.5) / percentile(moveTimes, 0.5), 2)}x the 1-ply median`,
    },
    {
      name: `move with search captures-mates, ${label} (median)`,
      value: round(percentile(mateTimes, 0.5), 2),
      unit: 'ms',
      note: `p95 ${round(percentile(mateTimes, 0.95), 2)} ms; ${round(percentile(mateTimes, 0.5) / percentile(captureTimes, 0.5), 2)}x the captures median (every move ranked, as morph move shows; games take a shortcut)`,
    },
    {
      name: `move with search material-quiescence, ${label} (median)`,
      value: round(percentile(quiescenceTimes, 0.5), 2),
      unit: 'ms',
      note: `p95 ${round(percentile(quiescenceTimes, 0.95), 2)} ms; ${round(percentile(quiescenceTimes, 0.5) / percentile(mateTimes, 0.5), 2)}x the captures-mates median (every move ranked; no retrieval, material lookups only)`,
    },
    {
      name: `move with search material-threats, ${label} (median)`,
      value: round(percentile(threatTimes, 0.5), 2),
      unit: 'ms',
      note: `p95 ${round(percentile(threatTimes, 0.95), 2)} ms; ${round(percentile(threatTimes, 0.5) / percentile(quiescenceTimes, 0.5), 2)}x the material-quiescence median (every move ranked, each opponent double threat answered)`,
    },
    {
      name: `move with search material-forks, ${label} (median)`,
      value: round(percentile(forkTimes, 0.5), 2),
      unit: 'ms',
      note: `p95 ${round(percentile(forkTimes, 0.95), 2)} ms; ${round(percentile(forkTimes, 0.5) / percentile(threatTimes, 0.5), 2)}x the material-threats median (every move ranked, each own threat followed through every reply)`,
    },
    {
      name: `game move with search material-forks, ${label} (mean)`,
      value: round(gameMoveTimes.reduce((a, b) => a + b, 0) / gameMoveTimes.length, 2),
      unit: 'ms',
      note: `median ${round(percentile(gameMoveTimes, 0.5), 2)} ms, p95 ${round(percentile(gameMoveTimes, 0.95), 2)} ms, worst ${round(gameMoveTimes.at(-1)!, 1)} ms (bestMove, as games play it)`,
    },
    {
      name: `game move with search material-forks and a policy's square values, ${label} (mean)`,
      value: round(mean(squarePolicyTimes), 2),
      unit: 'ms',
      note: `${round(mean(squarePolicyTimes) / mean(plainPolicyTimes), 2)}x the same policy without them (${round(mean(plainPolicyTimes), 2)} ms); p95 ${round(percentile(squarePolicyTimes, 0.95), 2)} ms`,
    },
    {
      name: `game move with search material-forks and relation terms, ${label} (mean)`,
      value: round(mean(relationTimes), 2),
      unit: 'ms',
      note: `${round(mean(relationTimes) / mean(gameMoveTimes), 2)}x without them (${round(mean(gameMoveTimes), 2)} ms); median ${round(percentile(relationTimes, 0.5), 2)} ms, p95 ${round(percentile(relationTimes, 0.95), 2)} ms`,
    },
  ];
}

const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

function round(value: number, digits: number): number {
  return Number(value.toFixed(digits));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const sizeIndex = process.argv.indexOf('--size');
  const size = Number(process.argv[sizeIndex + 1] ?? 1000);
  if (process.argv.includes('--grow-only')) hierarchyDatabase(size);
  else {
    // A database grown in this process would leave its heap behind in the memory figures: grow it in another.
    if (!existsSync(cachedPath(size))) {
      const runTs = fileURLToPath(new URL('../bin/run-ts.js', import.meta.url));
      execFileSync(process.execPath, [runTs, fileURLToPath(import.meta.url), '--size', String(size), '--grow-only'], { stdio: ['ignore', 'ignore', 'inherit'] });
    }
    process.stdout.write(JSON.stringify(benchHierarchy(size)) + '\n');
  }
}
