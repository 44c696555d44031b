/**
 * Move patterns (issue 71; SYLPH, Finkelstein and Markovitch; docs/move-patterns.md): graph patterns over move graphs
 * (src/graph/moveGraph.ts), stored and retrieved by the same PatternStore and hierarchy as position patterns, in a
 * database of their own kind ('move-patterns', databaseKind.ts), as opponent models are.
 *
 * Learned from a strong side's choices, as opponent models learn: every position where it moved is a decision
 * between its legal moves.
 *   1. Patterns: seeds about the destination (which piece type moves and how safe it stands there; what it will
 *      attack or defend from there; the destination's exact square), then, from each CHOSEN move's graph,
 *      node-ordered induced subgraphs grown from the destination node (nodeOrder.ts), so that every induced
 *      pattern is about the move.
 *   2. Statistics, SYLPH's: a pattern's `uses` is how many legal moves it matched, its `updates` how many of those
 *      were the chosen move (updates / uses: how often a move matching it was the strong side's choice).
 *   3. Weights: a conditional logit over each decision's legal moves, a move's score the sum of its matching
 *      patterns' scores (the most-specific matches and their ancestors), fitted by AdaGrad with an L2 pull towards
 *      0; stored as weight = logistic(score). A pattern that every legal move of a decision matches (a pattern of
 *      the position alone) says nothing about the choice there and is left out of that decision.
 * Ranking a position's moves by the move patterns alone (morph agree --ranker move-patterns:FILE): each move's score.
 * Lessons from Morph's own searches: src/train/moveLessons.ts; the search's patterns=K look: MorphPlayer; a look at
 * the strongest: src/inspect/movePatterns.ts.
 */
import { writeFileSync } from 'node:fs';
import { boardFromFen, parseUciMove, uciMove, type Board } from '../chess/board.ts';
import { generateLegalMoves } from '../chess/movegen.ts';
import { EDGE_DIRECT, EDGE_DISCOVERED, EDGE_INDIRECT, LABEL_COUNT, SAFETY_DEFENDED, SAFETY_EN_PRISE, SAFETY_UNATTACKED, SQUARE_LABEL } from '../graph/labels.ts';
import { buildMoveGraph, MoveGraphPool, type MoveGraph } from '../graph/moveGraph.ts';
import { buildPositionGraph, PositionGraph } from '../graph/positionGraph.ts';
import { orderedSubpattern } from '../learn/nodeOrder.ts';
import { DESIG_NONE, exactDesig } from '../pattern/designation.ts';
import type { GraphPattern } from '../pattern/pattern.ts';
import { recordDatabaseKind } from '../store/databaseKind.ts';
import { getMetaJson, setMeta } from '../store/meta.ts';
import type { PatternRecord } from '../store/patternRecord.ts';
import { PatternStore } from '../store/patternStore.ts';
import { writeWholeFile } from '../store/wholeFile.ts';
import { Random } from '../util/random.ts';
import { decisionHistories, type Decision } from './decisions.ts';
import { scoreOfWeight, weightOfScore, withAncestors } from './opponentModel.ts';

export interface MovePatternSettings {
  /** Induced patterns per chosen move. */
  patternsPerDecision: number;
  /** Induced patterns have 2..maxSize nodes. */
  maxSize: number;
  /** Passes of the fitting. */
  passes: number;
  learningRate: number;
  /** L2 pull towards score 0. */
  shrinkage: number;
}

export const DEFAULT_MOVE_PATTERN_SETTINGS: MovePatternSettings = {
  patternsPerDecision: 2,
  maxSize: 5,
  passes: 4,
  learningRate: 0.3,
  shrinkage: 0.01,
};

const DESTINATION_SAFETIES = [SAFETY_UNATTACKED, SAFETY_DEFENDED, SAFETY_EN_PRISE];

/**
 * The seeds: for each destination safety, the moving piece's type (toMove piece -> destination), each relation the
 * destination will have (destination -> any label, by edge type), and the destination on each exact square.
 */
export function moveSeedPatterns(): GraphPattern[] {
  const seeds: GraphPattern[] = [];
  for (const safety of DESTINATION_SAFETIES) {
    for (let mover = 6; mover < SQUARE_LABEL; mover++) {
      seeds.push({ kind: 'graph', labels: [SQUARE_LABEL, mover], desigs: [DESIG_NONE, DESIG_NONE], edges: [[1, 0, EDGE_DIRECT]], safety: [safety, 0] });
    }
    for (let label = 0; label < LABEL_COUNT; label++) {
      for (const edge of [EDGE_DIRECT, EDGE_INDIRECT, EDGE_DISCOVERED]) {
        seeds.push({ kind: 'graph', labels: [SQUARE_LABEL, label], desigs: [DESIG_NONE, DESIG_NONE], edges: [[0, 1, edge]], safety: [safety, 0] });
      }
    }
    for (let square = 0; square < 64; square++) {
      seeds.push({ kind: 'graph', labels: [SQUARE_LABEL], desigs: [exactDesig(square)], edges: [], safety: [safety] });
    }
  }
  return seeds;
}

/**
 * A move pattern induced from a move graph: the first `size` nodes of a connected order from the destination
 * (nodeOrder.ts), the destination first. The destination always keeps its safety (what tells it from an empty
 * square), and its exact square only when the square names it (moveGraph.ts).
 */
export function inducedMovePattern(move: MoveGraph, size: number, rng: Random): GraphPattern {
  const { graph, destination } = move;
  const pattern = orderedSubpattern(graph, destination, size, rng);
  const safety = pattern.safety ?? new Array<number>(pattern.labels.length).fill(0);
  safety[0] = graph.nodeSafety[destination];
  pattern.safety = safety;
  const square = graph.nodeSquare[destination];
  pattern.desigs[0] = graph.squareToNode[square] === destination ? exactDesig(square) : DESIG_NONE;
  return pattern;
}

/** Move graphs of one position's moves, retrieved together (synchronous, never nested). */
const pool = new MoveGraphPool();
const beforeGraph = new PositionGraph();
/** Retrieval walks up to this many graphs at once (retrieval.ts). */
const TOGETHER = 32;

/** Each legal move of `board` (UCI) with the move patterns its move graph matches: the most-specific ones and their ancestors. */
export function movePatternMatches(store: PatternStore, board: Board): { move: string; patterns: PatternRecord[] }[] {
  const moves = generateLegalMoves(board);
  buildPositionGraph(board, beforeGraph);
  const result: { move: string; patterns: PatternRecord[] }[] = [];
  for (let start = 0; start < moves.length; start += TOGETHER) {
    const batch = moves.slice(start, start + TOGETHER);
    batch.forEach((move, k) => pool.build(k, board, move, beforeGraph));
    const retrievals = store.retrieveTogether(pool.first(batch.length));
    batch.forEach((move, k) => result.push({ move: uciMove(move), patterns: withAncestors(retrievals[k].matches) }));
  }
  return result;
}

export interface MovePatternSummary {
  decisions: number;
  /** Decisions with one legal move (nothing to learn). */
  forced: number;
  /** Positive moves learned from (a partner's: one a decision). */
  positives: number;
  patterns: number;
  /** Mean log-likelihood of the chosen move after fitting (0 perfect; -log(legal) random). */
  logLikelihood: number;
  seconds: { patterns: number; features: number; fitting: number };
  settings: MovePatternSettings;
}

/** One decision as the fitting sees it: move s has features[start[s] .. start[s+1]), dense feature indices. */
interface Case {
  start: Int32Array;
  features: Int32Array;
  chosen: number;
}

/**
 * One position's lesson for the move patterns: which of its moves were good (`positives`, UCI), among the moves
 * considered (`considered`; absent: every legal move). A partner's decision has one positive, its choice; a search
 * lesson (train/moveLessons.ts) the quiet moves whose followed value changed, among the position's quiet moves.
 */
export interface MoveLesson {
  board: Board;
  positives: readonly string[];
  considered?: ReadonlySet<string>;
}

/** A partner's decisions as lessons: each the chosen move among every legal move (replayed as they are iterated). */
export function* decisionLessons(decisions: readonly Decision[]): Generator<MoveLesson> {
  for (const [decision, history] of decisionHistories(decisions)) yield { board: history.board, positives: [decision.chosen] };
}

/** A set of lessons: `lessons()` iterates them (more than once), `count` says how many positions they are. */
export interface MoveLessons {
  lessons: () => Iterable<MoveLesson>;
  count: number;
}

/** A partner's decisions as a set of lessons (decisionLessons). */
export function partnerLessons(decisions: readonly Decision[]): MoveLessons {
  return { lessons: () => decisionLessons(decisions), count: decisions.length };
}

/** Learns move patterns from `decisions` into `store` (an empty store of any kind; the caller records the kind). */
export function learnMovePatterns(
  store: PatternStore,
  decisions: readonly Decision[],
  partial: Partial<MovePatternSettings> = {},
  seed = 1,
  onProgress?: (text: string) => void,
): MovePatternSummary {
  const { lessons, count } = partnerLessons(decisions);
  return learnMovePatternLessons(store, lessons, count, partial, seed, onProgress);
}

/**
 * Learns move patterns from lessons (`lessons()` iterates them; it is called twice, to induce and to match) into
 * `store`. Patterns are induced around each positive move; SYLPH's counts are over the considered moves; the
 * conditional logit takes each positive as a choice among its position's considered moves (so several positives
 * of one position share their evidence, as a multi-label softmax). A position with fewer than two considered moves is
 * counted forced and left out; one without positives adds to the counts only.
 */
export function learnMovePatternLessons(
  store: PatternStore,
  lessons: () => Iterable<MoveLesson>,
  lessonCount: number,
  partial: Partial<MovePatternSettings> = {},
  seed = 1,
  onProgress?: (text: string) => void,
): MovePatternSummary {
  const settings = { ...DEFAULT_MOVE_PATTERN_SETTINGS, ...partial };
  const rng = new Random(seed);
  const started = performance.now();
  store.transaction(() => {
    for (const pattern of moveSeedPatterns()) store.insert(pattern, 'seed', 0);
    for (const { board, positives } of lessons()) {
      for (const positive of positives) {
        const move = buildMoveGraph(board, parseUciMove(positive)!);
        if (move.destination < 0) continue;
        for (let i = 0; i < settings.patternsPerDecision; i++) {
          const pattern = inducedMovePattern(move, 2 + rng.int(settings.maxSize - 1), rng);
          if (pattern.labels.length >= 2) store.insert(pattern, 'forward', 0);
        }
      }
    }
  });
  const induced = performance.now();
  onProgress?.(`${store.size} move patterns from ${lessonCount} decisions in ${((induced - started) / 1000).toFixed(1)} s; matching`);
  // Dense feature indices over the patterns, and SYLPH's counts.
  const records = [...store.hierarchy.byId.values()];
  const dense = new Map<number, number>(records.map((record, k) => [record.id, k]));
  const available = new Float64Array(records.length);
  const chosenCount = new Float64Array(records.length);
  const seen = new Int32Array(records.length).fill(-1);
  const inAll = new Int32Array(records.length);
  const cases: Case[] = [];
  let forced = 0;
  let count = 0;
  let positiveMoves = 0;
  for (const { board, positives, considered } of lessons()) {
    count++;
    const all = movePatternMatches(store, board);
    const moves = considered === undefined ? all : all.filter((m) => considered.has(m.move));
    const chosen = positives.map((move) => moves.findIndex((m) => m.move === move)).filter((s) => s >= 0);
    if (moves.length < 2 || (considered === undefined && chosen.length === 0)) {
      forced++;
      continue;
    }
    // A feature every move has says nothing about the choice.
    for (const { patterns } of moves) {
      for (const record of patterns) {
        const f = dense.get(record.id)!;
        if (seen[f] !== count) {
          seen[f] = count;
          inAll[f] = 0;
        }
        inAll[f]++;
      }
    }
    const start = new Int32Array(moves.length + 1);
    const features: number[] = [];
    const isChosen = new Set(chosen);
    moves.forEach(({ patterns }, s) => {
      for (const record of patterns) {
        const f = dense.get(record.id)!;
        available[f]++;
        if (isChosen.has(s)) chosenCount[f]++;
        if (inAll[f] < moves.length) features.push(f);
      }
      start[s + 1] = features.length;
    });
    const shared = Int32Array.from(features);
    for (const s of isChosen) cases.push({ start, features: shared, chosen: s });
    positiveMoves += isChosen.size;
    if (count % 2000 === 0) onProgress?.(`${count} decisions matched`);
  }
  const matched = performance.now();
  onProgress?.(`${cases.length} choices in ${((matched - induced) / 1000).toFixed(1)} s; fitting`);
  const { scores, logLikelihood } = fitLogit(cases, records.length, settings, rng);
  store.transaction(() => {
    records.forEach((record, f) => {
      record.weight = weightOfScore(scores[f]);
      record.uses = available[f];
      record.updates = chosenCount[f];
      store.saveStats(record);
    });
  });
  const fitted = performance.now();
  return {
    decisions: lessonCount,
    forced,
    positives: positiveMoves,
    patterns: store.size,
    logLikelihood,
    seconds: { patterns: (induced - started) / 1000, features: (matched - induced) / 1000, fitting: (fitted - matched) / 1000 },
    settings,
  };
}

/** The conditional logit by AdaGrad over seeded shuffled passes; returns the scores and the mean log-likelihood after the last pass. */
function fitLogit(cases: readonly Case[], dims: number, settings: MovePatternSettings, rng: Random): { scores: Float64Array; logLikelihood: number } {
  const w = new Float64Array(dims);
  const squares = new Float64Array(dims);
  const order = cases.map((_, k) => k);
  let scoreOf = new Float64Array(64);
  /** Each legal move's score in case `c` at the weights `w`, into scoreOf; returns the highest. */
  const scoreMoves = ({ start, features }: Case): number => {
    const moves = start.length - 1;
    if (scoreOf.length < moves) scoreOf = new Float64Array(moves * 2);
    let top = -Infinity;
    for (let s = 0; s < moves; s++) {
      let score = 0;
      for (let i = start[s]; i < start[s + 1]; i++) score += w[features[i]];
      scoreOf[s] = score;
      if (score > top) top = score;
    }
    return top;
  };
  for (let pass = 0; pass < settings.passes; pass++) {
    for (let k = order.length - 1; k > 0; k--) {
      const j = rng.int(k + 1);
      [order[k], order[j]] = [order[j], order[k]];
    }
    for (const index of order) {
      const { start, features, chosen } = cases[index];
      const moves = start.length - 1;
      const top = scoreMoves(cases[index]);
      let z = 0;
      for (let s = 0; s < moves; s++) z += (scoreOf[s] = Math.exp(scoreOf[s] - top));
      // Gradient of the log-likelihood: the chosen move's features less the expected ones, each applied as it comes
      // (a feature in several moves gathers its parts before its step: the steps are summed per feature below).
      gradient.clear();
      for (let s = 0; s < moves; s++) {
        const p = scoreOf[s] / z - (s === chosen ? 1 : 0);
        if (p === 0) continue;
        for (let i = start[s]; i < start[s + 1]; i++) gradient.set(features[i], (gradient.get(features[i]) ?? 0) - p);
      }
      for (const [f, g0] of gradient) {
        const g = g0 - settings.shrinkage * w[f];
        squares[f] += g * g;
        w[f] += (settings.learningRate * g) / Math.sqrt(squares[f] + 1e-8);
      }
    }
  }
  let total = 0;
  for (const c of cases) {
    const top = scoreMoves(c);
    let z = 0;
    for (let s = 0; s < c.start.length - 1; s++) z += Math.exp(scoreOf[s] - top);
    total += scoreOf[c.chosen] - top - Math.log(z);
  }
  return { scores: w, logLikelihood: cases.length ? total / cases.length : 0 };
}
const gradient = new Map<number, number>();

export const MOVE_PATTERN_INFO_KEY = 'move_pattern_info';

/**
 * Learns move patterns from a set of lessons (a partner's choices: partnerLessons; the search's: quietMoveLessons)
 * and writes them, whole, to `out` (a 'move-patterns' database).
 */
export function buildMovePatterns(
  out: string,
  { lessons, count }: MoveLessons,
  info: Record<string, unknown>,
  settings: Partial<MovePatternSettings> = {},
  seed = 1,
  onProgress?: (text: string) => void,
  replace = false,
): MovePatternSummary {
  return writeWholeFile(out, { replace, writers: 'morph move-patterns' }, (temporary) => {
    const store = PatternStore.open(':memory:');
    try {
      const summary = learnMovePatternLessons(store, lessons, count, settings, seed, onProgress);
      store.transaction(() => {
        recordDatabaseKind(store.db, 'move-patterns');
        setMeta(store.db, MOVE_PATTERN_INFO_KEY, { ...info, ...summary });
        setMeta(store.db, 'seed', seed);
        setMeta(store.db, 'created_at', new Date().toISOString());
      });
      writeFileSync(temporary, store.db.serialize());
      return summary;
    } finally {
      store.close();
    }
  });
}

/** A move's score under the move patterns: the sum of its matching patterns' scores. */
export function movePatternScore(patterns: readonly PatternRecord[]): number {
  let score = 0;
  for (const record of patterns) score += scoreOfWeight(record.weight);
  return score;
}

/**
 * A move-pattern database opened read-only, ranking a position's moves by the move patterns alone (a
 * MovePatternRanker for the search's patterns=K look).
 */
export class MovePatterns {
  readonly name: string;

  private constructor(readonly store: PatternStore) {
    this.name = `move-patterns:${store.path}`;
  }

  static open(path: string): MovePatterns {
    return new MovePatterns(PatternStore.open(path, { readonly: true, kind: 'move-patterns' }));
  }

  info(): Record<string, unknown> | undefined {
    return getMetaJson(this.store.db, MOVE_PATTERN_INFO_KEY);
  }

  /** Every legal move of the position with its score, higher likelier to be a strong side's choice. */
  rank(fen: string): { move: string; score: number }[] {
    return this.rankBoard(boardFromFen(fen));
  }

  rankBoard(board: Board): { move: string; score: number }[] {
    return movePatternMatches(this.store, board).map(({ move, patterns }) => ({ move, score: movePatternScore(patterns) }));
  }

  close(): void {
    this.store.close();
  }
}
