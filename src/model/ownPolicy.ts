/**
 * Morph's own move policy: a model of its sparring partners' choices, built from the games in its own value
 * database, kept beside it (`data/morph.db` -> `data/morph.policy.db`) and used by every Morph player over that
 * database unless told otherwise (src/model/policy.ts explains the policy).
 *
 * Why a model of the partner: Morph loses most training games to it, and the partner rarely leaves a piece to be
 * taken or allows a fork; its choices, learned like any opponent model, are what Morph's noisy values lack between
 * similar moves. Nothing outside Morph's experience goes in: the moves are the ones played against it. Measured in
 * docs/lab/ (2026-11-23, "Morph's own move policy").
 *
 * The policy also carries square values fitted to the partner's choices in all the games (choiceEvaluation.ts,
 * accumulateChoiceSquares; OWN_SQUARE_GAMES): what the partner's moves say a piece is worth on each square. The
 * material searches add them to the fitted piece values (morphPlayer.ts, SQUARE_WEIGHT). Their evidence is kept in
 * the policy (squareEvidence.ts), and a rebuild adds only the games since the last one to it, so that a long run's
 * square values rest on every game at a cost per rebuild bounded by the new games.
 *
 * Training itself plays without the policy, so what the value database learns does not depend on it; `morph
 * train` keeps the policy current as it plays (OwnPolicyKeeper below: each partner game learned online as soon as
 * it is recorded, policyLearner.ts), so what the policy knows rests on every game of every run.
 */
import { existsSync } from 'node:fs';
import { openMorphDatabase, type MorphDatabase } from '../store/database.ts';
import { openDatabaseOfKind } from '../store/databaseKind.ts';
import { getMeta, getMetaJson, getMetaNumber } from '../store/meta.ts';
import { badInput } from '../util/errors.ts';
import { checkFen } from '../chess/fen.ts';
import { Random } from '../util/random.ts';
import { movesDecisions, sideDecisions, type Decision } from './decisions.ts';
import { buildModel, type BuildSummary, type ModelSettings } from './modelBuilder.ts';
import { OpponentModel, type ModelInfo } from './opponentModel.ts';
import type { SquareEvidence } from './choiceEvaluation.ts';
import { readSquareEvidence } from './squareEvidence.ts';
import { PolicyLearner, SQUARES_LAST_GAME_KEY } from './policyLearner.ts';

/** Games the policy is built from: the most recent ones (measured: 1000 games predicted better than 300). */
export const OWN_POLICY_GAMES = 1000;
/**
 * Games the policy's square values are fitted on at a build: all the partner games (or those since the last build),
 * or this many spread evenly over them (a bound on the memory and time of a rebuild). The square values gained from
 * more games up to about 3,000 where the policy's patterns did not, and were level after (docs/lab/,
 * 2026-11-28 morning and afternoon).
 */
export const OWN_SQUARE_GAMES = 10_000;

/** Where the policy of the value database at `dbPath` lives. */
export function ownPolicyPath(dbPath: string): string {
  return `${dbPath.replace(/\.db$/, '')}.policy.db`;
}

/**
 * The model file a Morph player over `dbPath` takes as its policy: the one the user gave, none when the user said
 * so (`false`, from --no-policy), else the database's own policy if it has been built.
 */
export function policyModelFor(dbPath: string, given: string | false | undefined): string | undefined {
  if (given === false) return undefined;
  if (given !== undefined) return given;
  const own = ownPolicyPath(dbPath);
  return existsSync(own) ? own : undefined;
}

/** The policy model a Morph player over `dbPath` plays with (as policyModelFor chooses), opened; the caller closes it. */
export function openPolicyModel(dbPath: string, given: string | false | undefined): OpponentModel | null {
  const path = policyModelFor(dbPath, given);
  return path === undefined ? null : OpponentModel.open(path);
}

/** The recorded games against a partner: self-play is left out (there the partner is Morph itself). */
const PARTNER_GAMES = `FROM games WHERE pgn IS NOT NULL AND morph_color IS NOT NULL AND opponent IS NOT NULL AND opponent <> 'self'`;

/** The partner's decisions (the side Morph was not) in recorded games, in their order. */
function partnerSides(rows: readonly { pgn: string; morphColor: 'w' | 'b' }[], source: string, bothSides = false): Decision[] {
  const text = rows.map((r) => r.pgn.trim()).join('\n\n') + '\n';
  return sideDecisions(text, source, (_headers, index) => (bothSides ? ['w', 'b'] : [rows[index].morphColor === 'w' ? 'b' : 'w'])).decisions;
}

export interface PartnerGames {
  decisions: Decision[];
  /** Games used, and the first and last game number among them (0 when none). */
  games: number;
  firstGame: number;
  lastGame: number;
  /** The partners' names, as recorded. */
  partners: string[];
}

/**
 * The partners' decisions in the last `lastGames` recorded games of a value database, or with `evenly`, in
 * `lastGames` games spread evenly over all of them (all when there are no more); with `after` and `upTo`, only
 * among the games numbered after the one and up to the other; with `bothSides`, Morph's moves too (every move of
 * those games). Self-play games are left out: there the partner is Morph itself.
 */
export function partnerDecisions(
  db: MorphDatabase,
  dbPath: string,
  lastGames = OWN_POLICY_GAMES,
  { evenly = false, after = 0, upTo = Number.MAX_SAFE_INTEGER, bothSides = false } = {},
): PartnerGames {
  let ids = partnerGamesAfter(db, after, upTo);
  if (ids.length > lastGames) {
    ids = evenly ? Array.from({ length: lastGames }, (_, k) => ids[Math.floor((k * ids.length) / lastGames)]) : ids.slice(-lastGames);
  }
  const byId = db.prepare(`SELECT id, pgn, morph_color AS morphColor, opponent FROM games WHERE id = ?`);
  const rows = ids.map((id) => byId.get(id) as { id: number; pgn: string; morphColor: 'w' | 'b'; opponent: string });
  if (rows.length === 0) return { decisions: [], games: 0, firstGame: 0, lastGame: 0, partners: [] };
  const decisions = partnerSides(rows, `${dbPath}'s games`, bothSides);
  return {
    decisions,
    games: rows.length,
    firstGame: rows[0].id,
    lastGame: rows[rows.length - 1].id,
    partners: [...new Set(rows.map((r) => r.opponent))].sort(),
  };
}

/** The last game the existing policy was built from, or null when there is none (or it cannot be read). */
export function ownPolicyLastGame(dbPath: string): number | null {
  return readPolicyFile(ownPolicyPath(dbPath), (db) => {
    const info = getMetaJson<{ lastGame?: number }>(db, 'model_info') ?? {};
    return typeof info.lastGame === 'number' ? info.lastGame : null;
  });
}

/** What `read` finds in the policy file at `path`, or null when there is none or it cannot be read (it is rebuilt). */
function readPolicyFile<T>(path: string, read: (db: MorphDatabase) => T | null): T | null {
  if (!existsSync(path)) return null;
  let db: MorphDatabase | null = null;
  try {
    db = openMorphDatabase(path, { readonly: true, quickCheck: false });
    return read(db);
  } catch {
    return null;
  } finally {
    db?.close();
  }
}

export interface OwnPolicySummary extends BuildSummary {
  file: string;
  firstGame: number;
  lastGame: number;
  /** The partner games the square values were fitted on (OWN_SQUARE_GAMES). */
  squareGames: number;
}

/**
 * Builds (or rebuilds) the policy of the value database at `dbPath` from its last `lastGames` games, into `out`
 * (default: its own policy path). The new model replaces the old one only when complete, and two builds of one
 * file at a time are refused (buildModel). Returns null when the database has no partner games yet.
 */
export function buildOwnPolicy(
  dbPath: string,
  options: {
    lastGames?: number;
    out?: string;
    /** Whether an existing `out` is replaced (default) or refused. */
    replace?: boolean;
    /** Default: the database's seed. */
    seed?: number;
    /**
     * Fit the square values afresh on the database's games instead of adding the games since the last build to the
     * evidence the replaced policy kept (the default when there is one, from this database).
     */
    freshSquares?: boolean;
    settings?: Partial<ModelSettings>;
    onProgress?: (message: string) => void;
  } = {},
): OwnPolicySummary | null {
  const out = options.out ?? ownPolicyPath(dbPath);
  if (out === dbPath) throw badInput(`the policy cannot replace its own value database ${dbPath}`);
  const db = openDatabaseOfKind(dbPath, 'value', { readonly: true, quickCheck: false });
  let games: PartnerGames;
  let squareGames: PartnerGames;
  let seed: number;
  let created: string;
  let previous: KeptSquareEvidence | null = null;
  try {
    games = partnerDecisions(db, dbPath, options.lastGames);
    created = getMeta(db, 'created_at') ?? '';
    const replaces = options.replace ?? true;
    if (replaces && !options.freshSquares) previous = keptSquareEvidence(out, created, games.lastGame);
    squareGames = partnerDecisions(db, dbPath, OWN_SQUARE_GAMES, { evenly: true, after: previous?.lastGame ?? 0 });
    seed = options.seed ?? getMetaNumber(db, 'seed') ?? 1;
  } finally {
    db.close();
  }
  if (games.games === 0) return null;
  const summary = buildModel({
    out,
    replace: options.replace ?? true,
    squareDecisions: squareGames.decisions,
    squareEvidence: previous?.evidence ?? null,
    databaseCreated: created,
    player: games.partners.join(', '),
    source: `${dbPath}, games ${games.firstGame}-${games.lastGame}`,
    games: games.games,
    decisions: games.decisions,
    seed,
    lastGame: games.lastGame,
    settings: options.settings,
    onProgress: options.onProgress,
  });
  return { ...summary, file: out, firstGame: games.firstGame, lastGame: games.lastGame, squareGames: squareGames.games };
}

interface KeptSquareEvidence {
  evidence: SquareEvidence;
  /** The last game of the value database it holds the evidence of. */
  lastGame: number;
}

/**
 * The square values' evidence the policy at `path` kept, when it was built from the value database created at
 * `created`, up to a game no later than `lastGame` (the database's last partner game); otherwise null, and the
 * square values are fitted afresh. An unreadable policy is rebuilt, so it counts as none.
 */
function keptSquareEvidence(path: string, created: string, lastGame: number): KeptSquareEvidence | null {
  return readPolicyFile(path, (db) => {
    const info = getMetaJson<ModelInfo>(db, 'model_info');
    if (!info || typeof info.lastGame !== 'number' || info.databaseCreated !== created || info.lastGame > lastGame) return null;
    const evidence = readSquareEvidence(db);
    // A policy that learns online records how far its square values have got; one built whole, its last game.
    return evidence === null ? null : { evidence, lastGame: getMetaNumber(db, SQUARES_LAST_GAME_KEY) ?? info.lastGame };
  });
}

/** Partner games between square-value refits during a run. */
export const OWN_SQUARE_EVERY = 500;
/**
 * Partner games a refit during a run absorbs, spread evenly over the games since the last refit: a fifth of them.
 * A refit's cost is in these games' decisions (a two-ply line for each of eight alternatives a decision), and the
 * square values did not need more (docs/lab/2026-12.md, the policy's upkeep: absorbing a fifth of the games
 * measured as well as absorbing all, at a fifth of the time).
 */
export const OWN_SQUARE_REFIT_GAMES = 100;

/**
 * A policy that has learned this many games learns from every partner decision of a game; one that has learned
 * more, from OWN_LESSON_SHARE of them, drawn at random. A decision's lesson (its patterns found and added, one
 * AdaGrad step) is most of the policy's upkeep in a run, and once the policy knows the common positions most
 * decisions repeat what it knows: replaying 3,000 games, learning from a quarter of each game's decisions predicted
 * the partner better (prequential log-loss 2.86 against 2.95 at 3,000 games) and chose as well on the scored
 * positions (docs/lab/2026-12.md, the policy's upkeep).
 */
export const OWN_ALL_LESSONS_GAMES = 100;
export const OWN_LESSON_SHARE = 0.25;

/** How the policy's upkeep is scheduled during a run (the constants above; smaller in tests). */
export interface UpkeepSchedule {
  squareEvery: number;
  squareRefitGames: number;
  allLessonsGames: number;
  lessonShare: number;
}

export const DEFAULT_UPKEEP: UpkeepSchedule = {
  squareEvery: OWN_SQUARE_EVERY,
  squareRefitGames: OWN_SQUARE_REFIT_GAMES,
  allLessonsGames: OWN_ALL_LESSONS_GAMES,
  lessonShare: OWN_LESSON_SHARE,
};

/** A partner game as just played: its start, moves (UCI), result (as a PGN Result tag) and the partner's side. */
export interface JustPlayed {
  startFen: string;
  moves: readonly string[];
  result: string;
  partner: 'w' | 'b';
}

/** What keeping the policy current cost and did in a run. */
export interface PolicyUpkeep {
  file: string;
  /** Partner games learned online in the run (catching up included). */
  games: number;
  /** Whether the policy was built whole (none yet, or one that cannot learn online). */
  rebuilt: boolean;
  /** Square-value refits. */
  squareFits: number;
  /** The last game the policy has learned, and its patterns then (0 when there is no policy yet). */
  lastGame: number;
  patterns: number;
  seconds: number;
}

/**
 * Keeps the value database's own policy current while `morph train` plays: every partner game is learned as soon
 * as it is recorded (policyLearner.ts; after its first OWN_ALL_LESSONS_GAMES games, from a share of each game's
 * decisions), and the square values absorb an even sample of the new games (at most OWN_SQUARE_REFIT_GAMES) every
 * OWN_SQUARE_EVERY games and at the end of the run. A policy that is missing, from another database, or built
 * before it could learn online is built whole once (from the last OWN_POLICY_GAMES games, or from the first game
 * of a fresh run). Games the policy missed (a run killed between a game and its lesson) are learned when the next
 * run starts.
 */
export class OwnPolicyKeeper {
  private learner: PolicyLearner | null = null;
  private readonly upkeep: PolicyUpkeep;

  constructor(
    private readonly db: MorphDatabase,
    private readonly dbPath: string,
    private readonly onProgress: (message: string) => void = () => {},
    private readonly schedule: UpkeepSchedule = DEFAULT_UPKEEP,
  ) {
    this.upkeep = { file: ownPolicyPath(dbPath), games: 0, rebuilt: false, squareFits: 0, lastGame: 0, patterns: 0, seconds: 0 };
    this.timed(() => this.open());
  }

  get summary(): PolicyUpkeep {
    return { ...this.upkeep, lastGame: this.learner?.lastGame ?? 0, patterns: this.learner?.patterns ?? 0 };
  }

  /**
   * Learns recorded game `gameId` (a no-op for self-play and games the policy has); `played`, the game as just
   * played, spares reading it back from its PGN.
   */
  learnGame(gameId: number, played?: JustPlayed): void {
    this.timed(() => {
      if (this.learner === null) this.open();
      if (this.learner === null) return;
      this.catchUp(gameId, played);
      if (this.learner.lastGame - this.learner.squaresLastGame >= this.schedule.squareEvery) this.refitSquares();
    });
  }

  /** At the end of a run: the square values absorb the games since their last refit. */
  finish(): PolicyUpkeep {
    this.timed(() => {
      if (this.learner && this.learner.lastGame > this.learner.squaresLastGame) this.refitSquares();
    });
    return this.summary;
  }

  /**
   * Copies the policy as it stands to `path` (a training checkpoint's own policy, so that the checkpoint plays and
   * is judged as the database played then); false when there is no policy yet.
   */
  async copyTo(path: string): Promise<boolean> {
    if (this.learner === null) return false;
    await this.learner.backup(path);
    return true;
  }

  close(): void {
    this.learner?.close();
    this.learner = null;
  }

  private timed(work: () => void): void {
    const started = performance.now();
    try {
      work();
    } finally {
      this.upkeep.seconds += (performance.now() - started) / 1000;
    }
  }

  /** Opens the policy to learn, building it whole first when there is none it can go on from. */
  private open(): void {
    const path = ownPolicyPath(this.dbPath);
    const created = getMeta(this.db, 'created_at') ?? '';
    const lastGame = lastPartnerGame(this.db);
    let learner = existsSync(path) ? PolicyLearner.open(path) : null;
    if (learner && (learner.databaseCreated !== created || learner.lastGame > lastGame)) {
      learner.close();
      learner = null;
    }
    if (learner === null) {
      if (lastGame === 0) return; // nothing to build from yet
      this.onProgress(`building the move policy from the last ${OWN_POLICY_GAMES} games; from now on it learns after every game`);
      buildOwnPolicy(this.dbPath);
      this.upkeep.rebuilt = true;
      learner = PolicyLearner.open(path);
      if (learner === null) return;
    }
    this.learner = learner;
  }

  /** Learns every partner game after the policy's last, up to `upTo` (which is `played`, when given). */
  private catchUp(upTo: number, played?: JustPlayed): void {
    const learner = this.learner!;
    for (const game of partnerGamesAfter(this.db, learner.lastGame, upTo)) {
      const decisions =
        played && game === upTo
          ? movesDecisions({ number: 1, startFen: checkFen(played.startFen), moves: played.moves, result: played.result }, [played.partner])
          : gameDecisions(this.db, this.dbPath, game);
      const share = learner.gamesLearned < this.schedule.allLessonsGames ? 1 : this.schedule.lessonShare;
      // The sample's own stream, apart from the one the lesson's pattern induction draws from (policyLearner.ts).
      learner.learn(sampleDecisions(decisions, share, new Random((learner.seed * 1_000_003 + game) ^ 0x2545f491)), game);
      this.upkeep.games++;
    }
  }

  private refitSquares(): void {
    const learner = this.learner!;
    const upTo = learner.lastGame;
    const games = partnerDecisions(this.db, this.dbPath, this.schedule.squareRefitGames, { evenly: true, after: learner.squaresLastGame, upTo });
    if (games.games === 0) return;
    learner.absorbSquares(games.decisions, upTo);
    this.upkeep.squareFits++;
  }
}

function lastPartnerGame(db: MorphDatabase): number {
  return db.prepare(`SELECT COALESCE(MAX(id), 0) ${PARTNER_GAMES}`).pluck().get() as number;
}

/** The partner games recorded after game `after`, up to `upTo`, in order. */
export function partnerGamesAfter(db: MorphDatabase, after: number, upTo = Number.MAX_SAFE_INTEGER): number[] {
  return db.prepare(`SELECT id ${PARTNER_GAMES} AND id > ? AND id <= ? ORDER BY id`).pluck().all(after, upTo) as number[];
}

/** An even-chance sample of `share` of `decisions` (all of them at share 1), in their order. */
export function sampleDecisions(decisions: readonly Decision[], share: number, random: Random): Decision[] {
  return share >= 1 ? [...decisions] : decisions.filter(() => random.next() < share);
}

/** The partner's decisions in recorded game `id`. */
export function gameDecisions(db: MorphDatabase, dbPath: string, id: number): Decision[] {
  const row = db.prepare(`SELECT pgn, morph_color AS morphColor FROM games WHERE id = ?`).get(id) as { pgn: string; morphColor: 'w' | 'b' };
  return partnerSides([row], `${dbPath}'s game ${id}`);
}
