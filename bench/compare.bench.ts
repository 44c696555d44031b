/**
 * Retrieval and 1-ply move figures of one database, for comparing two builds on a shared machine: CPU time beside
 * wall time (other jobs inflate wall time, much less CPU time), and a fingerprint of the retrieval results, so two
 * builds can be checked to return the same patterns in the same order. Opens the database read-only.
 *   node bin/run-ts.js bench/compare.bench.ts --db PATH [--rounds N]
 * To compare with another commit: `git archive COMMIT | tar -x -C DIR`, link node_modules into DIR, copy this file
 * there, and run the two alternately, each in its own process, several times; compare medians.
 */
import { pathToFileURL } from 'node:url';
import { boardFromFen } from '../src/chess/board.ts';
import { GameHistory } from '../src/chess/history.ts';
import { buildPositionGraph } from '../src/graph/positionGraph.ts';
import { MorphPlayer } from '../src/player/morphPlayer.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { percentile } from './figures.ts';
import { splitFens } from './positions.ts';

const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;
const round = (value: number, digits: number) => Number(value.toFixed(digits));

export function compareFigures(path: string, rounds: number): Record<string, number | string> {
  const rssBefore = process.memoryUsage().rss;
  let cpu = process.cpuUsage();
  let started = performance.now();
  const store = PatternStore.open(path, { readonly: true, quickCheck: false });
  const loadSeconds = (performance.now() - started) / 1000;
  const loadCpuSeconds = cpuMs(process.cpuUsage(cpu)) / 1000;
  const rssLoaded = process.memoryUsage().rss;
  const { test, train } = splitFens();
  const graphs = test.map((fen) => buildPositionGraph(boardFromFen(fen)));
  // Warm up: the JIT, and plans compiled on first use.
  const warmPlayer = new MorphPlayer(store, { maturity: 0, seed: 2, search: 'one-ply' });
  for (const fen of test.slice(0, 200)) warmPlayer.choose(new GameHistory(fen));
  for (const graph of graphs) store.retrieve(graph);

  const times: number[] = [];
  cpu = process.cpuUsage();
  for (let r = 0; r < rounds; r++) {
    for (const graph of graphs) {
      started = performance.now();
      store.retrieve(graph);
      times.push(performance.now() - started);
    }
  }
  const retrievalCpu = cpuMs(process.cpuUsage(cpu)) / times.length;
  times.sort((a, b) => a - b);

  // One ply, whatever the database's search mode (a new database's is captures).
  const player = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'one-ply' });
  const moves: number[] = [];
  cpu = process.cpuUsage();
  for (const fen of test.slice(0, 200)) {
    const history = new GameHistory(fen);
    started = performance.now();
    player.choose(history);
    moves.push(performance.now() - started);
  }
  const moveCpu = cpuMs(process.cpuUsage(cpu)) / moves.length;
  moves.sort((a, b) => a - b);

  // The ids of every retrieval's matches in the order returned, over held-out and training positions.
  let fingerprint = 0;
  let matches = 0;
  let tested = 0;
  for (const fen of [...test, ...train]) {
    const retrieval = store.retrieve(buildPositionGraph(boardFromFen(fen)));
    for (const record of retrieval.matches) fingerprint = (Math.imul(fingerprint, 31) + record.id) | 0;
    matches += retrieval.matches.length;
    tested += retrieval.tested;
  }
  const patterns = store.size;
  const rssEnd = process.memoryUsage().rss;
  store.close();
  return {
    patterns,
    loadSeconds: round(loadSeconds, 3),
    loadCpuSeconds: round(loadCpuSeconds, 3),
    residentMBAfterLoad: Math.round(rssLoaded / 1e6),
    databaseMB: Math.round((rssLoaded - rssBefore) / 1e6),
    residentMBAtEnd: Math.round(rssEnd / 1e6),
    retrievalMeanMs: round(times.reduce((a, b) => a + b, 0) / times.length, 4),
    retrievalMedianMs: round(percentile(times, 0.5), 4),
    retrievalP95Ms: round(percentile(times, 0.95), 4),
    retrievalCpuMs: round(retrievalCpu, 4),
    moveMedianMs: round(percentile(moves, 0.5), 2),
    moveP95Ms: round(percentile(moves, 0.95), 2),
    moveCpuMs: round(moveCpu, 2),
    fingerprint,
    matches,
    tested,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--db');
  const roundsAt = process.argv.indexOf('--rounds');
  const rounds = roundsAt > 0 ? Number(process.argv[roundsAt + 1]) : 5;
  if (at < 0 || !process.argv[at + 1] || !(Number.isInteger(rounds) && rounds > 0)) {
    console.error('usage: node bin/run-ts.js bench/compare.bench.ts --db PATH [--rounds N]');
    process.exit(2);
  }
  process.stdout.write(JSON.stringify(compareFigures(process.argv[at + 1], rounds)) + '\n');
}
