/**
 * Morph's move choice (reference section 5): one ply. Every legal move is played on the compact board and the
 * resulting position judged: a mate scores 1; stalemate, insufficient material, threefold repetition and the
 * 50-move rule score .5, and so does a return to a position already seen in the game (the opponent can make
 * it a threefold); anything else is valued by its patterns. The search's extensions (search/extensions.ts) look
 * further: with `captures` a move is then worth no more than what the opponent's best capture leaves it; with
 * `quiescence`, what the captures in turn leave; with `material`, every position is valued by its material; with
 * `mates=N`, a move is worth 0 when the opponent then mates by checks; with `threats=N`, no more than what the
 * opponent's threats leave, and with `own-threats` what its own threats surely win; with `patterns=K`, the K quiet
 * moves the move patterns rank highest are followed through every reply too. The best move is played, ties
 * broken by a seeded random choice; with `bare-king`, a bare king is mated by the rules' order instead
 * (bareKing.ts). Given a move policy (a
 * model of a strong player's choices, src/model/policy.ts), a move is chosen by its value (with the material
 * searches, its value's log-odds) plus the policy's weighted log-probability for it. Given a
 * model of the opponent (src/model/predictedReplies.ts), a move is also worth no more than what each reply the
 * model predicts leaves it.
 */
import { applyMove, cloneBoard, parseUciMove, uciMove, type Board, type CompactMove } from '../chess/board.ts';
import { generateLegalMoves } from '../chess/movegen.ts';
import { gameEnd, type GameEnd } from '../chess/gameEnd.ts';
import { GameHistory, historyAfter, type PositionHistory } from '../chess/history.ts';
import { buildPositionGraph, PositionGraph, PositionGraphPool } from '../graph/positionGraph.ts';
import type { GamePlayer, GamePosition } from '../engines/gamePlayer.ts';
import type { PatternStore } from '../store/patternStore.ts';
import { Random } from '../util/random.ts';
import { badInput } from '../util/errors.ts';
import { databasePieceValues, evaluateGraph, evaluationOf, materialEvaluation, type PositionEvaluation } from '../eval/evaluate.ts';
import type { PieceValues } from '../eval/materialFit.ts';
import type { LearnedSquares } from '../eval/squareValues.ts';
import type { EvaluationSettings } from '../eval/evaluation.ts';
import type { GraphTerms } from '../eval/graphTerms.ts';
import { storedRelationWeights } from '../eval/relationTerms.ts';
import { logistic } from '../eval/combine.ts';
import { evaluationSettings, loadConfig } from '../learn/config.ts';
import { bareKingMove } from '../search/bareKing.ts';
import { SearchMemory } from '../search/searchMemory.ts';
import {
  followedThroughReplies,
  isFollowed,
  MateLookBoards,
  shortestMateByChecks,
  threatensAnything,
  unparriedThreat,
  fullWidthValue,
  worstCaptureReply,
  worstThreatReply,
  type Refutation,
} from '../search/search.ts';
import {
  captureLook,
  defaultContempt,
  defaultPolicyWeight,
  extensionsOf,
  formatSearch,
  looksPastTheMove,
  movePatternsNeeded,
  type SearchExtensions,
  type SearchSpec,
  windowDependent,
} from '../search/extensions.ts';

/** Values closer than this count as equal when choosing among the best moves (Morph's values are sums of floats). */
export const TIE_TOLERANCE = 1e-12;

/**
 * How far below every other move a move the look proved lost comes (the opponent mates, at once or by checks): whatever the
 * policy says, as a move that mates is played whatever it says. A scaled value is at most about 28 from 0 and a
 * policy's term a few units at most, so this keeps such moves last and still ordered among themselves.
 */
const PROVEN_LOSS_PENALTY = 1000;

/**
 * How much less a longer proven mate is penalised, per move of its length: when every move loses to a mate,
 * the one whose mate is longest comes first (an opponent may not find it), and the rest of the score orders
 * moves whose mates are equally long.
 */
const MATE_LENGTH_STEP = 100;

/** The penalty of a move whose refutation is a mate in `mateIn` of the opponent's moves. */
export const provenLossPenalty = (mateIn = 1): number => PROVEN_LOSS_PENALTY - MATE_LENGTH_STEP * (mateIn - 1);

/**
 * What a policy's square values count (MorphPlayerOptions.squareWeight). Measured against ab:2,q, 200 games,
 * paired by opening on one database (docs/lab/2026-11.md, 2026-11-28): .5 scored +.083 a game over none, .25
 * +.072, 1 -.025.
 */
export const SQUARE_WEIGHT = 0.5;

/**
 * How a move's value enters its score beside the policy's log-probability: as it is, or as its log-odds. With the
 * material searches, log-odds, both terms then in log units: near .5 the policy counts a quarter of what it did on
 * the probability scale, and far from .5 a pawn still counts (.950 to .961 moves the value .01, its log-odds .26).
 * Measured +.14 and +.09 a game against ab:2,q, most of it the first effect (docs/lab/).
 */
export type ValueScale = 'probability' | 'log-odds';

/** Values this close to 0 or 1 count as that far from it, so that a mate's value, 1, has finite log-odds (about 27.6). */
const LOG_ODDS_EDGE = 1e-12;

/** Kept below a bound when a value is compared with it after scaling, so that rounding never cuts a tie. */
const ROUNDING_MARGIN = 1e-9;

/** A value as it enters a move's score on `scale` (choiceScore). */
export function scaledValue(value: number, scale: ValueScale): number {
  if (scale === 'probability') return value;
  const clamped = Math.min(1 - LOG_ODDS_EDGE, Math.max(LOG_ODDS_EDGE, value));
  return Math.log(clamped / (1 - clamped));
}

/** The value whose scaledValue on `scale` is `score` (on the probability scale the score itself, not clamped). */
export function valueOfScaled(score: number, scale: ValueScale): number {
  return scale === 'probability' ? score : logistic(score);
}

/** What a move is chosen by: its (scaled) value, plus the policy's term when there is one; a proven loss comes last. */
export function choiceScore(r: RankedMove, scale: ValueScale): number {
  return (
    scaledValue(r.value, scale) + (r.graphTerm ?? 0) + (r.policy ?? 0) - (r.refutation?.source === 'checkmate' ? provenLossPenalty(r.refutation.mateIn) : 0)
  );
}

/**
 * Why a move got its value: the game ends, the move returns to a position already seen in the game
 * ('repetition'), or the patterns of the position it leads to.
 */
export type ValueSource = GameEnd | 'repetition' | 'patterns';

export interface RankedMove {
  move: string;
  value: number;
  source: ValueSource;
  /** The pattern evaluation of the position after the move, when that position is valued by patterns. */
  evaluation?: PositionEvaluation;
  /** Search "captures": the opponent's capture that set the value (absent when no capture lowers it). */
  refutation?: Refutation;
  /** With a move policy: its weight times the log-probability it gives the move, added to the value when choosing. */
  policy?: number;
  /**
   * With graph terms: the learned log-odds the graph patterns of the move's own position add to its value when
   * choosing (eval/graphTerms.ts).
   */
  graphTerm?: number;
  /**
   * The move starts a mate by checks that Morph forces in this many of its own moves (2 or more: a mate at once is
   * source 'checkmate'); its value is then 1 and it is played whatever the policy says (ownMate).
   */
  mateIn?: number;
}

/** A position the player valued by its patterns, for the side that just moved there (positionsValuedFor). */
export interface ValuedPosition {
  board: Board;
  evaluation: PositionEvaluation;
}

/**
 * A prior over the legal moves of a position, learned from some player's choices (src/model/policy.ts). Its
 * weighted log-probabilities break the near-ties and outweigh the small differences of the learned values.
 */
export interface MovePolicy {
  readonly name: string;
  /**
   * How much one unit of log-probability counts against one unit of value; when absent, the default for the
   * search the player plays (search.ts, defaultPolicyWeight).
   */
  readonly weight?: number;
  /** The log-probability of each legal move of the position at the end of `history`, by UCI move. */
  logProbabilities(history: GameHistory): ReadonlyMap<string, number>;
  /**
   * The square values the policy's player's choices imply (src/model/choiceEvaluation.ts): the material searches
   * add them, scaled to Morph's piece values (squareWeight), to the fitted piece values' log-odds.
   */
  readonly squares?: LearnedSquares;
}

/**
 * Move patterns (src/model/movePatterns.ts): a score for each legal move of a position, higher for the moves they
 * predict are worth following. The search's patterns=K look follows the K quiet moves they rank highest.
 */
export interface MovePatternRanker {
  readonly name: string;
  /** Every legal move of `board` (UCI) with its score. */
  rankBoard(board: Board): { move: string; score: number }[];
}

/**
 * A model of the opponent's choices (src/model/predictedReplies.ts): the player looks at the replies it finds
 * likeliest, as the captures search looks at captures.
 */
export interface ReplyPredictor {
  readonly name: string;
  /** The opponent's likeliest replies, best first, in the position at the end of `history` (UCI moves). */
  likeliestReplies(history: PositionHistory): string[];
}

export interface MorphPlayerOptions {
  /** Patterns with fewer updates are ignored in play (reference section 6, maturity). */
  maturity: number;
  seed: number;
  /** How matched patterns combine into a value; default: the database's learning config. */
  evaluation?: EvaluationSettings;
  /**
   * How far to look: a preset's name or a list of extensions (search/extensions.ts); default: the database's play
   * search (its config's playSearch).
   */
  search?: SearchSpec;
  /** A move prior added when choosing; default none. */
  policy?: MovePolicy;
  /**
   * With a policy that has square values and a material search with a material prior: what they count, times
   * the ratio of Morph's piece values to theirs; 0 leaves them out. Default SQUARE_WEIGHT.
   */
  squareWeight?: number;
  /** A model of the opponent whose predicted replies the player looks at; default none. */
  opponent?: ReplyPredictor;
  /** The move patterns whose highest-ranked quiet moves a search with patterns=K follows; required by such a search. */
  movePatterns?: MovePatternRanker;
  /** How much less than an even result a draw is worth to Morph, in log-odds; default search.ts defaultContempt. */
  contempt?: number;
  /**
   * The graph patterns' learned terms (eval/graphTerms.ts), added in log-odds to the value of each move's own
   * position by the material searches; default none.
   */
  graphTerms?: GraphTerms;
  /**
   * Weights of the smallest graph patterns (eval/relationTerms.ts), added in log-odds to every position the
   * material searches value, their leaves included; default the database's own (none when it has none).
   */
  relationWeights?: ArrayLike<number>;
  /**
   * False: the database played without anything its graph patterns add (the ablation `--no-graph-patterns`): no
   * graph terms, no relation terms and no policy term (the policy ranks moves by its graph patterns); material, and the policy's
   * square values, stay. Default true.
   */
  graphPatterns?: boolean;
}

/**
 * The maturity Morph plays with, the one rule for every command (move, play, uci, match, agree): the value
 * given, else the setting stored in the database (what training used).
 */
export function playingMaturity(store: PatternStore, override?: number): number {
  return override ?? loadConfig(store.db).maturity;
}

/**
 * A move's position judged by the rules, where they decide it: a mate is worth 1 to the side that moved; a draw
 * by rule, or a return to a position already seen, `drawValue`. Undefined where the patterns are to value it.
 */
function judgeByRule(history: PositionHistory, next: Board, move: string, drawValue: number): RankedMove | undefined {
  // The position after the move has occurred once more than the history has seen it so far.
  const occurrences = history.occurrences(next) + 1;
  const end = gameEnd(next, occurrences);
  if (end === 'checkmate') return { move, value: 1, source: end };
  if (end !== null) return { move, value: drawValue, source: end };
  // Back to a position already seen: the opponent can repeat it once more and claim the draw, so it counts as
  // one (as engines score a repetition inside their search). Without this, a side far ahead whose moves all
  // look won (values near 1) shuffles at random and lets the opponent repeat: measured in docs/lab/.
  if (occurrences >= 2) return { move, value: drawValue, source: 'repetition' };
  return undefined;
}

export class MorphPlayer implements GamePlayer {
  readonly name: string;
  private readonly rng: Random;
  private readonly graph = new PositionGraph();
  /** One graph for each position retrieved together (judgeMoves, evaluateTogether). */
  private readonly successorGraphs = new PositionGraphPool();
  /** The search played, as it is written (a preset's name when it is one: extensions.ts formatSearch). */
  readonly search: SearchSpec;
  /** What the search looks at: every look reads this. */
  readonly extensions: Readonly<SearchExtensions>;
  /** How values enter a move's score: log-odds with the material searches, else as they are. */
  readonly valueScale: ValueScale;
  readonly evaluation: EvaluationSettings;
  /** With a move policy: the weight its log-probabilities count with. */
  readonly policyWeight: number | undefined;
  /** What a draw by rule, or a return to a position already seen, is worth to Morph after its own move. */
  readonly drawValue: number;
  /** Patterns tested in the last call to rankMoves (for benchmarks and --explain). */
  lastTested = 0;
  /** Positions valued in the last call to rankMoves or bestMove (the search's nodes, for measurements). */
  lastValued = 0;
  /** With patterns=K: the quiet moves of the position being ranked that the look follows (UCI). */
  private patternFollowed: ReadonlySet<string> | undefined;
  /** The plies look's least value of interest for the move bestRanked is valuing (valueNeeded); else -Infinity. */
  private rootLow = -Infinity;
  /**
   * The piece values the material searches blend with (materialFit.ts), fitted afresh for each move: the
   * database may have learned since the last one (4,245 patterns: about 6 ms from nothing, much less from the
   * last fit).
   */
  private pieceValues: PieceValues | undefined;
  /** With the policy's square values: them, and what one of their units is worth in the fitted piece values' log-odds. */
  private squares: { squareValues: readonly number[]; scale: number } | undefined;
  /** Relation weights, unless graph patterns are switched off, where the material searches read them. */
  private relationWeights: ArrayLike<number> | undefined;
  /** While positionsValuedFor runs: every position `evaluate` values, with its evaluation. */
  private valuedPositions: ValuedPosition[] | undefined;
  /** The boards this player's mate looks play their lines on (search.ts): its own, so no other search touches them. */
  private readonly mateBoards = new MateLookBoards();
  /** What the plies look remembers over one ranking (searchMemory.ts): cleared before each, as the values may change. */
  private readonly pliesMemory = new SearchMemory();

  constructor(
    readonly store: PatternStore,
    readonly options: MorphPlayerOptions,
    name = `morph:${store.path}`,
  ) {
    this.name = name;
    this.rng = new Random(options.seed);
    const config = options.evaluation === undefined || options.search === undefined ? loadConfig(store.db) : undefined;
    this.evaluation = options.evaluation ?? evaluationSettings(config!);
    this.extensions = extensionsOf(options.search ?? config!.playSearch);
    this.search = formatSearch(this.extensions);
    this.valueScale = this.extensions.materialValues ? 'log-odds' : 'probability';
    this.policyWeight = options.policy && (options.policy.weight ?? defaultPolicyWeight(this.extensions));
    this.drawValue = 1 / (1 + Math.exp(options.contempt ?? defaultContempt(this.extensions)));
    if (this.extensions.patterns > 0 && options.movePatterns === undefined) {
      throw badInput(`the search ${movePatternsNeeded(this.search, 'give a move-pattern database (--move-patterns FILE)')}`);
    }
  }

  async newGame(): Promise<void> {}

  async chooseMove(position: GamePosition): Promise<string> {
    return this.bestMove(new GameHistory(position.startFen, position.moves));
  }

  async close(): Promise<void> {}

  /** Every legal move with its value, best first (equal values in move order). */
  rankMoves(history: GameHistory, keepEvaluations = false): RankedMove[] {
    const board = history.board;
    const next = cloneBoard(board);
    this.lastTested = 0;
    this.lastValued = 0;
    this.fitPieceValues();
    this.pliesMemory.clear();
    const moves = generateLegalMoves(board);
    this.patternFollowed = this.patternMoves(board, moves);
    const ranking = this.judgeMoves(history, moves, keepEvaluations);
    moves.forEach((move, i) => {
      applyMove(board, move, next);
      this.lookFurther(history, next, ranking[i]);
    });
    this.addPolicy(history, ranking);
    ranking.sort(this.byScoreThenMove);
    const mate = this.ownMate(history);
    if (mate === undefined) return ranking;
    // The mate comes first whatever else its (clamped) value ties with.
    const rest = ranking.filter((r) => r.move !== mate.move);
    return [mate, ...rest];
  }

  /**
   * The move to play: against a bare king the rules' order (bareKing.ts); else the first of Morph's own mate by
   * checks when it forces one (ownMate); else the best value, a seeded random one among equals.
   */
  choose(history: GameHistory, keepEvaluations = false): RankedMove & { ranking: RankedMove[]; chosenBy: 'value' | 'bare-king' | 'mate' } {
    const ranking = this.rankMoves(history, keepEvaluations);
    if (ranking.length === 0) throw badInput('no legal moves: the game is over');
    // Against a bare king the rules' order comes first: it mates surely, and where a quiet move mates sooner than
    // checks do, sooner.
    const mating = this.bareKingMove(history);
    if (mating !== undefined) return { ...ranking.find((r) => r.move === mating)!, ranking, chosenBy: 'bare-king' };
    if (ranking[0].mateIn !== undefined) return { ...ranking[0], ranking, chosenBy: 'mate' };
    if (windowDependent(this.extensions)) {
      // With a late-move reduction or null-move pruning a move's value depends on the window and order it was searched in, so the full
      // ranking's first is not always the move the game search plays (about one position in ten). Morph plays the
      // game search's move here too, the move matches, UCI and move quality measure.
      const [valued, tested] = [this.lastValued, this.lastTested];
      const played = this.gameMove(history);
      this.lastValued += valued;
      this.lastTested += tested;
      return { ...(ranking.find((r) => r.move === played.move) ?? played), ranking, chosenBy: 'value' };
    }
    return { ...this.pickAmongBest(ranking), ranking, chosenBy: 'value' };
  }

  /**
   * With a mates look of two moves or more (mates=N): the first move of the shortest mate by checks Morph forces
   * within as many of its own moves as the look follows the opponent's, when it is longer than one move (a mate
   * at once is judged by the rules, and training's search looks no further). Such a move is won by the rules
   * alone, however its position's material reads, so it is played as a move that mates at once is. Without it
   * Morph saw the opponent's mates by checks and not its own (docs/lab/2026-12.md, 2026-12-01). The line is not
   * checked for draws by rule along it (mateByChecks), so a mate the defender could cut short by a repetition
   * counts: rare within four checking moves, and the position is then usually won anyway.
   */
  private ownMate(history: GameHistory): RankedMove | undefined {
    const depth = this.extensions.mates;
    if (depth < 2) return undefined;
    const mate = shortestMateByChecks(history.board, depth, this.mateBoards);
    if (mate === undefined || mate.mateIn === 1) return undefined;
    return { move: mate.move, value: 1, source: 'patterns', mateIn: mate.mateIn };
  }

  /**
   * With the bare-king technique, against a bare king: the move toward mate by the rules alone (bareKing.ts), where
   * the learned values see every move that keeps the material as equally won. Undefined otherwise.
   */
  private bareKingMove(history: GameHistory): string | undefined {
    if (!this.extensions.bareKing) return undefined;
    const move = bareKingMove(history, this.rng);
    return move && uciMove(move);
  }

  /**
   * The move `choose` plays, with less work when the player looks past one ply. The look (captures, predicted
   * replies) can only lower a move's value below its position's own, so moves are looked at in the order of
   * their positions' values, and a move whose position is already worth less than the best move found needs no
   * look. Only the look at a move's own threat (own-threats, in material-forks) raises a value, for a move that checks
   * or threatens something, and the patterns look, for a move it follows: such a move is bounded by 1 instead. The
   * moves that could tie are valued exactly and picked from as `choose` picks, so the move played is the same.
   */
  bestMove(history: GameHistory): string {
    return this.bestRanked(history).move;
  }

  /** The move bestMove plays, with its value (and policy term) as `choose` would rank it. */
  bestRanked(history: GameHistory): RankedMove {
    return this.gameMove(history);
  }

  /** bestRanked's own work, which subclasses that override bestRanked or choose cannot redirect (choose calls it). */
  private gameMove(history: GameHistory): RankedMove {
    if (!this.looksFurther) return this.choose(history);
    this.lastValued = 0; // a move the rules decide values no position
    return this.decidedByRule(history) ?? this.pickAmongBest(this.searchedRanking(history));
  }

  /**
   * The moves bestRanked chooses among, best first: what move quality reads (the best move and its ties), for the
   * work of a game move instead of a full ranking (rankMoves values every move exactly, which a full-width search
   * makes several times dearer). The moves within TIE_TOLERANCE of the best are valued exactly; a move below is only
   * known to be below, and one that needed no look at all is left out.
   */
  bestRanking(history: GameHistory): RankedMove[] {
    if (!this.looksFurther) return this.rankMoves(history);
    const decided = this.decidedByRule(history);
    return decided !== undefined ? [decided] : this.searchedRanking(history);
  }

  /** Against a bare king the rules' order mates, and a mate by checks Morph forces is played: whatever the values say. */
  private decidedByRule(history: GameHistory): RankedMove | undefined {
    const mating = this.bareKingMove(history);
    if (mating !== undefined) return { move: mating, value: 1, source: 'patterns' };
    return this.ownMate(history);
  }

  /** bestRanked's search: the moves it valued, best first (bestRanking). */
  private searchedRanking(history: GameHistory): RankedMove[] {
    const board = history.board;
    const next = cloneBoard(board);
    this.lastTested = 0;
    this.lastValued = 0;
    this.fitPieceValues();
    this.pliesMemory.clear();
    const moves = generateLegalMoves(board);
    if (moves.length === 0) throw badInput('no legal moves: the game is over');
    this.patternFollowed = this.patternMoves(board, moves);
    const judged = this.judgeMoves(history, moves, false);
    const candidates = moves.map((move, i) => {
      applyMove(board, move, next);
      const ranked = judged[i];
      return { move, ranked, mayRise: this.mayRise(next, ranked), bound: 0 };
    });
    // The policy's term does not depend on the captures, so it bounds a move's score as the value does; a move
    // whose own threat may raise it is bounded by the highest value there is.
    this.addPolicy(history, candidates.map((c) => c.ranked));
    const highest = scaledValue(1, this.valueScale);
    for (const c of candidates) c.bound = c.mayRise ? highest + (c.ranked.policy ?? 0) + (c.ranked.graphTerm ?? 0) : this.choiceScore(c.ranked);
    // The plies look can raise any move: its moves are tried best first by their own positions, each needing only
    // to be known not to reach the best found (its window's low end, rootLow).
    if (this.extensions.plies > 0) candidates.sort((a, b) => this.choiceScore(b.ranked) - this.choiceScore(a.ranked));
    else candidates.sort((a, b) => b.bound - a.bound);
    let best = -Infinity;
    const valued: RankedMove[] = [];
    try {
      for (const { move, ranked, bound } of candidates) {
        if (bound < best - TIE_TOLERANCE) break;
        applyMove(board, move, next);
        this.rootLow = this.valueNeeded(best, ranked);
        this.lookFurther(history, next, ranked);
        valued.push(ranked);
        best = Math.max(best, this.choiceScore(ranked));
      }
    } finally {
      this.rootLow = -Infinity;
    }
    return valued.sort(this.byScoreThenMove);
  }

  /**
   * Every position the player values while it judges `move` (its own position, then its look) as rankMoves judges
   * it, in order, with their evaluations: the end of the line that set the move's value is among them (explain.ts).
   * Called after rankMoves in the same position, it uses the piece values that ranking used.
   */
  positionsValuedFor(history: GameHistory, move: string): ValuedPosition[] {
    const board = history.board;
    const compact = generateLegalMoves(board).find((m) => uciMove(m) === move);
    if (compact === undefined) throw badInput(`"${move}" is not a legal move in this position`);
    const next = cloneBoard(board);
    applyMove(board, compact, next);
    const valued: ValuedPosition[] = [];
    this.valuedPositions = valued;
    this.pliesMemory.clear(); // every position the look values is listed, none remembered from a ranking
    try {
      const ranked = this.judgePosition(history, next, compact, false);
      this.lookFurther(history, next, ranked);
    } finally {
      this.valuedPositions = undefined;
    }
    return valued;
  }

  /** The piece values the last ranking valued material with (undefined: none, as without a material prior). */
  get pieceValuesInPlay(): PieceValues | undefined {
    return this.pieceValues;
  }

  /** What this player chooses a move by (choiceScore, on its value scale). */
  choiceScore(ranked: RankedMove): number {
    return choiceScore(ranked, this.valueScale);
  }

  /** Best score first, equal scores in move order. */
  protected readonly byScoreThenMove = (a: RankedMove, b: RankedMove): number =>
    this.choiceScore(b) - this.choiceScore(a) || (a.move < b.move ? -1 : 1);

  /** A seeded random choice among the moves within TIE_TOLERANCE of the first (`ranking` sorted best first). */
  protected pickAmongBest(ranking: RankedMove[]): RankedMove {
    const best = this.choiceScore(ranking[0]);
    return this.rng.pick(ranking.filter((r) => this.choiceScore(r) >= best - TIE_TOLERANCE));
  }

  /** With a policy: each move's weighted log-probability (a mate is played whatever the policy thinks). */
  private addPolicy(history: GameHistory, ranking: RankedMove[]): void {
    const policy = this.options.policy;
    if (policy === undefined || this.options.graphPatterns === false) return;
    const logProbabilities = policy.logProbabilities(history);
    for (const ranked of ranking) {
      if (ranked.source === 'checkmate') continue;
      // The model ranks every legal move of the position.
      ranked.policy = this.policyWeight! * logProbabilities.get(ranked.move)!;
    }
  }

  /**
   * The move valued one ply deep: by the rules when the game ends, else by the patterns of its position. A draw
   * is worth `drawValue` to the side that moved (Morph's drawValue after its own move).
   */
  private judgePosition(history: PositionHistory, next: Board, move: CompactMove, keep: boolean, drawValue = this.drawValue): RankedMove {
    const uci = uciMove(move);
    const byRule = judgeByRule(history, next, uci, drawValue);
    if (byRule !== undefined) return byRule;
    const evaluation = this.evaluate(next);
    return { move: uci, value: evaluation.value, source: 'patterns', ...(keep ? { evaluation } : {}) };
  }

  /**
   * judgePosition for every move of the position, in their order. Where graph patterns value the positions, the
   * positions are retrieved together (retrieval.ts mostSpecificMatchesTogether: one walk of the hierarchy for up
   * to 32 of them), the same matches as one by one in a fraction of the time.
   */
  private judgeMoves(history: GameHistory, moves: readonly CompactMove[], keep: boolean): RankedMove[] {
    const board = history.board;
    const next = cloneBoard(board);
    if (this.extensions.materialValues) {
      const ranking = moves.map((move) => {
        applyMove(board, move, next);
        return this.judgePosition(history, next, move, keep);
      });
      this.addGraphTerms(board, moves, ranking);
      return ranking;
    }
    const ranking: RankedMove[] = new Array(moves.length);
    const ucis = moves.map(uciMove);
    const byPatterns: number[] = [];
    moves.forEach((move, i) => {
      applyMove(board, move, next);
      const byRule = judgeByRule(history, next, ucis[i], this.drawValue);
      if (byRule !== undefined) ranking[i] = byRule;
      else {
        this.successorGraphs.build(byPatterns.length, next);
        byPatterns.push(i);
      }
    });
    const evaluations = this.evaluateGraphsTogether(byPatterns.length);
    byPatterns.forEach((i, k) => {
      const evaluation = evaluations[k];
      ranking[i] = { move: ucis[i], value: evaluation.value, source: 'patterns', ...(keep ? { evaluation } : {}) };
    });
    return ranking;
  }

  /**
   * With graph terms: each move's own position (where the patterns value it) retrieved, all together, and the
   * terms of its matches summed into the move's graphTerm. Only the root's successors: one retrieval a move, not
   * one for every position the look visits, keeps a move's cost bounded.
   */
  private addGraphTerms(board: Board, moves: readonly CompactMove[], ranking: RankedMove[]): void {
    const terms = this.options.graphTerms;
    if (terms === undefined || terms.size === 0 || this.options.graphPatterns === false) return;
    const next = cloneBoard(board);
    const valued: number[] = [];
    moves.forEach((move, i) => {
      if (ranking[i].source !== 'patterns') return;
      applyMove(board, move, next);
      this.successorGraphs.build(valued.length, next);
      valued.push(i);
    });
    if (valued.length === 0) return;
    const retrievals = this.store.retrieveTogether(this.successorGraphs.first(valued.length));
    valued.forEach((i, k) => {
      ranking[i].graphTerm = terms.sum(retrievals[k].matches);
      this.lastTested += retrievals[k].tested;
    });
  }

  /** The patterns' values of several positions (evaluate's), retrieved together where graph patterns value them. */
  private evaluateTogether(boards: readonly Board[]): number[] {
    if (this.extensions.materialValues) return boards.map((board) => this.evaluate(board).value);
    boards.forEach((board, k) => this.successorGraphs.build(k, board));
    return this.evaluateGraphsTogether(boards.length).map((evaluation) => evaluation.value);
  }

  /** The evaluations of the first `count` of successorGraphs, retrieved together (retrieval.ts). */
  private evaluateGraphsTogether(count: number): PositionEvaluation[] {
    this.lastValued += count;
    return this.store.retrieveTogether(this.successorGraphs.first(count)).map((retrieval) => {
      const evaluation = evaluationOf(retrieval, this.options.maturity, this.evaluation);
      this.lastTested += evaluation.tested;
      return evaluation;
    });
  }

  /**
   * Whether the player looks past the position a move leads to. Every look but the own-threats look (which
   * mayRise bounds) only lowers a move's value, so whichever of them a search combines, bestMove may skip a move
   * already worth less than the best found.
   */
  private get looksFurther(): boolean {
    return looksPastTheMove(this.extensions) || this.options.opponent !== undefined;
  }

  /**
   * Looks past the position a move leads to (`next`), lowering the move's value to what the opponent's
   * captures and predicted replies leave. Only the look at the move's own threats raises a value, and bestMove
   * bounds it (mayRise).
   */
  private lookFurther(history: GameHistory, next: Board, ranked: RankedMove): void {
    const { captures, mates, threatened, ownThreats, plies } = this.extensions;
    if (plies > 0) this.lookAtPlies(next, ranked);
    else if (captures !== 'none') this.lookAtCaptures(next, ranked);
    if (mates > 0) {
      this.lookAtMates(next, ranked);
      this.lookAtRepetitions(history, next, ranked);
    }
    if (threatened > 0 && plies === 0) this.lookAtThreats(next, ranked);
    if (ownThreats && plies === 0) this.lookAtOwnThreats(next, ranked);
    if (this.patternFollowed?.has(ranked.move)) this.lookAtPatternMove(next, ranked);
    if (this.options.opponent !== undefined) this.lookAtPredictedReplies(this.options.opponent, history, next, ranked);
  }

  /**
   * With a model of the opponent: lowers a move's value to what the worst of the model's likeliest replies
   * leaves: a mate is 0 for Morph, a draw by rule or a return to a position already seen .5, anything else
   * 1 - the value for the opponent, who just moved, after Morph's own captures when the search looks at captures
   * (the capture look from the other side). Valued statically instead, a reply that takes a piece Morph can take
   * back counted as a piece lost, and Morph shunned every exchange: measured in docs/lab/.
   */
  private lookAtPredictedReplies(opponent: ReplyPredictor, history: GameHistory, next: Board, ranked: RankedMove): void {
    if (ranked.source !== 'patterns') return;
    const afterMove = historyAfter(history, next);
    const after = cloneBoard(next);
    for (const reply of opponent.likeliestReplies(afterMove)) {
      const move = parseUciMove(reply)!;
      applyMove(next, move, after);
      // The reply judged as the opponent's own move, by the same rules; its value for Morph is the complement
      // (a draw too: worth drawValue to Morph, whichever side makes it).
      const judged = this.judgePosition(afterMove, after, move, false, 1 - this.drawValue);
      if (judged.source === 'patterns' && this.extensions.captures !== 'none') this.lookAtCaptures(after, judged);
      const value = 1 - judged.value;
      if (value < ranked.value) {
        ranked.value = value;
        ranked.refutation = { move: reply, value, source: judged.source === 'repetition' ? 'patterns' : judged.source };
      }
    }
  }

  /**
   * The plies look (plies=N): the move's value is what a full-width search N plies past it finds (search.ts
   * fullWidthValue), higher or lower than its position's own. Below rootLow (bestRanked's: the least that could
   * still make the move the best) the value need only be known to be below.
   */
  private lookAtPlies(next: Board, ranked: RankedMove): void {
    if (ranked.source !== 'patterns') return;
    const value = (after: Board) => this.evaluate(after).value;
    ranked.value = fullWidthValue(next, this.extensions.plies, this.rootLow, Infinity, value, captureLook(this.extensions), ranked.value, this.pliesMemory, -1, this.extensions.late, this.extensions.nullMove);
  }

  /**
   * The least value that could still give `ranked` a score within TIE_TOLERANCE of `best` (the best score found so
   * far), given its policy and graph terms; -Infinity when any value could.
   */
  private valueNeeded(best: number, ranked: RankedMove): number {
    if (best === -Infinity) return -Infinity;
    return valueOfScaled(best - TIE_TOLERANCE - (ranked.policy ?? 0) - (ranked.graphTerm ?? 0) - ROUNDING_MARGIN, this.valueScale);
  }

  /** The threats look (threats=N): lowers a move's value to what the opponent's worst threat leaves (search.ts). */
  private lookAtThreats(next: Board, ranked: RankedMove): void {
    if (ranked.source !== 'patterns' || ranked.value === 0) return;
    const value = (after: Board) => this.evaluate(after).value;
    const refutation = worstThreatReply(next, ranked.value, value, captureLook(this.extensions), this.extensions.threatened);
    if (refutation !== undefined) {
      ranked.value = refutation.value;
      ranked.refutation = refutation;
    }
  }

  /**
   * The own-threats look: raises a move the looks above left at its position's own value to what its threat
   * surely wins (search.ts). A move they lowered was refuted already: no threat of its own makes up for that.
   */
  private lookAtOwnThreats(next: Board, ranked: RankedMove): void {
    if (ranked.source !== 'patterns' || ranked.refutation !== undefined) return;
    const won = unparriedThreat(next, ranked.value, (after) => this.evaluate(after).value, captureLook(this.extensions));
    if (won !== undefined) ranked.value = won;
  }

  /**
   * With patterns=K: the K quiet moves (not followed by the capture look) of `board` the move patterns rank highest,
   * equal scores in move order; undefined without the look.
   */
  private patternMoves(board: Board, moves: readonly CompactMove[]): ReadonlySet<string> | undefined {
    const count = this.extensions.patterns;
    if (count === 0) return undefined;
    const look = captureLook(this.extensions);
    const quiet = new Set(moves.filter((move) => !isFollowed(board, move, look)).map(uciMove));
    const ranked = this.options.movePatterns!.rankBoard(board).filter((m) => quiet.has(m.move));
    ranked.sort((a, b) => b.score - a.score || (a.move < b.move ? -1 : 1));
    return new Set(ranked.slice(0, count).map((m) => m.move));
  }

  /**
   * The patterns look (patterns=K): raises a quiet move the move patterns chose, when the looks above left it at its
   * position's own value, to what following it through every reply surely wins (search.ts followedThroughReplies).
   * A move the own-threats look followed already is not followed twice.
   */
  private lookAtPatternMove(next: Board, ranked: RankedMove): void {
    if (ranked.source !== 'patterns' || ranked.refutation !== undefined) return;
    const value = (after: Board) => this.evaluate(after).value;
    const look = captureLook(this.extensions);
    if (this.extensions.ownThreats && threatensAnything(next, value, look)) return;
    const won = followedThroughReplies(next, ranked.value, value, look);
    if (won !== undefined) ranked.value = won;
  }

  /**
   * Whether a look may raise the move's value: the patterns look for a move it follows, the own-threats look for a
   * move that checks or could take something.
   */
  private mayRise(next: Board, ranked: RankedMove): boolean {
    if (ranked.source !== 'patterns') return false;
    if (this.extensions.plies > 0) return true;
    if (this.patternFollowed?.has(ranked.move)) return true;
    if (!this.extensions.ownThreats) return false;
    return threatensAnything(next, (after) => this.evaluate(after).value, captureLook(this.extensions));
  }

  /**
   * With a mates look: a move after which the opponent can return to a position already seen in the game is
   * worth no more than a draw (drawValue, .5 without contempt): the opponent can repeat it once more and claim
   * one, as judgePosition counts Morph's own return to a seen position. Only the positions after Morph's own moves were checked before, so a
   * side far ahead that moved a piece back let the opponent's reply complete a threefold: 12 and 7 of 200 games
   * against ab:2,q ended so with Morph three or more ahead (docs/lab/). Only a value above a draw's is
   * lowered: a repetition the opponent allows when Morph is behind is Morph's gain.
   */
  private lookAtRepetitions(history: GameHistory, next: Board, ranked: RankedMove): void {
    if (ranked.source !== 'patterns' || ranked.value <= this.drawValue) return;
    const after = cloneBoard(next);
    for (const reply of generateLegalMoves(next)) {
      applyMove(next, reply, after);
      if (history.occurrences(after) > 0) {
        ranked.value = this.drawValue;
        ranked.refutation = { move: uciMove(reply), value: this.drawValue, source: 'threefold' };
        return;
      }
    }
  }

  /**
   * The mates look (mates=N): a move that allows a mate by checks within N of the opponent's moves is worth 0
   * (N = 1, captures-mates: a mate in one).
   */
  private lookAtMates(next: Board, ranked: RankedMove): void {
    if (ranked.source !== 'patterns' || ranked.value === 0) return;
    const mate = shortestMateByChecks(next, this.extensions.mates, this.mateBoards);
    if (mate !== undefined) {
      ranked.value = 0;
      ranked.refutation = { move: mate.move, value: 0, source: 'checkmate', mateIn: mate.mateIn };
    }
  }

  /** The captures look: lowers a move's value to what the opponent's best capture leaves (search.ts). */
  private lookAtCaptures(next: Board, ranked: RankedMove): void {
    if (ranked.source !== 'patterns') return;
    const refutation = worstCaptureReply(next, ranked.value, (after) => this.evaluate(after).value, captureLook(this.extensions), (afters) =>
      this.evaluateTogether(afters),
    );
    if (refutation !== undefined) {
      ranked.value = refutation.value;
      ranked.refutation = refutation;
    }
  }

  private fitPieceValues(): void {
    const wanted = this.extensions.materialValues && (this.evaluation.materialPrior ?? 0) > 0;
    // From the last fit: the weights have moved a little at most, so Newton's method needs a step or two.
    this.pieceValues = wanted ? databasePieceValues(this.store, this.pieceValues) : undefined;
    const squares = this.options.policy?.squares;
    const weight = this.options.squareWeight ?? SQUARE_WEIGHT;
    this.squares = this.pieceValues && squares && weight > 0 ? { squareValues: squares.squareValues, scale: weight * squareUnit(this.pieceValues, squares) } : undefined;
    // The database's own weights unless given: read each move, as the piece values are fitted, since training changes them.
    const wantRelations = this.pieceValues !== undefined && this.options.graphPatterns !== false;
    // Without a capture search, the terms fitted over static material: they also know what a piece en prise costs.
    const kind = this.extensions.captures !== 'none' ? 'settled' : 'static';
    this.relationWeights = wantRelations ? (this.options.relationWeights ?? storedRelationWeights(this.store.db, kind)) : undefined;
  }

  /** The patterns' value of a position for the side that just moved (by its material alone, with materialValues). */
  private evaluate(board: Board): PositionEvaluation {
    let evaluation: PositionEvaluation;
    if (this.extensions.materialValues) evaluation = materialEvaluation(this.store, board, this.options.maturity, this.evaluation, this.pieceValues, this.squares, this.relationWeights);
    else {
      evaluation = evaluateGraph(this.store, buildPositionGraph(board, this.graph), this.options.maturity, this.evaluation);
      this.lastTested += evaluation.tested;
    }
    this.valuedPositions?.push({ board: cloneBoard(board), evaluation });
    this.lastValued++;
    return evaluation;
  }
}

/**
 * One unit of `squares` in the piece values' units: the ratio of the two sets of piece values' sums (the square
 * values were learned beside their own piece values, in another player's units).
 */
export function squareUnit(pieceValues: PieceValues, squares: LearnedSquares): number {
  const sum = (values: ArrayLike<number>) => Array.from(values).slice(0, 5).reduce((a, b) => a + b, 0);
  return sum(pieceValues) / sum(squares.values);
}
