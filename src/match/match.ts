/**
 * A match between two players given by their specs, scored from the first player's point of view, played the
 * way engine testers play them (cutechess-cli, fastchess): openings from a suite, each played twice with the
 * colours reversed (a game pair), results reported per game and per pair (pentanomial), optionally until an SPRT
 * decides.
 *
 * Game i (0-based) is game i % 2 of pair ⌊i/2⌋: the first player has White in game 0 of a pair, Black in game 1,
 * both from the pair's opening. Every game has its own seed, derived from the match seed and the game's index,
 * so the match repeats from its seed (at any concurrency) while players that randomise play differently in each
 * game. A game in which an engine fails (EngineError) is discarded and played again with fresh engines; the
 * failures are counted, and too many in a row stop the match. With concurrency N, N games run at once, each
 * worker with its own players (engine processes); in-process players share one thread, so only external
 * engines gain from it.
 */
import { gamePgn, playGame, type EndReason, type GameResult, type PlayedGame } from '../game/playGame.ts';
import type { GamePlayer } from '../engines/gamePlayer.ts';
import { EngineError } from '../engines/engineProcess.ts';
import { Contestant, type ContestantOptions } from './contestant.ts';
import { eloEstimate, likelihoodOfSuperiority, type EloEstimate, type MatchScore } from './elo.ts';
import { openingOfGame, shuffleOpenings, type Opening } from './openings.ts';
import { outcomeStatistics, pentanomial, type OutcomeStatistics, type Pentanomial } from './outcomes.ts';
import { sprtState, type SprtSettings, type SprtState } from './sprt.ts';

export interface MatchOptions extends ContestantOptions {
  /** The spec of the player whose results are reported (White in the first game of every pair). */
  first: string;
  second: string;
  /** Games to play (at most, with an SPRT); an odd number leaves the last pair with one game. */
  games: number;
  /** The opening suite (played in an order shuffled by the seed, from the start again when it runs out). */
  openings: readonly Opening[];
  /** Names the suite in the summary. */
  openingsSource: string;
  seed: number;
  /** Games are adjudicated a draw after this many plies (opening moves included). */
  maxPlies: number;
  /** Stop after this many engine failures in a row. */
  maxFailures: number;
  /** Games played at once (default 1). */
  concurrency?: number;
  /** Opponent models the first and second players use (Morph players only; see src/model). */
  firstModel?: string;
  secondModel?: string;
  /** Move policies of Morph players (default: each database's own, if built; false: none). */
  firstPolicy?: string | false;
  /** False: the first player (a Morph player) plays without what its graph patterns add (the ablation). */
  firstGraphPatterns?: boolean;
  /** The first player's (a Morph player's) move patterns as a second move policy, joined to its policy. */
  firstMovePolicy?: string;
  secondPolicy?: string | false;
  /** Stop as soon as the SPRT accepts a hypothesis. */
  sprt?: SprtSettings;
  /** Checked between and during games (e.g. Ctrl-C): the match ends early with what was played. */
  shouldStop?: () => boolean;
  /** Called after each finished game (in the order they finish), with its PGN and the running tally. */
  onGame?: (game: MatchGame, pgn: string, tally: MatchTally) => void;
  /** Called after each discarded game. */
  onFailure?: (error: EngineError, round: number) => void;
}

export interface MatchGame {
  /** 1-based game number. */
  round: number;
  /** 1-based pair number: games 2p-1 and 2p share an opening. */
  pair: number;
  /** The opening's line (EPD) or game (PGN) number in its suite. */
  opening: number;
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
  /** Counts of complete pairs by the first player's points in them: 0, ½, 1, 1½, 2. */
  pentanomial: Pentanomial;
  sprt: SprtState | null;
}

export type MatchStopReason = 'completed' | 'interrupted' | 'engine-failures' | 'sprt';

export interface MatchSummary extends MatchTally {
  first: string;
  second: string;
  /** Games asked for. */
  gamesRequested: number;
  points: number;
  scoreFraction: number | null;
  /** Per game: Elo with a 95% interval as if the games were independent (sweeps clamped, see elo.ts). */
  elo: EloEstimate | null;
  /** Per pair: Elo, normalized Elo and LOS from the pentanomial variance: the interval to trust. */
  pairs: OutcomeStatistics | null;
  completePairs: number;
  /** Likelihood of superiority from wins and losses (cutechess-cli's LOS). */
  los: number;
  drawRatio: number | null;
  asWhite: MatchScore;
  asBlack: MatchScore;
  averagePlies: number | null;
  reasons: Partial<Record<EndReason, number>>;
  /** Games whose moves (opening included) differ from every other game's. */
  distinctGames: number;
  openings: { source: string; count: number; used: number };
  concurrency: number;
  /** Games discarded because an engine failed. */
  failures: number;
  lastFailure?: string;
  stopReason: MatchStopReason;
  seed: number;
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

/** Whether the first player has White in game `gameIndex` (0-based): in the first game of each pair. */
export function firstPlaysWhite(gameIndex: number): boolean {
  return gameIndex % 2 === 0;
}

/** The game's result from the first player's side: 1 win, .5 draw, 0 loss. */
export function firstPlayerPoints(result: GameResult, firstIsWhite: boolean): number {
  if (result === '1/2-1/2') return 0.5;
  return (result === '1-0') === firstIsWhite ? 1 : 0;
}

/** Folds per-game points of the first player into pairs: game 2p and 2p+1 form pair p; incomplete pairs are left out. */
export function pentanomialOf(pointsByGame: ReadonlyMap<number, number>): Pentanomial {
  const counts: Pentanomial = [0, 0, 0, 0, 0];
  for (const [index, points] of pointsByGame) {
    if (index % 2 !== 0) continue;
    const partner = pointsByGame.get(index + 1);
    if (partner !== undefined) counts[Math.round((points + partner) * 2)]++;
  }
  return counts;
}

const emptyScore = (): MatchScore => ({ wins: 0, draws: 0, losses: 0 });

function addOutcome(score: MatchScore, points: number): void {
  if (points === 1) score.wins++;
  else if (points === 0) score.losses++;
  else score.draws++;
}

export async function runMatch(options: MatchOptions): Promise<MatchSummary> {
  const started = performance.now();
  const concurrency = Math.max(1, Math.min(options.concurrency ?? 1, options.games));
  const openings = shuffleOpenings(options.openings, options.seed);
  const workers = Array.from({ length: concurrency }, () => [
    new Contestant(options.first, {
      ...options, opponentModel: options.firstModel, policyModel: options.firstPolicy, graphPatterns: options.firstGraphPatterns,
      movePolicy: options.firstMovePolicy,
    }),
    new Contestant(options.second, { ...options, opponentModel: options.secondModel, policyModel: options.secondPolicy }),
  ] as const);
  const [firstName, secondName] = [workers[0][0].name, workers[0][1].name];
  const total = emptyScore();
  const asWhite = emptyScore();
  const asBlack = emptyScore();
  const reasons: Partial<Record<EndReason, number>> = {};
  const results: MatchGame[] = [];
  const pointsByGame = new Map<number, number>();
  const gameKeys = new Set<string>();
  let plies = 0;
  let failures = 0;
  let failuresInARow = 0;
  let lastFailure: string | undefined;
  let stopReason: MatchStopReason = 'completed';
  let nextIndex = 0;
  let sprt: SprtState | null = null;
  let pentanomialCounts: Pentanomial = [0, 0, 0, 0, 0];
  const stopping = () => stopReason !== 'completed' || !!options.shouldStop?.();

  const record = (index: number, attempt: number, game: PlayedGame, opening: Opening) => {
    const firstIsWhite = firstPlaysWhite(index);
    const points = firstPlayerPoints(game.result, firstIsWhite);
    addOutcome(total, points);
    addOutcome(firstIsWhite ? asWhite : asBlack, points);
    reasons[game.reason] = (reasons[game.reason] ?? 0) + 1;
    plies += game.plies;
    pointsByGame.set(index, points);
    gameKeys.add(`${game.startFen}|${game.moves.join(' ')}`);
    pentanomialCounts = pentanomialOf(pointsByGame);
    if (options.sprt) {
      sprt = sprtState(pentanomial(pentanomialCounts), options.sprt);
      if (sprt.decision !== 'continue' && stopReason === 'completed') stopReason = 'sprt';
    }
    const entry: MatchGame = {
      round: index + 1,
      pair: Math.floor(index / 2) + 1,
      opening: opening.index,
      white: firstIsWhite ? firstName : secondName,
      black: firstIsWhite ? secondName : firstName,
      firstIsWhite,
      result: game.result,
      reason: game.reason,
      plies: game.plies,
      seed: gameSeed(options.seed, index, 0, attempt),
    };
    results.push(entry);
    const pgn = gamePgn(game, {
      event: 'Morph match',
      white: entry.white,
      black: entry.black,
      round: entry.round,
      extra: { Opening: `${options.openingsSource} #${opening.index}` },
    });
    options.onGame?.(entry, pgn, { ...total, games: results.length, pentanomial: pentanomialCounts, sprt });
  };

  /** One worker: takes the next game until the match is over. */
  const work = async ([first, second]: readonly [Contestant, Contestant]) => {
    for (;;) {
      // In-process players never wait on I/O; yielding lets signal handlers (Ctrl-C) run between games.
      await new Promise((resolve) => setImmediate(resolve));
      if (stopping() || nextIndex >= options.games) return;
      const index = nextIndex++;
      const opening = openingOfGame(openings, index);
      const firstIsWhite = firstPlaysWhite(index);
      for (let attempt = 0; ; attempt++) {
        const players: GamePlayer[] = [];
        let game: PlayedGame | null;
        try {
          players.push(
            await first.playerForGame(gameSeed(options.seed, index, 0, attempt)),
            await second.playerForGame(gameSeed(options.seed, index, 1, attempt)),
          );
          const [white, black] = firstIsWhite ? players : [players[1], players[0]];
          game = await playGame({
            white,
            black,
            startFen: opening.fen,
            openingMoves: opening.moves,
            maxPlies: options.maxPlies,
            shouldStop: options.shouldStop,
          });
        } catch (error) {
          if (!(error instanceof EngineError)) throw error;
          failures++;
          failuresInARow++;
          lastFailure = error.message;
          options.onFailure?.(error, index + 1);
          await first.discardEngine();
          await second.discardEngine();
          if (failuresInARow >= options.maxFailures) {
            if (stopReason === 'completed') stopReason = 'engine-failures';
            return;
          }
          if (options.shouldStop?.()) return;
          continue;
        } finally {
          await first.endGame(players[0] ?? null);
          await second.endGame(players[1] ?? null);
        }
        if (game === null) return; // stopped during the game: it does not count
        failuresInARow = 0;
        record(index, attempt, game, opening);
        break;
      }
    }
  };

  try {
    await Promise.all(workers.map(work));
  } finally {
    for (const pair of workers) for (const contestant of pair) await contestant.close();
  }
  if (stopReason === 'completed' && options.shouldStop?.() && results.length < options.games) stopReason = 'interrupted';

  results.sort((a, b) => a.round - b.round);
  const games = results.length;
  const points = total.wins + total.draws / 2;
  return {
    first: firstName,
    second: secondName,
    gamesRequested: options.games,
    games,
    ...total,
    points,
    scoreFraction: games > 0 ? points / games : null,
    elo: games > 0 ? eloEstimate(total) : null,
    pentanomial: pentanomialCounts,
    completePairs: pentanomialCounts.reduce((a, b) => a + b, 0),
    pairs: outcomeStatistics(pentanomial(pentanomialCounts)),
    los: likelihoodOfSuperiority(total.wins, total.losses),
    drawRatio: games > 0 ? total.draws / games : null,
    sprt,
    asWhite,
    asBlack,
    averagePlies: games > 0 ? plies / games : null,
    reasons,
    distinctGames: gameKeys.size,
    openings: {
      source: options.openingsSource,
      count: options.openings.length,
      used: Math.min(options.openings.length, Math.ceil(nextIndex / 2)),
    },
    concurrency,
    failures,
    ...(lastFailure !== undefined ? { lastFailure } : {}),
    stopReason,
    seed: options.seed,
    maxPlies: options.maxPlies,
    seconds: (performance.now() - started) / 1000,
    results,
  };
}
