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

/** Values closer than this are ties (Morph's values are sums of floats). */
export const TIE_TOLERANCE = 1e-12;

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

export interface AgreementReport extends AgreementShares {
  ranker: string;
  positions: number;
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
  const rows = positions.map((p) => positionAgreement(ranker.score(p.fen), p.best));
  return {
    ranker: ranker.name,
    positions: positions.length,
    ...meanShares(rows),
    random: meanShares(rows.map((row) => randomShares(row.legal))),
    meanLegal: rows.reduce((sum, row) => sum + row.legal, 0) / rows.length,
  };
}
