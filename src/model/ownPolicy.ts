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
 * train` rebuilds the model after a run once enough new games have been recorded.
 */
import { existsSync } from 'node:fs';
import { openMorphDatabase, type MorphDatabase } from '../store/database.ts';
import { openDatabaseOfKind } from '../store/databaseKind.ts';
import { getMeta, getMetaJson, getMetaNumber } from '../store/meta.ts';
import { badInput } from '../util/errors.ts';
import { sideDecisions, type Decision } from './decisions.ts';
import { buildModel, type BuildSummary, type ModelSettings } from './modelBuilder.ts';
import { OpponentModel, type ModelInfo } from './opponentModel.ts';
import type { SquareEvidence } from './choiceEvaluation.ts';
import { readSquareEvidence } from './squareEvidence.ts';

/** Games the policy is built from: the most recent ones (measured: 1000 games predicted better than 300). */
export const OWN_POLICY_GAMES = 1000;
/**
 * Games the policy's square values are fitted on at a build: all the partner games (or those since the last build),
 * or this many spread evenly over them (a bound on the memory and time of a rebuild). The square values gained from
 * more games up to about 3,000 where the policy's patterns did not, and were level after (docs/lab/,
 * 2026-11-28 morning and afternoon).
 */
export const OWN_SQUARE_GAMES = 10_000;
/** New games before `morph train` rebuilds the policy; also the fewest games it is first built from. */
export const OWN_POLICY_REFRESH = 100;

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
 * `lastGames` games spread evenly over all of them (all when there are no more); with `after`, only among the
 * games numbered after it. Self-play games are left out: there the partner is Morph itself.
 */
export function partnerDecisions(
  db: MorphDatabase,
  dbPath: string,
  lastGames = OWN_POLICY_GAMES,
  { evenly = false, after = 0 } = {},
): PartnerGames {
  const partnerGames = `FROM games WHERE id > ? AND pgn IS NOT NULL AND morph_color IS NOT NULL AND opponent IS NOT NULL AND opponent <> 'self'`;
  let ids = db.prepare(`SELECT id ${partnerGames} ORDER BY id`).pluck().all(after) as number[];
  if (ids.length > lastGames) {
    ids = evenly ? Array.from({ length: lastGames }, (_, k) => ids[Math.floor((k * ids.length) / lastGames)]) : ids.slice(-lastGames);
  }
  const byId = db.prepare(`SELECT id, pgn, morph_color AS morphColor, opponent FROM games WHERE id = ?`);
  const rows = ids.map((id) => byId.get(id) as { id: number; pgn: string; morphColor: 'w' | 'b'; opponent: string });
  if (rows.length === 0) return { decisions: [], games: 0, firstGame: 0, lastGame: 0, partners: [] };
  const text = rows.map((r) => r.pgn.trim()).join('\n\n') + '\n';
  const { decisions } = sideDecisions(text, `${dbPath}'s games`, (_headers, index) => [rows[index].morphColor === 'w' ? 'b' : 'w']);
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
    return evidence === null ? null : { evidence, lastGame: info.lastGame };
  });
}

/**
 * Whether `morph train` should (re)build the policy: at least `refresh` partner games recorded since it was last
 * built (or, when there is none, at all).
 */
export function ownPolicyIsStale(dbPath: string, refresh = OWN_POLICY_REFRESH): boolean {
  const builtUpTo = ownPolicyLastGame(dbPath) ?? 0;
  const db = openMorphDatabase(dbPath, { readonly: true, quickCheck: false });
  try {
    const row = db
      .prepare(`SELECT COUNT(*) AS games FROM games WHERE id > ? AND pgn IS NOT NULL AND opponent IS NOT NULL AND opponent <> 'self'`)
      .get(builtUpTo) as { games: number };
    return row.games >= refresh;
  } finally {
    db.close();
  }
}
