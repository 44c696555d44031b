import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chess } from 'chess.js';
import { GameHistory } from '../src/chess/history.ts';
import { choiceScore, MorphPlayer, SQUARE_WEIGHT, type MovePolicy } from '../src/player/morphPlayer.ts';
import { databasePieceValues } from '../src/eval/evaluate.ts';
import { SQUARE_VALUES, squareValueIndex } from '../src/eval/squareValues.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { buildPawnUpDatabase, PAWN_UP_STALEMATE_FEN } from './helpers/sampleDatabase.ts';
import { runMorph } from './helpers/cli.ts';
import { materialPattern, type GraphPattern } from '../src/pattern/pattern.ts';
import { exactDesig } from '../src/pattern/designation.ts';
import { pieceLabel } from '../src/graph/labels.ts';
import { parseSquare, uciMove } from '../src/chess/board.ts';
import { RandomPlayer } from '../src/engines/simplePlayers.ts';
import { playGame } from '../src/game/playGame.ts';
import { DEFAULT_CONFIG, saveConfig } from '../src/learn/config.ts';

// These tests are about values from patterns: the player searches as databases trained before 2026-11-24 played
// (the default play search now values positions by their material pattern alone).
const morph = (store: PatternStore, seed = 1) => new MorphPlayer(store, { maturity: 0, seed, search: 'captures-mates' });


describe('the 1-ply player', () => {
  it('scores a mating move 1 and plays it', () => {
    const store = PatternStore.open(':memory:');
    const history = new GameHistory('6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1');
    const { move, ranking } = morph(store).choose(history);
    expect(move).toBe('a1a8');
    expect(ranking[0]).toMatchObject({ move: 'a1a8', value: 1, source: 'checkmate' });
    expect(ranking.slice(1).every((r) => r.value === 0.5)).toBe(true);
  });

  it('scores stalemate and threefold repetition as draws', () => {
    const store = PatternStore.open(':memory:');
    // King a8 against king b6 and queen: Qc7 leaves Black no legal move and no check.
    const stalemate = morph(store).rankMoves(new GameHistory('k7/8/1K6/8/8/8/8/2Q5 w - - 0 1'));
    expect(stalemate.find((r) => r.move === 'c1c7')).toMatchObject({ value: 0.5, source: 'stalemate' });
    // Knights shuffling back: the third occurrence of the start position is a draw by repetition.
    const moves = ['g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1'];
    const history = new GameHistory('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', moves);
    const ranking = morph(store).rankMoves(history);
    expect(ranking.find((r) => r.move === 'f6g8')).toMatchObject({ value: 0.5, source: 'threefold' });
    expect(ranking.find((r) => r.move === 'e7e5')?.source).toBe('patterns');
  });

  it('counts a return to a position already seen as a draw, and judges the other moves by their patterns', () => {
    const store = PatternStore.open(':memory:');
    store.insert(materialPattern([0, 0, 0, 0, 0]), 'manual', 0, { weight: 0.9, updates: 10 });
    const start = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
    // After 1.Nf3 Nf6 2.Ng1, Black's Ng8 brings back the start position (its second occurrence).
    const ranking = morph(store).rankMoves(new GameHistory(start, ['g1f3', 'g8f6', 'f3g1']));
    expect(ranking.find((r) => r.move === 'f6g8')).toMatchObject({ value: 0.5, source: 'repetition' });
    expect(ranking.find((r) => r.move === 'e7e5')).toMatchObject({ value: 0.9, source: 'patterns' });
    // The same move where the position is new, and White cannot bring back an earlier one, is judged by its patterns.
    const fresh = morph(store).rankMoves(new GameHistory(start, ['g1f3', 'g8f6', 'e2e4']));
    expect(fresh.find((r) => r.move === 'f6g8')).toMatchObject({ value: 0.9, source: 'patterns' });
    // After 2.Nc3 instead, White's Nb1 would bring back the position after 1.Nf3: a draw White can claim.
    const undone = morph(store).rankMoves(new GameHistory(start, ['g1f3', 'g8f6', 'b1c3']));
    expect(undone.find((r) => r.move === 'f6g8')).toMatchObject({ value: 0.5, refutation: { move: 'c3b1', value: 0.5, source: 'threefold' } });
    // Far ahead, with every other move worth .9, Morph does not go back.
    expect(morph(store).choose(new GameHistory(start, ['g1f3', 'g8f6', 'f3g1'])).move).not.toBe('f6g8');
  });

  it('scores the third occurrence as a draw when the first came after a double push (en passant impossible)', () => {
    const store = PatternStore.open(':memory:');
    const moves = ['e2e4', 'g8f6', 'f1c4', 'f6g8', 'c4f1', 'g8f6', 'f1c4', 'f6g8'];
    const ranking = morph(store).rankMoves(new GameHistory('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', moves));
    expect(ranking.find((r) => r.move === 'c4f1')).toMatchObject({ value: 0.5, source: 'threefold' });
    const chess = new Chess();
    for (const move of [...moves, 'c4f1']) chess.move(move);
    expect(chess.isThreefoldRepetition()).toBe(true);
  });

  it('values moves by the patterns they lead to: a high-weight pattern attracts, a low one repels', () => {
    const store = PatternStore.open(':memory:');
    // After 1.e4 the position has a White (side that just moved) pawn on e4; after 1.d4 one on d4.
    const pawnOn = (square: string): GraphPattern => ({
      kind: 'graph', labels: [pieceLabel('moved', 1)], desigs: [exactDesig(parseSquare(square))], edges: [],
    });
    store.insert(pawnOn('e4'), 'manual', 0, { weight: 0.9, updates: 10 });
    store.insert(pawnOn('d4'), 'manual', 0, { weight: 0.1, updates: 10 });
    const ranking = morph(store).rankMoves(new GameHistory('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'));
    expect(ranking[0].move).toBe('e2e4');
    expect(ranking[0].value).toBeCloseTo(0.9, 10);
    expect(ranking.at(-1)!.move).toBe('d2d4');
    // Maturity: with M above the patterns' update counts they are ignored and every move is worth .5.
    const immature = new MorphPlayer(store, { maturity: 11, seed: 1, search: 'captures-mates' }).rankMoves(
      new GameHistory('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'),
    );
    expect(immature.every((r) => r.value === 0.5)).toBe(true);
  });

  it('uses material patterns from the point of view of the side that just moved', () => {
    const store = PatternStore.open(':memory:');
    // Black (to move) has a knight, White a queen. Taking the queen leaves Black, the side that just moved, up a
    // knight: the material vector (P,N,B,R,Q) = (0,1,0,0,0). Any other move leaves (0,1,0,0,-1), not in the store.
    // (A pawn each keeps the capture from being a draw by insufficient material.)
    store.insert(materialPattern([0, 1, 0, 0, 0]), 'material', 0, { weight: 0.95, updates: 5 });
    const ranking = morph(store).rankMoves(new GameHistory('4k3/p7/8/5n2/3Q4/8/7P/4K3 b - - 0 1'));
    expect(ranking[0]).toMatchObject({ move: 'f5d4', source: 'patterns' });
    expect(ranking[0].value).toBeCloseTo(0.95, 10);
    expect(ranking.slice(1).every((r) => r.value === 0.5)).toBe(true);
  });

  it('a fresh database plays only legal moves, chosen at random but repeatably from the seed', async () => {
    const store = PatternStore.open(':memory:');
    for (let game = 0; game < 4; game++) {
      const played = await playGame({ white: morph(store, game), black: new RandomPlayer(game), maxPlies: 120 });
      const chess = new Chess();
      for (const uci of played!.moves) expect(() => chess.move(uci)).not.toThrow();
    }
    const first = morph(store, 7).choose(new GameHistory('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1')).move;
    const again = morph(store, 7).choose(new GameHistory('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1')).move;
    expect(again).toBe(first);
  });
});

describe('morph move', () => {
  const dir = mkdtempSync(join(tmpdir(), 'morph-move-'));
  const missingDefault = { MORPH_DB: join(dir, 'none.db') };

  it('prints the best move and the full ranking as JSON', async () => {
    const result = await runMorph(['move', '--fen', '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1', '--json'], missingDefault);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.best).toBe('a1a8');
    expect(report.ranking[0]).toMatchObject({ move: 'a1a8', san: 'Ra8#', value: 1 });
    const legal = new Chess('6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1').moves().length;
    expect(report.ranking).toHaveLength(legal);
  });

  it('explains a move with the patterns that matched and how they combined', async () => {
    const path = join(dir, 'explain.db');
    const store = PatternStore.open(path);
    const pawn: GraphPattern = { kind: 'graph', labels: [pieceLabel('moved', 1)], desigs: [exactDesig(parseSquare('e4'))], edges: [] };
    const { record } = store.insert(pawn, 'manual', 0, { weight: 0.8, updates: 3 });
    store.close();
    const result = await runMorph(['move', '--db', path, '--fen', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '--json', '--explain', '--search', 'captures-mates']);
    expect(result.code).toBe(0);
    const { best, explanation } = JSON.parse(result.stdout);
    expect(best).toBe('e2e4');
    expect(explanation.value).toBeCloseTo(0.8, 4);
    expect(explanation.patterns).toEqual([expect.objectContaining({ id: record.id, weight: 0.8, updates: 3, used: true })]);
    expect(explanation.patterns[0].description).toContain('moved P on e4');
    expect(explanation.combination).toEqual([{ id: record.id, weight: 0.8, runningValue: 0.8 }]);
    const text = await runMorph(['move', '--db', path, '--fen', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '--explain', '--move', 'd2d4', '--search', 'captures-mates']);
    expect(text.stdout).toContain('no pattern matched');
  });

  it('takes --material-prior: with the fitted piece values alone it values a difference the database lacks', async () => {
    const path = join(dir, 'material-prior.db');
    const store = PatternStore.open(path);
    saveConfig(store.db, { ...DEFAULT_CONFIG, materialPrior: 0 });
    store.insert(materialPattern([0, 1, 0, 0, 0]), 'manual', 0, { weight: 0.8, updates: 200 });
    store.insert(materialPattern([0, -1, 0, 0, 0]), 'manual', 0, { weight: 0.2, updates: 200 });
    store.close();
    // A knight up, White can take Black's last knight: two knights up, a difference the database has never seen.
    const fen = '4k3/8/8/3n4/8/4N3/8/1N2K3 w - - 0 1';
    const best = async (...extra: string[]) => {
      const result = await runMorph(['move', '--db', path, '--fen', fen, '--json', '--search', 'material-forks', ...extra]);
      expect(result.code).toBe(0);
      return JSON.parse(result.stdout).best;
    };
    expect(await best()).not.toBe('e3d5'); // the database's 0: .5 for it, .8 for keeping the knight up
    expect(await best('--material-prior', '1000000')).toBe('e3d5');
    const bad = await runMorph(['move', '--db', path, '--fen', fen, '--material-prior', '-1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^morph: --material-prior needs a number from 0 to 1000000/);
  });

  it('takes --contempt: a pawn up, morph move stalemates only when a draw is worth more to it', async () => {
    const path = join(dir, 'contempt.db');
    buildPawnUpDatabase(path);
    // Kf7 and Kf8 stalemate Black; the other moves keep a pawn up.
    const fen = PAWN_UP_STALEMATE_FEN;
    const best = async (...extra: string[]) => {
      const result = await runMorph(['move', '--db', path, '--fen', fen, '--json', '--search', 'material-forks', ...extra]);
      expect(result.code).toBe(0);
      return JSON.parse(result.stdout).best;
    };
    expect(['e7f7', 'e7f8']).not.toContain(await best());
    expect(['e7f7', 'e7f8']).toContain(await best('--contempt', '-2'));
    const bad = await runMorph(['move', '--db', path, '--fen', fen, '--contempt', '9']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('morph: --contempt needs a number from -5 to 5, got "9"\n');
  });

  it("with the material searches scores a move by its value's log-odds plus the policy term, so a free pawn far ahead is taken", () => {
    const store = PatternStore.open(':memory:');
    saveConfig(store.db, { ...DEFAULT_CONFIG, materialPrior: 0 }); // the weights below alone
    store.insert(materialPattern([-1, 0, 0, 1, 0]), 'manual', 0, { weight: 0.95, updates: 200 }); // a rook for a pawn up
    store.insert(materialPattern([0, 0, 0, 1, 0]), 'manual', 0, { weight: 0.97, updates: 200 }); // a rook up
    const prefersKd1: MovePolicy = {
      name: 'prefers Kd1',
      weight: 0.03,
      logProbabilities: (history) => new Map(generateLegalMoves(history.board).map((m) => [uciMove(m), uciMove(m) === 'e1d1' ? 0 : -2])),
    };
    const player = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'material-quiescence', policy: prefersKd1 });
    expect(player.valueScale).toBe('log-odds');
    const { move, ranking } = player.choose(new GameHistory('7k/8/8/8/R3p3/8/8/4K3 w - - 0 1'));
    const capture = ranking.find((r) => r.move === 'a4e4')!;
    const quiet = ranking.find((r) => r.move === 'e1d1')!;
    expect([capture.value, quiet.value]).toEqual([0.97, 0.95]);
    const logOdds = (p: number) => Math.log(p / (1 - p));
    expect(player.choiceScore(capture)).toBeCloseTo(logOdds(0.97) - 0.06, 12);
    expect(player.choiceScore(quiet)).toBeCloseTo(logOdds(0.95), 12);
    expect(move).toBe('a4e4');
    // On the probability scale (the other searches') the policy's .06 would outvote the pawn's .02.
    expect(choiceScore(quiet, 'probability')).toBeGreaterThan(choiceScore(capture, 'probability'));
    expect(new MorphPlayer(store, { maturity: 0, seed: 1, search: 'captures-mates' }).valueScale).toBe('probability');
  });

  it("with a policy's square values, the material searches add them, scaled to Morph's piece values, for either colour", () => {
    const store = PatternStore.open(':memory:');
    // Evidence for the fitted piece values (the prior alone judges: no pattern for a level position).
    store.insert(materialPattern([0, 1, 0, 0, 0]), 'manual', 0, { weight: 0.8, updates: 100 });
    store.insert(materialPattern([0, 0, 0, 1, 0]), 'manual', 0, { weight: 0.9, updates: 100 });
    const theirValues = [1, 3, 3, 5, 9];
    const squareValues = new Array<number>(SQUARE_VALUES).fill(0);
    squareValues[squareValueIndex(2, parseSquare('f3'))] = 2; // a White knight on f3, or a Black one on f6
    const indifferent = (squares?: MovePolicy['squares']): MovePolicy => ({
      name: 'indifferent',
      logProbabilities: (history) => new Map(generateLegalMoves(history.board).map((m) => [uciMove(m), 0])),
      ...(squares ? { squares } : {}),
    });
    const player = (squareWeight?: number) =>
      new MorphPlayer(store, { maturity: 0, seed: 1, search: 'material-quiescence', policy: indifferent({ values: theirValues, squareValues }), squareWeight });
    const pieceValues = databasePieceValues(store);
    const unit = [...pieceValues].reduce((a, b) => a + b, 0) / theirValues.reduce((a, b) => a + b, 0);
    const logOdds = (p: number) => Math.log(p / (1 - p));
    for (const [fen, onSquare] of [
      ['4k3/p7/8/8/8/8/P7/4K1N1 w - - 0 1', 'g1f3'],
      ['4k1n1/p7/8/8/8/8/P7/4K3 b - - 0 1', 'g8f6'],
    ]) {
      const history = new GameHistory(fen);
      const without = new Map(player(0).rankMoves(history).map((r) => [r.move, r.value]));
      expect(new Set(without.values()).size).toBe(1); // level material everywhere: nothing to choose by
      const ranked = player().rankMoves(history);
      expect(ranked[0].move).toBe(onSquare);
      // (The player's fit stops within Newton's tolerance of this one: 1e-5.)
      expect(logOdds(ranked[0].value)).toBeCloseTo(logOdds(without.get(onSquare)!) + SQUARE_WEIGHT * unit * 2, 4);
      for (const r of ranked.slice(1)) expect(r.value).toBeCloseTo(without.get(r.move)!, 12);
      // Without square values in the policy, the same as a weight of 0.
      const plain = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'material-quiescence', policy: indifferent() });
      expect(new Map(plain.rankMoves(history).map((r) => [r.move, r.value]))).toEqual(without);
    }
  });

  it('reads one FEN per line, reports a bad line by number and goes on', async () => {
    const input = join(dir, 'fens.txt');
    writeFileSync(input, ['8/8/8/8/8/8/8/K6k w - - 0 1', 'not a fen', '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1'].join('\n'));
    const result = await runMorph(['move', '--input', input, '--json'], missingDefault);
    expect(result.code).toBe(2);
    const lines = result.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[1].best).toBe('a1a8');
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^morph: line 2: bad FEN/)]);
  });

  it('refuses bad input with one line and exit code 2', async () => {
    const bad = await runMorph(['move', '--fen', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1'], missingDefault);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    const missing = await runMorph(['move', '--db', join(dir, 'nope.db'), '--fen', '8/8/8/8/8/8/8/K6k w - - 0 1']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^morph: no Morph database at /);
    const over = await runMorph(['move', '--fen', '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1', '--explain', '--move', 'a1a9'], missingDefault);
    expect(over.code).toBe(2);
    expect(over.stderr).toMatch(/is not a legal move/);
  });
});
