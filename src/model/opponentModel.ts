/**
 * An opponent model: which legal move one player is likely to choose. It is a pattern database like Morph's
 * value database (same graphs, hierarchy and retrieval), read differently. Every legal move is played on the
 * compact board, as Morph's 1-ply player does, and the position it leads to is described by its most-specific
 * matching patterns (graph patterns and the material pattern). A pattern's weight w stands for a preference
 * score log(w / (1 - w)) (w = .5 is indifference); a move's score is the sum over its position's patterns,
 * and the probability of each move is the softmax of the scores. A move that mates, or ends the game in a
 * draw by rule, has a learned score of its own instead (those positions have nothing left to choose).
 *
 * Search "captures" (a setting of the model, as of a value database: search/search.ts) also plays each capture
 * the mover's opponent could answer with, and asks what the capture gains the capturer, as the model values
 * it: the score of the position after the capture (the capturer just moved there) less the score of the
 * position before it seen with the capturer as the side that just moved (what it keeps if it declines to
 * capture). A move's score is its own position's less the largest such gain, when one is positive. A move that
 * leaves a piece to be taken is marked down by what taking it is worth to a player like this one. (Both scores
 * of a gain describe positions from the same side, so the model's arbitrary zero cancels; the mover's own score
 * and the capturer's cannot simply be compared as v and 1 - v are in the value player.)
 *
 * Model databases record their kind (databaseKind.ts) and are refused where a value database is expected.
 */
import { applyMove, BLACK, cloneBoard, passTurn, uciMove, WHITE, type Board } from '../chess/board.ts';
import type { PositionHistory } from '../chess/history.ts';
import { gameStatus, generateLegalCaptures, generateLegalMoves, isInsufficientMaterial } from '../chess/movegen.ts';
import { buildPositionGraph, materialDifference, PositionGraph, PositionGraphPool } from '../graph/positionGraph.ts';
import { gameEnd } from '../chess/gameEnd.ts';
import { LINE_SHAPES, MODEL_SEARCH_MODES, QUIESCENCE, replyLine, worstCaptureReply, type LineShape, type ModelSearchMode } from '../search/search.ts';
import { fittedLogOdds } from '../eval/materialFit.ts';
import { isTapered, SQUARE_VALUES, squareLogOdds, TAPERED_SQUARE_VALUES, type LearnedSquares } from '../eval/squareValues.ts';
import { badInput } from '../util/errors.ts';
import { getMetaJson, getMeta } from '../store/meta.ts';
import type { PatternRecord } from '../store/patternRecord.ts';
import { PatternStore } from '../store/patternStore.ts';

/** Score of terminal successors, learned like pattern scores (stored in meta `model_terminal_scores`). */
export interface TerminalScores {
  checkmate: number;
  draw: number;
}

export type SuccessorKind = 'checkmate' | 'draw' | 'patterns';

/** A position as the model sees it: terminal, or the patterns it matches. */
export interface ModelPosition {
  kind: SuccessorKind;
  /** The matching patterns ('patterns' positions only). */
  patterns: PatternRecord[];
  /** Material difference P, N, B, R, Q, side that just moved less side to move ('patterns' positions only). */
  material?: Int8Array;
}

/**
 * With material "linear": a learned score per piece the side that just moved has more of (surplus) and fewer of
 * (deficit), P N B R Q, added per piece of difference (meta `model_material_scores`). The exact material
 * pattern matches only one whole difference; these let every capture of a knight teach what a knight is worth.
 *
 * With material "settled", also `settle`: piece values (fitted to the games' results, modelBuilder.ts), and a learned weight on
 * each move's settled loss (settledLoss below): how much of its material, at those values, the mover's
 * opponent wins back by captures and promotions, each side free to stop. A player that looks past its move
 * (alpha-beta with a quiescence, or an engine at depth 1) rarely leaves material to be taken, and one
 * pattern-matched capture reply (search "captures") sees only the first capture of an exchange.
 */
export interface MaterialScores {
  surplus: number[];
  deficit: number[];
  settle?: SettleScores;
}

export interface SettleScores {
  /** P N B R Q, in the model's own score units (positive). */
  values: number[];
  /** The score per unit of settled loss. */
  lossWeight: number;
  /** With material "two-ply": the score per unit of two-ply balance (twoPlyBalance below). */
  twoPlyWeight?: number;
  /**
   * With mobility (`morph model --mobility`): the scores per unit of the mover's and its opponent's mobility after
   * the move (mobilityAfter below).
   */
  mobilityWeights?: [number, number];
  /**
   * With material "two-ply", when learned: a value per piece type (P..K) and square, as the piece's own side
   * sees the board (SQUARE_VALUES, squareValueIndex), in the `values` units. The two-ply search then weighs a
   * position by its material and where its pieces stand (learnedLogOdds), as an engine's piece-square tables do.
   */
  squareValues?: number[];
  /**
   * With material "two-ply": the shape of its line (search.ts LINE_SHAPES, `morph model --line`); absent, as in
   * every model built before shapes existed, "quiescence".
   */
  line?: LineShape;
}

/** Scratch for learnedLogOdds (synchronous, never nested). */
const evaluationDifference = new Int8Array(5);

/**
 * A model's evaluation of `board` for the side that just moved there, in log-odds: its material difference at
 * `values`, plus, with square values, those of its pieces less those of its opponent's.
 */
export function learnedLogOdds(board: Board, values: ArrayLike<number>, squareValues?: ArrayLike<number>): number {
  const material = fittedLogOdds(values, materialDifference(board, evaluationDifference));
  return squareValues ? material + squareLogOdds(board, squareValues) : material;
}

/**
 * How freely each side moves after a move, as a classical engine's evaluation counts it: the legal moves of the
 * side that just moved into `position` (as if it were to move again, without an en-passant square) and of its
 * opponent, each over 10. Mates and draws by rule have their own scores and count 0.
 */
export function mobilityAfter(position: Board): [number, number] {
  return [generateLegalMoves(passTurn(position)).length / MOBILITY_UNIT, generateLegalMoves(position).length / MOBILITY_UNIT];
}
const MOBILITY_UNIT = 10;

export const MATERIAL_SCORES_KEY = 'model_material_scores';
/** Meta key of the square values fitted for play (a Morph policy's; LearnedSquares with how they were fitted). */
export const CHOICE_SQUARES_KEY = 'model_choice_squares';
export const MATERIAL_MODES = ['exact', 'linear', 'settled', 'two-ply'] as const;
export type MaterialMode = (typeof MATERIAL_MODES)[number];

/** A capture the mover's opponent can answer with, and the position it leads to (the capturer just moved). */
export interface CaptureReply extends ModelPosition {
  move: string;
}

export interface Successor extends ModelPosition {
  move: string;
  /** With settle values: the move's settled loss (settledLoss, at most 0); otherwise 0. */
  loss: number;
  /** With material "two-ply": the material balance a two-ply search finds (twoPlyBalance); otherwise 0. */
  twoPly: number;
  /** With mobility weights: the mover's and its opponent's mobility after the move (mobilityAfter); otherwise null. */
  mobility: readonly [number, number] | null;
  /** With search "captures": the opponent's capture replies (none after a mate or a draw); otherwise empty. */
  replies: CaptureReply[];
  /** With capture replies: the position after the move with the capturer as the side that just moved. */
  declined: ModelPosition | null;
}

export interface ScoredMove {
  move: string;
  /** Preference score (a logit): higher is likelier. */
  score: number;
  /** Softmax of the scores over the position's legal moves. */
  probability: number;
  /** Its logarithm, computed from the scores (exact where the probability underflows to 0). */
  logProbability: number;
  /** With search "captures": the capture reply whose gain lowered the score, when one did. */
  refutation?: string;
}

/** Weights are kept away from 0 and 1 so that every score is finite. */
const WEIGHT_LIMIT = 1e-9;

export const scoreOfWeight = (weight: number): number => {
  const w = Math.min(1 - WEIGHT_LIMIT, Math.max(WEIGHT_LIMIT, weight));
  return Math.log(w / (1 - w));
};

export const weightOfScore = (score: number): number => 1 / (1 + Math.exp(-score));

export const TERMINAL_SCORES_KEY = 'model_terminal_scores';
/** Meta key of the terminal features' AdaGrad sums [checkmate, draw], for a policy that goes on learning (policyLearner.ts). */
export const TERMINAL_SQUARES_KEY = 'model_terminal_squares';

export type { PositionHistory };

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

export function withAncestors(matches: readonly PatternRecord[]): PatternRecord[] {
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

/** How a move's position ends the game by rule, as the model scores it: a mate, a draw, or not at all. */
export type EndByRule = 'checkmate' | 'draw' | null;

export const endByRule = (history: PositionHistory, board: Board): EndByRule =>
  gameStatus(board) === 'checkmate' ? 'checkmate' : isDrawnByRule(history, board) ? 'draw' : null;

function describe(store: PatternStore, board: Pick<Board, 'squares' | 'turn'>, graph: PositionGraph, features: FeatureSet): ModelPosition {
  return describeMatches(store.retrieve(buildPositionGraph(board, graph)).matches, graph, features);
}

/** What the model sees of a position, from its graph and the most-specific patterns it matches. */
function describeMatches(matches: readonly PatternRecord[], graph: PositionGraph, features: FeatureSet): ModelPosition {
  // The matches array is the caller's: copy it.
  return { kind: 'patterns', patterns: features === 'all' ? withAncestors(matches) : [...matches], material: graph.material.slice() };
}

/** One graph for each legal move's position (successorsOf retrieves them together; synchronous, never nested). */
const successorGraphs = new PositionGraphPool();

/** The opponent's captures in `position` (the mover just moved there) and what the model sees after each. */
function captureReplies(store: PatternStore, position: Board, graph: PositionGraph, features: FeatureSet): CaptureReply[] {
  const replies: CaptureReply[] = [];
  const after = cloneBoard(position);
  for (const reply of generateLegalCaptures(position)) {
    applyMove(position, reply, after);
    // A capture changes the material, so the position after it cannot repeat an earlier one.
    const end = gameEnd(after, 1);
    const move = uciMove(reply);
    if (end === 'checkmate') replies.push({ move, kind: 'checkmate', patterns: [] });
    else if (end !== null) replies.push({ move, kind: 'draw', patterns: [] });
    else replies.push({ move, ...describe(store, after, graph, features) });
  }
  return replies;
}

/**
 * What the side that just moved into `position` loses to the other side's captures and promotions, each side
 * capturing in turn or stopping (the material searches' quiescence, search/search.ts), in `values` units: the
 * settled material balance less the balance on the board, at most 0. A mate by capture counts as the loss of
 * everything the mover has (the logistic's floor), a draw as a balance of 0.
 */
export function settledLoss(position: Board, values: ArrayLike<number>): number {
  const standing = learnedLogOdds(position, values);
  const valueForMover = (after: Board) => weightOfScore(learnedLogOdds(after, values));
  const worst = worstCaptureReply(position, weightOfScore(standing), valueForMover, QUIESCENCE);
  return worst === undefined ? 0 : Math.min(0, scoreOfWeight(worst.value) - standing);
}

/** A two-ply search's line for the side that just moved: its balance and the material where it ends. */
export interface TwoPlyLine {
  /** In the settle values' units (log-odds): the logistic's ceiling for a mate given, its floor for a mate allowed, 0 for a draw. */
  balance: number;
  /** The material difference where the line ends, P N B R Q, the mover less its opponent; null when the line ends the game. */
  difference: Int8Array | null;
  /** The position where the line ends (`position` itself when it ends the game by rule). */
  end: Board;
}

/**
 * The balance of the side that just moved into `position` after a two-ply search, by default with a quiescence
 * (search.ts replyLine: the opponent's best reply, any move, then the mover's captures, each side free to stop), in
 * `values` units (log-odds): the material at `values`, plus where the pieces stand with `squareValues`
 * (learnedLogOdds). The balance itself, not its change: between the moves of one position it
 * counts what the move takes, as well as the mover's own threats that no reply parries (a fork gains) and the
 * opponent's mates in one (the logistic's floor). A move that mates (`end`) is the ceiling, one that draws by
 * rule 0: the terminal scores then adjust them, rather than standing for them at every level of material.
 */
export function twoPlyLine(
  position: Board,
  values: ArrayLike<number>,
  end: EndByRule = null,
  squareValues?: ArrayLike<number>,
  shape: LineShape = 'quiescence',
): TwoPlyLine {
  if (end !== null) return { balance: end === 'checkmate' ? scoreOfWeight(1) : 0, difference: null, end: position };
  const valueForMover = (after: Board) => weightOfScore(learnedLogOdds(after, values, squareValues));
  const line = replyLine(position, valueForMover, shape);
  const balance = scoreOfWeight(line.value);
  // Material values never reach 0 or 1 on the logistic; a line worth exactly .5 may end in a draw or in level material.
  const ended = line.value === 0 || line.value === 1 || (line.value === 0.5 && gameEnd(line.end, 1) !== null);
  if (ended) return { balance, difference: null, end: line.end };
  const difference = materialDifference(line.end, new Int8Array(5));
  // materialDifference sees the side that just moved into the line's end: the mover when the same side is to move.
  if (line.end.turn !== position.turn) for (let k = 0; k < 5; k++) difference[k] = -difference[k];
  return { balance, difference, end: line.end };
}

export const twoPlyBalance = (
  position: Board,
  values: ArrayLike<number>,
  end: EndByRule = null,
  squareValues?: ArrayLike<number>,
  shape: LineShape = 'quiescence',
): number => twoPlyLine(position, values, end, squareValues, shape).balance;

/** The successors of a position: each legal move and what the model sees after it (and, with search "captures", after each capture reply). */
export function successorsOf(
  store: PatternStore,
  history: PositionHistory,
  graph = new PositionGraph(),
  features: FeatureSet = 'most-specific',
  search: ModelSearchMode = 'one-ply',
  settle?: Pick<SettleScores, 'values' | 'twoPlyWeight' | 'squareValues' | 'mobilityWeights' | 'line'>,
): Successor[] {
  const board = history.board;
  const next: Board = cloneBoard(board);
  const successors: Successor[] = [];
  // The successors the patterns describe, by index: their positions are retrieved together (retrieval.ts).
  const described: number[] = [];
  for (const move of generateLegalMoves(board)) {
    applyMove(board, move, next);
    const uci = uciMove(move);
    const end = endByRule(history, next);
    const twoPly = settle?.twoPlyWeight !== undefined ? twoPlyBalance(next, settle.values, end, settle.squareValues, settle.line) : 0;
    if (end !== null) successors.push({ move: uci, kind: end, patterns: [], loss: 0, twoPly, mobility: null, replies: [], declined: null });
    else {
      successorGraphs.build(described.length, next);
      described.push(successors.length);
      const replies = search === 'captures' ? captureReplies(store, next, graph, features) : [];
      // The graph speaks of the side that just moved as the side not to move: flipping the turn describes the
      // same position from the capturer's side.
      const declined = replies.length ? describe(store, { squares: next.squares, turn: next.turn === WHITE ? BLACK : WHITE }, graph, features) : null;
      const loss = settle ? settledLoss(next, settle.values) : 0;
      const mobility = settle?.mobilityWeights ? mobilityAfter(next) : null;
      successors.push({ move: uci, kind: 'patterns', patterns: [], loss, twoPly, mobility, replies, declined });
    }
  }
  const graphs = successorGraphs.first(described.length);
  const retrievals = store.retrieveTogether(graphs);
  described.forEach((index, k) => Object.assign(successors[index], describeMatches(retrievals[k].matches, graphs[k], features)));
  return successors;
}

/** The model's score of a position for the side that just moved there. */
function positionScore(
  position: ModelPosition,
  terminal: TerminalScores,
  scoreOf: (record: PatternRecord) => number,
  material: MaterialScores | null,
): number {
  if (position.kind === 'checkmate') return terminal.checkmate;
  if (position.kind === 'draw') return terminal.draw;
  let score = 0;
  for (const record of position.patterns) score += scoreOf(record);
  if (material && position.material) {
    for (let k = 0; k < 5; k++) {
      const d = position.material[k];
      score += d > 0 ? d * material.surplus[k] : -d * material.deficit[k];
    }
  }
  return score;
}

/**
 * Scores and softmax probabilities of successors, best first (ties in move order). A successor's score is its
 * own position's, less the largest gain of a capture reply when that is positive (see the top of this file).
 */
export function scoreSuccessors(
  successors: readonly Successor[],
  terminal: TerminalScores,
  scoreOf: (record: PatternRecord) => number = (record) => scoreOfWeight(record.weight),
  material: MaterialScores | null = null,
): ScoredMove[] {
  const scored = successors.map((s): ScoredMove => {
    const settle = material?.settle;
    let score = positionScore(s, terminal, scoreOf, material);
    if (settle) score += settle.lossWeight * s.loss + (settle.twoPlyWeight ?? 0) * s.twoPly;
    if (settle?.mobilityWeights && s.mobility) score += settle.mobilityWeights[0] * s.mobility[0] + settle.mobilityWeights[1] * s.mobility[1];
    let refutation: string | undefined;
    if (s.declined) {
      const declined = positionScore(s.declined, terminal, scoreOf, material);
      let largest = 0;
      for (const reply of s.replies) {
        const gain = positionScore(reply, terminal, scoreOf, material) - declined;
        if (gain > largest) {
          largest = gain;
          refutation = reply.move;
        }
      }
      score -= largest;
    }
    const scoredMove: ScoredMove = { move: s.move, score, probability: 0, logProbability: 0 };
    return refutation === undefined ? scoredMove : { ...scoredMove, refutation };
  });
  const top = Math.max(...scored.map((s) => s.score));
  let total = 0;
  for (const s of scored) total += (s.probability = Math.exp(s.score - top));
  const logTotal = Math.log(total);
  for (const s of scored) {
    s.probability /= total;
    s.logProbability = s.score - top - logTotal;
  }
  return scored.sort((a, b) => b.score - a.score || (a.move < b.move ? -1 : 1));
}

export interface ModelInfo {
  player: string;
  source: string;
  games: number;
  decisions: number;
  seed: number;
  /** A value database's own policy (ownPolicy.ts): the last of its games the model was built from. */
  lastGame?: number;
  /** A value database's own policy: when that database was created (its meta created_at), to know it again. */
  databaseCreated?: string;
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
    readonly search: ModelSearchMode = 'one-ply',
    readonly material: MaterialScores | null = null,
    /**
     * The square values this player's choices imply, with the piece values beside them (choiceEvaluation.ts):
     * fitted for play (CHOICE_SQUARES_KEY, a Morph policy's), else a two-ply model's own. Null when there are none.
     */
    readonly choiceSquares: LearnedSquares | null = null,
  ) {
    let maxId = 0;
    for (const record of store.hierarchy.byId.values()) maxId = Math.max(maxId, record.id);
    for (const record of store.hierarchy.material.values()) maxId = Math.max(maxId, record.id);
    this.scores = new Float64Array(maxId + 1);
    for (const record of store.hierarchy.byId.values()) this.scores[record.id] = scoreOfWeight(record.weight);
    for (const record of store.hierarchy.material.values()) this.scores[record.id] = scoreOfWeight(record.weight);
  }

  /**
   * Opens a model database read-only; a value database (or anything else) is refused in one line. `search`
   * overrides the model's own setting (to measure a look the model was not fitted with).
   */
  static open(path: string, search?: ModelSearchMode): OpponentModel {
    const store = PatternStore.open(path, { readonly: true, kind: 'opponent-model' });
    try {
      const terminal = getMetaJson<TerminalScores>(store.db, TERMINAL_SCORES_KEY) ?? { checkmate: 0, draw: 0 };
      const settings = getMetaJson<{ features?: FeatureSet; search?: string }>(store.db, 'model_settings');
      // Models written before search modes existed look one ply.
      const stored = settings?.search ?? 'one-ply';
      if (!(MODEL_SEARCH_MODES as readonly string[]).includes(stored)) throw badInput(`${path}: unknown model search "${stored}"`);
      const material = getMetaJson<MaterialScores>(store.db, MATERIAL_SCORES_KEY) ?? null;
      const settle = material?.settle;
      const choiceSquares = getMetaJson<LearnedSquares>(store.db, CHOICE_SQUARES_KEY) ?? (settle?.squareValues ? { values: settle.values, squareValues: settle.squareValues } : null);
      for (const squares of [settle?.squareValues, choiceSquares?.squareValues]) {
        if (squares && squares.length !== SQUARE_VALUES && !isTapered(squares)) {
          throw badInput(`${path}: ${squares.length} square values where a model has ${SQUARE_VALUES} (or ${TAPERED_SQUARE_VALUES}, tapered)`);
        }
      }
      if (choiceSquares && !(Array.isArray(choiceSquares.values) && choiceSquares.values.length === 5 && Array.isArray(choiceSquares.squareValues))) {
        throw badInput(`${path}: its square values have no five piece values beside them`);
      }
      if (settle?.line !== undefined && !(LINE_SHAPES as readonly string[]).includes(settle.line)) {
        throw badInput(`${path}: unknown model line "${settle.line}"`);
      }
      const features = settings?.features ?? 'most-specific';
      return new OpponentModel(store, terminal, features, search ?? (stored as ModelSearchMode), material, choiceSquares);
    } catch (error) {
      store.close();
      throw error;
    }
  }

  get info(): ModelInfo {
    return getMetaJson<ModelInfo>(this.store.db, 'model_info') ?? { player: getMeta(this.store.db, 'player') ?? '?', source: '?', games: 0, decisions: 0, seed: 0 };
  }

  /** The legal moves of the position at the end of `history`, likeliest first. */
  rank(history: PositionHistory, search: ModelSearchMode = this.search): ScoredMove[] {
    return scoreSuccessors(this.successors(history, search), this.terminal, this.scoreOf, this.material);
  }

  successors(history: PositionHistory, search: ModelSearchMode = this.search): Successor[] {
    return successorsOf(this.store, history, this.graph, this.features, search, this.material?.settle);
  }

  close(): void {
    this.store.close();
  }
}
