/**
 * Figures on a database grown by training (the synthetic ones of hierarchy.bench.ts flatter it: real generalised
 * patterns without exact squares, real weights and ages). Run in its own process, so memory is this database's:
 *   node bin/run-ts.js bench/trained.bench.ts                 measure the largest cached trained database
 *   node bin/run-ts.js bench/trained.bench.ts --db PATH       measure another database (a copy of it)
 *     --inserts-only                                         only the insertion figures (seconds, not minutes, at 100k)
 *     --warm N                                               N untimed inserts before the steady state's timed ones (default 1600; warm JIT and match plans, and
 *                                                            the GC of loading done): a learner's steady state
 *   node bin/run-ts.js bench/trained.bench.ts --build --hours H [--jobs N]
 *                                                            grow one (resumable: run it again to grow further)
 * The build step is `morph train --seed 1` against the default partner into bench/.cache/trained.db (a checkout's
 * own build, niced); the measurement runs on a copy taken with SQLite's backup API, so a build may go on meanwhile.
 * Figures: load, memory (in this process, and of a `morph uci` on the same copy), retrieval, 1-ply move (benchStoreFile), insertion p95 (subpatterns of positions and
 * generalisations of stored patterns, half each), deletion per game (the kept utility order against the scan), the learner's milliseconds per game
 * and what a learned game writes to the write-ahead log (docs/scaling.md).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { boardFromFen } from '../src/chess/board.ts';
import { buildPositionGraph } from '../src/graph/positionGraph.ts';
import { DEFAULT_CONFIG, loadConfig, mergeConfig, type LearningConfig } from '../src/learn/config.ts';
import { UtilityOrder, patternsToDelete } from '../src/learn/deletion.ts';
import { gameFromPgn } from '../src/learn/learningGame.ts';
import { learnFromGame } from '../src/learn/learner.ts';
import { orderedSubpattern } from '../src/learn/nodeOrder.ts';
import { maximumCommonSubpattern } from '../src/pattern/generalise.ts';
import type { GraphPattern } from '../src/pattern/pattern.ts';
import type { PatternRecord } from '../src/store/patternRecord.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { openMorphDatabase } from '../src/store/database.ts';
import { getMetaNumber } from '../src/store/meta.ts';
import { countPatterns } from '../src/store/patternRows.ts';
import { Random } from '../src/util/random.ts';
import { type Figure, percentile } from './figures.ts';
import { benchStoreFile } from './hierarchy.bench.ts';
import { MORPH_BIN, morphProcessMemory } from './processMemory.ts';
import { splitFens } from './positions.ts';

const CACHE = resolve(new URL('.', import.meta.url).pathname, '.cache');
export const TRAINED_DB = resolve(CACHE, 'trained.db');

/** Grows bench/.cache/trained.db by `morph train` (resuming it when present). */
export function buildTrainedDatabase(args: string[]): void {
  mkdirSync(CACHE, { recursive: true });
  execFileSync(process.execPath, [MORPH_BIN, 'train', '--db', TRAINED_DB, '--seed', '1', '--progress', 'lines',
    '--engine-timeout', '60000', ...args], { stdio: 'inherit' });
}

/** A consistent copy of the trained database (the backup API copes with a build writing to it). */
async function snapshotOf(path: string, dir: string): Promise<string> {
  const copy = join(dir, 'trained-copy.db');
  const source = new Database(path, { readonly: true, fileMustExist: true });
  try {
    await source.backup(copy);
  } finally {
    source.close();
  }
  openMorphDatabase(copy).close(); // brings a database grown by an older build to this schema
  return copy;
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));

/**
 * Untimed inserts between the inserts timed right after loading and those timed in a learner's steady state (with
 * the 400 timed first, about 150 games of a learner's inserts).
 */
const STEADY_AFTER = 1600;

/** What to measure: everything, or the insertion figures only; `warm` untimed inserts before the steady state's timed ones. */
export interface TrainedBenchOptions {
  insertsOnly?: boolean;
  warm?: number;
}

export async function benchTrained(database = TRAINED_DB, options: TrainedBenchOptions = {}): Promise<Figure[]> {
  if (database === TRAINED_DB && !existsSync(TRAINED_DB)) {
    process.stderr.write('no trained database yet: growing one of 200 games (see bench/trained.bench.ts --build)\n');
    buildTrainedDatabase(['--games', '200']);
  }
  const dir = mkdtempSync(join(tmpdir(), 'morph-trained-bench-'));
  try {
    const path = await snapshotOf(database, dir);
    // Read with two queries, not by loading the store: a loaded copy's garbage would count in the memory figure.
    const probe = openMorphDatabase(path, { readonly: true, quickCheck: false });
    const size = countPatterns(probe);
    const games = getMetaNumber(probe, 'games_played') ?? 0;
    probe.close();
    const label = `trained (${size} patterns, ${games} games)`;
    if (options.insertsOnly) return writeFigures(path, label, games, options);
    const figures = benchStoreFile(path, label, false);
    const processMemory = await morphProcessMemory(path, splitFens().test.slice(0, 200), 'captures-mates');
    if (processMemory) {
      const { afterLoadMB, afterMovesMB, peakMB, msPerMove } = processMemory;
      figures.push({
        name: `resident memory of morph uci, ${label}`,
        value: Math.round(afterMovesMB),
        unit: 'MB',
        note: `after 200 moves with search captures-mates (${round(msPerMove, 1)} ms a move); ${Math.round(afterLoadMB)} MB once loaded, at most ${Math.round(peakMB)} MB; the in-process figure above also counts this bench and its TypeScript loader`,
      });
    }
    // The targets for a trained database (at 100k patterns; this one may be smaller: see the label).
    const targets: Record<string, string> = {
      [`load ${label}`]: '<= 2',
      [`resident memory of morph uci, ${label}`]: '<= 250',
      [`retrieval per position, ${label} (mean)`]: '<= 0.2',
      [`1-ply move, ${label} (median)`]: '<= 5',
      [`1-ply move, ${label} (95th percentile)`]: '<= 15',
    };
    for (const figure of figures) if (targets[figure.name]) figure.target = targets[figure.name];
    figures.push(...writeFigures(path, label, games, options));
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Insertion, deletion and learning on the copy (it is changed; the cache is not). */
function writeFigures(path: string, label: string, games: number, options: TrainedBenchOptions): Figure[] {
  const store = PatternStore.open(path, { quickCheck: false });
  // Learning at the default creation rates: a database grown fast (training/recipes/grow-100k.sh) saved higher ones.
  const config: LearningConfig = mergeConfig(loadConfig(store.db), {
    subgraphsPerGame: DEFAULT_CONFIG.subgraphsPerGame,
    regression: { perGame: DEFAULT_CONFIG.regression.perGame },
    generalisation: { perGame: DEFAULT_CONFIG.generalisation.perGame },
    specialisation: { perGame: DEFAULT_CONFIG.specialisation.perGame },
  });
  const rng = new Random(7);

  // Insertion: patterns as learning proposes them, one at a time: node-ordered subgraphs of held-out positions,
  // and generalisations (the maximum common subpattern of two stored patterns of about the same size), which
  // have few exact squares and many superpatterns. CPU time beside wall time: the machine may be shared.
  const graphs = splitFens().test.map((fen) => buildPositionGraph(boardFromFen(fen)));
  const stored = [...store.hierarchy.byId.values()].filter((r) => r.kind === 'graph' && r.size >= 2);
  /** The i-th pattern to insert: a generalisation every other one when two stored patterns of a size allow it. */
  const propose = (i: number, rng: Random): { pattern: GraphPattern; generalised: boolean } => {
    if (i % 2 === 1) {
      const a = rng.pick(stored);
      const b = rng.pick(stored);
      const pattern = a !== b && Math.abs(a.size - b.size) <= 1 ? maximumCommonSubpattern(a.pattern as GraphPattern, b.pattern as GraphPattern) : null;
      if (pattern && pattern.labels.length >= 2) return { pattern, generalised: true };
    }
    const graph = rng.pick(graphs);
    return { pattern: orderedSubpattern(graph, rng.int(graph.nodeCount), 2 + rng.int(5), rng), generalised: false };
  };
  // The first insert builds the hierarchy's superpattern index (once per process): timed apart.
  let firstInsert = 0;
  for (let created = false; !created; ) {
    const graph = rng.pick(graphs);
    const pattern = orderedSubpattern(graph, rng.int(graph.nodeCount), 2 + rng.int(5), rng);
    const started = performance.now();
    created = store.insert(pattern, 'forward', games + 1).created;
    firstInsert = performance.now() - started;
  }
  /**
   * `count` inserts proposed from `rng`, each timed (wall and CPU time), in one transaction; the store writes their
   * links when it commits (PatternStore.transaction), timed too.
   */
  const timedInserts = (count: number, rng: Random) => {
    const times: number[] = [];
    const cpuTimes: number[] = [];
    let generalisations = 0;
    let commitStarted = 0;
    store.transaction(() => {
      for (let i = 0; i < count; i++) {
        const { pattern, generalised } = propose(i, rng);
        if (generalised) generalisations++;
        const cpuStarted = process.cpuUsage();
        const started = performance.now();
        store.insert(pattern, 'forward', games + 1);
        times.push(performance.now() - started);
        const cpu = process.cpuUsage(cpuStarted);
        cpuTimes.push((cpu.user + cpu.system) / 1000);
      }
      commitStarted = performance.now();
    });
    const commitMs = performance.now() - commitStarted;
    return { times: times.sort((a, b) => a - b), cpuTimes: cpuTimes.sort((a, b) => a - b), generalisations, commitMs };
  };
  const describeInserts = ({ times, cpuTimes, generalisations, commitMs }: ReturnType<typeof timedInserts>) =>
    `median ${round(percentile(times, 0.5), 3)} ms, max ${round(times.at(-1)!, 1)} ms; CPU time p95 ${round(percentile(cpuTimes, 0.95), 3)} ms, median ${round(percentile(cpuTimes, 0.5), 3)} ms; ${generalisations} of ${times.length} generalisations; writing their links and committing, ${round(commitMs, 1)} ms (${round(commitMs / times.length, 3)} ms an insert); ${times.filter((t) => t > 1).length} inserts over 1 ms`;
  // Right after loading, the load's garbage is still being collected and the code is not yet optimised: the
  // first few hundred inserts of a process are slower (p95 1.0-4.8 ms at 100k) than a learner's steady state,
  // which the target is about (docs/lab/2026-11.md, 2026-11-28 late night).
  const afterLoading = timedInserts(400, rng);
  // Then `warm` untimed inserts from their own generator (a learner inserts about 14 a game), so the steady
  // state's timed inserts are the same patterns whatever `warm` is.
  const warm = options.warm ?? STEADY_AFTER;
  const warmRng = new Random(8);
  for (let i = 0; i < warm; i += 100) {
    store.transaction(() => {
      for (let j = i; j < Math.min(warm, i + 100); j++) store.insert(propose(j, warmRng).pattern, 'forward', games + 1);
    });
  }
  const steady = timedInserts(400, new Random(9));
  // A process that inserts holds every pattern (Hierarchy.featureIndex): the learner's memory, not a player's.
  const learningRss = process.memoryUsage().rss;

  const insertFigures: Figure[] = [
    { name: `insert one pattern, ${label} (95th percentile)`, value: round(percentile(steady.times, 0.95), 3), unit: 'ms', target: '<= 1', note: `a learner's steady state: after ${400 + warm} inserts; ${describeInserts(steady)}` },
    { name: `insert one pattern right after loading, ${label} (95th percentile)`, value: round(percentile(afterLoading.times, 0.95), 3), unit: 'ms', note: `the process's first 400 inserts after the one that builds the index (${round(firstInsert, 1)} ms); ${describeInserts(afterLoading)}` },
    { name: `resident memory after inserting, ${label}`, value: Math.round(learningRss / 1e6), unit: 'MB', note: 'a learning process: every pattern held from the first insert' },
  ];
  if (options.insertsOnly) {
    store.close();
    return insertFigures;
  }

  // Deletion per game: each simulated game uses ~150 patterns (their last use moves), asks what to delete, and
  // forgets it, as the learner deletes it (kept in memory here: the store is not changed), so every pass judges
  // one game's change, not the patterns doomed in the passes before. The cap bites every game.
  const records = [...store.hierarchy.byId.values()];
  const order = new UtilityOrder(records);
  const gone = new Set<PatternRecord>();
  const orderTimes: number[] = [];
  const orderCpuTimes: number[] = [];
  const scanTimes: number[] = [];
  let deletedPerGame = 0;
  for (let g = 1; g <= 40; g++) {
    const game = games + g;
    const live = records.length - gone.size;
    const deletion = { ...config.deletion, cap: Math.max(100, live - 20) };
    const cpuStarted = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < 150; i++) {
      const record = records[rng.int(records.length)];
      if (gone.has(record)) continue;
      record.lastUsedGame = game;
      order.track(record);
    }
    const kept = order.patternsToDelete(live, game, deletion);
    orderTimes.push(performance.now() - started);
    const cpu = process.cpuUsage(cpuStarted);
    orderCpuTimes.push((cpu.user + cpu.system) / 1000);
    const liveRecords = records.filter((record) => !gone.has(record));
    const scanStarted = performance.now();
    const scanned = patternsToDelete(liveRecords, live, game, deletion);
    scanTimes.push(performance.now() - scanStarted);
    if (kept.length !== scanned.length) throw new Error(`deletion disagrees with the scan at game ${game}`);
    for (const record of kept) {
      order.forget(record);
      gone.add(record);
    }
    deletedPerGame += kept.length / 40;
  }
  orderTimes.sort((a, b) => a - b);
  orderCpuTimes.sort((a, b) => a - b);
  scanTimes.sort((a, b) => a - b);

  // The learner's milliseconds per game: the database's own last games learned again (one transaction each).
  const pgns = store.db.prepare('SELECT pgn, morph_color FROM games WHERE pgn IS NOT NULL ORDER BY id DESC LIMIT 20').all() as { pgn: string; morph_color: 'w' | 'b' }[];
  const learnTimes: number[] = [];
  const learnCpuStarted = process.cpuUsage();
  for (const { pgn, morph_color } of pgns) {
    const game = gameFromPgn(pgn, morph_color);
    const started = performance.now();
    learnFromGame(store, game, config, new Random(learnTimes.length));
    learnTimes.push(performance.now() - started);
  }
  const learnCpu = process.cpuUsage(learnCpuStarted);
  const learnCpuMean = (learnCpu.user + learnCpu.system) / 1000 / Math.max(1, learnTimes.length);
  learnTimes.sort((a, b) => a - b);
  // What one learned game writes to the write-ahead log (and copies into the file again at its checkpoint): the
  // log emptied before each of five more games, its size read after the game's commit (docs/scaling.md).
  const logBytes: number[] = [];
  for (const { pgn, morph_color } of pgns.slice(0, 5)) {
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    learnFromGame(store, gameFromPgn(pgn, morph_color), config, new Random(100 + logBytes.length));
    logBytes.push(statSync(`${store.path}-wal`).size);
  }
  store.close();
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  return [
    ...insertFigures,
    { name: `deletion pass per game, ${label} (median)`, value: round(percentile(orderTimes, 0.5), 3), unit: 'ms', target: '<= 5', note: `kept utility order (CPU median ${round(percentile(orderCpuTimes, 0.5), 3)} ms); the scan: ${round(percentile(scanTimes, 0.5), 2)} ms; ${Math.round(deletedPerGame)} deleted a game` },
    { name: `learner per game, ${label} (mean)`, value: round(mean(learnTimes), 1), unit: 'ms', note: `median ${round(percentile(learnTimes, 0.5), 1)} ms over ${learnTimes.length} games; CPU mean ${round(learnCpuMean, 1)} ms; default creation rates` },
    { name: `write-ahead log per learned game, ${label} (mean)`, value: round(mean(logBytes) / 1e6, 1), unit: 'MB', note: `${logBytes.length} games: ${logBytes.map((b) => round(b / 1e6, 1)).join(', ')} MB` },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv.includes('--build')) buildTrainedDatabase(process.argv.slice(process.argv.indexOf('--build') + 1));
  else {
    const at = process.argv.indexOf('--db');
    const warmAt = process.argv.indexOf('--warm');
    const warm = warmAt > 0 ? Number(process.argv[warmAt + 1]) : undefined;
    if (warm !== undefined && (!Number.isInteger(warm) || warm < 0)) {
      process.stderr.write('--warm takes a number of inserts (0 or more)\n');
      process.exit(2);
    }
    const options = { insertsOnly: process.argv.includes('--inserts-only'), warm };
    process.stdout.write(JSON.stringify(await benchTrained(at > 0 ? resolve(process.argv[at + 1]) : TRAINED_DB, options)) + '\n');
  }
}
