/**
 * The selectable evaluation functions (eval/evaluation.ts): shrinking, explain's fold equal to the player's, and
 * the retired functions refused by name.
 */
import { describe, expect, it } from 'vitest';
import { parseSquare } from '../src/chess/board.ts';
import { START_FEN } from '../src/chess/fen.ts';
import { GameHistory } from '../src/chess/history.ts';
import { combinePair, playValue } from '../src/eval/combine.ts';
import {
  combinationSteps, EVALUATION_FUNCTIONS, positionValue, shrunkWeight, targetValue, type EvaluationSettings,
} from '../src/eval/evaluation.ts';
import { DEFAULT_CONFIG, mergeConfig } from '../src/learn/config.ts';
import { tdSweep } from '../src/learn/tdTargets.ts';
import { exactDesig } from '../src/pattern/designation.ts';
import { materialPattern, type GraphPattern } from '../src/pattern/pattern.ts';
import { explainMove } from '../src/player/explain.ts';
import { MorphPlayer } from '../src/player/morphPlayer.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { Random } from '../src/util/random.ts';

const onePiece = (label: number, square: string): GraphPattern => ({
  kind: 'graph', labels: [label], desigs: [exactDesig(parseSquare(square))], edges: [],
});
const MOVED_PAWN = 0;
const MOVED_KNIGHT = 1;
const MOVED_KING = 5;

describe('shrinking', () => {
  it('shrinks a weight toward .5 by prior draws: none counts nothing, many updates keep the weight', () => {
    expect(shrunkWeight(1, 0, 20)).toBe(0.5);
    expect(shrunkWeight(1, 1, 20)).toBeCloseTo(11 / 21, 15); // (1·1 + 20·.5)/21
    expect(shrunkWeight(0.9, 1e6, 20)).toBeCloseTo(0.9, 4);
    expect(shrunkWeight(0.9, 3, 0)).toBe(0.9);
  });

  it('lets a well-tested pattern outweigh a fresh extreme one once weights are shrunk', () => {
    const fresh = { weight: 1, updates: 1 };
    const tested = { weight: 0.3, updates: 200 };
    // The paper's fold lets the most extreme weight lead: the fresh 1.0 decides.
    expect(positionValue([fresh, tested], { function: 'paper', prior: 0 })).toBeGreaterThan(0.5);
    const shrunk: EvaluationSettings = { function: 'shrunk', prior: 20 };
    const expected = combinePair(shrunkWeight(0.3, 200, 20), shrunkWeight(1, 1, 20)); // .318 more extreme than .524
    expect(positionValue([fresh, tested], shrunk)).toBeCloseTo(expected, 14);
    expect(positionValue([fresh, tested], shrunk)).toBeLessThan(0.5);
  });

  it('bootstraps TD targets from the same shrunk weights (paper functions: the update function)', () => {
    const records = [{ weight: 0.9, updates: 2 }, { weight: 0.4, updates: 30 }];
    const w = [shrunkWeight(0.9, 2, 10), shrunkWeight(0.4, 30, 10)];
    const pull = w.map((x) => Math.abs(x - 0.5));
    expect(targetValue(records, { function: 'shrunk', prior: 10 }, 1)).toBeCloseTo((w[0] * pull[0] + w[1] * pull[1]) / (pull[0] + pull[1]), 14);
  });
});

describe('a position with many matches', () => {
  // A 100k-pattern database's positions have about 900 most-specific matches; the evaluation reuses arrays grown
  // to fit, so positions of every size in turn must each get the fold of their own weights alone.
  it('values 3, 900, 5 and 2,000 weights as the fold in play order computed here, one after the other', () => {
    const rng = new Random(7);
    const extremeness = (w: number) => Math.abs(w - 0.5);
    for (const size of [3, 900, 5, 2000, 300]) {
      const records = Array.from({ length: size }, () => ({ weight: rng.next(), updates: 1 + rng.int(50) }));
      const ordered = records.map((r) => r.weight).sort((a, b) => extremeness(b) - extremeness(a) || a - b);
      const folded = ordered.slice(1).reduce((value, w) => combinePair(value, w), ordered[0]);
      expect(positionValue(records, { function: 'paper', prior: 0 })).toBe(folded);
      const shrunk = records.map((r) => shrunkWeight(r.weight, r.updates, 5)).sort((a, b) => extremeness(b) - extremeness(a) || a - b);
      expect(positionValue(records, { function: 'shrunk', prior: 5 })).toBe(shrunk.slice(1).reduce((value, w) => combinePair(value, w), shrunk[0]));
    }
  });
});

describe('TD sweep', () => {
  it('does not evaluate positions at λ = 1, where the evaluation would be weighted by zero', () => {
    let asked = 0;
    const targets = tdSweep(5, 1, 1, () => {
      asked++;
      return 0.3;
    }, () => {});
    expect(targets).toEqual([1, 1, 1, 1, 1]);
    expect(asked).toBe(0);
    tdSweep(5, 1, 0.5, () => {
      asked++;
      return 0.3;
    }, () => {});
    expect(asked).toBe(4);
  });
});

describe("explain folds exactly as the player does", () => {
  // After 1.e4 the position matches three patterns: a pawn on e4, White's king on e1 and even material.
  // Weights .8 and .2 are equally extreme in real arithmetic (not in floating point): the order matters.
  function storeWithThreePatterns(): PatternStore {
    const store = PatternStore.open(':memory:');
    store.insert(onePiece(MOVED_PAWN, 'e4'), 'manual', 0, { weight: 0.8, updates: 10 });
    store.insert(onePiece(MOVED_KING, 'e1'), 'manual', 0, { weight: 0.65, updates: 1 });
    store.insert(materialPattern([0, 0, 0, 0, 0]), 'manual', 0, { weight: 0.2, updates: 3 });
    return store;
  }

  for (const fn of EVALUATION_FUNCTIONS) {
    it(`${fn}: the last step of the explanation is the move's value`, () => {
      const store = storeWithThreePatterns();
      const settings: EvaluationSettings = { function: fn, prior: 5 };
      const player = new MorphPlayer(store, { maturity: 0, seed: 1, evaluation: settings, search: 'captures-mates' });
      const ranked = player.rankMoves(new GameHistory(START_FEN), true).find((r) => r.move === 'e2e4')!;
      expect(ranked.evaluation!.used).toHaveLength(3);
      const steps = combinationSteps(ranked.evaluation!.used, settings);
      expect(steps).toHaveLength(3);
      expect(steps.at(-1)!.runningValue).toBe(ranked.value);
      const explanation = explainMove(ranked, 'e4', 0, settings);
      expect(explanation.combination.map((step) => step.runningValue).at(-1)).toBe(explanation.value);
      expect(explanation.combination.map((step) => step.id)).toEqual(steps.map((s) => ranked.evaluation!.used[s.index].id));
      store.close();
    });
  }

  it("paper: the fold is .8 first (a hair more extreme than .2 in floating point), then .2, then .65", () => {
    const store = storeWithThreePatterns();
    const player = new MorphPlayer(store, { maturity: 0, seed: 1, evaluation: { function: 'paper', prior: 0 }, search: 'captures-mates' });
    const ranked = player.rankMoves(new GameHistory(START_FEN), true).find((r) => r.move === 'e2e4')!;
    expect(ranked.value).toBe(combinePair(combinePair(0.8, 0.2), 0.65));
    expect(ranked.value).toBe(playValue([0.65, 0.2, 0.8]));
    expect(explainMove(ranked, 'e4', 0).combination.map((s) => s.weight)).toEqual([0.8, 0.2, 0.65]);
    store.close();
  });
});

describe('the learning config', () => {
  it('keeps the paper function for a database saved before evaluation functions existed, and refuses unknown ones', () => {
    expect(DEFAULT_CONFIG.evaluation).toBe('paper');
    expect(() => mergeConfig(DEFAULT_CONFIG, { evaluation: 'magic' })).toThrow(/evaluation must be one of paper, shrunk, got magic/);
  });

  it('refuses a database saved with a retired function by name, saying what measured it', () => {
    for (const retired of ['logodds', 'joint']) {
      expect(() => mergeConfig(DEFAULT_CONFIG, { evaluation: retired as never })).toThrow(
        new RegExp(`evaluation ${retired} was retired \\(.*docs/lab/2026-11.md.*\\); this Morph plays and learns with paper or shrunk`),
      );
    }
    expect(() => mergeConfig(DEFAULT_CONFIG, { prior: -1 })).toThrow(/prior/);
  });
});
