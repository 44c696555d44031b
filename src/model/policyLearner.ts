/**
 * Morph's own move policy learned as it trains, one game at a time. After each game, the partner's decisions in it
 * add their patterns to the policy (as a build induces them: modelBuilder.ts induceFromDecisions) and each takes
 * one AdaGrad step of the policy's conditional logit, continuing the fit where it stands. So what the policy knows
 * accumulates over every game of a run, not a window of the last ones, it is in play from the next game on, and
 * no rebuild waits after the run. A build from scratch (`morph model --from-db`) remains for a fresh start.
 *
 * The AdaGrad state lives in the policy file itself: a pattern's score is the log-odds of its weight, and its
 * `variance` column holds AdaGrad's sum of squared steps (the per-pattern annealing statistic, as `variance` is
 * the value database's); the two terminal features keep theirs in meta.
 */
import { getMeta, getMetaJson, getMetaNumber, setMeta } from '../store/meta.ts';
import { PatternStore } from '../store/patternStore.ts';
import type { PatternRecord } from '../store/patternRecord.ts';
import { Random } from '../util/random.ts';
import type { Decision } from './decisions.ts';
import { accumulateChoiceSquares } from './choiceEvaluation.ts';
import { readSquareEvidence, writeSquareEvidence } from './squareEvidence.ts';
import {
  AdagradState, CHECKMATE_FEATURE, DEFAULT_MODEL_SETTINGS, DRAW_FEATURE, FIRST_PATTERN_FEATURE, fittingCases, induceFromDecisions,
  type ModelSettings,
} from './modelBuilder.ts';
import { CHOICE_SQUARES_KEY, scoreOfWeight, TERMINAL_SCORES_KEY, TERMINAL_SQUARES_KEY, weightOfScore, type ModelInfo, type TerminalScores } from './opponentModel.ts';

/** Meta key: the last value-database game whose decisions the policy's square values have absorbed. */
export const SQUARES_LAST_GAME_KEY = 'squares_last_game';

export interface PolicyLesson {
  /** Decisions learned from (forced ones, with a single legal move, teach nothing and are left out). */
  decisions: number;
  /** Patterns the game added. */
  added: number;
  /** Mean log-likelihood of the partner's moves before the step (0 is perfect): how well the policy foresaw them. */
  logLikelihood: number;
}

/**
 * Whether a policy built with `settings` can learn online: the fit must be the plain one-ply conditional logit over
 * patterns (material "exact", not fitted through the search), the one Morph's own policy is built with.
 */
export function learnsOnline(settings: ModelSettings): boolean {
  return settings.material === 'exact' && !settings.fitThroughSearch;
}

export class PolicyLearner {
  private readonly materialById = new Map<number, PatternRecord>();
  /**
   * The last value-database game whose decisions the square values have absorbed: recorded by absorbSquares; for a
   * policy built whole with square values, its last game; 0 when it has none. Kept here, not read every game.
   */
  private squaresUpTo: number;

  private constructor(
    private readonly store: PatternStore,
    private readonly settings: ModelSettings,
    private readonly state: AdagradState,
    private info: ModelInfo,
  ) {
    for (const record of store.hierarchy.material.values()) this.materialById.set(record.id, record);
    const hasSquares = getMeta(store.db, CHOICE_SQUARES_KEY) !== undefined;
    this.squaresUpTo = getMetaNumber(store.db, SQUARES_LAST_GAME_KEY) ?? (hasSquares ? (info.lastGame ?? 0) : 0);
  }

  /**
   * Opens the policy at `path` to learn; null when it was built with settings that cannot learn online (then it is
   * rebuilt whole, as before).
   */
  static open(path: string): PolicyLearner | null {
    const store = PatternStore.open(path, { kind: 'opponent-model', quickCheck: false, exclusiveWriter: true });
    try {
      const settings = { ...DEFAULT_MODEL_SETTINGS, ...getMetaJson<Partial<ModelSettings>>(store.db, 'model_settings') };
      const info = getMetaJson<ModelInfo>(store.db, 'model_info');
      // A policy built before its AdaGrad sums were kept would restart every pattern's step size: rebuilt whole once.
      const keptSums = getMetaJson<[number, number]>(store.db, TERMINAL_SQUARES_KEY) !== undefined;
      if (!learnsOnline(settings) || !info || !keptSums) {
        store.close();
        return null;
      }
      const state = new AdagradState(maxPatternId(store) + FIRST_PATTERN_FEATURE + 1, settings.shrinkage, settings.learningRate);
      const terminal = getMetaJson<TerminalScores>(store.db, TERMINAL_SCORES_KEY) ?? { checkmate: 0, draw: 0 };
      const terminalSquares = getMetaJson<[number, number]>(store.db, TERMINAL_SQUARES_KEY)!;
      state.scores[CHECKMATE_FEATURE] = terminal.checkmate;
      state.scores[DRAW_FEATURE] = terminal.draw;
      state.squares[CHECKMATE_FEATURE] = terminalSquares[0];
      state.squares[DRAW_FEATURE] = terminalSquares[1];
      const load = (record: PatternRecord) => {
        if (record.updates === 0) return; // never fitted: score 0, weight .5
        state.scores[record.id + FIRST_PATTERN_FEATURE] = scoreOfWeight(record.weight);
        state.squares[record.id + FIRST_PATTERN_FEATURE] = record.variance;
      };
      for (const record of store.hierarchy.byId.values()) load(record);
      for (const record of store.hierarchy.material.values()) load(record);
      return new PolicyLearner(store, settings, state, info);
    } catch (error) {
      store.close();
      throw error;
    }
  }

  /** When the value database the policy learns from was created (its meta created_at). */
  get databaseCreated(): string | undefined {
    return this.info.databaseCreated;
  }

  get patterns(): number {
    return this.store.size;
  }

  /** Games the policy has learned from (built whole or online). */
  get gamesLearned(): number {
    return this.info.games;
  }

  /** The seed the policy's randomness derives from (the value database's). */
  get seed(): number {
    return this.info.seed;
  }

  /** The last game of the value database the policy has learned from. */
  get lastGame(): number {
    return this.info.lastGame ?? 0;
  }

  /**
   * Learns the partner's `decisions` of game `game` (the value database's game id), in one transaction: their
   * patterns added, one AdaGrad step each, the touched weights written.
   */
  learn(decisions: readonly Decision[], game: number): PolicyLesson {
    const { store, state } = this;
    const before = store.size;
    let logLikelihood = 0;
    let learned = 0;
    store.transaction(() => {
      induceFromDecisions(store, decisions, this.settings, new Random(this.info.seed * 1_000_003 + game), game);
      for (const record of store.hierarchy.material.values()) this.materialById.set(record.id, record);
      state.ensure(maxPatternId(store) + FIRST_PATTERN_FEATURE + 1);
      const { cases } = fittingCases(store, decisions, { features: this.settings.features, search: 'one-ply' }, -1);
      const touched = new Map<number, number>();
      for (const c of cases) {
        logLikelihood += state.step(c);
        for (const f of new Set(c.features)) touched.set(f, (touched.get(f) ?? 0) + 1);
      }
      learned = cases.length;
      for (const [feature, decisionsIn] of touched) {
        if (feature < FIRST_PATTERN_FEATURE) continue;
        const id = feature - FIRST_PATTERN_FEATURE;
        const record = store.hierarchy.byId.get(id) ?? this.materialById.get(id);
        if (!record) continue;
        record.weight = weightOfScore(state.scores[feature]);
        record.updates += decisionsIn;
        record.variance = state.squares[feature];
        store.saveStats(record);
      }
      setMeta(store.db, TERMINAL_SCORES_KEY, { checkmate: state.scores[CHECKMATE_FEATURE], draw: state.scores[DRAW_FEATURE] });
      setMeta(store.db, TERMINAL_SQUARES_KEY, [state.squares[CHECKMATE_FEATURE], state.squares[DRAW_FEATURE]]);
      this.info = {
        ...this.info,
        games: this.info.games + 1,
        decisions: this.info.decisions + decisions.length,
        lastGame: Math.max(game, this.info.lastGame ?? 0),
      };
      setMeta(store.db, 'model_info', this.info);
    });
    return { decisions: learned, added: store.size - before, logLikelihood: learned ? logLikelihood / learned : 0 };
  }

  /** The last game of the value database the square values have absorbed (0: none yet). */
  get squaresLastGame(): number {
    return this.squaresUpTo;
  }

  /**
   * Adds `decisions` (the partner games after squaresLastGame up to game `upToGame`) to the square values' evidence
   * and refits them (choiceEvaluation.ts accumulateChoiceSquares: the cost is bounded by the new decisions).
   */
  absorbSquares(decisions: readonly Decision[], upToGame: number): void {
    const fit = accumulateChoiceSquares(decisions, readSquareEvidence(this.store.db));
    this.store.transaction(() => {
      if (fit) {
        setMeta(this.store.db, CHOICE_SQUARES_KEY, fit.fit);
        writeSquareEvidence(this.store.db, fit.evidence);
      }
      setMeta(this.store.db, SQUARES_LAST_GAME_KEY, upToGame);
    });
    this.squaresUpTo = upToGame;
  }

  /** A consistent copy of the policy as it stands, at `path` (SQLite's online backup). */
  async backup(path: string): Promise<void> {
    await this.store.db.backup(path);
  }

  close(): void {
    this.store.close();
  }
}

function maxPatternId(store: PatternStore): number {
  return (store.db.prepare('SELECT COALESCE(MAX(id), 0) FROM patterns').pluck().get() as number) ?? 0;
}
