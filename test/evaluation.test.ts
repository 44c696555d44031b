/**
 * The selectable evaluation functions (eval/evaluation.ts): shrinking, log-odds, the joint update, explain's
 * fold equal to the player's, and the joint learner's arithmetic on a hand-made game.
 */
import { describe, expect, it } from 'vitest';
import { parseSquare } from '../src/chess/board.ts';
import { START_FEN } from '../src/chess/fen.ts';
import { GameHistory } from '../src/chess/history.ts';
import { combinePair, logOddsValue, playValue } from '../src/eval/combine.ts';
import {
  combinationSteps, EVALUATION_FUNCTIONS, positionValue, shrunkWeight, targetValue, type EvaluationSettings,
} from '../src/eval/evaluation.ts';
import { jointWeight } from '../src/learn/annealing.ts';
import { DEFAULT_CONFIG, mergeConfig, type LearningConfig } from '../src/learn/config.ts';
import { learnFromGame } from '../src/learn/learner.ts';
import { tdSweep } from '../src/learn/tdTargets.ts';
import { exactDesig } from '../src/pattern/designation.ts';
import { materialPattern, type GraphPattern } from '../src/pattern/pattern.ts';
import { explainMove } from '../src/player/explain.ts';
import { MorphPlayer } from '../src/player/morphPlayer.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { Random } from '../src/util/random.ts';

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const logOdds = (p: number) => Math.log(p / (1 - p));
const onePiece = (label: number, square: string): GraphPattern => ({
  kind: 'graph', labels: [label], desigs: [exactDesig(parseSquare(square))], edges: [],
});
const MOVED_PAWN = 0;
const MOVED_KNIGHT = 1;
const MOVED_KING = 5;

describe('shrinking and log-odds', () => {
  it('shrinks a weight toward .5 by prior draws: none counts nothing, many updates keep the weight', () => {
    expect(shrunkWeight(1, 0, 20)).toBe(0.5);
    expect(shrunkWeight(1, 1, 20)).toBeCloseTo(11 / 21, 15); // (1·1 + 20·.5)/21
    expect(shrunkWeight(0.9, 1e6, 20)).toBeCloseTo(0.9, 4);
    expect(shrunkWeight(0.9, 3, 0)).toBe(0.9);
  });

  it('adds log-odds: two .8 weights are odds 4·4 = 16, a .5 adds nothing, order does not matter', () => {
    expect(logOddsValue([0.8, 0.8])).toBeCloseTo(16 / 17, 14);
    expect(logOddsValue([0.8, 0.5, 0.8])).toBeCloseTo(16 / 17, 14);
    expect(logOddsValue([0.2, 0.8])).toBeCloseTo(0.5, 14);
    expect(logOddsValue([])).toBe(0.5);
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
    const logodds = sigmoid(logOdds(shrunkWeight(1, 1, 20)) + logOdds(shrunkWeight(0.3, 200, 20)));
    expect(positionValue([fresh, tested], { function: 'logodds', prior: 20 })).toBeCloseTo(logodds, 14);
  });

  it('bootstraps TD targets from the same shrunk weights (paper functions: the update function)', () => {
    const records = [{ weight: 0.9, updates: 2 }, { weight: 0.4, updates: 30 }];
    const w = [shrunkWeight(0.9, 2, 10), shrunkWeight(0.4, 30, 10)];
    const pull = w.map((x) => Math.abs(x - 0.5));
    expect(targetValue(records, { function: 'shrunk', prior: 10 }, 1)).toBeCloseTo((w[0] * pull[0] + w[1] * pull[1]) / (pull[0] + pull[1]), 14);
    expect(targetValue(records, { function: 'joint', prior: 10 }, 1)).toBeCloseTo(sigmoid(logOdds(0.9) + logOdds(0.4)), 14);
  });

  it('moves a jointly learned weight by 4·step·error in log-odds, step = k/(n+k-1), within ±6', () => {
    expect(jointWeight(0.5, 0, 0.5, 1)).toBeCloseTo(sigmoid(2), 14); // n = 1: step 1
    expect(jointWeight(0.7, 3, -0.2, 1)).toBeCloseTo(sigmoid(logOdds(0.7) - 4 * 0.25 * 0.2), 14); // step 1/4
    expect(jointWeight(0.7, 1, 0.4, 2)).toBeCloseTo(sigmoid(logOdds(0.7) + 4 * (2 / 3) * 0.4), 14); // k = 2: 2/(1+2)
    expect(jointWeight(0.99, 0, 1, 1)).toBeCloseTo(sigmoid(6), 14);
    expect(jointWeight(0.6, 5, 0.3, 0)).toBeCloseTo(0.6, 14); // k = 0 learns nothing
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
      const shrunk = records.map((r) => shrunkWeight(r.weight, r.updates, 5));
      expect(positionValue(records, { function: 'logodds', prior: 5 })).toBeCloseTo(logOddsValue(shrunk), 12);
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
      if (fn === 'paper' || fn === 'shrunk') expect(steps.at(-1)!.runningValue).toBe(ranked.value);
      else expect(steps.at(-1)!.runningValue).toBeCloseTo(ranked.value, 14);
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

describe('joint learning on a hand-made game', () => {
  it('moves every matched pattern along the error of the combined value, by its own annealing step', () => {
    // 1.e4 d5 2.exd5 Qxd5 3.Nc3 for White, won (λ = 1: every target 1), one update per position, k = 1.
    //   p0 after 1.e4: P on e4 (G1 .3, n=2) and even material (M0 .6, n=3)
    //   p1 after 2.exd5: P on d5 (G3 .2, n=1) and a pawn up (M1, created on sight: .5, n=0)
    //   p2 after 3.Nc3: N on c3 (G2 .8, n=1) and M0
    const store = PatternStore.open(':memory:');
    const G1 = store.insert(onePiece(MOVED_PAWN, 'e4'), 'manual', 0, { weight: 0.3, updates: 2 }).record;
    const G2 = store.insert(onePiece(MOVED_KNIGHT, 'c3'), 'manual', 0, { weight: 0.8, updates: 1 }).record;
    const G3 = store.insert(onePiece(MOVED_PAWN, 'd5'), 'manual', 0, { weight: 0.2, updates: 1 }).record;
    const M0 = store.insert(materialPattern([0, 0, 0, 0, 0]), 'manual', 0, { weight: 0.6, updates: 3 }).record;
    const config: LearningConfig = mergeConfig(DEFAULT_CONFIG, {
      evaluation: 'joint', learnFrom: 'own', updatePer: 'position', lambda: 1, temperature: 'constant:1',
      seeding: false, subgraphsPerGame: 0, regression: { enabled: false }, generalisation: { enabled: false },
      specialisation: { enabled: false }, deletion: { enabled: false },
    });
    const game = { startFen: START_FEN, moves: ['e2e4', 'd7d5', 'e4d5', 'd8d5', 'b1c3'], learner: 'w' as const, result: 1 };
    learnFromGame(store, game, config, new Random(1));
    // Errors against the values before the game, shared by the annealing steps before the game when those add
    // up to more than 1: p0 1/3 + 1/4, p2 1/2 + 1/4 (both below 1: unchanged), p1 1/2 + 1 = 1.5.
    const error0 = 1 - sigmoid(logOdds(0.3) + logOdds(0.6));
    const error1 = (1 - 0.2) / 1.5;
    const error2 = 1 - sigmoid(logOdds(0.8) + logOdds(0.6));
    // Backward sweep: p2 (G2 step 1/2, M0 step 1/4), p1 (G3 1/2, M1 1), p0 (G1 1/3, M0 now n=4: 1/5).
    expect(G2.weight).toBeCloseTo(sigmoid(logOdds(0.8) + 4 * (1 / 2) * error2), 12);
    expect(G3.weight).toBeCloseTo(sigmoid(logOdds(0.2) + 4 * (1 / 2) * error1), 12);
    expect(store.byKey(materialPattern([1, 0, 0, 0, 0]))!.weight).toBeCloseTo(sigmoid(4 * error1), 12);
    expect(G1.weight).toBeCloseTo(sigmoid(logOdds(0.3) + 4 * (1 / 3) * error0), 12);
    expect(M0.weight).toBeCloseTo(sigmoid(logOdds(0.6) + 4 * (1 / 4) * error2 + 4 * (1 / 5) * error0), 12);
    expect([G1.updates, G2.updates, G3.updates, M0.updates]).toEqual([3, 2, 2, 5]);
    store.close();
  });
});

describe('the learning config', () => {
  it('keeps the paper function for a database saved before evaluation functions existed, and refuses unknown ones', () => {
    expect(DEFAULT_CONFIG.evaluation).toBe('paper');
    expect(() => mergeConfig(DEFAULT_CONFIG, { evaluation: 'magic' })).toThrow(/evaluation must be one of paper, shrunk, logodds, joint/);
    expect(() => mergeConfig(DEFAULT_CONFIG, { prior: -1 })).toThrow(/prior/);
  });
});
