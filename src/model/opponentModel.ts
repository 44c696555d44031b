/**
 * An opponent model: which legal move one player is likely to choose. It is a pattern database like Morph's
 * value database (same graphs, hierarchy and retrieval), read differently. Every legal move is played on the
 * compact board, as Morph's 1-ply player does, and the position it leads to is described by its most-specific
 * matching patterns (graph patterns and the material pattern). A pattern's weight w stands for a preference
 * score log(w / (1 - w)) (w = .5 is indifference); a move's score is the sum over its position's patterns,
 * and the probability of each move is the softmax of the scores. A move that mates, or ends the game in a
 * draw by rule, has a learned score of its own instead (those positions have nothing left to choose).
 *
 * Model databases record their kind (databaseKind.ts) and are refused where a value database is expected.
 */
import { applyMove, cloneBoard, uciMove, type Board } from '../chess/board.ts';
import { gameStatus, generateLegalMoves, isInsufficientMaterial } from '../chess/movegen.ts';
import { buildPositionGraph, PositionGraph } from '../graph/positionGraph.ts';
import { getMetaJson, getMeta } from '../store/meta.ts';
import type { PatternRecord } from '../store/patternRecord.ts';
import { PatternStore } from '../store/patternStore.ts';
import { SCHEMA_VERSION } from '../store/migrations.ts';
import Database from 'better-sqlite3';

/** Score of terminal successors, learned like pattern scores (stored in meta `model_terminal_scores`). */
export interface TerminalScores {
  checkmate: number;
  draw: number;
}

export type SuccessorKind = 'checkmate' | 'draw' | 'patterns';

export interface Successor {
  move: string;
  kind: SuccessorKind;
  /** The most-specific matches of the position after the move ('patterns' successors only). */
  patterns: PatternRecord[];
}

export interface ScoredMove {
  move: string;
  /** Preference score (a logit): higher is likelier. */
  score: number;
  /** Softmax of the scores over the position's legal moves. */
  probability: number;
}

/** Weights are kept away from 0 and 1 so that every score is finite. */
const WEIGHT_LIMIT = 1e-9;

export const scoreOfWeight = (weight: number): number => {
  const w = Math.min(1 - WEIGHT_LIMIT, Math.max(WEIGHT_LIMIT, weight));
  return Math.log(w / (1 - w));
};

export const weightOfScore = (score: number): number => 1 / (1 + Math.exp(-score));

export const TERMINAL_SCORES_KEY = 'model_terminal_scores';

/** A position and how often each position occurred in its game so far (a GameHistory is one). */
export interface PositionHistory {
  readonly board: Board;
  occurrences(board: Board): number;
}

/**
 * Which matches describe a position: only the most-specific ones (as Morph's value player uses them), or
 * every pattern it matches, which are the most-specific ones and all their ancestors in the hierarchy (a
 * subpattern of a matching pattern matches too), so general patterns back off the rare specific ones.
 */
export type FeatureSet = 'most-specific' | 'all';

/** Visit stamps by pattern id (hot path: no Set per position). */
let visited = new Int32Array(1 << 12);
let visitEpoch = 0;
const pending: PatternRecord[] = [];

function withAncestors(matches: readonly PatternRecord[]): PatternRecord[] {
  const epoch = ++visitEpoch;
  const result: PatternRecord[] = [];
  for (const record of matches) pending.push(record);
  while (pending.length > 0) {
    const record = pending.pop()!;
    if (record.id >= visited.length) {
      const grown = new Int32Array(Math.max(record.id + 1, visited.length * 2));
      grown.set(visited);
      visited = grown;
    }
    if (visited[record.id] === epoch) continue;
    visited[record.id] = epoch;
    result.push(record);
    for (const parent of record.parents) pending.push(parent);
  }
  return result;
}

/** Whether `board`, reached in the game of `history`, is drawn by rule (checkmate is checked first). */
export function isDrawnByRule(history: PositionHistory, board: Board): boolean {
  return (
    gameStatus(board) === 'stalemate' ||
    isInsufficientMaterial(board.squares) ||
    history.occurrences(board) >= 2 ||
    board.halfmoveClock >= 100
  );
}

/** The successors of a position: each legal move and what the model sees after it. */
export function successorsOf(
  store: PatternStore,
  history: PositionHistory,
  graph = new PositionGraph(),
  features: FeatureSet = 'most-specific',
): Successor[] {
  const board = history.board;
  const next: Board = cloneBoard(board);
  const successors: Successor[] = [];
  for (const move of generateLegalMoves(board)) {
    applyMove(board, move, next);
    const uci = uciMove(move);
    const status = gameStatus(next);
    if (status === 'checkmate') successors.push({ move: uci, kind: 'checkmate', patterns: [] });
    else if (isDrawnByRule(history, next)) {
      successors.push({ move: uci, kind: 'draw', patterns: [] });
    } else {
      // The matches array is reused by the next retrieval: copy it.
      const matches = store.retrieve(buildPositionGraph(next, graph)).matches;
      successors.push({ move: uci, kind: 'patterns', patterns: features === 'all' ? withAncestors(matches) : [...matches] });
    }
  }
  return successors;
}

/** Scores and softmax probabilities of successors, best first (ties in move order). */
export function scoreSuccessors(
  successors: readonly Successor[],
  terminal: TerminalScores,
  scoreOf: (record: PatternRecord) => number = (record) => scoreOfWeight(record.weight),
): ScoredMove[] {
  const scored = successors.map((s) => {
    let score = 0;
    if (s.kind === 'checkmate') score = terminal.checkmate;
    else if (s.kind === 'draw') score = terminal.draw;
    else for (const record of s.patterns) score += scoreOf(record);
    return { move: s.move, score, probability: 0 };
  });
  const top = Math.max(...scored.map((s) => s.score));
  let total = 0;
  for (const s of scored) total += (s.probability = Math.exp(s.score - top));
  for (const s of scored) s.probability /= total;
  return scored.sort((a, b) => b.score - a.score || (a.move < b.move ? -1 : 1));
}

export interface ModelInfo {
  player: string;
  source: string;
  games: number;
  decisions: number;
  seed: number;
}

/**
 * Models are only read, and a read-only open refuses an older schema; so a model written by an older build is
 * upgraded once here (a writer's open, which checks the kind before it writes and then applies migrations).
 */
function upgradeIfOlder(path: string): void {
  let version: number;
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      version = Number(db.pragma('user_version', { simple: true }));
    } finally {
      db.close();
    }
  } catch {
    return; // the read-only open that follows reports what is wrong
  }
  if (version >= 1 && version < SCHEMA_VERSION) PatternStore.open(path, { kind: 'opponent-model' }).close();
}

export class OpponentModel {
  private readonly graph = new PositionGraph();
  /** Preference scores by pattern id, computed once (a model is read-only). */
  private readonly scores: Float64Array;
  readonly scoreOf = (record: PatternRecord): number => this.scores[record.id];

  constructor(
    readonly store: PatternStore,
    readonly terminal: TerminalScores,
    readonly features: FeatureSet = 'most-specific',
  ) {
    let maxId = 0;
    for (const record of store.hierarchy.byId.values()) maxId = Math.max(maxId, record.id);
    for (const record of store.hierarchy.material.values()) maxId = Math.max(maxId, record.id);
    this.scores = new Float64Array(maxId + 1);
    for (const record of store.hierarchy.byId.values()) this.scores[record.id] = scoreOfWeight(record.weight);
    for (const record of store.hierarchy.material.values()) this.scores[record.id] = scoreOfWeight(record.weight);
  }

  /** Opens a model database read-only; a value database (or anything else) is refused in one line. */
  static open(path: string): OpponentModel {
    upgradeIfOlder(path);
    const store = PatternStore.open(path, { readonly: true, kind: 'opponent-model' });
    try {
      const terminal = getMetaJson<TerminalScores>(store.db, TERMINAL_SCORES_KEY) ?? { checkmate: 0, draw: 0 };
      const features = getMetaJson<{ features?: FeatureSet }>(store.db, 'model_settings')?.features ?? 'most-specific';
      return new OpponentModel(store, terminal, features);
    } catch (error) {
      store.close();
      throw error;
    }
  }

  get info(): ModelInfo {
    return getMetaJson<ModelInfo>(this.store.db, 'model_info') ?? { player: getMeta(this.store.db, 'player') ?? '?', source: '?', games: 0, decisions: 0, seed: 0 };
  }

  /** The legal moves of the position at the end of `history`, likeliest first. */
  rank(history: PositionHistory): ScoredMove[] {
    return scoreSuccessors(this.successors(history), this.terminal, this.scoreOf);
  }

  successors(history: PositionHistory): Successor[] {
    return successorsOf(this.store, history, this.graph, this.features);
  }

  close(): void {
    this.store.close();
  }
}
