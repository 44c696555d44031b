/**
 * One training game as an actor plays it: Morph (with the weights of some snapshot of the database) against the
 * sparring opponent of that game (a mix's member by game number), from the game's seed. The same code plays in
 * the training process itself (`--jobs 1`, on the live database) and in each game worker (`--jobs N`,
 * trainWorker.ts, on a read-only snapshot); the learner (harness.ts) applies what comes back.
 */
import { setImmediate as eventLoopTurn } from 'node:timers/promises';
import { createPlayer } from './playerFromSpec.ts';
import { formatOpponentSpec, opponentOfGame, parseOpponentSpec, type OpponentSpec } from '../engines/opponentSpec.ts';
import type { GamePlayer } from '../engines/gamePlayer.ts';
import { EngineError } from '../engines/engineProcess.ts';
import type { EngineTimeouts } from '../engines/uciClient.ts';
import { NoisyPlayer } from '../engines/noisyPlayer.ts';
import { playGame, type PlayedGame } from '../game/playGame.ts';
import type { Opening } from '../match/openings.ts';
import { evaluationSettings, loadConfig } from '../learn/config.ts';
import { MorphPlayer } from '../player/morphPlayer.ts';
import { relationProgress, type RelationLesson } from '../learn/relationLearning.ts';
import { lessonsForGame, relationLessons } from './relationLessons.ts';
import { Random } from '../util/random.ts';
import type { PatternStore } from '../store/patternStore.ts';

/** What the learner hands an actor: everything that decides the game besides the weights. */
export interface GameTask {
  gameNumber: number;
  seed: number;
  morphColor: 'w' | 'b';
  /** An adaptive handicap's probability for this game (noisy:auto=T), as the learner holds it now. */
  handicap?: number;
  /** Where the game starts, with --openings: a suite's opening (its position and moves, and its line in the suite). */
  opening?: Opening;
}

/** A played game as the learner receives it. */
export interface FinishedGame {
  task: GameTask;
  played: PlayedGame;
  /** The opponent as recorded: the mix member that played; an adaptive handicap with the probability it played at. */
  opponentName: string;
  /** Games learned in the weights Morph played with (the snapshot); gameNumber - 1 on the live database. */
  snapshot: number;
  /** Wall-clock seconds of the game, and when it started (ISO). */
  seconds: number;
  startedAt: string;
  /**
   * The relation terms' lessons of the game (config relationLessons), searched by the actor after the game, so that
   * with --jobs N they are searched N at a time.
   */
  lessons: RelationLesson[];
}

/** Mixed into a game's seed for the draw of its relation lessons, a stream apart from the game's own. */
const RELATION_SEED_SALT = 0x5eed_7e11;

export interface ActorOptions {
  opponent: string;
  maxPlies: number;
  engineTimeouts?: EngineTimeouts;
}

/** Opponents made afresh for every game (in-process, cheap); the others live for the whole run. */
export const BUILT_IN_OPPONENTS = new Set(['random', 'greedy', 'ab', 'self']);

/** The opponent's seed for a game: derived from the game's seed, so each side has its own stream. */
export function opponentSeedOf(seed: number): number {
  return seed ^ 0x5bd1e995;
}

/**
 * The player with a turn of the event loop before each of its moves. In-process players never wait on I/O, so
 * without it a run against random, greedy, ab:D or morph:FILE would never let a SIGINT handler (or a worker's
 * stop message) run until the whole game was over. (A turn costs microseconds; a move, milliseconds.)
 */
export function yieldingBeforeMoves(player: GamePlayer): GamePlayer {
  return {
    name: player.name,
    newGame: () => player.newGame(),
    chooseMove: async (position) => {
      await eventLoopTurn();
      return player.chooseMove(position);
    },
    close: () => player.close(),
  };
}

/**
 * Plays games one after another, each against the opponent of its game number (a mix's members take turns). Keeps
 * one instance per opponent for the run (restarted after an engine failure, and made per game for built-in
 * players). Throws EngineError when the opponent fails; the caller discards that game.
 */
export class GameActor {
  private readonly spec: OpponentSpec;
  /** The live opponents by canonical spec text. */
  private readonly opponents = new Map<string, GamePlayer>();

  /** `started`: opponents already started (and checked) by the caller, by canonical spec text; the actor owns them. */
  constructor(private readonly options: ActorOptions, started: ReadonlyMap<string, GamePlayer> = new Map()) {
    this.spec = parseOpponentSpec(options.opponent);
    for (const [name, player] of started) this.opponents.set(name, player);
  }

  /** Plays `task` with the weights of `store` (learned from `snapshot` games); null when stopped early. */
  async play(store: PatternStore, snapshot: number, task: GameTask, shouldStop: () => boolean): Promise<FinishedGame | null> {
    const config = loadConfig(store.db);
    const settings = { maturity: config.maturity, evaluation: evaluationSettings(config), search: config.search };
    const morph = yieldingBeforeMoves(new MorphPlayer(store, { ...settings, seed: task.seed }, 'Morph'));
    const opponentSeed = opponentSeedOf(task.seed);
    const started = performance.now();
    const startedAt = new Date().toISOString();
    const member = opponentOfGame(this.spec, task.gameNumber);
    const key = formatOpponentSpec(member);
    // A ladder never returns to a rung it has left: its engine is closed rather than kept idle for the run.
    if (this.spec.kind === 'ladder') for (const other of [...this.opponents.keys()]) if (other !== key) await this.dropOpponent(other);
    let opponent = this.opponents.get(key);
    if (!opponent || BUILT_IN_OPPONENTS.has(member.kind)) {
      await this.dropOpponent(key);
      opponent = member.kind === 'self'
        ? yieldingBeforeMoves(new MorphPlayer(store, { ...settings, seed: opponentSeed }, 'self'))
        : await createPlayer(key, { seed: opponentSeed, engineTimeouts: this.options.engineTimeouts });
      this.opponents.set(key, opponent);
    }
    // A noisy opponent's random moves follow the game's seed, so a resumed run replays the same games.
    if (opponent instanceof NoisyPlayer) opponent.reseed(opponentSeed);
    if (opponent instanceof NoisyPlayer && opponent.target !== undefined && task.handicap !== undefined) {
      opponent.probability = task.handicap;
    }
    let played: PlayedGame | null;
    try {
      played = await playGame({
        white: task.morphColor === 'w' ? morph : opponent,
        black: task.morphColor === 'w' ? opponent : morph,
        startFen: task.opening?.fen,
        openingMoves: task.opening?.moves,
        maxPlies: this.options.maxPlies,
        shouldStop,
      });
    } catch (error) {
      // A failed engine restarts itself at the next game (uciEnginePlayer.ts) and keeps what it learned of the
      // engine's pace (a slow one is given longer); anything else is made afresh.
      if (!(error instanceof EngineError)) await this.dropOpponent(key);
      throw error;
    }
    if (!played) return null;
    const opponentName = opponent instanceof NoisyPlayer && opponent.target !== undefined ? opponent.currentName() : opponent.name;
    const seconds = (performance.now() - started) / 1000;
    const kept = relationProgress(store.db)?.lessons ?? 0;
    const lessons = relationLessons(store, played, lessonsForGame(config, kept), new Random(task.seed ^ RELATION_SEED_SALT), config);
    return { task, played, opponentName, snapshot, seconds, startedAt, lessons };
  }

  /** Drops one opponent (after its failure); the next game it plays starts a new one. */
  private async dropOpponent(key: string): Promise<void> {
    const opponent = this.opponents.get(key);
    this.opponents.delete(key);
    await opponent?.close().catch(() => undefined);
  }

  /** Drops every opponent (a stop ends a search in progress at once); the next game starts new ones. */
  async restartOpponents(): Promise<void> {
    await Promise.all([...this.opponents.keys()].map((key) => this.dropOpponent(key)));
  }

  async close(): Promise<void> {
    await this.restartOpponents();
  }
}
