/**
 * The shape of an opponent model's two-ply line (`morph model --line`, issue 14). A player that searches two plies
 * and stops, with no quiescence (the built-in ab:2: alpha-beta over material and a piece-square table), is
 * predicted better by a model whose line stops there too than by one whose line settles the captures after. Its
 * equally best moves, from its own search (rankMoves), decide what counts as right.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneBoard, uciMove } from '../src/chess/board.ts';
import { AlphaBetaPlayer, parseAlphaBetaSpec, rankMoves } from '../src/engines/alphabeta.ts';
import { decisionHistories, playerDecisions, type Decision } from '../src/model/decisions.ts';
import { buildModel, DEFAULT_MODEL_SETTINGS } from '../src/model/modelBuilder.ts';
import { OpponentModel } from '../src/model/opponentModel.ts';
import type { LineShape } from '../src/search/search.ts';
import { runMorph } from './helpers/cli.ts';
import { gamesAgainstRandom } from './helpers/playedGames.ts';

const dir = mkdtempSync(join(tmpdir(), 'morph-line-'));
const AB2 = parseAlphaBetaSpec('ab:2');
let train: Decision[];
let heldOut: Decision[];
let games: number;
const trainPgn = join(dir, 'ab2.train.pgn');

beforeAll(async () => {
  const pgn = (count: number, seed: number) => gamesAgainstRandom(count, seed, (s) => new AlphaBetaPlayer({ ...AB2, seed: s }));
  const trainText = await pgn(14, 1);
  writeFileSync(trainPgn, trainText);
  const played = playerDecisions(trainText, 'ab:2', 'train');
  train = played.decisions;
  games = played.played;
  heldOut = playerDecisions(await pgn(6, 2), 'ab:2', 'held out').decisions;
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function model(line: LineShape): OpponentModel {
  const out = join(dir, `${line}.db`);
  buildModel({
    out, player: 'ab:2', source: 'test', games, decisions: train, seed: 1,
    settings: { ...DEFAULT_MODEL_SETTINGS, search: 'one-ply', material: 'two-ply', squareValues: true, patternsPerDecision: 1, passes: 2, shrinkage: 10, line },
  });
  return OpponentModel.open(out);
}

/**
 * ab:2's equally best moves at each held-out decision, in order, from its own search (rankMoves): searched once and
 * shared by every model measured, since they depend on the decisions alone.
 */
let heldOutBest: Set<string>[] | undefined;
function abBestMoves(): Set<string>[] {
  if (heldOutBest) return heldOutBest;
  const best: Set<string>[] = [];
  for (const [, history] of decisionHistories(heldOut)) {
    const ranked = rankMoves(cloneBoard(history.board), AB2);
    best.push(new Set(ranked.filter((r) => r.score === ranked[0].score).map((r) => uciMove(r.move))));
  }
  return (heldOutBest = best);
}

/** Top-1 on the held-out decisions: right when the model's best move is among ab:2's equally best (ties at their expectation). */
function top1(m: OpponentModel): number {
  const bestMoves = abBestMoves();
  let hits = 0;
  let i = 0;
  for (const [, history] of decisionHistories(heldOut)) {
    const best = bestMoves[i++];
    const scored = m.rank(history);
    const tied = scored.filter((s) => s.score >= scored[0].score - 1e-9);
    hits += tied.filter((s) => best.has(s.move)).length / tied.length;
  }
  return hits / heldOut.length;
}

describe('the line of a two-ply model', () => {
  it('predicts a player that searches two plies without a quiescence better when it stops after two plies too', () => {
    const quiescence = model('quiescence');
    const plain = model('plain');
    try {
      expect(quiescence.material?.settle?.line).toBeUndefined();
      expect(plain.material?.settle?.line).toBe('plain');
      const [settled, stopped] = [top1(quiescence), top1(plain)];
      expect(heldOut.length).toBeGreaterThan(80);
      expect(stopped).toBeGreaterThan(settled + 0.03);
      expect(stopped).toBeGreaterThan(0.7);
      // The shape is the model's own: opened again, it ranks with it.
      const reopened = OpponentModel.open(join(dir, 'plain.db'));
      try {
        expect(top1(reopened)).toBe(stopped);
      } finally {
        reopened.close();
      }
    } finally {
      quiescence.close();
      plain.close();
    }
  }, 300_000);

  it('--line auto chooses the shape whose line alone names most of the held-out moves, and records it', async () => {
    const out = join(dir, 'auto.db');
    const run = await runMorph(['model', '--out', out, '--pgn', trainPgn, '--player', 'ab:2', '--seed', '1', '--line', 'auto', '--shrinkage', '10', '--no-square-values', '--json', '--no-progress']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    const trials: { line: string; top1: number }[] = summary.lineChoice.trials;
    expect(trials.map((t) => t.line)).toEqual(['quiescence', 'plain', 'checks']);
    expect(summary.lineChoice.heldOutDecisions).toBeGreaterThan(20);
    const best = Math.max(...trials.map((t) => t.top1));
    expect(trials.find((t) => t.line === summary.settings.line)!.top1).toBe(best);
    // ab:2 searches two plies with no quiescence: a line that stops there names more of its moves.
    expect(summary.settings.line).not.toBe('quiescence');
    const chosen = OpponentModel.open(out);
    try {
      expect(chosen.material?.settle?.line).toBe(summary.settings.line);
    } finally {
      chosen.close();
    }
  }, 300_000);

  it('refuses an unknown shape, and a shape without material two-ply: one line, exit 2, no model file', async () => {
    for (const [args, message] of [
      [['--line', 'deep'], '--line must be one of quiescence, plain, checks, auto, got "deep"'],
      [['--line', 'plain', '--material', 'settled'], '--line needs --material two-ply'],
    ] as const) {
      const out = join(dir, 'refused.db');
      const run = await runMorph(['model', '--out', out, '--watch', 'greedy', '--partner', 'random', '--games', '1', ...args]);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(`morph: ${message}\n`);
      expect(existsSync(out)).toBe(false);
    }
  }, 60_000);

  it('refuses a model with an unknown shape recorded: one line, exit code 2', async () => {
    const damaged = join(dir, 'damaged.db');
    if (!existsSync(join(dir, 'plain.db'))) model('plain').close(); // when run alone
    writeFileSync(damaged, readFileSync(join(dir, 'plain.db')));
    const db = new Database(damaged);
    const row = db.prepare("SELECT value FROM meta WHERE key = 'model_material_scores'").get() as { value: string };
    const scores = JSON.parse(row.value);
    scores.settle.line = 'deep';
    db.prepare("UPDATE meta SET value = ? WHERE key = 'model_material_scores'").run(JSON.stringify(scores));
    db.close();
    const pgn = join(dir, 'held-out.pgn');
    writeFileSync(pgn, await gamesAgainstRandom(1, 3, (s) => new AlphaBetaPlayer({ ...AB2, seed: s })));
    const run = await runMorph(['predict', '--model', damaged, '--pgn', pgn, '--player', 'ab:2']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^morph: .*damaged\.db: unknown model line "deep"\n$/);
  }, 60_000);
});
