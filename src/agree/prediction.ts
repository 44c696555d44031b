/**
 * Measuring move prediction: over one player's decisions, how often each ranker's top 1, top 4 and top third
 * of the legal moves hold the move the player chose (the SYLPH filters of src/agree/metrics.ts, with ties
 * valued at their expectation: a ranker that ties everything scores exactly as random).
 *
 * Players that break ties at random (greedy, ab:D) cannot be predicted beyond their tie: for them a label
 * ranker (`labels`) gives the player's own equally best moves, and a filter succeeds when it keeps any of them
 * (setShare). A move the label ranker does not value best is scored as itself.
 *
 * Intervals: 95%, from the standard error of a mean over games (moves of one game are not independent), so a
 * share is mean ± 1.96·SE with SE² = G/(G-1) · Σ_g (S_g - p·n_g)² / n², S_g and n_g a game's sum and count.
 */
import type { GameHistory } from '../chess/history.ts';
import { boardToFen } from '../chess/board.ts';
import { positionAgreement, TIE_TOLERANCE, topThirdSize, type AgreementShares } from './metrics.ts';
import type { MoveScore } from './rankers.ts';
import { decisionHistories, type Decision } from '../model/decisions.ts';

export type Phase = 'opening' | 'middlegame' | 'endgame';
export const PHASES: readonly Phase[] = ['opening', 'middlegame', 'endgame'];

/** Piece values for the phase only (not given to any player). */
const PHASE_POINTS = [0, 0, 3, 3, 5, 9, 0];
/** Endgame: both sides' pieces (pawns and kings aside) worth at most this much together, e.g. R+B each. */
const ENDGAME_MATERIAL = 16;
/** Opening: up to this full move number, unless already an endgame. */
const OPENING_LAST_MOVE = 15;

export function phaseOf(history: GameHistory): Phase {
  const board = history.board;
  let material = 0;
  for (const piece of board.squares) material += PHASE_POINTS[piece < 0 ? -piece : piece];
  if (material <= ENDGAME_MATERIAL) return 'endgame';
  return board.fullmoveNumber <= OPENING_LAST_MOVE ? 'opening' : 'middlegame';
}

export interface PredictionRanker {
  readonly name: string;
  score(history: GameHistory, fen: string): MoveScore[];
  close(): void;
}

export interface Share {
  value: number;
  low: number;
  high: number;
}

export interface ShareSet {
  moves: number;
  top1: Share;
  top4: Share;
  topThird: Share;
}

export interface RankerPrediction extends ShareSet {
  ranker: string;
  /** Mean wall-clock milliseconds the ranker took to rank a position's moves. */
  msPerMove: number;
  /** The first ranker (the model) less this one on the same moves, paired; absent for the first. */
  firstLess?: { top1: Share; top4: Share };
  byPhase: Partial<Record<Phase, ShareSet>>;
}

export interface PredictionReport {
  player: string;
  games: number;
  moves: number;
  meanLegal: number;
  /** The label ranker, when the player's equally best moves all count. */
  labels: string | null;
  rankers: RankerPrediction[];
}

interface Row extends AgreementShares {
  game: number;
  phase: Phase;
}

/** The mean of one value per move, with its 95% interval over games (clamped to [low, high]). */
function clusteredMean(games: readonly number[], values: readonly number[], [lowest, highest]: [number, number]): Share {
  const n = values.length;
  const mean = values.reduce((sum, v) => sum + v, 0) / n;
  const byGame = new Map<number, { sum: number; count: number }>();
  values.forEach((v, i) => {
    const g = byGame.get(games[i]) ?? { sum: 0, count: 0 };
    g.sum += v;
    g.count++;
    byGame.set(games[i], g);
  });
  const G = byGame.size;
  let squares = 0;
  for (const g of byGame.values()) squares += (g.sum - mean * g.count) ** 2;
  const se = G > 1 ? Math.sqrt((G / (G - 1)) * squares) / n : 0;
  return { value: mean, low: Math.max(lowest, mean - 1.96 * se), high: Math.min(highest, mean + 1.96 * se) };
}

function share(rows: readonly Row[], key: keyof AgreementShares): Share {
  return clusteredMean(rows.map((r) => r.game), rows.map((r) => r[key]), [0, 1]);
}

/** The first ranker's share less another's, move by move (paired: the same moves), with its 95% interval. */
function pairedDifference(first: readonly Row[], other: readonly Row[], key: keyof AgreementShares): Share {
  return clusteredMean(first.map((r) => r.game), first.map((r, i) => r[key] - other[i][key]), [-1, 1]);
}

function shareSet(rows: readonly Row[]): ShareSet {
  return { moves: rows.length, top1: share(rows, 'top1'), top4: share(rows, 'top4'), topThird: share(rows, 'topThird') };
}

/**
 * The chance that the top `m` of `scores` hold at least one of `labels`, ties in random order. With a the
 * moves strictly above the best-scored label, and in its tie group t_L labels and t_O other moves, the first
 * j = m - a places of the group miss every label with chance C(t_O, j) / C(t_O + t_L, j).
 */
export function setShare(scores: readonly MoveScore[], labels: ReadonlySet<string>, m: number): number {
  let best = -Infinity;
  for (const s of scores) if (labels.has(s.move) && s.value > best) best = s.value;
  if (best === -Infinity) throw new Error('no label among the ranked moves');
  let above = 0;
  let tiedLabels = 0;
  let tiedOthers = 0;
  for (const s of scores) {
    if (s.value > best + TIE_TOLERANCE) above++;
    else if (s.value >= best - TIE_TOLERANCE) {
      if (labels.has(s.move)) tiedLabels++;
      else tiedOthers++;
    }
  }
  const j = m - above;
  if (j <= 0) return 0;
  if (j > tiedOthers) return 1;
  let miss = 1;
  for (let i = 0; i < j; i++) miss *= (tiedOthers - i) / (tiedOthers + tiedLabels - i);
  return 1 - miss;
}

function agreementWith(scores: readonly MoveScore[], chosen: string, equalBest: readonly string[] | null): AgreementShares & { legal: number } {
  if (equalBest === null || !equalBest.includes(chosen)) return positionAgreement(scores, chosen);
  const labels = new Set(equalBest);
  return {
    legal: scores.length,
    top1: setShare(scores, labels, 1),
    top4: setShare(scores, labels, 4),
    topThird: setShare(scores, labels, topThirdSize(scores.length)),
  };
}

/** The moves a label ranker values equal best. */
export function equalBestMoves(scores: readonly MoveScore[]): string[] {
  const top = Math.max(...scores.map((s) => s.value));
  return scores.filter((s) => s.value >= top - TIE_TOLERANCE).map((s) => s.move);
}

export function measurePrediction(
  player: string,
  games: number,
  decisions: readonly Decision[],
  rankers: readonly PredictionRanker[],
  labels: PredictionRanker | null = null,
): PredictionReport {
  const rows: Row[][] = rankers.map(() => []);
  const milliseconds = rankers.map(() => 0);
  let legal = 0;
  let moves = 0;
  for (const [decision, history] of decisionHistories(decisions)) {
    const fen = boardToFen(history.board);
    const phase = phaseOf(history);
    const equalBest = labels ? equalBestMoves(labels.score(history, fen)) : null;
    rankers.forEach((ranker, i) => {
      const started = performance.now();
      const scores = ranker.score(history, fen);
      milliseconds[i] += performance.now() - started;
      const agreement = agreementWith(scores, decision.chosen, equalBest);
      rows[i].push({ game: decision.game, phase, top1: agreement.top1, top4: agreement.top4, topThird: agreement.topThird });
      if (i === 0) legal += agreement.legal;
    });
    moves++;
  }
  return {
    player,
    games,
    moves,
    meanLegal: moves ? legal / moves : 0,
    labels: labels?.name ?? null,
    rankers: rankers.map((ranker, i) => {
      const byPhase: Partial<Record<Phase, ShareSet>> = {};
      for (const phase of PHASES) {
        const inPhase = rows[i].filter((r) => r.phase === phase);
        if (inPhase.length) byPhase[phase] = shareSet(inPhase);
      }
      const firstLess = i > 0 && moves ? { top1: pairedDifference(rows[0], rows[i], 'top1'), top4: pairedDifference(rows[0], rows[i], 'top4') } : undefined;
      return { ranker: ranker.name, msPerMove: moves ? milliseconds[i] / moves : 0, ...shareSet(rows[i]), byPhase, ...(firstLess && { firstLess }) };
    }),
  };
}
