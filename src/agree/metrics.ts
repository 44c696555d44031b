/**
 * Move agreement: how often a ranker's top moves contain a reference engine's best move. Three filters, after
 * the SYLPH paper's evaluation (paper 001, section 5.1): f_k keeps the k best moves (k = 1 and 4 here) and
 * f_gamma keeps the best gamma portion of the legal moves (gamma = 1/3, rounded up: ceil(legal/3) moves); a
 * filter succeeds on a position when the reference move is among the moves it keeps.
 *
 * Ties are valued honestly: the success is its expectation under a uniformly random order among equal values.
 * When a moves score strictly higher than the best move and t moves (the best move included) tie with it, the
 * best move is equally likely to sit at any of ranks a+1..a+t, so a top-m filter keeps it with chance
 * clamp(m - a, 0, t) / t. A ranker that ties everything is thus exactly the random filter: m/legal.
 */
import type { LabelledPosition } from './positions.ts';
import type { MoveRanker, MoveScore } from './rankers.ts';
import { BLUNDER, INACCURACY, MISTAKE, winChanceLoss } from './winChance.ts';
import { Z_95 } from '../match/elo.ts';
import { TIE_TOLERANCE } from '../player/morphPlayer.ts';

/** Values closer than this are ties: the player's own rule, so a ranker's ties are the moves Morph picks among. */
export { TIE_TOLERANCE };

/** The number of moves the top-third filter keeps. */
export const topThirdSize = (legal: number): number => Math.ceil(legal / 3);

/** The chance that `best` is among the top `m` of `scores` under a uniformly random order among ties. */
export function topShare(scores: readonly MoveScore[], best: string, m: number): number {
  const target = scores.find((s) => s.move === best);
  if (!target) throw new Error(`move ${best} is not among the ranked moves`);
  let above = 0;
  let tied = 0;
  for (const { value } of scores) {
    if (value > target.value + TIE_TOLERANCE) above++;
    else if (value >= target.value - TIE_TOLERANCE) tied++;
  }
  return Math.min(tied, Math.max(0, m - above)) / tied;
}

export interface AgreementShares {
  top1: number;
  top4: number;
  topThird: number;
}

export interface PositionAgreement extends AgreementShares {
  legal: number;
}

/** The three filters' expected success on one position. */
export function positionAgreement(scores: readonly MoveScore[], best: string): PositionAgreement {
  return {
    legal: scores.length,
    top1: topShare(scores, best, 1),
    top4: topShare(scores, best, 4),
    topThird: topShare(scores, best, topThirdSize(scores.length)),
  };
}

/** A 95% interval [low, high]. */
export type Interval = [number, number];

/**
 * The mover's expected win-chance loss (lichess points) when a ranker plays its top move, a random one among
 * tied top moves, and the expected shares of such moves losing at least 10 / 20 / 30 points.
 */
export interface MoveQuality {
  meanLoss: number;
  inaccuracy: number;
  mistake: number;
  blunder: number;
}

/** Move quality on one position from the ranker's values and the labelled centipawn score of every move. */
export function positionQuality(values: readonly MoveScore[], scores: ReadonlyMap<string, number>): MoveQuality {
  let top = -Infinity;
  for (const { value } of values) if (value > top) top = value;
  const chosen = values.filter((v) => v.value >= top - TIE_TOLERANCE);
  let bestScore = -Infinity;
  for (const score of scores.values()) if (score > bestScore) bestScore = score;
  const quality = { meanLoss: 0, inaccuracy: 0, mistake: 0, blunder: 0 };
  for (const { move } of chosen) {
    const score = scores.get(move);
    if (score === undefined) throw new Error(`move ${move} has no labelled score`);
    const loss = winChanceLoss(bestScore, score);
    quality.meanLoss += loss / chosen.length;
    if (loss >= INACCURACY) quality.inaccuracy += 1 / chosen.length;
    if (loss >= MISTAKE) quality.mistake += 1 / chosen.length;
    if (loss >= BLUNDER) quality.blunder += 1 / chosen.length;
  }
  return quality;
}

/** The mean of per-position values with a 95% interval by the normal approximation (mean ± 1.96 standard errors). */
export function meanWithInterval(values: readonly number[]): { mean: number; interval: Interval } {
  const n = values.length;
  const mean = values.reduce((sum, v) => sum + v, 0) / n;
  const variance = n > 1 ? values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (n - 1) : 0;
  const half = Z_95 * Math.sqrt(variance / n);
  return { mean, interval: [mean - half, mean + half] };
}

/**
 * A share over positions (each position's success a number in [0,1], fractional where ties split it) with a
 * 95% Wilson score interval. A fractional success varies no more than a 0/1 one of the same mean, so the
 * interval is, if anything, wide; unlike the normal approximation it does not collapse to a point at 0 or 1.
 */
export function shareWithInterval(values: readonly number[]): { mean: number; interval: Interval } {
  const n = values.length;
  const p = values.reduce((sum, v) => sum + v, 0) / n;
  const z2 = Z_95 * Z_95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z_95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { mean: p, interval: [Math.max(0, centre - half), Math.min(1, centre + half)] };
}

export interface AgreementReport extends AgreementShares {
  ranker: string;
  positions: number;
  /** 95% intervals of the three shares. */
  intervals: Record<keyof AgreementShares, Interval>;
  /** Move quality, over the positions that carry every move's score (absent when none do). */
  quality?: MoveQuality & { positions: number; intervals: Record<keyof MoveQuality, Interval> };
  /** The same shares for a uniformly random ranking of the same positions, for comparison. */
  random: AgreementShares;
  /** Mean number of legal moves. */
  meanLegal: number;
}

/** Mean shares over positions (each position weighs the same). */
export function meanShares(rows: readonly AgreementShares[]): AgreementShares {
  const total = { top1: 0, top4: 0, topThird: 0 };
  for (const row of rows) {
    total.top1 += row.top1;
    total.top4 += row.top4;
    total.topThird += row.topThird;
  }
  const n = rows.length;
  return { top1: total.top1 / n, top4: total.top4 / n, topThird: total.topThird / n };
}

/** The random filter's success with `legal` moves: m / legal for each filter size m. */
export function randomShares(legal: number): AgreementShares {
  return { top1: 1 / legal, top4: Math.min(4, legal) / legal, topThird: topThirdSize(legal) / legal };
}

export function measureAgreement(positions: readonly LabelledPosition[], ranker: MoveRanker): AgreementReport {
  if (positions.length === 0) throw new Error('agreement needs at least one position');
  if (ranker.partial) throw new Error(`${ranker.name} scores only the moves it chooses among: agreement needs every move's score`);
  const rows: PositionAgreement[] = [];
  const qualities: MoveQuality[] = [];
  for (const position of positions) {
    const values = ranker.score(position.fen);
    rows.push(positionAgreement(values, position.best));
    if (position.scores) qualities.push(positionQuality(ranker.chooseAmong?.(position.fen) ?? values, position.scores));
  }
  const shareIntervals = {} as Record<keyof AgreementShares, Interval>;
  for (const key of ['top1', 'top4', 'topThird'] as const) {
    shareIntervals[key] = shareWithInterval(rows.map((row) => row[key])).interval;
  }
  const quality = qualitySummary(qualities);
  return {
    ranker: ranker.name,
    positions: positions.length,
    ...meanShares(rows),
    intervals: shareIntervals,
    ...(quality ? { quality } : {}),
    random: meanShares(rows.map((row) => randomShares(row.legal))),
    meanLegal: rows.reduce((sum, row) => sum + row.legal, 0) / rows.length,
  };
}

/** Mean move quality over positions, with 95% intervals; undefined for none. */
function qualitySummary(qualities: readonly MoveQuality[]): AgreementReport['quality'] {
  if (qualities.length === 0) return undefined;
  const means = {} as MoveQuality;
  const intervals = {} as Record<keyof MoveQuality, Interval>;
  for (const key of ['meanLoss', 'inaccuracy', 'mistake', 'blunder'] as const) {
    const values = qualities.map((q) => q[key]);
    const { mean, interval } = key === 'meanLoss' ? meanWithInterval(values) : shareWithInterval(values);
    means[key] = mean;
    // A loss is never negative, whatever the normal approximation says.
    intervals[key] = [Math.max(0, interval[0]), interval[1]];
  }
  return { positions: qualities.length, ...means, intervals };
}

/**
 * Move quality alone, over the positions that carry every move's score (undefined when none do). It reads only the
 * moves the ranker puts first, so a ranker that scores only the moves it chooses among (`partial`) will do, where
 * agreement (measureAgreement) needs every move's score.
 */
export function measureQuality(positions: readonly LabelledPosition[], ranker: MoveRanker): AgreementReport['quality'] {
  const qualities: MoveQuality[] = [];
  for (const position of positions) if (position.scores) qualities.push(positionQuality(ranker.chooseAmong?.(position.fen) ?? ranker.score(position.fen), position.scores));
  return qualitySummary(qualities);
}
