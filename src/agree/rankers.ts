/**
 * Move rankers for agreement tests: each scores every legal move of a position (higher is better) and leaves
 * ties as ties; the metric decides what a tie is worth (metrics.ts).
 *
 *   morph (--db FILE)  MorphPlayer's one-ply values over a read-only database
 *   greedy             material gained by the move (materialGain)
 *   ab:D[,q]           alpha-beta's searched score of each root move
 *   random             every move the same score: the expectation of a random ranking
 *   move-patterns:FILE the move patterns of a move-pattern database alone (model/movePatterns.ts; SYLPH's filter)
 *   policy:FILE        an opponent model (a Morph policy) alone: its score of each move, as it predicts
 */
import { extensionsOf, windowDependent, type SearchSpec } from '../search/extensions.ts';
import { boardFromFen, uciMove } from '../chess/board.ts';
import { generateLegalMoves } from '../chess/movegen.ts';
import { GameHistory } from '../chess/history.ts';
import { alphaBetaName, parseAlphaBetaSpec, rankMoves } from '../engines/alphabeta.ts';
import { materialGain } from '../engines/simplePlayers.ts';
import { loadConfig } from '../learn/config.ts';
import { MorphPlayer, playingMaturity, type RankedMove } from '../player/morphPlayer.ts';
import { PatternStore } from '../store/patternStore.ts';
import { playerPolicy } from '../model/policy.ts';
import { openPolicyModel } from '../model/ownPolicy.ts';
import { OpponentModel } from '../model/opponentModel.ts';
import { MovePatterns } from '../model/movePatterns.ts';
import { badInput } from '../util/errors.ts';
import type { EvaluationFunction } from '../eval/evaluation.ts';
import { storedRelationWeights } from '../eval/relationTerms.ts';

export interface MoveScore {
  move: string;
  value: number;
}

export interface MoveRanker {
  readonly name: string;
  /**
   * Every legal move of the position with its value, higher better, in any order; with `partial`, only the moves the
   * ranker chooses among (the best and its ties exact, some below it), enough for move quality and not for agreement.
   */
  score(fen: string): MoveScore[];
  readonly partial?: boolean;
  /**
   * The moves the ranker chooses among when it plays (the best and its ties exact), where its full ranking (`score`)
   * may put another move first: move quality reads these. Only a search whose values depend on the window and the
   * order its moves are searched in needs it (windowDependent: a late-move reduction, null-move pruning); absent,
   * move quality reads `score`.
   */
  chooseAmong?(fen: string): MoveScore[];
  close(): void;
}

export const RANKER_FORMS = 'greedy, ab:D[,q], random, move-patterns:FILE, policy:FILE or all (or --db FILE for Morph)';

/** The built-in rankers `--ranker all` stands for. */
export const BUILT_IN_RANKERS = ['random', 'greedy', 'ab:1', 'ab:2', 'ab:2,q'];

export function randomRanker(): MoveRanker {
  return {
    name: 'random',
    score: (fen) => generateLegalMoves(boardFromFen(fen)).map((move) => ({ move: uciMove(move), value: 0 })),
    close: () => {},
  };
}

export function greedyRanker(): MoveRanker {
  return {
    name: 'greedy',
    score: (fen) => {
      const board = boardFromFen(fen);
      return generateLegalMoves(board).map((move) => ({ move: uciMove(move), value: materialGain(board, move) }));
    },
    close: () => {},
  };
}

export function alphaBetaRanker(spec: string): MoveRanker {
  const options = parseAlphaBetaSpec(spec);
  return {
    name: alphaBetaName({ ...options, tolerancePawns: 0 }),
    score: (fen) => rankMoves(boardFromFen(fen), options).map((r) => ({ move: uciMove(r.move), value: r.score })),
    close: () => {},
  };
}

/** What to override in a Morph database's own settings when ranking with it. */
export interface MorphRankerOverrides {
  maturity?: number;
  evaluation?: EvaluationFunction;
  prior?: number;
  /** Pseudo-counts of the fitted piece values blended into material weights (config materialPrior). */
  materialPrior?: number;
  search?: SearchSpec;
  /** A model file used as the move policy (src/model/policy.ts); default the database's own if built; false: none. */
  policy?: string | false;
  policyWeight?: number;
  /** False: without what the graph patterns add (MorphPlayerOptions.graphPatterns). */
  graphPatterns?: boolean;
  /** A move-pattern database, for a search with patterns=K (MorphPlayerOptions.movePatterns). */
  movePatterns?: string;
  /**
   * A move-pattern database used as a policy (policy.ts movePatternPolicy): joined to the model policy, its
   * log-probabilities times `movePolicyScale` (default 1), or the policy alone when there is no model policy.
   */
  movePolicy?: string;
  movePolicyScale?: number;
  /** The database's own relation terms (the settled ones, as the capture searches read them) times this. */
  relationScale?: number;
  /**
   * Score only the moves the player's game move is chosen among (MorphPlayer.bestRanking), for the cost of a game
   * move: enough for move quality, which reads the best move and its ties, not for the shares of top moves.
   */
  bestOnly?: boolean;
}

/**
 * Morph over a database opened read-only; maturity, evaluation function and prior default to the database's
 * own settings. Overridden settings show in the ranker's name.
 */
export function morphRanker(dbPath: string, overrides: MorphRankerOverrides = {}): MoveRanker {
  const store = PatternStore.open(dbPath, { readonly: true });
  const config = loadConfig(store.db);
  const model = openPolicyModel(dbPath, overrides.policy) ?? undefined;
  const policyPatterns = overrides.movePolicy === undefined ? undefined : MovePatterns.open(overrides.movePolicy);
  const policy = playerPolicy(model, policyPatterns, overrides.policyWeight, overrides.movePolicyScale);
  const settings = {
    maturity: playingMaturity(store, overrides.maturity),
    evaluation: {
      function: overrides.evaluation ?? config.evaluation,
      prior: overrides.prior ?? config.prior,
      materialPrior: overrides.materialPrior ?? config.materialPrior,
    },
    search: overrides.search ?? config.playSearch,
    policy,
    graphPatterns: overrides.graphPatterns,
    relationWeights: overrides.relationScale === undefined ? undefined : storedRelationWeights(store.db)?.map((w) => w * overrides.relationScale!),
    movePatterns: overrides.movePatterns === undefined ? undefined : MovePatterns.open(overrides.movePatterns),
  };
  // bestOnly changes what is scored, not the move chosen: not part of the player's name.
  const shown = Object.entries({ ...overrides, policy: model?.store.path, bestOnly: undefined }).filter(([, value]) => value !== undefined).map(([key, value]) => `${key}=${value}`);
  const player = new MorphPlayer(
    store,
    { ...settings, seed: 0 },
    `morph:${dbPath}${shown.length ? ` (${shown.join(', ')})` : ''}`,
  );
  // What the player chooses by: the value, plus the policy's term when there is one.
  const scored = (ranking: readonly RankedMove[]) => ranking.map((r) => ({ move: r.move, value: player.choiceScore(r) }));
  const gameMoves = (fen: string) => scored(player.bestRanking(new GameHistory(fen)));
  // With a late-move reduction or null-move pruning the full ranking can put first a move the game search would not play.
  const chooseAmong = !overrides.bestOnly && windowDependent(extensionsOf(settings.search)) ? gameMoves : undefined;
  return {
    name: player.name,
    partial: overrides.bestOnly,
    score: (fen) => (overrides.bestOnly ? gameMoves(fen) : scored(player.rankMoves(new GameHistory(fen)))),
    ...(chooseAmong ? { chooseAmong } : {}),
    close: () => {
      model?.close();
      policyPatterns?.close();
      settings.movePatterns?.close();
      store.close();
    },
  };
}

/** The move patterns of a move-pattern database alone (SYLPH's filter metric, issue 71). */
export function movePatternRanker(path: string): MoveRanker {
  const patterns = MovePatterns.open(path);
  return {
    name: `move-patterns:${path}`,
    score: (fen) => patterns.rank(fen).map((m) => ({ move: m.move, value: m.score })),
    close: () => patterns.close(),
  };
}

/** An opponent model (a Morph policy, DB.policy.db) alone: its score of each move, with the model's own look-ahead. */
export function policyRanker(path: string): MoveRanker {
  const model = OpponentModel.open(path);
  return {
    name: `policy:${path}`,
    score: (fen) => model.rank(new GameHistory(fen)).map((m) => ({ move: m.move, value: m.score })),
    close: () => model.close(),
  };
}

/**
 * A ranker from its spec: greedy, random, ab:D[,q] (a tolerance t= has no effect on a ranking), move-patterns:FILE
 * or policy:FILE.
 */
export function createRanker(spec: string): MoveRanker {
  const text = spec.trim();
  if (text.startsWith('move-patterns:')) return movePatternRanker(text.slice('move-patterns:'.length));
  if (text.startsWith('policy:')) return policyRanker(text.slice('policy:'.length));
  if (text === 'greedy') return greedyRanker();
  if (text === 'random') return randomRanker();
  if (text.startsWith('ab:')) return alphaBetaRanker(text);
  throw badInput(`unknown ranker "${spec}": use ${RANKER_FORMS}`);
}
