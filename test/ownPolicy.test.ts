/**
 * Morph's own move policy (src/model/ownPolicy.ts): a model of its training partners, built from the games in its
 * value database, kept beside it, and used by Morph players over that database unless told not to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chess } from 'chess.js';
import Database from 'better-sqlite3';
import { runTraining } from '../src/train/harness.ts';
import { buildOwnPolicy, gameDecisions, OwnPolicyKeeper, ownPolicyPath, partnerDecisions } from '../src/model/ownPolicy.ts';
import { readSquareEvidence } from '../src/model/squareEvidence.ts';
import { OpponentModel } from '../src/model/opponentModel.ts';
import { PolicyLearner } from '../src/model/policyLearner.ts';
import { storedConfig } from '../src/learn/config.ts';
import { GameHistory } from '../src/chess/history.ts';
import { openMorphDatabase } from '../src/store/database.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { MORPH_BIN, runMorph } from './helpers/cli.ts';
import { endedProcessId, runningProcess } from './helpers/processes.ts';
import { recordPlayedRun, type PlayedRun } from './helpers/playedGames.ts';
import { movesDecisions } from '../src/model/decisions.ts';

/**
 * Training runs for the policy: without the relation terms' lessons, whose searches after each game were half of
 * these runs' processor time (4 games: 1.8 s against 0.9 s, 2026-12-07) and which the policy never reads.
 */
const train = (db: string, games: number, ownPolicy = true) =>
  runTraining({
    db, games, opponent: 'greedy', seed: 5, maxPlies: 40, progress: 'none', maxFailures: 3, jobs: 1,
    config: { search: 'one-ply', relationLessons: 0 }, ownPolicy,
  });

/** The partner's moves in the recorded games, read by chess.js: per game (by id), the UCI moves of the side Morph was not. */
function partnerMovesByGame(db: string): Map<number, string[]> {
  const reader = new Database(db, { readonly: true });
  let rows: { id: number; pgn: string; morphColor: 'w' | 'b' }[];
  try {
    rows = reader.prepare('SELECT id, pgn, morph_color AS morphColor FROM games ORDER BY id').all() as typeof rows;
  } finally {
    reader.close();
  }
  return new Map(
    rows.map((row) => {
      const chess = new Chess();
      chess.loadPgn(row.pgn);
      const moves = chess
        .history({ verbose: true })
        .filter((m) => m.color !== row.morphColor)
        .map((m) => m.lan);
      return [row.id, moves];
    }),
  );
}

const partnerMovesByChessJs = (db: string): string[] => [...partnerMovesByGame(db).values()].flat();

const modelInfo = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    const get = (key: string) => (db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
    return { info: JSON.parse(get('model_info')!), kind: get('database_kind') };
  } finally {
    db.close();
  }
};

/** Each fitted pattern's weight in a policy, by id. */
const patternWeights = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return new Map((db.prepare('SELECT id, weight FROM pattern_learning WHERE updates > 0').all() as { id: number; weight: number }[]).map((r) => [r.id, r.weight]));
  } finally {
    db.close();
  }
};

/** The moves of a decision's position as the model at `path` ranks them at one ply. */
const model1Ply = (path: string, d: { startFen: string; before: string[] }) => {
  const model = OpponentModel.open(path);
  try {
    return model.rank(new GameHistory(d.startFen, d.before), 'one-ply');
  } finally {
    model.close();
  }
};

let dir: string;
let db: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'morph-own-policy-'));
  db = join(dir, 'morph.db');
}, 10_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("Morph's own move policy", () => {
  it("is learned during training from exactly the partner's moves (checked with chess.js), beside the database", async () => {
    const summary = await train(db, 4);
    expect(summary.games).toBe(4);
    // The policy step reads the database read-only; the run still leaves it as one file.
    expect([existsSync(`${db}-wal`), existsSync(`${db}-shm`)]).toEqual([false, false]);
    const file = join(dir, 'morph.policy.db');
    expect(ownPolicyPath(db)).toBe(file);
    // Built whole from the first game, then each later game learned as it was played.
    expect(summary.policy).toMatchObject({ file, rebuilt: true, lastGame: 4, games: 3 });
    const expected = partnerMovesByChessJs(db);
    const opened = openMorphDatabase(db, { readonly: true });
    try {
      expect(partnerDecisions(opened, db).decisions.map((d) => d.chosen)).toEqual(expected);
      expect(partnerDecisions(opened, db, 2).decisions.length).toBeLessThan(expected.length);
      // Spread evenly: of 4 games, 2 are the first and the third; the last 2 are the third and the fourth.
      expect(partnerDecisions(opened, db, 2, { evenly: true })).toMatchObject({ games: 2, firstGame: 1, lastGame: 3 });
      expect(partnerDecisions(opened, db, 2)).toMatchObject({ games: 2, firstGame: 3, lastGame: 4 });
      expect(partnerDecisions(opened, db, 9, { evenly: true }).decisions.map((d) => d.chosen)).toEqual(expected);
    } finally {
      opened.close();
    }
    const { info, kind } = modelInfo(file);
    expect(kind).toBe('opponent-model');
    expect(info).toMatchObject({ player: 'greedy', games: 4, decisions: expected.length, lastGame: 4, seed: 5 });
  }, 120_000);

  it('learns every later game as it is played, and catches up games a run did not teach it', async () => {
    const file = ownPolicyPath(db);
    const weightsBefore = patternWeights(file);
    const two = await train(db, 2);
    expect(two.policy).toMatchObject({ rebuilt: false, games: 2, lastGame: 6 });
    expect([existsSync(`${db}-wal`), existsSync(`${db}-shm`)]).toEqual([false, false]);
    // The games moved the weights of patterns the policy already had, and added patterns.
    const weightsAfter = patternWeights(file);
    expect([...weightsBefore].filter(([id, w]) => weightsAfter.get(id) !== w).length).toBeGreaterThan(0);
    expect(weightsAfter.size).toBeGreaterThan(weightsBefore.size);
    // A run without the policy (or killed between a game and its lesson) leaves games the next run catches up.
    await train(db, 1, false);
    expect(modelInfo(file).info.lastGame).toBe(6);
    const next = await train(db, 1);
    expect(next.policy).toMatchObject({ rebuilt: false, games: 2, lastGame: 8 });
    expect(modelInfo(file).info).toMatchObject({ games: 8, decisions: partnerMovesByChessJs(db).length, lastGame: 8 });
  }, 120_000);

  it('morph train keeps a policy only where the database has one, or when asked: a new database trains without', async () => {
    const fresh = join(dir, 'fresh.db');
    const quick = ['--games', '1', '--opponent', 'greedy', '--seed', '5', '--max-plies', '20', '--jobs', '1', '--relation-lessons', '0', '--progress', 'none'];
    const run = async (...extra: string[]) => {
      const result = await runMorph(['train', '--db', fresh, ...quick, ...extra]);
      expect(result.code, result.stderr).toBe(0);
    };
    await run();
    expect(existsSync(ownPolicyPath(fresh))).toBe(false);
    const squares = await runMorph(['inspect', '--db', fresh, 'squares']);
    expect(squares.code).toBe(2);
    expect(squares.stderr).toMatch(/^morph: .*fresh\.db has no move policy, so no square values \(a new database trains without one: morph train --policy keeps one/);
    await run('--policy');
    expect(modelInfo(ownPolicyPath(fresh)).info.lastGame).toBe(2);
    // Having one, the database keeps it current unasked; --no-policy leaves it as it is.
    await run();
    expect(modelInfo(ownPolicyPath(fresh)).info.lastGame).toBe(3);
    await run('--no-policy');
    expect(modelInfo(ownPolicyPath(fresh)).info.lastGame).toBe(3);
  }, 120_000);

  it('makes the moves it learns from likelier, as the opponent model ranks them', () => {
    const copy = join(dir, 'learning.policy.db');
    copyFileSync(ownPolicyPath(db), copy);
    const opened = openMorphDatabase(db, { readonly: true });
    const decisions = partnerDecisions(opened, db, 1).decisions;
    opened.close();
    // The mean log-probability of the partner's moves in the last game, at one ply (the look the fit uses).
    const meanLogProbability = () => {
      const model = OpponentModel.open(copy);
      try {
        // Forced moves (one legal move) teach nothing and the learner leaves them out.
        const logs = decisions.flatMap((d) => {
          const ranked = model.rank(new GameHistory(d.startFen, d.before), 'one-ply');
          return ranked.length < 2 ? [] : [Math.log(ranked.find((m) => m.move === d.chosen)!.probability)];
        });
        return logs.reduce((a, b) => a + b, 0) / logs.length;
      } finally {
        model.close();
      }
    };
    const before = meanLogProbability();
    // The learner sees a decision as the model ranks it: its log-likelihood before its step is the model's.
    const first = decisions.find((d) => model1Ply(copy, d).length > 1)!;
    const firstLog = Math.log(model1Ply(copy, first).find((m) => m.move === first.chosen)!.probability);
    const alone = join(dir, 'alone.policy.db');
    copyFileSync(copy, alone);
    const single = PolicyLearner.open(alone)!;
    expect(single.learn([first], single.lastGame + 1).logLikelihood).toBeCloseTo(firstLog, 9);
    single.close();
    const learner = PolicyLearner.open(copy)!;
    const lesson = learner.learn(decisions, learner.lastGame + 1);
    learner.close();
    expect(lesson.decisions).toBeGreaterThan(0);
    expect(meanLogProbability()).toBeGreaterThan(before);
  });

  it('is what Morph plays with over that database (weight x log p, from the model itself), unless --no-policy', async () => {
    // The documented defaults: .03 with the new database's play search, material-five-plies; .1 with the others.
    expect(storedConfig(db).playSearch).toBe('material-five-plies');
    const weight = 0.03;
    const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';
    const withPolicy = await runMorph(['move', '--db', db, '--fen', fen, '--json']);
    expect(withPolicy.stderr).toBe('');
    const without = await runMorph(['move', '--db', db, '--fen', fen, '--json', '--no-policy']);
    const ranked = JSON.parse(withPolicy.stdout).ranking as { move: string; value: number; policy?: number }[];
    const plain = JSON.parse(without.stdout).ranking as { move: string; value: number; policy?: number }[];
    const model = OpponentModel.open(ownPolicyPath(db));
    let logp: Map<string, number>;
    try {
      logp = new Map(model.rank(new GameHistory(fen)).map((m) => [m.move, Math.log(m.probability)]));
      expect(ranked).toHaveLength(logp.size);
      for (const r of ranked) {
        expect(r.policy).toBeCloseTo(weight * logp.get(r.move)!, 3);
        expect(r.value).toBeCloseTo(plain.find((p) => p.move === r.move)!.value, 4);
      }
    } finally {
      model.close();
    }
    expect(plain.every((p) => p.policy === undefined)).toBe(true);
    // The matches check which player plays (its spec), not how: eight plies a game show it.
    const match = await runMorph(['match', '--white', `morph:${db}`, '--black', 'random', '--games', '2', '--max-plies', '8', '--seed', '1', '--json', '--no-progress']);
    expect(match.code).toBe(0);
    expect(JSON.parse(match.stdout).first).toBe(`morph:${db}+policy:${ownPolicyPath(db)}@${weight}`);
    const looking = await runMorph(['match', '--white', `morph:${db}`, '--black', 'random', '--games', '2', '--max-plies', '8', '--seed', '1', '--json', '--no-progress', '--search', 'captures-mates']);
    expect(JSON.parse(looking.stdout).first).toBe(`morph:${db}+policy:${ownPolicyPath(db)}@0.1`);
    const lookingMove = await runMorph(['move', '--db', db, '--fen', fen, '--json', '--search', 'captures-mates']);
    for (const r of JSON.parse(lookingMove.stdout).ranking as { move: string; policy: number }[]) {
      expect(r.policy).toBeCloseTo(0.1 * logp.get(r.move)!, 3);
    }
    const plainMatch = await runMorph(['match', '--white', `morph:${db}`, '--black', 'random', '--games', '2', '--max-plies', '8', '--seed', '1', '--json', '--no-progress', '--no-policy']);
    expect(JSON.parse(plainMatch.stdout).first).toBe(`morph:${db}`);
  }, 120_000);

  it('morph model --from-db rebuilds it, or writes a new file; an empty database or an existing --out is refused', async () => {
    const built = await runMorph(['model', '--from-db', db, '--last', '3', '--json', '--no-progress']);
    expect(built.stderr).toBe('');
    expect(built.code).toBe(0);
    // Morph's own policy keeps exact material and the captures look, measured best in games.
    expect(JSON.parse(built.stdout)).toMatchObject({ file: ownPolicyPath(db), firstGame: 6, lastGame: 8, games: 3, settings: { search: 'captures', material: 'exact' } });
    const elsewhere = join(dir, 'other.model.db');
    expect((await runMorph(['model', '--from-db', db, '--out', elsewhere, '--no-progress'])).code).toBe(0);
    expect(modelInfo(elsewhere).kind).toBe('opponent-model');
    const again = await runMorph(['model', '--from-db', db, '--out', elsewhere, '--no-progress']);
    expect(again.code).toBe(2);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
    const empty = join(dir, 'empty.db');
    PatternStore.open(empty).close();
    const noGames = await runMorph(['model', '--from-db', empty, '--no-progress']);
    expect(noGames.code).toBe(2);
    expect(noGames.stderr).toMatch(/no recorded games against a partner yet/);
    expect(existsSync(ownPolicyPath(empty))).toBe(false);
    const none = await runMorph(['model', '--from-db', join(dir, 'missing.db'), '--no-progress']);
    expect(none.code).toBe(2);
    expect(none.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(ownPolicyPath(join(dir, 'missing.db')))).toBe(false);
  }, 120_000);
  it("carries square values for play fitted to the partner's choices, once enough of them have a result", async () => {
    const played = join(dir, 'played.db');
    const playedDb = openMorphDatabase(played);
    await recordPlayedRun(playedDb, { opponent: 'ab:1', games: 6, seed: 21, startedAt: new Date('2026-01-02T10:00:00Z'), firstGame: 1 });
    playedDb.close();
    const built = await runMorph(['model', '--from-db', played, '--json', '--no-progress']);
    expect(built.stderr).toBe('');
    const summary = JSON.parse(built.stdout);
    // Every partner decision of every game is fitted on (far fewer than the sample's bound).
    const reader = openMorphDatabase(played, { readonly: true });
    expect(summary.squares.decisions).toBe(partnerDecisions(reader, played).decisions.length);
    expect(summary.squares.of).toBe(summary.squares.decisions);
    expect(summary.squareGames).toBe(6);
    reader.close();
    const model = OpponentModel.open(ownPolicyPath(played));
    try {
      // Tapered: a middlegame and an endgame table.
      expect(model.choiceSquares!.squareValues).toHaveLength(2 * 6 * 64);
      expect(model.choiceSquares!.values.every((v) => v > 0)).toBe(true);
    } finally {
      model.close();
    }
    // morph inspect squares shows them, in centipawns of the pawn value beside them, read from the file's meta.
    const shown = await runMorph(['inspect', '--db', played, 'squares', '--json']);
    expect(shown.code).toBe(0);
    const policyFile = new Database(ownPolicyPath(played), { readonly: true });
    const stored = JSON.parse((policyFile.prepare("SELECT value FROM meta WHERE key = 'model_choice_squares'").get() as { value: string }).value);
    policyFile.close();
    const tables = JSON.parse(shown.stdout).tables;
    expect(Object.keys(tables.N)).toHaveLength(64);
    // A knight (type 2) on f3 (square 21) and a king (type 6) on g1 (square 6): indexes (type - 1) * 64 + square.
    expect(tables.N.f3).toBe(Math.round((100 * stored.squareValues[64 + 21]) / stored.values[0]));
    expect(tables.K.g1).toBe(Math.round((100 * stored.squareValues[5 * 64 + 6]) / stored.values[0]));
    expect(JSON.parse(shown.stdout).endgameTables.K.g1).toBe(Math.round((100 * stored.squareValues[384 + 5 * 64 + 6]) / stored.values[0]));
    // The policy file given as --db is an opponent model: its own square values, the same tables.
    const direct = await runMorph(['inspect', '--db', ownPolicyPath(played), 'squares', '--json']);
    expect(direct.code).toBe(0);
    expect(JSON.parse(direct.stdout).tables).toEqual(tables);
    // Two games of at most 40 plies: too few decisions with a result to start from (100), so no square values.
    const few = join(dir, 'few.db');
    await train(few, 2);
    expect((await runMorph(['model', '--from-db', few, '--no-progress'])).code).toBe(0);
    const small = OpponentModel.open(ownPolicyPath(few));
    expect(small.choiceSquares).toBeNull();
    small.close();
    // Damaged square values: refused in one line, exit 2, as any unreadable policy is.
    const damaged = join(dir, 'damaged.policy.db');
    copyFileSync(ownPolicyPath(played), damaged);
    const writer = new Database(damaged);
    writer.prepare("UPDATE meta SET value = ? WHERE key = 'model_choice_squares'").run(JSON.stringify({ squareValues: stored.squareValues }));
    writer.close();
    const refused = await runMorph(['move', '--db', played, '--policy', damaged, '--fen', '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^morph: .*damaged\.policy\.db: its square values have no five piece values beside them\n$/);
    const none = await runMorph(['inspect', '--db', few, 'squares']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^morph: .*few\.policy\.db has no square values \(rebuild it: morph model --from-db .*\)\n$/);
  }, 120_000);

  it("adds each rebuild's new games to the square values' evidence, unless told to fit afresh or the database is another", async () => {
    const played = join(dir, 'played.db'); // six games, the policy built from them (above)
    const squaresOf = (stdout: string) => JSON.parse(stdout).squares;
    const decisionsIn = (path: string) => {
      const reader = openMorphDatabase(path, { readonly: true });
      try {
        return partnerDecisions(reader, path).decisions.length;
      } finally {
        reader.close();
      }
    };
    const before = decisionsIn(played);
    const writer = openMorphDatabase(played);
    await recordPlayedRun(writer, { opponent: 'ab:1', games: 4, seed: 22, startedAt: new Date('2026-01-03T10:00:00Z'), firstGame: 7 });
    writer.close();
    const all = decisionsIn(played);
    expect(all).toBeGreaterThan(before);
    const rebuilt = await runMorph(['model', '--from-db', played, '--json', '--no-progress']);
    expect(rebuilt.stderr).toBe('');
    // Only the four new games were read for the square values; their decisions joined the six games' evidence.
    expect(JSON.parse(rebuilt.stdout).squareGames).toBe(4);
    expect(squaresOf(rebuilt.stdout)).toMatchObject({ decisions: all, of: all, fits: 2 });
    const shown = await runMorph(['inspect', '--db', played, 'squares']);
    expect(shown.stdout).toContain(`Fitted on ${all} of ${all} partner decisions, added up over 2 policy builds.`);
    // A copy of the database under another creation time is another database: its policy starts afresh.
    const other = join(dir, 'other-played.db');
    copyFileSync(played, other);
    copyFileSync(ownPolicyPath(played), ownPolicyPath(other));
    const otherDb = new Database(other);
    otherDb.prepare("UPDATE meta SET value = '2020-01-01T00:00:00.000Z' WHERE key = 'created_at'").run();
    otherDb.close();
    const elsewhere = await runMorph(['model', '--from-db', other, '--json', '--no-progress']);
    expect(squaresOf(elsewhere.stdout)).toMatchObject({ decisions: all, fits: 1 });
    expect(JSON.parse(elsewhere.stdout).squareGames).toBe(10);
    // --fresh-squares: every game again, one fit.
    const fresh = await runMorph(['model', '--from-db', played, '--fresh-squares', '--json', '--no-progress']);
    expect(squaresOf(fresh.stdout)).toMatchObject({ decisions: all, of: all, fits: 1 });
    expect(JSON.parse(fresh.stdout).squareGames).toBe(10);
  }, 120_000);

  it('during a run, learns a share of each game once it knows the first games, and refits the square values on a sample of the games since the last refit', async () => {
    const played = join(dir, 'schedule.db');
    const writer = openMorphDatabase(played);
    /** Records game `id`, as a run does before the keeper learns it. */
    const games: PlayedRun['games'] = [];
    const play = async (id: number) => {
      const run = await recordPlayedRun(writer, { opponent: 'ab:1', morph: 'ab:1', games: 1, seed: 23 + id, startedAt: new Date('2026-01-04T10:00:00Z'), firstGame: id });
      games.push(...run.games);
      return run.games[0];
    };
    const offered = () => {
      const policy = openMorphDatabase(ownPolicyPath(played), { readonly: true, quickCheck: false });
      try {
        return readSquareEvidence(policy)?.offered ?? 0;
      } finally {
        policy.close();
      }
    };
    // Every 6 games a refit of 4 of them, spread evenly (the first, second, fourth and fifth); at the end, the rest.
    // Every decision of the first 3 games is learned, then half of each game's.
    const schedule = { squareEvery: 6, squareRefitGames: 4, allLessonsGames: 3, lessonShare: 0.5 };
    const keeper = new OwnPolicyKeeper(writer, played, () => {}, schedule);
    /** The partner's moves in each game, read by chess.js from the PGNs once all 13 games are recorded (below). */
    let partnerMoves: Map<number, string[]> | undefined;
    const moves = (...ids: number[]) => ids.reduce((sum, id) => sum + partnerMoves!.get(id)!.length, 0);
    try {
      await play(1);
      keeper.learnGame(1);
      // Built whole from game 1: too few decisions with a result for square values (100).
      expect([keeper.summary.rebuilt, keeper.summary.squareFits, offered()]).toEqual([true, 0, 0]);
      const refitAfter = new Map<number, number>();
      for (let game = 2; game <= 13; game++) {
        const recorded = await play(game);
        // As the harness does: the game as played (no PGN read back), on all but one game.
        const partner = recorded.morphColor === 'w' ? 'b' : 'w';
        keeper.learnGame(game, game === 7 ? undefined : { ...recorded, partner });
        refitAfter.set(game, offered());
      }
      expect(keeper.summary).toMatchObject({ squareFits: 2, lastGame: 13, games: 12 });
      // Every game is recorded: their PGNs, read once, for all the counts below.
      partnerMoves = partnerMovesByGame(played);
      expect([...partnerMoves.keys()]).toEqual(games.map((game) => game.id));
      // The harness hands the keeper each game as played: the same decisions chess.js reads from its PGN.
      const reader = openMorphDatabase(played, { readonly: true });
      for (const game of games) {
        const partner = game.morphColor === 'w' ? 'b' : 'w';
        expect(movesDecisions({ number: 1, startFen: game.startFen, moves: game.moves, result: game.result }, [partner])).toEqual(gameDecisions(reader, played, game.id));
      }
      reader.close();
      expect([refitAfter.get(5), refitAfter.get(6), refitAfter.get(11), refitAfter.get(12)]).toEqual([
        0,
        moves(1, 2, 4, 5),
        moves(1, 2, 4, 5),
        moves(1, 2, 4, 5, 7, 8, 10, 11),
      ]);
      expect(keeper.finish()).toMatchObject({ squareFits: 3, lastGame: 13 });
      expect(offered()).toBe(moves(1, 2, 4, 5, 7, 8, 10, 11, 13));
      // The lessons: all of games 1-3, then about half of the rest (well inside three binomial deviations).
      const { info } = modelInfo(ownPolicyPath(played));
      const later = moves(4, 5, 6, 7, 8, 9, 10, 11, 12, 13);
      expect(info.games).toBe(13);
      expect(Math.abs(info.decisions - moves(1, 2, 3) - later / 2)).toBeLessThan(1.5 * Math.sqrt(later));
    } finally {
      keeper.close();
      writer.close();
    }
  }, 120_000);

  it('a policy file that cannot be read: match refuses it in one line (exit 2); uci plays on without it and says so', async () => {
    const other = join(dir, 'copy.db');
    copyFileSync(db, other);
    writeFileSync(ownPolicyPath(other), 'not a database at all, just text');
    const match = await runMorph(['match', '--white', `morph:${other}`, '--black', 'random', '--games', '2', '--no-progress']);
    expect(match.code).toBe(2);
    expect(match.stderr.trim().split('\n')).toHaveLength(1);
    expect((await runMorph(['match', '--white', `morph:${other}`, '--black', 'random', '--games', '2', '--max-plies', '8', '--no-progress', '--no-policy'])).code).toBe(0);
    const uci = spawn(process.execPath, [MORPH_BIN, 'uci', '--db', other]);
    let stdout = '';
    let stderr = '';
    uci.stdout.on('data', (chunk) => (stdout += chunk));
    uci.stderr.on('data', (chunk) => (stderr += chunk));
    const closed = new Promise((done) => uci.on('close', done));
    uci.stdin.end('uci\nisready\nposition startpos\ngo\nquit\n');
    await closed;
    expect(stdout).toMatch(/^bestmove [a-h][1-8][a-h][1-8]/m);
    expect(stderr).toMatch(/^morph: playing without the move policy .*copy\.policy\.db/);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  }, 120_000);

  it('a rebuild keeps the old policy whole until the new one is complete; a second rebuild meanwhile is refused (exit 2)', () => {
    const file = ownPolicyPath(db);
    const before = readFileSync(file);
    let midBuild: Buffer | undefined;
    let second: ReturnType<typeof spawnSync> | undefined;
    const built = buildOwnPolicy(db, {
      seed: 11,
      // Called mid-build, before the model is written.
      onProgress: () => {
        midBuild = readFileSync(file);
        second = spawnSync(process.execPath, [MORPH_BIN, 'model', '--from-db', db, '--seed', '12', '--no-progress'], { encoding: 'utf8' });
      },
    });
    expect(midBuild!.equals(before)).toBe(true);
    expect(second!.status).toBe(2);
    expect(String(second!.stderr).trim().split('\n')).toHaveLength(1);
    expect(second!.stderr).toMatch(/morph\.policy\.db is being written by another process/);
    expect(built).toMatchObject({ file, seed: 11 });
    expect(modelInfo(file).info.seed).toBe(11);
  }, 120_000);

  it('morph train removes the temporaries of policy builds killed mid-write, not those of a running one', async () => {
    const file = ownPolicyPath(db);
    const ended = endedProcessId();
    const running = runningProcess();
    try {
      const leftovers = [`${file}.building-${ended}`, `${file}.building-${ended}.partial-${ended}`];
      const kept = `${file}.building-${running.pid}`;
      for (const path of [...leftovers, kept]) writeFileSync(path, Buffer.alloc(64 * 1024, 7));
      const summary = await train(db, 1);
      expect(summary.games).toBe(1);
      expect(leftovers.filter(existsSync)).toEqual([]);
      expect(existsSync(kept)).toBe(true);
    } finally {
      running.kill('SIGKILL');
    }
  }, 120_000);
});
