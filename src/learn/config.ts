/**
 * Learning settings. They live in the database (meta "config") so a run resumes with the settings it started
 * with; a new database gets the defaults, and options given to `morph train` override them for that run and
 * are saved back.
 */
import { getMetaJson, setMeta } from '../store/meta.ts';
import { closeMorphDatabase, type MorphDatabase } from '../store/database.ts';
import { openDatabaseOfKind } from '../store/databaseKind.ts';
import { DEFAULT_TEMPERATURE_SCHEDULE, parseTemperatureSchedule } from './annealing.ts';
import { badInput } from '../util/errors.ts';
import { EVALUATION_FUNCTIONS, RETIRED_EVALUATION_FUNCTIONS, type EvaluationFunction, type EvaluationSettings } from '../eval/evaluation.ts';
import { extensionsOf, normalizeSearch, type SearchSpec } from '../search/extensions.ts';
import { MATERIAL_FIT_ALONE } from '../eval/materialFit.ts';

export interface LearningConfig {
  /**
   * Whose positions a game teaches: "own" (the positions the learner moved to) or "both" (also the opponent's,
   * judged by the opponent's result). Patterns speak of "the side that just moved", so the opponent's positions
   * are as good evidence as the learner's; against a stronger opponent they are the only evidence of what
   * winning positions look like.
   */
  learnFrom: 'own' | 'both';
  /**
   * TD(λ). 0 is the paper's scheme (each target is the next position's evaluation); 1 is the game's result for
   * every position. Decided: default 1. Measured over 200-400-game runs against random, greedy, ab:1 and
   * Stockfish with λ = 0, .5, .7 and .9: the bootstrapped targets drag every material pattern to one common
   * weight (all within a few hundredths), because the position evaluation the targets bootstrap from is
   * dominated by the most extreme, often barely updated, patterns. With λ = 1 "up" material patterns settle
   * above .5 and "down" ones below.
   */
  lambda: number;
  /**
   * Discount γ per position toward the draw value: a result k positions later counts as .5 + γ^k (z - .5), so
   * a position from which the game is won (or lost) sooner gets the more extreme target. 1 = no discount.
   */
  discount: number;
  /**
   * How often a game moves a pattern. "game": once per game and side, toward the mean of its targets over the
   * positions it matched; "position": once per matching position (the paper's scheme). Decided: "game".
   * Positions of one game are not independent evidence: a material state that lasts 40 plies is one outcome,
   * not 40, and counting it per position lets long games outvote short ones. Measured by resampling 2000
   * recorded games against the embedded Stockfish: the one-piece advantages came out in the order
   * Q > R > minors > P (all above .5, deficits below) in 6-10% of resamples with per-position weights (the
   * rook fell below the bishop, .80 vs .88) and in 93% with per-game weights.
   * With "game" and λ < 1, the targets are computed from the weights as they were before the game.
   */
  updatePer: 'game' | 'position';
  /** Exponent of the update function's weighted average. */
  beta: number;
  /** Global temperature schedule over games (annealing.ts). */
  temperature: string;
  /**
   * How the matched patterns' weights combine into a position's value, in play and in TD targets
   * (eval/evaluation.ts): paper | shrunk.
   */
  evaluation: EvaluationFunction;
  /** Pseudo-counts of a draw that shrink each weight toward .5 (evaluation shrunk). */
  prior: number;
  /**
   * Where a search values positions by material alone (the material-* searches): pseudo-counts of the piece
   * values fitted to all material patterns that each material pattern's weight is blended with
   * (eval/materialFit.ts). A rare difference then leans on what the others say about its pieces, and one the
   * database lacks gets the fit instead of .5. 0: the weight alone; 1,000,000 (the most): the fitted values
   * alone, in effect (the most updates a material pattern has is in the tens of thousands). Play only; learning
   * is the same.
   * Decided (2026-11-24): 20 against the weights alone, mean +.034 [+.015, +.053] a game over six matches with
   * material-forks against ab:2,q (docs/lab/, "the material blend built in").
   * Decided (2026-11-25): 1,000,000, the fitted values alone, for a new database (one that saved 20 keeps it).
   * With the values fitted by maximum likelihood, on the 6,110-game database of 2026-11-24 the fitted values
   * alone scored +.085 and +.045 over the least-squares blend at 20 (two seeds), against +.013 and +.018 for
   * the maximum-likelihood blend at 20, and about what 1/3/3/5/9 alone gave (+.063, +.050); on its 6,000- and
   * 2,000-game checkpoints +.133 and +.160 over the maximum-likelihood blend at 20 (docs/lab/, "the
   * material searches ordered; piece values by maximum likelihood").
   */
  materialPrior: number;
  /**
   * The pattern language patterns are created in. "paper": Levinson's (labels, squares, typed edges).
   * "safety": the same, plus "en prise" on pieces the opponent attacks more often than they are defended
   * (labels.ts), and one seed per piece label that says just that. A subgraph cannot say "not defended"
   * without it; nine in ten of Morph's 1-ply blunders left a piece en prise (docs/lab/).
   * Decided: default "safety". Measured after 1000 games from fresh (seed 1, the default opponent, same
   * settings otherwise): mean win-chance loss 9.14 against 10.99 (paired difference -1.85 [-3.36, -0.35]),
   * blunder share .098 against .140, and against ab:1 .537 against .430 (paired over 100 opening pairs:
   * +.107 [+.026, +.189]).
   */
  language: PatternLanguage;
  /**
   * How far the player looks before judging a move: a preset's name or a list of extensions (search/extensions.ts;
   * stored as the preset's name whenever it is one, so that a Morph that knows only the presets reads it), e.g.
   * "one-ply", the paper's player, or "captures", one ply and then the opponent's captures. Play only, in training
   * too; learning is the same.
   * Decided: default "captures" for a new database. Measured (docs/lab/2026-11.md, 2026-11-23): on the same
   * databases, mean win-chance loss -2.35 [-3.63, -1.07] (1000 games) and -2.14 [-3.13, -1.14] (3000 games),
   * and against ab:1 +.255 [+.184, +.326] and +.223 [+.153, +.292] points a game, paired by opening; trained
   * with it from fresh, as good as trained one-ply and played with it (-0.28 [-1.46, +0.90]); about 1.3 times
   * the one-ply player's time a move. A database saved before search modes existed keeps "one-ply".
   * Since 2026-11-23 (evening) the default is "captures-mates": captures, and any reply that mates at once. Trained
   * and played with it from fresh (1000 games, seed 1) against the same with "captures": +.077 [+.010, +.145]
   * a game against stockfish:skill=0,depth=1 (.213 against .135) and +.022 [-.024, +.069] against ab:2,q,
   * paired; on the same database +.013 [.000, +.025] (ab:2,q, paired), +.024 [-.023, +.071] (the partner) and
   * mean win-chance loss -0.12 [-0.35, +0.11] (docs/lab/, "a mate-in-one look").
   */
  search: SearchSpec;
  /**
   * How far the player looks when it plays from the database outside training (match, play, uci, move, agree,
   * and a `morph:` opponent); training's own games play `search`. Decided (2026-11-24): "material-quiescence"
   * for a new database. Played on five databases trained with captures-mates (1,000 to 8,693 games) it scored
   * +.058, +.040, +.007, +.060 and -.003 a game against ab:2,q (each paired over 100 opening pairs, about
   * +-.05; pooled about +.03 [+.01, +.06]), +.013 [-.062, +.087] against the partner and mean win-chance loss
   * -0.44 [-1.13, +0.24], at half the time a move; trained with it, Morph learned a worse database (-.058
   * [-.107, -.008]), hence a setting of its own (docs/lab/, "a material quiescence"). A database
   * saved before this setting existed plays its `search`. Since 2026-11-24 (late morning) a new database plays
   * "material-threats", which also answers the opponent's quiet double threats: against material-quiescence,
   * paired by opening over 100 pairs each, +.035, +.055 (two seeds), +.030 and +.058 a game against ab:2,q on
   * three databases (pooled about +.045), and +.138 [+.046, +.229] against the partner (docs/lab/,
   * "double threats"), at about 50 times the time a move (tens of milliseconds). Since 2026-11-24 (afternoon)
   * "material-forks", which also follows Morph's own threats through every reply: against material-threats,
   * +.092, +.015 (two seeds), +.083 and +.055 a game against ab:2,q on three databases (pooled about +.06),
   * and mean win-chance loss 2.98 -> 2.42 on the labelled positions; answering the opponent's single threats
   * as well, +.015, +.033 and +.052 more (docs/lab/, "own threats"); at about four times
   * material-threats' time a move in games. Since 2026-12-07 "material-full-width", which follows every move of
   * each side three plies past the move instead of the threat looks: on
   * the same database +280 Elo [+196, +404] head to head, and against gnuchess at depth 2 .525 against .265
   * (paired +.26 a game [+.145, +.375]), mean win-chance loss 2.16 -> 1.68 (docs/lab/2026-12.md, session 77).
   * Since 2026-12-07 (session 82) "material-four-plies", a ply further by a late-move reduction: on seed 21's
   * 5,000-game database +163 Elo [+93, +248] head to head (96 games); on a fresh 3,000-game database against
   * gnuchess at depth 2 .650 against .520 (paired +.13 a game [+.008, +.252], 100 games each), for about twice the
   * positions valued a move (docs/lab/2026-12.md, sessions 81 and 82).
   * Since 2026-12-08 (session 83) "material-five-plies", a ply further again with null-move pruning (null=2): on
   * seed 21's 3,000-game database trained without the policy, +95 Elo [+31, +165] head to head against four plies
   * (90 games, SPRT accepting), move quality -0.20 [-0.33, -0.07] on the 2,100 scored positions, at 2.2 times the
   * time of a game move (median 166 ms against 76: over issue 69's 100 ms; material-four-plies stays for that).
   */
  playSearch: SearchSpec;
  /** Patterns with fewer updates are ignored when playing. */
  maturity: number;
  /** Patterns with fewer updates are ignored when evaluating a position for a TD target. */
  targetMaturity: number;
  /**
   * Positions of each game (both sides') whose relation terms learn toward the play search's value of them
   * (learn/relationLearning.ts, TreeStrap); 0 learns none. Each costs a search (tens of milliseconds), made by the
   * actor that played the game. Decided: default 4 (2026-12-05, night). Seed 11's 3,000 games with 4 lessons a
   * game (11,853 lessons): the database played +63 Elo [+13, +117] against itself with --no-graph-patterns (100
   * games, paired openings); at 5,469 games an hour on 2 jobs against 12,771 without lessons under a like load
   * (docs/lab/2026-12.md). Weights fitted by least squares to 17,203 such lessons played +104 [+43, +171].
   * Since 2026-12-07 (session 80) 6: a full-width play search's lessons are valued two plies past the move, a fifth
   * of material-forks' time (train/relationLessons.ts, lessonSearchFor), and the terms kept improving with lessons
   * (on seed 21's 5,000-game database, 37,550 lessons against 7,936: move quality -0.19 [-0.38, 0.00]).
   */
  relationLessons: number;
  /**
   * Once the database keeps this many relation lessons, a game gives one (when relationLessons asks for more): the
   * fit is level from a few thousand lessons (more lessons a game, or fewer after the first thousand games, measured
   * the same), and the lessons' searches were most of a game's time. Decided: 4,000 (2026-12-06, docs/lab/).
   * Since 2026-12-07 (session 80) never (NEVER_FEWER_LESSONS) for a new database: with lessons a fifth as dear, six
   * a game cost what one did, and the fit measured 1.81 at 7,936 lessons and 1.64 at 37,550 (docs/lab/2026-12.md).
   */
  relationLessonsFullAt: number;
  /**
   * Lessons valued by a search whose leaves read the relation terms as they stand (TreeStrap's bootstrapped target),
   * instead of material alone: what the terms learn then compounds through the search. Decided: true for a new
   * database (2026-12-08, session 83): seed 21 without the policy, 6,000 games each way, move quality on the 2,100
   * scored positions at four plies 1.75 against 1.88 (-0.13 [-0.23, -0.02]), head to head +42 Elo [-17, +103]
   * (research/recipes/bootstrap-training.sh). A database saved before keeps its lessons as they were (false).
   */
  bootstrapLessons: boolean;
  /** Largest node count of a created pattern. */
  maxPatternSize: number;
  seeding: boolean;
  /** Node-ordered induced subgraphs per game, half forward, half reverse ordering. */
  subgraphsPerGame: number;
  regression: { enabled: boolean; perGame: number; extremeness: number };
  generalisation: { enabled: boolean; perGame: number; weightTolerance: number };
  specialisation: { enabled: boolean; perGame: number; minChange: number };
  deletion: { enabled: boolean; threshold: number; minAge: number; cap: number };
}

/** relationLessonsFullAt for "every game gives relationLessons, however many are kept" (the largest it may be). */
export const NEVER_FEWER_LESSONS = 1e9;

export const PATTERN_LANGUAGES = ['paper', 'safety'] as const;
export type PatternLanguage = (typeof PATTERN_LANGUAGES)[number];

export const DEFAULT_CONFIG: LearningConfig = {
  learnFrom: 'both',
  lambda: 1,
  discount: 1,
  updatePer: 'game',
  beta: 3,
  temperature: DEFAULT_TEMPERATURE_SCHEDULE,
  evaluation: 'paper',
  prior: 20,
  materialPrior: MATERIAL_FIT_ALONE,
  language: 'safety',
  search: 'captures-mates',
  playSearch: 'material-five-plies',
  maturity: 0,
  targetMaturity: 0,
  relationLessons: 6,
  relationLessonsFullAt: NEVER_FEWER_LESSONS,
  bootstrapLessons: true,
  maxPatternSize: 6,
  seeding: true,
  subgraphsPerGame: 6,
  regression: { enabled: true, perGame: 2, extremeness: 0.3 },
  generalisation: { enabled: true, perGame: 2, weightTolerance: 0.05 },
  specialisation: { enabled: true, perGame: 2, minChange: 0.15 },
  deletion: { enabled: true, threshold: 0.02, minAge: 30, cap: 100_000 },
};

/** Settings to change: any top-level key, and any part of a nested one (e.g. only regression.perGame). */
export type ConfigPatch = {
  [K in keyof LearningConfig]?: LearningConfig[K] extends object ? Partial<LearningConfig[K]> : LearningConfig[K];
};

/** Deep merge of a partial config over a full one (only known keys). */
export function mergeConfig(base: LearningConfig, patch: ConfigPatch | Partial<Record<keyof LearningConfig, unknown>>): LearningConfig {
  const merged = structuredClone(base) as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(patch)) {
    if (!(key in base) || value === undefined) continue;
    const current = merged[key];
    merged[key] = current && typeof current === 'object' && value && typeof value === 'object' ? { ...current, ...value } : value;
  }
  const config = merged as unknown as LearningConfig;
  validateConfig(config);
  // Searches as formatSearch writes them: a list of extensions that equals a preset is kept as the preset's name,
  // which a Morph that knows only the presets reads.
  config.search = normalizeSearch(config.search);
  config.playSearch = normalizeSearch(config.playSearch);
  return config;
}

export function validateConfig(config: LearningConfig): void {
  const inRange = (name: string, value: number, min: number, max: number) => {
    if (typeof value !== 'number' || !(value >= min && value <= max)) throw badInput(`config ${name} must be in [${min}, ${max}], got ${value}`);
  };
  if (config.learnFrom !== 'own' && config.learnFrom !== 'both') throw badInput(`config learnFrom must be own or both`);
  if (config.updatePer !== 'game' && config.updatePer !== 'position') throw badInput(`config updatePer must be game or position`);
  const retired = RETIRED_EVALUATION_FUNCTIONS[config.evaluation];
  if (retired !== undefined) {
    throw badInput(`config evaluation ${config.evaluation} was retired (${retired}); this Morph plays and learns with ${EVALUATION_FUNCTIONS.join(' or ')}`);
  }
  if (!EVALUATION_FUNCTIONS.includes(config.evaluation)) {
    throw badInput(`config evaluation must be one of ${EVALUATION_FUNCTIONS.join(', ')}, got ${config.evaluation}`);
  }
  if (!PATTERN_LANGUAGES.includes(config.language)) {
    throw badInput(`config language must be one of ${PATTERN_LANGUAGES.join(', ')}, got ${config.language}`);
  }
  extensionsOf(config.search, 'config search');
  extensionsOf(config.playSearch, 'config playSearch');
  inRange('prior', config.prior, 0, 1e6);
  inRange('materialPrior', config.materialPrior, 0, MATERIAL_FIT_ALONE);
  inRange('lambda', config.lambda, 0, 1);
  inRange('beta', config.beta, 0, 10);
  inRange('discount', config.discount, 0.5, 1);
  inRange('maturity', config.maturity, 0, 1e9);
  inRange('targetMaturity', config.targetMaturity, 0, 1e9);
  inRange('relationLessons', config.relationLessons, 0, 1000);
  inRange('relationLessonsFullAt', config.relationLessonsFullAt, 0, NEVER_FEWER_LESSONS);
  if (typeof config.bootstrapLessons !== 'boolean') throw badInput(`config bootstrapLessons must be true or false, got ${JSON.stringify(config.bootstrapLessons)}`);
  inRange('maxPatternSize', config.maxPatternSize, 2, 16);
  inRange('subgraphsPerGame', config.subgraphsPerGame, 0, 1000);
  inRange('regression.perGame', config.regression.perGame, 0, 1000);
  inRange('generalisation.perGame', config.generalisation.perGame, 0, 1000);
  inRange('specialisation.perGame', config.specialisation.perGame, 0, 1000);
  inRange('deletion.cap', config.deletion.cap, 100, 1e8);
  parseTemperatureSchedule(config.temperature);
}

export function loadConfig(db: MorphDatabase): LearningConfig {
  const stored = getMetaJson<Partial<LearningConfig>>(db, 'config');
  // A configuration saved before updatePer existed was learned one update per position: keep it that way.
  if (stored && stored.updatePer === undefined) stored.updatePer = 'position';
  // ...and one saved before evaluation functions existed played with the paper's.
  if (stored && stored.evaluation === undefined) stored.evaluation = 'paper';
  // ...and one saved before pattern languages existed was learned in the paper's.
  if (stored && stored.language === undefined) stored.language = 'paper';
  // ...and one saved before search modes existed played one ply.
  if (stored && stored.search === undefined) stored.search = 'one-ply';
  // ...and one saved before bootstrapped lessons valued its lessons by material alone.
  if (stored && stored.bootstrapLessons === undefined) stored.bootstrapLessons = false;
  // ...and one saved before the play search existed plays as it trains.
  if (stored && stored.playSearch === undefined) stored.playSearch = stored.search;
  return mergeConfig(DEFAULT_CONFIG, stored ?? {});
}

/** The settings saved in the value database at `path`, read without loading its patterns. */
export function storedConfig(path: string): LearningConfig {
  const db = openDatabaseOfKind(path, 'value', { readonly: true, quickCheck: false });
  try {
    return loadConfig(db);
  } finally {
    closeMorphDatabase(db);
  }
}

export function saveConfig(db: MorphDatabase, config: LearningConfig): void {
  setMeta(db, 'config', config);
}

/**
 * A database's evaluation settings with its material prior replaced (`morph match --material-prior`, UCI
 * MaterialPrior), or undefined when none is given: the player then reads the database's own.
 */
export function evaluationWithMaterialPrior(db: MorphDatabase, materialPrior: number | undefined): EvaluationSettings | undefined {
  return materialPrior === undefined ? undefined : { ...evaluationSettings(loadConfig(db)), materialPrior };
}

/** The evaluation function and its priors, as the player and the TD targets use them. */
export function evaluationSettings(config: Pick<LearningConfig, 'evaluation' | 'prior' | 'materialPrior'>): EvaluationSettings {
  return { function: config.evaluation, prior: config.prior, materialPrior: config.materialPrior };
}
