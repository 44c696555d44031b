/** Opponent models (issue 14): reading one player's decisions, building and measuring a model, bad input. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Chess } from 'chess.js';
import Database from 'better-sqlite3';
import { GreedyPlayer } from '../src/engines/simplePlayers.ts';
import { playerDecisions } from '../src/model/decisions.ts';
import { OpponentModel, withAncestors } from '../src/model/opponentModel.ts';
import { buildPositionGraph } from '../src/graph/positionGraph.ts';
import { ModelGuidedPlayer } from '../src/model/modelGuidedPlayer.ts';
import { modelPolicy } from '../src/model/policy.ts';
import { modelReplies, morphPlayerWithModels } from '../src/model/predictedReplies.ts';
import { PredictedLinePlayer } from '../src/model/predictedLine.ts';
import { morphRanker } from '../src/agree/rankers.ts';
import { MorphPlayer } from '../src/player/morphPlayer.ts';
import { setShare } from '../src/agree/prediction.ts';
import { SHRINKAGE_CANDIDATES, type BuildSummary } from '../src/model/modelBuilder.ts';
import { GameHistory } from '../src/chess/history.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { MorphError } from '../src/util/errors.ts';
import { Random } from '../src/util/random.ts';
import { buildSampleDatabase } from './helpers/sampleDatabase.ts';
import { gamesAgainstRandom } from './helpers/playedGames.ts';
import { DEFAULT_CONFIG, loadConfig, saveConfig } from '../src/learn/config.ts';
import { materialPattern } from '../src/pattern/pattern.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { uciMove } from '../src/chess/board.ts';
import type { ReplyPredictor } from '../src/player/morphPlayer.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');

function morph(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    execFile(process.execPath, [join(ROOT, 'bin', 'morph.js'), ...args], { timeout: 120_000 }, (error, stdout, stderr) => {
      const status = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      if (error && status === null) fail(error);
      else done({ status, stdout, stderr });
    });
  });
}

/** Games of greedy (seeded tie-breaks) against random, colours alternating, from varied openings. */
const greedyGames = (count: number, seed: number) => gamesAgainstRandom(count, seed, (playerSeed) => new GreedyPlayer(playerSeed));

/** Positions from the held-out games: each game's start and the position after every fifth move. */
function heldOutPositions(): string[] {
  const fens: string[] = [];
  for (const game of readFileSync(heldOut, 'utf8').split(/\n\n(?=\[Event)/)) {
    const chess = new Chess();
    chess.loadPgn(game);
    const history = chess.history({ verbose: true });
    history.forEach((move, i) => {
      if (i % 5 === 0) fens.push(move.before);
    });
  }
  return fens;
}

/** Morph (the empty value database) with the model of greedy against random: two 12-ply games from one opening. */
function modelMatch(...extra: string[]): ReturnType<typeof morph> {
  const openings = join(dir, 'one.epd');
  writeFileSync(openings, 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n');
  return morph('match', '--white', `morph:${valueDb}`, '--black', 'random', '--white-model', model, '--games', '2', '--max-plies', '12', '--openings', openings, '--seed', '1', '--json', '--no-progress', ...extra);
}

let dir: string;
let train: string;
let heldOut: string;
let model: string;
let valueDb: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'morph-model-'));
  train = join(dir, 'greedy.train.pgn');
  heldOut = join(dir, 'greedy.heldout.pgn');
  writeFileSync(train, await greedyGames(16, 1));
  writeFileSync(heldOut, await greedyGames(6, 2));
  model = join(dir, 'greedy.model.db');
  // Exact material, the captures look and the patterns' shrinkage .01: the configuration the tests below were
  // written for (the defaults for a player's games are material two-ply, one ply and .1, checked under "search
  // captures"); some of them read its weights as a value database's and need them varied.
  const built = await morph('model', '--out', model, '--pgn', train, '--player', 'greedy', '--seed', '3', '--material', 'exact', '--search', 'captures', '--shrinkage', '0.01', '--json', '--no-progress');
  expect(built.stderr).toBe('');
  expect(built.status).toBe(0);
  valueDb = join(dir, 'value.db');
  PatternStore.open(valueDb).close();
}, 180_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('playerDecisions', () => {
  it("takes exactly the named player's moves, checked against chess.js", async () => {
    const text = readFileSync(train, 'utf8');
    const { decisions, played, games } = playerDecisions(text, 'greedy', 'train');
    expect(games).toBe(16);
    expect(played).toBe(16);
    // Independently: replay each game in chess.js and count the plies of the side whose tag says greedy.
    let expected = 0;
    for (const game of text.split(/\n\n(?=\[Event)/)) {
      const chess = new Chess();
      chess.loadPgn(game);
      const side = chess.getHeaders().White === 'greedy' ? 'w' : 'b';
      const replay = new Chess(chess.getHeaders().FEN);
      for (const move of chess.history()) {
        if (replay.turn() === side) expected++;
        replay.move(move);
      }
    }
    expect(decisions.length).toBe(expected);
    // Every decision's move is legal where it was played (chess.js replays the moves before it).
    for (const d of decisions.slice(0, 50)) {
      const chess = new Chess(d.startFen);
      for (const m of d.before) chess.move({ from: m.slice(0, 2), to: m.slice(2, 4), promotion: m[4] });
      expect(chess.moves({ verbose: true }).map((m) => m.lan)).toContain(d.chosen);
    }
  });

  it('refuses a file without the player, and a game of another variant, with exit code 2', () => {
    const text = readFileSync(train, 'utf8');
    expect(() => playerDecisions(text, 'nobody', 'train')).toThrow(/no game in train has "nobody"/);
    try {
      playerDecisions(text, 'nobody', 'train');
    } catch (error) {
      expect((error as MorphError).exitCode).toBe(2);
    }
    const variant = '[White "x"]\n[Black "y"]\n[Variant "Chess960"]\n[Result "*"]\n\n1. e4 e5 *\n';
    expect(() => playerDecisions(variant, 'x', 'v')).toThrow(/not standard chess/);
  });
});

describe('morph model and morph predict', () => {
  it('predicts greedy far better than random, counting its equally best moves', async () => {
    const run = await morph('predict', '--model', model, '--pgn', heldOut, '--player', 'greedy', '--labels', 'greedy', '--other-model', model, '--json');
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout);
    const [ours, random] = report.rankers;
    // Paired differences: the model less itself is exactly nothing; less random, the difference of the shares.
    const itself = report.rankers.at(-1);
    expect(itself.top1.value).toBe(ours.top1.value);
    expect(itself.firstLess.top1).toEqual({ value: 0, low: 0, high: 0 });
    expect(random.firstLess.top1.value).toBeCloseTo(ours.top1.value - random.top1.value, 12);
    expect(random.firstLess.top1.low).toBeGreaterThan(0);
    expect(random.firstLess.top1.low).toBeLessThan(random.firstLess.top1.value);
    expect(random.firstLess.top1.high).toBeGreaterThan(random.firstLess.top1.value);
    expect(random.ranker).toBe('random');
    // Random's top-1 is exactly the mean of 1/legal; greedy's own ties make the label easy only for a model that learned it.
    expect(ours.top1.value).toBeGreaterThan(random.top1.value + 0.15);
    expect(ours.top1.low).toBeLessThanOrEqual(ours.top1.value);
    expect(ours.top1.high).toBeGreaterThanOrEqual(ours.top1.value);
    expect(Object.keys(ours.byPhase).length).toBeGreaterThan(0);
  }, 120_000);

  it('a model ranks every legal move, probabilities summing to one', () => {
    const opened = OpponentModel.open(model);
    try {
      const ranking = opened.rank(new GameHistory('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'));
      expect(ranking.length).toBe(20);
      expect(ranking.reduce((sum, m) => sum + m.probability, 0)).toBeCloseTo(1, 9);
      expect(opened.info.player).toBe('greedy');
    } finally {
      opened.close();
    }
  });

  it('builds a model by watching a player, and saves the watched games', async () => {
    const out = join(dir, 'watched.db');
    const pgn = join(dir, 'watched.pgn');
    const run = await morph('model', '--out', out, '--watch', 'greedy', '--partner', 'random', '--games', '2', '--seed', '4', '--save-pgn', pgn, '--material', 'exact', '--json', '--no-progress');
    expect(run.status).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary.games).toBe(2);
    // The decisions are exactly greedy's moves in the saved games.
    expect(summary.decisions).toBe(playerDecisions(readFileSync(pgn, 'utf8'), 'greedy', 'saved').decisions.length);
    const opened = OpponentModel.open(out);
    expect(opened.info.player).toBe('greedy');
    opened.close();
  }, 60_000);

  it('refuses a PGN without the player: one line, exit 2, no model file', async () => {
    const out = join(dir, 'none.db');
    const run = await morph('model', '--out', out, '--pgn', train, '--player', 'nobody');
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses a start position it cannot replay: one line, exit 2, no model file', async () => {
    const pgn = join(dir, 'bad-start.pgn');
    writeFileSync(pgn, '[White "x"]\n[Black "y"]\n[SetUp "1"]\n[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n[Result "*"]\n\n*\n');
    const out = join(dir, 'bad-start.db');
    const run = await morph('model', '--out', out, '--pgn', pgn, '--player', 'x');
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(out)).toBe(false);
  });

  it('never replaces an existing file', async () => {
    const before = statSync(valueDb).mtimeMs;
    const bytes = readFileSync(valueDb);
    const run = await morph('model', '--out', valueDb, '--pgn', train, '--player', 'greedy');
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/already exists/);
    expect(statSync(valueDb).mtimeMs).toBe(before);
    expect(readFileSync(valueDb).equals(bytes)).toBe(true);
  });

  it('keeps the two database kinds apart: one line, exit 2, files unchanged', async () => {
    const modelBytes = readFileSync(model);
    const valueBytes = readFileSync(valueDb);
    const asModel = await morph('predict', '--model', valueDb, '--pgn', heldOut, '--player', 'greedy');
    expect(asModel.status).toBe(2);
    expect(asModel.stderr).toMatch(/is a value database, not an opponent model/);
    expect(asModel.stderr.trim().split('\n')).toHaveLength(1);
    const asValue = await morph('predict', '--model', model, '--db', model, '--pgn', heldOut, '--player', 'greedy');
    expect(asValue.status).toBe(2);
    expect(asValue.stderr).toMatch(/is an opponent model, not a value database/);
    // Writers too: training on a model is refused before the file is opened for writing.
    const train = await morph('train', '--db', model, '--games', '1');
    expect(train.status).toBe(2);
    expect(train.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(`${model}-wal`)).toBe(false);
    expect(readFileSync(model).equals(modelBytes)).toBe(true);
    expect(readFileSync(valueDb).equals(valueBytes)).toBe(true);
  }, 90_000);
});

describe('search captures', () => {
  // After 1.e4 d5, Qg4 leaves the queen to Bxg4; exd5 is met by Qxd5.
  const fen = 'rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2';
  let capturesModel: string;
  let onePlyModel: string;
  let defaultModel: string;

  beforeAll(async () => {
    // The pull .1, as --shrinkage auto chooses on these games (without its five trial fits; the choice is tested below).
    capturesModel = join(dir, 'greedy.captures.db');
    const run = await morph('model', '--out', capturesModel, '--pgn', train, '--player', 'greedy', '--seed', '3', '--search', 'captures', '--material', 'exact', '--shrinkage', '0.1', '--json', '--no-progress');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).settings.search).toBe('captures');
    onePlyModel = join(dir, 'greedy.one-ply.db');
    const plain = await morph('model', '--out', onePlyModel, '--pgn', train, '--player', 'greedy', '--seed', '3', '--search', 'one-ply', '--material', 'exact', '--shrinkage', '0.1', '--no-progress');
    expect(plain.status).toBe(0);
    // The defaults (material two-ply with its square fit, shrinkage auto) on the first five games: what is recorded
    // does not depend on how many, and five keep a held-out game for the choice of pull (16 games: 13 s, five: 5 s).
    const fiveGames = join(dir, 'greedy.five.pgn');
    writeFileSync(fiveGames, readFileSync(train, 'utf8').split(/\n\n(?=\[Event)/).slice(0, 5).join('\n\n') + '\n');
    defaultModel = join(dir, 'greedy.default.db');
    const byDefault = await morph('model', '--out', defaultModel, '--pgn', fiveGames, '--player', 'greedy', '--seed', '3', '--json', '--no-progress');
    expect(byDefault.status).toBe(0);
    const defaults = JSON.parse(byDefault.stdout).settings;
    expect(defaults).toMatchObject({ search: 'one-ply', material: 'two-ply', squareValues: true, shrinkageCandidates: [...SHRINKAGE_CANDIDATES] });
    expect(SHRINKAGE_CANDIDATES).toContain(defaults.shrinkage);
    expect(JSON.parse(byDefault.stdout).shrinkageChoice.heldOutDecisions).toBeGreaterThan(0);
  }, 120_000);

  it('is recorded in the model and used when it is opened; a player\'s model looks one ply by default, older models one ply', () => {
    // A model written before search modes existed: no search among its settings.
    const older = join(dir, 'greedy.older.db');
    writeFileSync(older, readFileSync(onePlyModel));
    const db = new Database(older);
    const settings = JSON.parse((db.prepare("SELECT value FROM meta WHERE key = 'model_settings'").get() as { value: string }).value);
    delete settings.search;
    db.prepare("UPDATE meta SET value = ? WHERE key = 'model_settings'").run(JSON.stringify(settings));
    db.close();
    const searchOf = (path: string, override?: 'one-ply' | 'captures') => {
      const opened = OpponentModel.open(path, override);
      opened.close();
      return opened.search;
    };
    expect(searchOf(capturesModel)).toBe('captures');
    expect(searchOf(model)).toBe('captures');
    expect(searchOf(defaultModel)).toBe('one-ply');
    expect(searchOf(onePlyModel)).toBe('one-ply');
    expect(searchOf(older)).toBe('one-ply');
    expect(searchOf(onePlyModel, 'captures')).toBe('captures');
  });

  it('marks each move down by the largest gain of a capture reply, as the model values it for the capturer (chess.js lists the captures)', () => {
    const looking = OpponentModel.open(capturesModel);
    const onePly = OpponentModel.open(capturesModel, 'one-ply');
    try {
      const history = new GameHistory(fen);
      const ranking = looking.rank(history);
      const own = new Map(onePly.rank(history).map((m) => [m.move, m.score]));
      let refuted = 0;
      const gains = new Map<string, number>();
      for (const m of ranking) {
        // Independently: the opponent's captures after m (chess.js); the one-ply model scores each as the
        // capturer's move, and the position as the capturer would have it without capturing is the same board
        // with the capturer as the side that just moved (White to move again: a null move).
        const chess = new Chess(fen);
        chess.move({ from: m.move.slice(0, 2), to: m.move.slice(2, 4), promotion: m.move[4] });
        const captures = new Set(chess.moves({ verbose: true }).filter((r) => r.isCapture() || r.isEnPassant()).map((r) => r.lan));
        const fields = chess.fen().split(' ');
        const declined = onePly.store.retrieve(buildPositionGraph(new GameHistory([fields[0], 'w', '-', '-', '0', '1'].join(' ')).board)).matches;
        const declinedScore = withAncestors(declined).reduce((sum, r) => sum + onePly.scoreOf(r), 0);
        let largest = 0;
        let worst: string | undefined;
        for (const reply of onePly.rank(new GameHistory(fen, [m.move]))) {
          if (!captures.has(reply.move)) continue;
          gains.set(`${m.move} ${reply.move}`, reply.score - declinedScore);
          if (reply.score - declinedScore > largest) [largest, worst] = [reply.score - declinedScore, reply.move];
        }
        expect(m.score).toBeCloseTo(own.get(m.move)! - largest, 9);
        expect(m.refutation).toBe(worst);
        if (worst) refuted++;
      }
      expect(refuted).toBeGreaterThan(0);
      // The learned model (of greedy, which takes the most material it can): taking the queen is a gain for
      // the capturer, so leaving it to Bxg4 scores below Qg4's own position.
      expect(gains.get('d1g4 c8g4')).toBeGreaterThan(0);
      expect(ranking.find((m) => m.move === 'd1g4')!.score).toBeLessThan(own.get('d1g4')!);
    } finally {
      looking.close();
      onePly.close();
    }
  });

  it('fits one ply unless told to fit through the look: the weights of a one-ply build, or others', async () => {
    const weights = (path: string) => {
      const opened = OpponentModel.open(path);
      try {
        return [...opened.store.hierarchy.byId.values()].map((r) => [r.id, r.weight]).sort((a, b) => a[0] - b[0]);
      } finally {
        opened.close();
      }
    };
    const through = join(dir, 'greedy.through.db');
    // Exact material and the pull of the one-ply build, so that fitting through the look is the only difference.
    const run = await morph('model', '--out', through, '--pgn', train, '--player', 'greedy', '--seed', '3', '--search', 'captures', '--fit-through-search', '--material', 'exact', '--shrinkage', '0.1', '--json', '--no-progress');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).settings.fitThroughSearch).toBe(true);
    expect(weights(capturesModel)).toEqual(weights(onePlyModel));
    expect(weights(through)).not.toEqual(weights(onePlyModel));
  }, 120_000);

  it('leaves the model-guided player ranking replies one ply (for speed): the same values as with a one-ply model', () => {
    const looking = OpponentModel.open(capturesModel);
    const plain = OpponentModel.open(onePlyModel);
    const values = PatternStore.open(onePlyModel, { readonly: true, kind: 'opponent-model' }); // varied weights to value positions with
    try {
      const history = new GameHistory(fen);
      const guided = (model: OpponentModel) => new ModelGuidedPlayer(values, model, { maturity: 0, seed: 1, replies: 3 }).rankMoves(history);
      expect(new Set(guided(plain).map((m) => m.value.toFixed(6))).size).toBeGreaterThan(5);
      expect(guided(looking)).toEqual(guided(plain));
      // ...while the two models themselves rank differently (the look marks Qg4 down).
      expect(looking.rank(history)).not.toEqual(plain.rank(history));
    } finally {
      looking.close();
      plain.close();
      values.close();
    }
  });

  it('refuses an unknown search mode: one line, exit 2, no model file', async () => {
    const out = join(dir, 'deep.db');
    const run = await morph('model', '--out', out, '--pgn', train, '--player', 'greedy', '--search', 'deep');
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/--search must be one of one-ply, captures, got "deep"/);
    expect(existsSync(out)).toBe(false);
    const predict = await morph('predict', '--model', model, '--pgn', heldOut, '--player', 'greedy', '--search', 'deep');
    expect(predict.status).toBe(2);
    expect(predict.stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);
});

describe('--shrinkage auto', () => {
  it('chooses the pull with the best top-1 on every fifth game, held out of its fits (counted by chess.js)', async () => {
    const out = join(dir, 'greedy.auto.db');
    // Exact material: the choice of pull does not depend on it, and the default's two-ply square fit is 4x the time.
    const run = await morph('model', '--out', out, '--pgn', train, '--player', 'greedy', '--seed', '3', '--shrinkage', 'auto', '--material', 'exact', '--json', '--no-progress');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const summary = JSON.parse(run.stdout) as BuildSummary;
    const choice = summary.shrinkageChoice!;
    expect(choice.trials.map((t) => t.shrinkage)).toEqual([...SHRINKAGE_CANDIDATES]);
    for (const trial of choice.trials) {
      expect(trial.logLikelihood).toBeLessThan(0);
      expect(trial.top1).toBeGreaterThan(0);
      expect(trial.top1).toBeLessThanOrEqual(1);
    }
    const best = choice.trials.reduce((a, b) => (b.top1 > a.top1 || (b.top1 === a.top1 && b.logLikelihood > a.logLikelihood) ? b : a));
    expect(summary.settings.shrinkage).toBe(best.shrinkage);
    // The candidates differ in what they predict: the choice is not a formality.
    expect(new Set(choice.trials.map((t) => t.logLikelihood.toFixed(4))).size).toBeGreaterThan(1);
    // Held out: games 4, 9 and 14 of the file, greedy's moves there with more than one legal move (chess.js).
    let heldOutDecisions = 0;
    readFileSync(train, 'utf8').split(/\n\n(?=\[Event)/).forEach((game, index) => {
      if ((index + 1) % 5 !== 4) return;
      const chess = new Chess();
      chess.loadPgn(game);
      const side = chess.getHeaders().White === 'greedy' ? 'w' : 'b';
      const replay = new Chess(chess.getHeaders().FEN);
      for (const move of chess.history()) {
        if (replay.turn() === side && replay.moves().length > 1) heldOutDecisions++;
        replay.move(move);
      }
    });
    expect(choice.heldOutDecisions).toBe(heldOutDecisions);
    // The model records the pull it was fitted with, and opens.
    const db = new Database(out, { readonly: true });
    const settings = JSON.parse((db.prepare("SELECT value FROM meta WHERE key = 'model_settings'").get() as { value: string }).value);
    db.close();
    expect(settings.shrinkage).toBe(best.shrinkage);
    OpponentModel.open(out).close();
  }, 120_000);

  it('refuses a pull that is neither a number nor auto: one line, exit 2, no model file', async () => {
    const out = join(dir, 'greedy.bad-pull.db');
    const run = await morph('model', '--out', out, '--pgn', train, '--player', 'greedy', '--shrinkage', 'lots');
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(out)).toBe(false);
  }, 60_000);
});

describe('material linear', () => {
  it('adds a learned score per piece of difference, counted here by chess.js; recorded in the model', async () => {
    const out = join(dir, 'greedy.linear.db');
    const run = await morph('model', '--out', out, '--pgn', train, '--player', 'greedy', '--seed', '3', '--material', 'linear', '--json', '--no-progress');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).settings.material).toBe('linear');
    const linear = OpponentModel.open(out, 'one-ply');
    try {
      const material = linear.material!;
      expect(material.surplus).toHaveLength(5);
      // Greedy takes a pawn whenever it has nothing bigger to take: a pawn more is a preference.
      expect(material.surplus[0]).toBeGreaterThan(0.5);
      const patternsOnly = new OpponentModel(linear.store, linear.terminal, linear.features, 'one-ply', null);
      const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 3';
      const withPatterns = new Map(patternsOnly.rank(new GameHistory(fen)).map((m) => [m.move, m.score]));
      for (const m of linear.rank(new GameHistory(fen))) {
        const chess = new Chess(fen);
        chess.move({ from: m.move.slice(0, 2), to: m.move.slice(2, 4), promotion: m.move[4] });
        let expected = withPatterns.get(m.move)!;
        ['p', 'n', 'b', 'r', 'q'].forEach((type, k) => {
          const count = (color: 'w' | 'b') => chess.board().flat().filter((sq) => sq?.type === type && sq.color === color).length;
          const d = count('b') - count('w'); // Black just moved
          expected += d > 0 ? d * material.surplus[k] : -d * material.deficit[k];
        });
        expect(m.score).toBeCloseTo(expected, 9);
      }
    } finally {
      linear.close();
    }
    const bad = await morph('model', '--out', join(dir, 'bad-material.db'), '--pgn', train, '--player', 'greedy', '--material', 'pieces');
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(dir, 'bad-material.db'))).toBe(false);
  }, 120_000);
});

describe('model options of match and uci', () => {
  it('refuse a value database as a model, a model for a non-Morph player, and a model as the engine database', async () => {
    const notModel = await morph('match', '--white', `morph:${valueDb}`, '--black', 'random', '--white-model', valueDb, '--games', '2');
    expect(notModel.status).toBe(2);
    expect(notModel.stderr).toMatch(/is a value database, not an opponent model/);
    const openings = join(dir, 'one.epd');
    writeFileSync(openings, 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n');
    const notMorph = await morph('match', '--white', 'greedy', '--black', 'random', '--white-model', model, '--games', '2', '--openings', openings);
    expect(notMorph.status).toBe(2);
    expect(notMorph.stderr).toMatch(/needs a Morph player/);
    const uci = await morph('uci', '--db', model);
    expect(uci.status).toBe(2);
    expect(uci.stderr.trim().split('\n')).toHaveLength(1);
  }, 90_000);
});

describe('the UCI option OpponentModel', () => {
  /** `morph uci` fed every line at once, its output read when it quits. */
  function uciSession(args: string[], lines: string[]): Promise<string[]> {
    return new Promise((done, fail) => {
      const child = execFile(process.execPath, [join(ROOT, 'bin', 'morph.js'), 'uci', ...args], { timeout: 120_000 }, (error, stdout) => {
        if (error) fail(error);
        else done(stdout.trim().split('\n'));
      });
      child.stdin!.end(lines.join('\n') + '\n');
    });
  }

  it('sets and clears the model from the GUI: each bestmove is the move of Morph with (or without) the model; a bad file changes nothing', async () => {
    // A small database with varied weights (real positions' patterns), so that the model's replies change values.
    const learnedDb = join(dir, 'uci-learned.db');
    buildSampleDatabase(learnedDb);
    // Played with search captures, which values positions by all their patterns: with the material searches the
    // model's replies, each followed by Morph's own captures, change no choice in these positions.
    const settings = PatternStore.open(learnedDb);
    saveConfig(settings.db, { ...loadConfig(settings.db), playSearch: 'captures' });
    settings.close();
    const fens = heldOutPositions();
    const go = (fen: string) => [`position fen ${fen}`, 'go'];
    const output = await uciSession(['--db', learnedDb], [
      'uci',
      `setoption name OpponentModel value ${learnedDb}`,
      `setoption name OpponentModel value ${model}`,
      ...fens.flatMap(go),
      'setoption name OpponentModel value <empty>',
      ...fens.flatMap(go),
      'quit',
    ]);
    expect(output).toContain('option name OpponentModel type string default <empty>');
    const notices = output.filter((line) => line.startsWith('info string'));
    expect(notices[0]).toMatch(/^info string cannot use opponent model ".*uci-learned\.db": .*value database.*; the opponent model is unchanged$/);
    expect(notices[1]).toBe(`info string opponent model ${model}`);
    expect(notices[2]).toBe('info string no opponent model');
    const played = output.filter((line) => line.startsWith('bestmove')).map((line) => line.split(' ')[1]);

    // The same players, built directly: with the model, then without it (seed 1 and the database's settings).
    const store = PatternStore.open(learnedDb, { readonly: true });
    const opened = OpponentModel.open(model);
    try {
      const options = { maturity: 0, seed: 1 };
      const withModel = morphPlayerWithModels(store, options, { opponent: opened, policy: null });
      const without = morphPlayerWithModels(store, options, { opponent: null, policy: null });
      const expected = [...fens.map((fen) => withModel.bestMove(new GameHistory(fen))), ...fens.map((fen) => without.bestMove(new GameHistory(fen)))];
      expect(played).toEqual(expected);
      // The model changes some choices (else this test could not tell the two apart).
      const plain = morphPlayerWithModels(store, options, { opponent: null, policy: null });
      expect(fens.filter((fen, i) => plain.bestMove(new GameHistory(fen)) !== expected[i]).length).toBeGreaterThan(0);
    } finally {
      opened.close();
      store.close();
    }
  }, 120_000);
});

describe('Morph looking along the replies a model of its opponent predicts', () => {
  it("lowers each move's value to the worst its captures look and the model's 3 likeliest replies leave, checked with chess.js", () => {
    const values = PatternStore.open(model, { readonly: true, kind: 'opponent-model' }); // varied weights to value positions with
    const opened = OpponentModel.open(model);
    try {
      let lowered = 0;
      const fens = heldOutPositions().slice(0, 15);
      expect(fens.length).toBe(15);
      for (const fen of fens) {
        const history = new GameHistory(fen);
        const plain = new MorphPlayer(values, { maturity: 0, seed: 1, search: 'captures' }).rankMoves(history);
        const looking = new MorphPlayer(values, { maturity: 0, seed: 1, search: 'captures', opponent: modelReplies(opened, 3) });
        const ranking = looking.rankMoves(history);
        expect(ranking.map((r) => r.move).sort()).toEqual(plain.map((r) => r.move).sort());
        for (const r of ranking) {
          const before = plain.find((p) => p.move === r.move)!;
          if (before.source !== 'patterns') {
            expect(r.value).toBe(before.value);
            continue;
          }
          const chess = new Chess(fen);
          chess.move({ from: r.move.slice(0, 2), to: r.move.slice(2, 4), promotion: r.move[4] });
          const afterMove = new GameHistory(chess.fen());
          const replies = opened.rank(afterMove, 'one-ply').slice(0, 3).map((m) => m.move);
          // Each reply's position valued for the opponent, who just moved (rules first), by the player looking at
          // Morph's captures in answer.
          const forOpponent = new Map(new MorphPlayer(values, { maturity: 0, seed: 1, search: 'captures' }).rankMoves(afterMove).map((m) => [m.move, m.value]));
          const expected = Math.min(before.value, ...replies.map((m) => 1 - forOpponent.get(m)!));
          expect(r.value).toBeCloseTo(expected, 12);
          if (expected < before.value - 1e-9) lowered++;
        }
        // The quick path plays a move as good as the exact ranking's best.
        const played = looking.bestMove(history);
        expect(looking.choiceScore(ranking.find((r) => r.move === played)!)).toBeCloseTo(looking.choiceScore(ranking[0]), 12);
      }
      expect(lowered).toBeGreaterThan(0);
    } finally {
      opened.close();
      values.close();
    }
  });

  it("values a predicted reply after Morph's own captures: an exchange it can take back is not a piece lost", () => {
    const store = PatternStore.open(':memory:');
    saveConfig(store.db, { ...DEFAULT_CONFIG, materialPrior: 0 }); // the weights below alone
    store.insert(materialPattern([0, 0, 0, 0, 0]), 'manual', 0, { weight: 0.5, updates: 200 });
    store.insert(materialPattern([0, 1, 0, 0, 0]), 'manual', 0, { weight: 0.8, updates: 200 });
    store.insert(materialPattern([0, -1, 0, 0, 0]), 'manual', 0, { weight: 0.2, updates: 200 });
    // White to move; Black's knight on d5 attacks the knight on c3, which the b2 pawn guards.
    const fen = '6k1/7p/8/3n4/8/2N5/1P6/6K1 w - - 0 1';
    // A model that always predicts Nxc3 when it is legal.
    const takesOnC3: ReplyPredictor = {
      name: 'takes on c3',
      likeliestReplies: (history) => generateLegalMoves(history.board).map(uciMove).filter((m) => m === 'd5c3'),
    };
    try {
      for (const search of ['material-quiescence', 'material-forks'] as const) {
        const plain = new MorphPlayer(store, { maturity: 0, seed: 1, search }).rankMoves(new GameHistory(fen));
        const looking = new MorphPlayer(store, { maturity: 0, seed: 1, search, opponent: takesOnC3 }).rankMoves(new GameHistory(fen));
        const value = (ranking: typeof plain, move: string) => ranking.find((r) => r.move === move)!.value;
        // Kh1: Nxc3 bxc3 comes back level, as the material searches' own capture look already says.
        expect(value(plain, 'g1h1')).toBeCloseTo(0.5, 12);
        expect(value(looking, 'g1h1'), search).toBeCloseTo(0.5, 12);
        // b4: the knight is left to be taken, whichever look finds it.
        expect(value(looking, 'b2b4'), search).toBeCloseTo(0.2, 12);
      }
    } finally {
      store.close();
    }
  });

  it('is chosen by --model-mode look, with the policy kept; IAM\'s coach by --model-mode coach, without one', async () => {
    const look = await modelMatch('--white-policy', model, '--model-mode', 'look');
    expect(look.status).toBe(0);
    const lookSummary = JSON.parse(look.stdout);
    // A new database plays material-five-plies, whose default policy weight is .03.
    expect(lookSummary.first).toBe(`morph:${valueDb}+model:${model}@look+policy:${model}@0.03`);
    expect(lookSummary.wins + lookSummary.draws + lookSummary.losses).toBe(2);
    const coach = await modelMatch('--model-mode', 'coach');
    expect(coach.status).toBe(0);
    expect(JSON.parse(coach.stdout).first).toBe(`morph:${valueDb}+model:${model}@coach`);
    const coachWithPolicy = await modelMatch('--white-policy', model, '--model-mode', 'coach');
    expect(coachWithPolicy.status).toBe(2);
    expect(coachWithPolicy.stderr.trim().split('\n')).toEqual(['morph: a Morph player coached by an opponent model plays without a policy']);
  }, 90_000);
});

describe('Morph following its best moves along the predicted line (model mode "line")', () => {
  it("values each of its best moves by Morph's best answer to the likeliest reply, weighted by the reply's probability, checked with chess.js", () => {
    const values = PatternStore.open(model, { readonly: true, kind: 'opponent-model' }); // varied weights to value positions with
    const opened = OpponentModel.open(model);
    try {
      const options = { maturity: 0, seed: 1, search: 'captures' } as const;
      const line = new PredictedLinePlayer(values, options, opened, 3);
      let moved = 0;
      const fens = heldOutPositions().slice(0, 12);
      for (const fen of fens) {
        const history = new GameHistory(fen);
        const plain = new MorphPlayer(values, options);
        const plainRanking = plain.rankMoves(history);
        const expected = plainRanking.slice(0, 3).map((ranked) => {
          if (ranked.source !== 'patterns') return ranked;
          const chess = new Chess(fen);
          chess.move({ from: ranked.move.slice(0, 2), to: ranked.move.slice(2, 4), promotion: ranked.move[4] });
          const [reply] = opened.rank(new GameHistory(chess.fen()), 'one-ply');
          chess.move({ from: reply.move.slice(0, 2), to: reply.move.slice(2, 4), promotion: reply.move[4] });
          const answer = chess.isCheckmate()
            ? 0
            : chess.isDraw()
              ? plain.drawValue
              : new MorphPlayer(values, options).bestRanked(new GameHistory(fen, [ranked.move, reply.move])).value;
          return { ...ranked, value: reply.probability * answer + (1 - reply.probability) * ranked.value };
        });
        const best = Math.max(...expected.map((r) => plain.choiceScore(r)));
        const chosen = line.choose(history);
        expect(expected.map((r) => r.move)).toContain(chosen.move);
        expect(plain.choiceScore(chosen)).toBeCloseTo(best, 12);
        // The ranking: the three followed, best first, with their mixed values; then the others as without a model.
        const followed = chosen.ranking.slice(0, 3);
        expect(followed.map((r) => r.move).sort()).toEqual(expected.map((r) => r.move).sort());
        for (const r of followed) expect(r.value).toBeCloseTo(expected.find((e) => e.move === r.move)!.value, 12);
        expect(chosen.ranking.slice(3).map((r) => [r.move, r.value])).toEqual(plainRanking.slice(3).map((r) => [r.move, r.value]));
        expect(line.bestMove(history)).toBe(new PredictedLinePlayer(values, options, opened, 3).choose(history).move);
        if (chosen.move !== plain.bestMove(history)) moved++;
      }
      // The line changes some choices, not every one.
      expect(moved).toBeGreaterThan(0);
      expect(moved).toBeLessThan(fens.length);
    } finally {
      opened.close();
      values.close();
    }
  });

  it('is the default model mode of morph match, and named so', async () => {
    const byDefault = await modelMatch();
    expect(byDefault.stderr).toBe('');
    expect(byDefault.status).toBe(0);
    const summary = JSON.parse(byDefault.stdout);
    expect(summary.first).toBe(`morph:${valueDb}+model:${model}@line`);
    expect(summary.wins + summary.draws + summary.losses).toBe(2);
    // The same games as with the mode named: the default is line.
    const named = JSON.parse((await modelMatch('--model-mode', 'line')).stdout);
    expect(named.results.map((g: { result: string; plies: number }) => [g.result, g.plies])).toEqual(summary.results.map((g: { result: string; plies: number }) => [g.result, g.plies]));
  }, 90_000);
});

describe('GameHistory.continued', () => {
  it('is the game with the moves played on, the original unchanged', () => {
    const start = new Chess().fen();
    const history = new GameHistory(start, ['g1f3', 'g8f6', 'f3g1']);
    const continued = history.continued(['f6g8', 'g1f3']);
    const replayed = new GameHistory(start, ['g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3']);
    expect([...continued.board.squares]).toEqual([...replayed.board.squares]);
    expect(continued.board.turn).toBe(replayed.board.turn);
    // The start position twice, the position after g1f3 twice: the counts carried over and added to.
    expect(continued.occurrences(new GameHistory(start).board)).toBe(2);
    expect(continued.occurrences(replayed.board)).toBe(2);
    expect(history.occurrences(replayed.board)).toBe(1);
    expect([...history.board.squares]).toEqual([...new GameHistory(start, ['g1f3', 'g8f6', 'f3g1']).board.squares]);
  });
});

describe('ModelGuidedPlayer', () => {
  it('plays legal moves and takes a mate in one', async () => {
    const values = PatternStore.open(':memory:');
    const opened = OpponentModel.open(model);
    try {
      const player = new ModelGuidedPlayer(values, opened, { maturity: 0, seed: 1, replies: 3 });
      // Fool's mate pattern: Black mates with Qh4.
      const fen = 'rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2';
      expect(await player.chooseMove({ startFen: fen, moves: [], fen })).toBe('d8h4');
      const ranking = player.rankMoves(new GameHistory(fen));
      expect(ranking.length).toBe(new Chess(fen).moves().length);
    } finally {
      opened.close();
      values.close();
    }
  });
});

describe('Morph with a move policy', () => {
  it('chooses by value plus the weighted log-probability of the model, checked move by move', async () => {
    const learnedDb = join(dir, 'learned.db');
    const learned = await morph('learn', '--db', learnedDb, '--pgn', train, '--json');
    expect(learned.status).toBe(0);
    expect(JSON.parse(learned.stdout).learned).toBeGreaterThan(0);
    const values = PatternStore.open(learnedDb, { readonly: true });
    const opened = OpponentModel.open(model);
    try {
      const weight = 0.05;
      const fens = heldOutPositions();
      expect(fens.length).toBeGreaterThan(20);
      let changed = 0;
      for (const fen of fens) {
        const history = new GameHistory(fen);
        const plain = new MorphPlayer(values, { maturity: 0, seed: 1, search: 'captures' }).rankMoves(history);
        const probabilities = new Map(opened.rank(history).map((m) => [m.move, m.probability]));
        const guided = new MorphPlayer(values, { maturity: 0, seed: 1, search: 'captures', policy: modelPolicy(opened, weight) });
        const ranking = guided.rankMoves(history);
        expect(ranking.map((r) => r.move).sort()).toEqual(new Chess(fen).moves({ verbose: true }).map((m) => m.lan).sort());
        for (const r of ranking) {
          const value = plain.find((p) => p.move === r.move)!.value;
          expect(r.value).toBeCloseTo(value, 12);
          const expected = r.source === 'checkmate' ? value : value + weight * Math.log(probabilities.get(r.move)!);
          expect(guided.choiceScore(r)).toBeCloseTo(expected, 9);
        }
        // The quick path of search "captures" plays a move as good as the exact ranking's best.
        const played = guided.bestMove(history);
        expect(guided.choiceScore(ranking.find((r) => r.move === played)!)).toBeCloseTo(guided.choiceScore(ranking[0]), 12);
        if (ranking[0].move !== plain[0].move) changed++;
      }
      // morph agree ranks by what the player chooses by.
      const ranker = morphRanker(learnedDb, { search: 'captures', policy: model, policyWeight: weight });
      try {
        const [fen] = fens;
        const scores = new Map(ranker.score(fen).map((m) => [m.move, m.value]));
        const guided = new MorphPlayer(values, { maturity: 0, seed: 1, search: 'captures', policy: modelPolicy(opened, weight) });
        for (const r of guided.rankMoves(new GameHistory(fen))) expect(scores.get(r.move)).toBeCloseTo(guided.choiceScore(r), 12);
      } finally {
        ranker.close();
      }
      // The policy changes some choices, not every one.
      expect(changed).toBeGreaterThan(0);
      expect(changed).toBeLessThan(fens.length);
    } finally {
      opened.close();
      values.close();
    }
  }, 60_000);

  it('is refused for a non-Morph player and when it is a value database: one line, exit 2', async () => {
    const openings = join(dir, 'one.epd');
    writeFileSync(openings, 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n');
    const notMorph = await morph('match', '--white', 'greedy', '--black', 'random', '--white-policy', model, '--games', '2', '--openings', openings);
    expect(notMorph.status).toBe(2);
    expect(notMorph.stderr).toMatch(/needs a Morph player/);
    const notModel = await morph('match', '--white', `morph:${valueDb}`, '--black', 'random', '--white-policy', valueDb, '--games', '2');
    expect(notModel.status).toBe(2);
    expect(notModel.stderr.trim().split('\n')).toHaveLength(1);
    const badWeight = await morph('match', '--white', `morph:${valueDb}`, '--black', 'random', '--white-policy', model, '--policy-weight', '-1');
    expect(badWeight.status).toBe(2);
    expect(badWeight.stderr.trim().split('\n')).toHaveLength(1);
    const positions = join(dir, 'positions.epd');
    writeFileSync(positions, 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e7e5;\n');
    const uciNotModel = await morph('uci', '--db', valueDb, '--policy', valueDb);
    expect(uciNotModel.status).toBe(2);
    expect(uciNotModel.stderr.trim().split('\n')).toHaveLength(1);
    const coachWithPolicy = await morph('play', '--db', valueDb, '--model', model, '--model-mode', 'coach', '--policy', model);
    expect(coachWithPolicy.status).toBe(2);
    expect(coachWithPolicy.stderr).toMatch(/coach plays without a policy/);
    const badMode = await morph('uci', '--db', valueDb, '--model', model, '--model-mode', 'deep');
    expect(badMode.status).toBe(2);
    expect(badMode.stderr.trim().split('\n')).toEqual(['morph: --model-mode must be one of look, coach, line, got "deep"']);
    const agreeNotModel = await morph('agree', '--positions', positions, '--db', valueDb, '--policy', valueDb);
    expect(agreeNotModel.status).toBe(2);
    expect(agreeNotModel.stderr).toMatch(/is a value database, not an opponent model/);
  }, 90_000);
});

describe('setShare', () => {
  /** Brute force: every order of the moves that sorts them by value, equally likely. */
  function bruteShare(values: number[], labels: Set<number>, m: number): number {
    const permutations = (items: number[]): number[][] =>
      items.length <= 1 ? [items] : items.flatMap((x, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest]));
    const sorted = permutations(values.map((_, i) => i)).filter((order) => order.every((v, i) => i === 0 || values[order[i - 1]] >= values[v]));
    return sorted.filter((order) => order.slice(0, m).some((i) => labels.has(i))).length / sorted.length;
  }

  it('matches brute-force enumeration of tie orders', () => {
    const rng = new Random(5);
    for (let trial = 0; trial < 60; trial++) {
      const n = 2 + rng.int(5);
      const values = Array.from({ length: n }, () => rng.int(3));
      const labels = new Set(Array.from({ length: 1 + rng.int(n) }, () => rng.int(n)));
      const scores = values.map((value, i) => ({ move: `m${i}`, value }));
      const labelMoves = new Set([...labels].map((i) => `m${i}`));
      for (const m of [1, 2, 4]) expect(setShare(scores, labelMoves, m)).toBeCloseTo(bruteShare(values, labels, m), 12);
    }
  });
});
