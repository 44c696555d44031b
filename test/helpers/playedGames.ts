/**
 * Real games for the games and report tests: Morph's seat is taken by a fast in-process player (random or greedy), the
 * opponent by random or greedy, each game played by the production playGame and recorded with its PGN as the
 * training harness records it (gamePgn, recordGame, one run per opponent).
 */
import { RandomPlayer } from '../../src/engines/simplePlayers.ts';
import { AlphaBetaPlayer } from '../../src/engines/alphabeta.ts';
import type { GamePlayer } from '../../src/engines/gamePlayer.ts';
import { gamePgn, playGame, type PlayedGame } from '../../src/game/playGame.ts';
import { materialBalance } from '../../src/chess/pieceValues.ts';
import { applyMove, boardFromFen, uciMove } from '../../src/chess/board.ts';
import { gameStatus, generateLegalMoves } from '../../src/chess/movegen.ts';
import type { MorphDatabase } from '../../src/store/database.ts';
import { recordGame } from '../../src/store/games.ts';
import { finishRun, startRun } from '../../src/store/runs.ts';
import { randomOpening } from '../../src/match/gameCollection.ts';
import { Random } from '../../src/util/random.ts';

export interface PlayedRun {
  runId: number;
  opponent: 'random' | 'ab:1';
  games: { id: number; morphColor: 'w' | 'b'; result: string; reason: string; plies: number; moves: string[]; startFen: string }[];
}

function playerOf(kind: 'random' | 'ab:1', seed: number): GamePlayer {
  return kind === 'random' ? new RandomPlayer(seed) : new AlphaBetaPlayer({ depth: 1, quiescence: false, tolerancePawns: 0, seed });
}

/** Plays `games` games against `opponent` as one run, with the given start time and one minute per game. */
export async function recordPlayedRun(
  db: MorphDatabase,
  options: { opponent: 'random' | 'ab:1'; games: number; morph?: 'random' | 'ab:1'; seed: number; maxPlies?: number; startedAt: Date; firstGame: number },
): Promise<PlayedRun> {
  const runId = startRun(db, { opponent: options.opponent, seed: options.seed, config: {}, firstGame: options.firstGame, startedAt: options.startedAt.toISOString() });
  const run: PlayedRun = { runId, opponent: options.opponent, games: [] };
  for (let i = 0; i < options.games; i++) {
    const seed = options.seed * 1000 + i;
    const morphColor = i % 2 === 0 ? 'w' : 'b';
    const morph = playerOf(options.morph ?? 'random', seed);
    const opponent = playerOf(options.opponent, seed + 7);
    const played = (await playGame({
      white: morphColor === 'w' ? morph : opponent,
      black: morphColor === 'w' ? opponent : morph,
      maxPlies: options.maxPlies ?? 160,
    }))!;
    const pgn = gamePgn(played, {
      event: 'Morph training',
      white: morphColor === 'w' ? 'Morph' : opponent.name,
      black: morphColor === 'w' ? opponent.name : 'Morph',
      round: options.firstGame + i,
      extra: { MorphSeed: String(seed) },
    });
    const balance = materialBalance(boardFromFen(played.finalFen));
    const started = new Date(options.startedAt.getTime() + i * 60_000);
    const id = recordGame(db, {
      runId, morphColor, opponent: options.opponent, result: played.result, reason: played.reason, plies: played.plies,
      finalMaterial: morphColor === 'w' ? balance : -balance, patterns: 100 + i, seed, pgn, seconds: 60,
      startedAt: started.toISOString(), finishedAt: new Date(started.getTime() + 60_000).toISOString(),
    });
    run.games.push({ id, morphColor, result: played.result, reason: played.reason, plies: played.plies, moves: played.moves, startFen: played.startFen });
  }
  finishRun(db, runId, { stopReason: 'games-done', finishedAt: new Date(options.startedAt.getTime() + options.games * 60_000).toISOString() });
  return run;
}

/**
 * PGN of `count` games of a player against random, colours alternating, each from a varied random opening, for
 * opponent-model tests. Game i's player is `playerFor(seed * 100 + i)`, random's seed is 50 more, and its opening's
 * seed `seed * 1000 + i`.
 */
export async function gamesAgainstRandom(count: number, seed: number, playerFor: (seed: number) => GamePlayer): Promise<string> {
  const pgns: string[] = [];
  for (let i = 0; i < count; i++) {
    const player = playerFor(seed * 100 + i);
    const random = new RandomPlayer(seed * 100 + i + 50);
    const [white, black] = i % 2 === 0 ? [player, random] : [random, player];
    const startFen = randomOpening(new Random(seed * 1000 + i));
    const game = (await playGame({ white, black, startFen, maxPlies: 60 }))!;
    pgns.push(gamePgn(game, { white: white.name, black: black.name, round: i + 1 }));
  }
  return pgns.join('\n\n') + '\n';
}

/** A seeded random game of up to `plies` legal moves from `fen`, as playGame records one (no players, no result). */
export function randomPlayout(fen: string, plies: number, random: Random): PlayedGame {
  const board = boardFromFen(fen);
  const moves: string[] = [];
  while (moves.length < plies && gameStatus(board) === 'ongoing') {
    const move = random.pick(generateLegalMoves(board));
    moves.push(uciMove(move));
    applyMove(board, move);
  }
  return { startFen: fen, moves, result: '1/2-1/2', reason: 'ply-limit', plies: moves.length, finalFen: '', thinkingSeconds: { w: 0, b: 0 } };
}
