/**
 * Experiment (issue 69, item 2, "the signal"): graph-pattern terms learned by TreeStrap(minimax) (Veness, Silver,
 * Uther and Blair 2009): every position a search values moves its static value toward the search's deeper value of
 * it. Do the graph patterns then learn what the search sees (threats, forks, mates), so that the cheap static value
 * approaches the deeper one and a one-ply player chooses as the search does?
 *
 * The static value of a position P, for the side that just moved into it, in log-odds: its capture-settled material
 * (settledMaterialValue, the player's material evaluation with the database's fitted piece values) plus the graph
 * terms it reads (GraphTerms: at most 64 of its most-specific matches) plus a bias (learned beside the terms, as in
 * learnGraphTerms, never read in play). The target: the play search's value of P, one ply deeper than P itself:
 * every reply to P ranked by a MorphPlayer with the search (default the database's play search, material-forks; no
 * policy, no terms, contempt 0), P worth 1 minus the best reply's value. With --interior, also every reply's own
 * position (the search's interior nodes): its static value toward the value the search's looks gave it (captures
 * followed, mates, threats and own threats). The search reads no terms, so the targets do not move as the terms
 * learn: they are computed once (--save keeps them, --load reuses them) and the terms learned by SGD on the squared
 * error in log-odds (clipped), shared among the matches read (normalised LMS), each pattern's step annealed k / (n +
 * k) by its updates, over --epochs passes in a seeded random order. The last tenth of the games is held out: the
 * root mean square of target minus static, with and without the terms, says whether the static value approaches the
 * search's out of sample.
 *
 * Then move quality on the scored positions, paired, no policy anywhere:
 *   (a) the database as it plays (its play search) without terms, (b) with the learned terms, (b') with them given to
 *   other patterns at random (the control, shuffledTerms);
 *   (c) one ply of settled material: each move's position valued by its static value, without terms, with them, and
 *   with the shuffled ones; and for reference the paper's one-ply player (MorphPlayer search one-ply, every pattern)
 *   and 2-ply material alpha-beta (ab:2).
 *
 *   node bin/run-ts.js research/treestrap-terms.ts --db DB --positions positions/move-scores.jsonl \
 *     [--games N] [--every K] [--interior] [--save FILE | --load FILE] [--rate R] [--annealing K] [--clip C] [--epochs E]
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { Command } from 'commander';
import { PatternStore } from '../src/store/patternStore.ts';
import type { PatternRecord } from '../src/store/patternRecord.ts';
import { loadConfig, evaluationSettings } from '../src/learn/config.ts';
import { databasePieceValues, materialEvaluation } from '../src/eval/evaluate.ts';
import { MorphPlayer, scaledValue } from '../src/player/morphPlayer.ts';
import { normalizeSearch, type SearchSpec } from '../src/search/extensions.ts';
import { GraphTerms } from '../src/eval/graphTerms.ts';
import { DEFAULT_TERM_LEARNING, settledMaterialValue } from '../src/learn/graphTermLearning.ts';
import { gameFromPgn } from '../src/learn/learningGame.ts';
import { readInputLines } from '../src/util/inputLines.ts';
import { parseLabelledPositions } from '../src/agree/positions.ts';
import { meanWithInterval, positionQuality, type MoveQuality } from '../src/agree/metrics.ts';
import { createRanker, type MoveScore } from '../src/agree/rankers.ts';
import { GameHistory } from '../src/chess/history.ts';
import { applyMove, boardToFen, cloneBoard, parseUciMove, uciMove, type Board } from '../src/chess/board.ts';
import { gameEnd } from '../src/chess/gameEnd.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { buildPositionGraph, PositionGraphPool } from '../src/graph/positionGraph.ts';
import { Random } from '../src/util/random.ts';
import { shuffledTerms } from './shuffled-terms.ts';
import { readTermSamples, type TermSample } from './term-samples.ts';

const program = new Command()
  .requiredOption('--db <file>')
  .requiredOption('--positions <file>')
  .option('--games <n>', 'the first N games of the database, every position of both sides', Number, 200)
  .option('--from <n>', 'skip the first N games (to compute the targets in parts, in parallel; game numbers stay the database\'s order)', Number, 0)
  .option('--every <k>', 'only every k-th position of a game (its plies counted from 1)', Number, 1)
  .option('--search <mode>', 'the target search (default: the database\'s play search)')
  .option('--interior', "also the search's interior nodes: each reply's position toward its looked-at value")
  .option('--save <file>', 'write the targets (JSON lines) for --load')
  .option('--load <file>', 'read the targets instead of searching (same database)')
  .option('--rate <x>', 'SGD rate, in log-odds per log-odds of error (before annealing)', Number, 0.3)
  .option('--annealing <k>', 'annealing k: a term\'s step is k / (updates + k) of the first', Number, DEFAULT_TERM_LEARNING.annealing)
  .option('--clip <x>', 'an error counts at most this many log-odds (mates, near-won positions)', Number, 2)
  .option('--epochs <n>', 'passes over the targets', Number, 3)
  .option('--read-all', "diagnostic: learn from (and, one ply, read) every graph match, not GraphTerms' bounded read of 64; play still reads 64")
  .option('--no-measure', 'stop after the fit (for choosing the settings)')
  .option('--seed <n>', 'order of the passes, and the control\'s shuffle', Number, 1)
  .parse();
const opts = program.opts();

const store = PatternStore.open(opts.db, { readonly: true });
const config = loadConfig(store.db);
const evaluation = evaluationSettings(config);
const pieceValues = databasePieceValues(store);
const search: SearchSpec = normalizeSearch(opts.search ?? config.playSearch, '--search');
const valueForMover = (board: Board) => materialEvaluation(store, board, config.maturity, evaluation, pieceValues).value;
const logOdds = (value: number) => scaledValue(value, 'log-odds');
/** The settled material's log-odds of a position, for the side that just moved into it (1 and .5 where it ends). */
const settledLogOdds = (board: Board) => logOdds(settledMaterialValue(cloneBoard(board), valueForMover));
const graphIds = (board: Board) => store.retrieve(buildPositionGraph(board)).matches.filter((m) => m.kind === 'graph').map((m) => m.id);

const started = performance.now();
const seconds = () => ((performance.now() - started) / 1000).toFixed(0);
const rows = store.db.prepare('SELECT pgn, morph_color AS color FROM games WHERE pgn IS NOT NULL ORDER BY id').all() as { pgn: string; color: 'w' | 'b' }[];
const games = rows.slice(opts.from, opts.from + opts.games);
let samples: TermSample[];
if (opts.load) samples = readTermSamples([opts.load]);
else {
  samples = [];
  const pool = new PositionGraphPool();
  const searcher = new MorphPlayer(store, { maturity: config.maturity, evaluation, search, seed: 0, contempt: 0 });
  games.forEach(({ pgn, color }, index) => {
    const g = opts.from + index;
    const game = gameFromPgn(pgn, color);
    const history = new GameHistory(game.startFen);
    game.moves.forEach((uci, ply) => {
      history.play(uci);
      const position = history.board;
      if ((ply + 1) % opts.every !== 0 || history.verdict() !== null) return;
      // The position for the side that just moved: 1 - the best reply's value (the replies valued by the search).
      const replies = opts.interior ? searcher.rankMoves(history) : [searcher.bestRanked(history)];
      const best = Math.max(...replies.map((r) => r.value));
      samples.push({ game: g, root: true, settled: settledLogOdds(position), target: logOdds(1 - best), ids: graphIds(position), fen: boardToFen(position) });
      if (!opts.interior) return;
      // The interior nodes: each reply's position, retrieved together (the same matches as one by one).
      const after = cloneBoard(position);
      const valued = replies.filter((reply) => reply.source === 'patterns' && reply.mateIn === undefined);
      const settled = valued.map((reply, k) => {
        applyMove(position, parseUciMove(reply.move)!, after);
        pool.build(k, after);
        return settledLogOdds(after);
      });
      store.retrieveTogether(pool.first(valued.length)).forEach((retrieval, k) => {
        const ids = retrieval.matches.filter((m) => m.kind === 'graph').map((m) => m.id);
        samples.push({ game: g, root: false, settled: settled[k], target: logOdds(valued[k].value), ids });
      });
    });
    if ((g + 1) % 20 === 0) console.error(`game ${g + 1}: ${samples.length} positions, ${seconds()} s`);
  });
  if (opts.save) {
    // A line at a time: the interior nodes' lines together pass the longest string V8 allows.
    const file = openSync(opts.save, 'w');
    for (const sample of samples) writeSync(file, JSON.stringify(sample) + '\n');
    closeSync(file);
  }
}
const searchSeconds = Number(seconds());
const gameCount = samples.reduce((most, s) => Math.max(most, s.game + 1), 0);
const heldOutFrom = Math.floor(gameCount * 0.9);
const training = samples.filter((s) => s.game < heldOutFrom);
const heldOut = samples.filter((s) => s.game >= heldOutFrom);
console.error(`${samples.length} positions (${samples.filter((s) => s.root).length} roots) from ${gameCount} games; ${heldOut.length} held out; targets in ${searchSeconds} s`);

// The terms, by SGD on the squared error in log-odds. read() wants records; it looks at kind and id alone.
const asRecords = (ids: number[]) => ids.map((id) => ({ kind: 'graph', id }) as PatternRecord);
/** The matches a position's terms are read from: GraphTerms' bounded read, or with --read-all every one. */
const readIds = (terms: GraphTerms, ids: number[]): number[] => (opts.readAll ? ids : terms.read(asRecords(ids)).map((r) => r.id));
const termSum = (terms: GraphTerms, ids: number[]) => readIds(terms, ids).reduce((sum, id) => sum + (terms.get(id)?.term ?? 0), 0);
const BIAS_MEMORY = 2000;
const clip = (x: number) => Math.max(-opts.clip, Math.min(opts.clip, x));
const staticValue = (terms: GraphTerms, s: TermSample) => s.settled + terms.bias + termSum(terms, s.ids);
const terms = new GraphTerms();
const random = new Random(opts.seed);
const order = training.map((_, i) => i);
for (let epoch = 0; epoch < opts.epochs; epoch++) {
  for (let i = order.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  let squared = 0;
  for (const k of order) {
    const s = training[k];
    const error = clip(s.target - staticValue(terms, s));
    squared += error * error;
    terms.biasUpdates++;
    terms.bias += (opts.rate * error) / Math.min(terms.biasUpdates, BIAS_MEMORY);
    const read = readIds(terms, s.ids);
    if (read.length === 0) continue;
    const share = (opts.rate * error) / read.length;
    for (const id of read) terms.add(id, (share * opts.annealing) / ((terms.get(id)?.updates ?? 0) + opts.annealing));
  }
  console.error(`epoch ${epoch + 1}: training rms error ${Math.sqrt(squared / order.length).toFixed(4)} (clipped), terms ${terms.size}, bias ${terms.bias.toFixed(3)}, ${seconds()} s`);
}
const control = shuffledTerms(terms, opts.seed);
/** Root mean square of target minus static (clipped as learned), over `set`, as `valued` values a position. */
const rms = (set: TermSample[], valued: (s: TermSample) => number) => Math.sqrt(set.reduce((sum, s) => sum + clip(s.target - valued(s)) ** 2, 0) / set.length);
const meanBias = training.reduce((sum, s) => sum + clip(s.target - s.settled), 0) / training.length;
const fit = {
  settledAlone: rms(heldOut, (s) => s.settled),
  settledPlusMeanError: rms(heldOut, (s) => s.settled + meanBias),
  withTerms: rms(heldOut, (s) => staticValue(terms, s)),
  withShuffled: rms(heldOut, (s) => staticValue(control, s)),
  trainingWithTerms: rms(training, (s) => staticValue(terms, s)),
  trainingSettledAlone: rms(training, (s) => s.settled),
  heldOutChanged: heldOut.filter((s) => Math.abs(s.target - s.settled) > 1e-6).length / Math.max(1, heldOut.length),
};
const magnitudes = [...terms.entries()].map(([, t]) => Math.abs(t.term)).sort((a, b) => a - b);
console.error(`terms ${terms.size}, median |term| ${magnitudes[magnitudes.length >> 1]?.toFixed(3)}, max ${magnitudes.at(-1)?.toFixed(3)}; held-out rms ${JSON.stringify(fit)}`);

if (!opts.measure) process.exit(0);

// Move quality on the scored positions, paired.
const positions = parseLabelledPositions(readInputLines(opts.positions)).positions.filter((p) => p.scores);
function playerQualities(playSearch: SearchSpec, graphTerms?: GraphTerms): MoveQuality[] {
  const player = new MorphPlayer(store, { maturity: config.maturity, evaluation, search: playSearch, seed: 0, ...(graphTerms ? { graphTerms } : {}) });
  return positions.map((p) => {
    const ranked = player.rankMoves(new GameHistory(p.fen));
    return positionQuality(ranked.map((r) => ({ move: r.move, value: player.choiceScore(r) })), p.scores!);
  });
}
/** One ply of settled material: each move's position by its static value (its terms' sum without the bias). */
function settledOnePly(graphTerms?: GraphTerms): MoveQuality[] {
  return positions.map((p) => {
    const board = new GameHistory(p.fen).board;
    const next = cloneBoard(board);
    const values: MoveScore[] = generateLegalMoves(board).map((move) => {
      applyMove(board, move, next);
      const over = gameEnd(next, 1) !== null;
      const term = graphTerms && !over ? termSum(graphTerms, graphIds(next)) : 0;
      return { move: uciMove(move), value: settledLogOdds(next) + term };
    });
    return positionQuality(values, p.scores!);
  });
}
const abTwo = createRanker('ab:2');
const players: [string, MoveQuality[]][] = [
  [`(a) ${config.playSearch}, no terms`, playerQualities(config.playSearch)],
  [`(b) ${config.playSearch}, TreeStrap terms`, playerQualities(config.playSearch, terms)],
  [`(b') ${config.playSearch}, shuffled terms`, playerQualities(config.playSearch, control)],
  ['(c) one ply of settled material, no terms', settledOnePly()],
  ['(c) one ply of settled material, TreeStrap terms', settledOnePly(terms)],
  ["(c') one ply of settled material, shuffled terms", settledOnePly(control)],
  ['one-ply (the paper\'s player, every pattern)', playerQualities('one-ply')],
  ['ab:2', positions.map((p) => positionQuality(abTwo.score(p.fen), p.scores!))],
];
abTwo.close();
const f = (x: number) => x.toFixed(2);
const loss = (q: MoveQuality[]) => meanWithInterval(q.map((x) => x.meanLoss));
const paired = (a: number, b: number) => {
  const d = meanWithInterval(players[a][1].map((q, i) => q.meanLoss - players[b][1][i].meanLoss));
  return { of: players[a][0], against: players[b][0], difference: f(d.mean), interval: d.interval.map(f) };
};
console.log(JSON.stringify({
  db: opts.db, search, games: gameCount, interior: samples.some((s) => !s.root), positions: samples.length, roots: samples.filter((s) => s.root).length,
  settings: { rate: opts.rate, annealing: opts.annealing, clip: opts.clip, epochs: opts.epochs, seed: opts.seed },
  terms: terms.size, medianAbsTerm: magnitudes[magnitudes.length >> 1], bias: terms.bias, fit, searchSeconds, seconds: Number(seconds()),
  players: players.map(([name, q]) => ({ name, meanLoss: f(loss(q).mean), interval: loss(q).interval.map(f), blunder: (q.reduce((s, x) => s + x.blunder, 0) / q.length).toFixed(3) })),
  paired: [paired(1, 0), paired(2, 0), paired(4, 3), paired(5, 3), paired(3, 7), paired(4, 7), paired(0, 7), paired(6, 7)],
}));
store.close();
