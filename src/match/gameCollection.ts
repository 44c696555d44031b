/**
 * A collection of one player's games: the player (any SPEC) against one or more partners, colours alternating,
 * each game from its own varied opening. The opening is a few random legal plies from the initial position,
 * drawn from the collection's seed; the game then starts from that position (PGN SetUp/FEN), so every move in
 * the collection is a move one of the two players chose. Deterministic engines would otherwise play the same
 * game every time.
 */
import { applyMove, boardFromFen, boardToFen } from '../chess/board.ts';
import { START_FEN } from '../chess/fen.ts';
import { GameHistory } from '../chess/history.ts';
import { generateLegalMoves } from '../chess/movegen.ts';
import { gamePgn, playGame } from '../game/playGame.ts';
import { EngineError } from '../engines/engineProcess.ts';
import { Contestant } from './contestant.ts';
import { gameSeed } from './match.ts';
import { Random } from '../util/random.ts';
import { badInput } from '../util/errors.ts';
import { endsWithTermination, splitPgnGames } from '../game/pgnFile.ts';

export interface CollectionOptions {
  /** The player being collected (its canonical spec is the PGN name). */
  player: string;
  /** Partners, used in turn: game i is against partners[i % partners.length]. */
  partners: readonly string[];
  games: number;
  seed: number;
  /** Random plies before the game starts: between min and max (inclusive). */
  openingPlies?: { min: number; max: number };
  maxPlies?: number;
  /** Called with each finished game's PGN and 0-based index. */
  onGame?: (pgn: string, index: number) => void;
  /** Engine failures in a row before giving up. */
  maxFailures?: number;
  /** The 0-based index of the first game to play: games before it were recorded by an earlier run (resume). */
  firstGame?: number;
}

export const DEFAULT_OPENING_PLIES = { min: 4, max: 8 } as const;

/** A varied opening: a random number of random legal plies from the initial position, not ending the game. */
export function randomOpening(rng: Random, plies: { min: number; max: number } = DEFAULT_OPENING_PLIES): string {
  for (;;) {
    const board = boardFromFen(START_FEN);
    // A fixed length draws nothing for it, so callers with fixed-length openings keep their random sequence.
    const count = plies.min === plies.max ? plies.min : plies.min + rng.int(plies.max - plies.min + 1);
    let ok = true;
    for (let i = 0; i < count; i++) {
      const moves = generateLegalMoves(board);
      if (moves.length === 0) {
        ok = false;
        break;
      }
      applyMove(board, rng.pick(moves));
    }
    const fen = boardToFen(board);
    if (ok && new GameHistory(fen).verdict() === null) return fen;
  }
}

/** Plays the collection; returns the PGN texts in order. The player's name in them is `playerName(spec)`. */
export async function playCollection(options: CollectionOptions): Promise<string[]> {
  if (options.partners.length === 0) throw badInput('give at least one partner');
  const player = new Contestant(options.player);
  const partners = options.partners.map((spec) => new Contestant(spec));
  const maxFailures = options.maxFailures ?? 5;
  const pgns: string[] = [];
  try {
    let failures = 0;
    for (let index = options.firstGame ?? 0; index < options.games; ) {
      const partner = partners[index % partners.length];
      const rng = new Random(gameSeed(options.seed, index, 2));
      const startFen = randomOpening(rng, options.openingPlies);
      const playerIsWhite = index % 2 === 0;
      const me = await player.playerForGame(gameSeed(options.seed, index, 0, failures));
      const other = await partner.playerForGame(gameSeed(options.seed, index, 1, failures));
      try {
        const [white, black] = playerIsWhite ? [me, other] : [other, me];
        const game = await playGame({ white, black, startFen, maxPlies: options.maxPlies ?? 300 });
        if (game === null) break;
        const pgn = gamePgn(game, {
          event: 'Morph opponent collection',
          white: white === me ? player.name : partner.name,
          black: black === me ? player.name : partner.name,
          round: index + 1,
          extra: { Seed: String(options.seed) },
        });
        pgns.push(pgn);
        options.onGame?.(pgn, index);
        failures = 0;
        index++;
      } catch (error) {
        if (!(error instanceof EngineError)) throw error;
        await player.discardEngine();
        await partner.discardEngine();
        if (++failures >= maxFailures) throw error;
      } finally {
        await player.endGame(me);
        await partner.endGame(other);
      }
    }
  } finally {
    await player.close();
    for (const partner of partners) await partner.close();
  }
  return pgns;
}

/** Whether game `index` of a collection goes to the held-out set: every `every`-th game (split by game). */
export function isHeldOut(index: number, every: number): boolean {
  return every > 0 && index % every === every - 1;
}

/** Where an interrupted collection resumes: its complete games, split as they were, and the next game's index. */
export interface CollectionResume {
  /** The training file's games, rounds 1..next in order, each followed by a blank line. */
  train: string;
  /** The held-out file's games, likewise. */
  heldOut: string;
  /** The 0-based index of the first game still to play: every game before it is recorded. */
  next: number;
}

/**
 * Reads what an earlier run of the same collection (player, seed, held-out split) wrote: the games are appended
 * one at a time in round order, so a run killed midway leaves rounds 1..n complete and perhaps a last game cut
 * short. Keeps the complete games up to the first missing round, and says where to go on. Games of another
 * player or seed are an error (the files belong to another collection).
 */
export function resumeCollection(
  trainText: string,
  heldOutText: string,
  collection: { player: string; seed: number; every: number },
): CollectionResume | Error {
  const byRound = new Map<number, string>();
  for (const [file, text] of [['training', trainText], ['held-out', heldOutText]] as const) {
    for (const game of splitPgnGames(text)) {
      const body = game.text.trim();
      if (!endsWithTermination(body)) continue; // a last game cut short by the interruption
      const tag = (name: string) => new RegExp(`^\\[${name} "([^"]*)"\\]`, 'm').exec(body)?.[1];
      const round = Number(tag('Round'));
      if (tag('White') !== collection.player && tag('Black') !== collection.player) {
        return new Error(`the ${file} file holds a game without ${collection.player} (round ${tag('Round') ?? '?'}): another collection's`);
      }
      if (tag('Seed') !== String(collection.seed)) {
        return new Error(`the ${file} file holds a game of seed ${tag('Seed') ?? '?'}, not ${collection.seed}: another collection's`);
      }
      if (!Number.isInteger(round) || round < 1 || isHeldOut(round - 1, collection.every) !== (file === 'held-out')) {
        return new Error(`the ${file} file holds round ${tag('Round') ?? '?'}, which the held-out split does not put there`);
      }
      byRound.set(round, body);
    }
  }
  let next = 0;
  while (byRound.has(next + 1)) next++;
  let train = '';
  let heldOut = '';
  for (let index = 0; index < next; index++) {
    const text = byRound.get(index + 1) + '\n\n';
    if (isHeldOut(index, collection.every)) heldOut += text;
    else train += text;
  }
  return { train, heldOut, next };
}
