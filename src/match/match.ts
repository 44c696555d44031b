/**
 * A match: N games between two players given by their specs, scored from the first player's point of view.
 *
 * With `swap` the colours alternate (game 1 the first player has White, game 2 Black, ...). Every game has its
 * own seed, derived from the match seed and the game's index, so the match repeats from its seed while players
 * that randomise play differently in each game. A game in which an engine fails (EngineError) is discarded and
 * played again with fresh engines; the failures are counted, and too many in a row stop the match.
 */
import { gamePgn, playGame, type EndReason, type GameResult, type PlayedGame } from '../game/playGame.ts';
import type { GamePlayer } from '../engines/gamePlayer.ts';
import { EngineError } from '../engines/uciClient.ts';
import { Contestant, type ContestantOptions } from './contestant.ts';
import { eloEstimate, type EloEstimate, type MatchScore } from './elo.ts';

export interface MatchOptions extends ContestantOptions {
  /** The spec of the player whose results are reported (White in game 1). */
  first: string;
  second: string;
  games: number;
  /** Alternate colours: in every second game the first player has Black. */
  swap: boolean;
  seed: number;
  /** Games are adjudicated a draw after this many plies. */
  maxPlies: number;
  /** Stop after this many engine failures in a row. */
  maxFailures: number;
  /** Checked between and during games (e.g. Ctrl-C): the match ends early with what was played. */
  shouldStop?: () => boolean;
  /** Called after each finished game, with its PGN and the running tally. */
  onGame?: (game: MatchGame, pgn: string, tally: MatchTally) => void;
  /** Called after each discarded game. */
  onFailure?: (error: EngineError, round: number) => void;
}

export interface MatchGame {
  /** 1-based game number. */
  round: number;
  white: string;
  black: string;
  firstIsWhite: boolean;
  result: GameResult;
  reason: EndReason;
  plies: number;
  /** The seed of the first player (the second's is derived alongside). */
  seed: number;
}

export interface MatchTally extends MatchScore {
  games: number;
}

export type MatchStopReason = 'completed' | 'interrupted' | 'engine-failures';

export interface MatchSummary extends MatchTally {
  first: string;
  second: string;
  /** Games asked for. */
  gamesRequested: number;
  points: number;
  scoreFraction: number | null;
  elo: EloEstimate | null;
  asWhite: MatchScore;
  asBlack: MatchScore;
  averagePlies: number | null;
  reasons: Partial<Record<EndReason, number>>;
  /** Games discarded because an engine failed. */
  failures: number;
  lastFailure?: string;
  stopReason: MatchStopReason;
  seed: number;
  swap: boolean;
  maxPlies: number;
  seconds: number;
  results: MatchGame[];
}

/**
 * A well-mixed 32-bit seed for game `gameIndex` (0-based), side `side` (0 first player, 1 second) and replay
 * `attempt` of a match with seed `matchSeed`.
 */
export function gameSeed(matchSeed: number, gameIndex: number, side = 0, attempt = 0): number {
  let h = (matchSeed >>> 0) ^ Math.imul(gameIndex + 1, 0x9e3779b1) ^ Math.imul(side * 2 + attempt * 4 + 1, 0x85ebca77);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Whether the first player has White in game `gameIndex` (0-based). */
export function firstPlaysWhite(gameIndex: number, swap: boolean): boolean {
  return !swap || gameIndex % 2 === 0;
}

/** The game's result from the first player's side: 1 win, .5 draw, 0 loss. */
export function firstPlayerPoints(result: GameResult, firstIsWhite: boolean): number {
  if (result === '1/2-1/2') return 0.5;
  return (result === '1-0') === firstIsWhite ? 1 : 0;
}

const emptyScore = (): MatchScore => ({ wins: 0, draws: 0, losses: 0 });

function addOutcome(score: MatchScore, points: number): void {
  if (points === 1) score.wins++;
  else if (points === 0) score.losses++;
  else score.draws++;
}

export async function runMatch(options: MatchOptions): Promise<MatchSummary> {
  const started = performance.now();
  const contestants = [new Contestant(options.first, options), new Contestant(options.second, options)] as const;
  const [first, second] = contestants;
  const total = emptyScore();
  const asWhite = emptyScore();
  const asBlack = emptyScore();
  const reasons: Partial<Record<EndReason, number>> = {};
  const results: MatchGame[] = [];
  let plies = 0;
  let failures = 0;
  let failuresInARow = 0;
  let lastFailure: string | undefined;
  let stopReason: MatchStopReason = 'completed';

  try {
    let attempt = 0;
    for (let index = 0; index < options.games; ) {
      // In-process players never wait on I/O; yielding lets signal handlers (Ctrl-C) run between games.
      await new Promise((resolve) => setImmediate(resolve));
      if (options.shouldStop?.()) {
        stopReason = 'interrupted';
        break;
      }
      const firstIsWhite = firstPlaysWhite(index, options.swap);
      const seeds = [gameSeed(options.seed, index, 0, attempt), gameSeed(options.seed, index, 1, attempt)];
      const players: GamePlayer[] = [];
      let game: PlayedGame | null;
      try {
        players.push(await first.playerForGame(seeds[0]), await second.playerForGame(seeds[1]));
        const [white, black] = firstIsWhite ? players : [players[1], players[0]];
        game = await playGame({ white, black, maxPlies: options.maxPlies, shouldStop: options.shouldStop });
      } catch (error) {
        if (!(error instanceof EngineError)) throw error;
        failures++;
        failuresInARow++;
        lastFailure = error.message;
        options.onFailure?.(error, index + 1);
        for (const contestant of contestants) await contestant.discardEngine();
        if (failuresInARow >= options.maxFailures) {
          stopReason = 'engine-failures';
          break;
        }
        attempt++;
        continue;
      } finally {
        for (let side = 0; side < players.length; side++) await contestants[side].endGame(players[side]);
      }
      if (game === null) {
        stopReason = 'interrupted';
        break;
      }
      failuresInARow = 0;
      attempt = 0;
      const points = firstPlayerPoints(game.result, firstIsWhite);
      addOutcome(total, points);
      addOutcome(firstIsWhite ? asWhite : asBlack, points);
      reasons[game.reason] = (reasons[game.reason] ?? 0) + 1;
      plies += game.plies;
      const record: MatchGame = {
        round: index + 1,
        white: firstIsWhite ? first.name : second.name,
        black: firstIsWhite ? second.name : first.name,
        firstIsWhite,
        result: game.result,
        reason: game.reason,
        plies: game.plies,
        seed: seeds[0],
      };
      results.push(record);
      const pgn = gamePgn(game, { event: 'Morph match', white: record.white, black: record.black, round: record.round });
      options.onGame?.(record, pgn, { ...total, games: results.length });
      index++;
    }
  } finally {
    for (const contestant of contestants) await contestant.close();
  }

  const games = results.length;
  const points = total.wins + total.draws / 2;
  return {
    first: first.name,
    second: second.name,
    gamesRequested: options.games,
    games,
    ...total,
    points,
    scoreFraction: games > 0 ? points / games : null,
    elo: games > 0 ? eloEstimate(total) : null,
    asWhite,
    asBlack,
    averagePlies: games > 0 ? plies / games : null,
    reasons,
    failures,
    ...(lastFailure !== undefined ? { lastFailure } : {}),
    stopReason,
    seed: options.seed,
    swap: options.swap,
    maxPlies: options.maxPlies,
    seconds: (performance.now() - started) / 1000,
    results,
  };
}
