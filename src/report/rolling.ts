/**
 * Score and Elo against each opponent over a trailing window of games, with 95% intervals, placed both by game
 * number and by training hours (the summed duration of the games before it, so gaps between runs do not count).
 * The cumulative average the paper plots flattens out after a few hundred games; a window shows where Morph is now.
 */
import type { MorphDatabase } from '../store/database.ts';
import { eloEstimate } from '../match/elo.ts';
import { thin } from './series.ts';

export interface RollingPoint {
  /** 1-based position of the game in the games table. */
  game: number;
  /** Training hours when the game ended. */
  hours: number;
  /** Games in the window (fewer at the start). */
  games: number;
  score: number;
  scoreLow: number;
  scoreHigh: number;
  elo: number;
  eloLow: number;
  eloHigh: number;
}

export interface OpponentRolling {
  opponent: string;
  games: number;
  window: number;
  points: RollingPoint[];
}

/** A window long enough for an interval worth drawing, short enough to follow the trend: a tenth of the games, 20..200. */
export function rollingWindow(games: number): number {
  return Math.min(200, Math.max(20, Math.round(games / 10)));
}

/** Score fraction for an Elo difference: the logistic curve eloFromScoreFraction inverts. */
export function scoreFromElo(elo: number): number {
  return 1 / (1 + 10 ** (-elo / 400));
}

export function rollingByOpponent(db: MorphDatabase): OpponentRolling[] {
  const rows = db.prepare('SELECT opponent, morph_score, seconds FROM games ORDER BY id').raw().all() as [string | null, number | null, number | null][];
  const byOpponent = new Map<string, { game: number; hours: number; score: number }[]>();
  let seconds = 0;
  rows.forEach(([opponent, score, gameSeconds], i) => {
    seconds += gameSeconds ?? 0;
    const name = opponent ?? '?';
    if (!byOpponent.has(name)) byOpponent.set(name, []);
    byOpponent.get(name)!.push({ game: i + 1, hours: seconds / 3600, score: score ?? 0.5 });
  });
  return [...byOpponent].map(([opponent, games]) => {
    const window = rollingWindow(games.length);
    const counts = { wins: 0, draws: 0, losses: 0 };
    const add = (score: number, by: number) => {
      if (score === 1) counts.wins += by;
      else if (score === 0) counts.losses += by;
      else counts.draws += by;
    };
    const points = games.map((game, i): RollingPoint => {
      add(game.score, 1);
      if (i >= window) add(games[i - window].score, -1);
      const estimate = eloEstimate(counts);
      return {
        game: game.game,
        hours: game.hours,
        games: Math.min(i + 1, window),
        score: estimate.scoreFraction,
        scoreLow: scoreFromElo(estimate.low),
        scoreHigh: scoreFromElo(estimate.high),
        elo: estimate.elo,
        eloLow: estimate.low,
        eloHigh: estimate.high,
      };
    });
    return { opponent, games: games.length, window, points: thin(points) };
  });
}
