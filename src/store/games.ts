/** The games table: one row per finished game, with its result, length, seed and PGN. */
import type { MorphDatabase } from './database.ts';
import { stmt } from './statements.ts';

/** A side as FEN and the games table spell it (chess/board.ts's Color is the compact board's number). */
export type SideLetter = 'w' | 'b';
export type GameResult = '1-0' | '0-1' | '1/2-1/2';

export interface GameRecord {
  runId?: number | null;
  startedAt?: string | null;
  finishedAt?: string | null;
  morphColor: SideLetter;
  opponent: string;
  result: GameResult;
  /** checkmate, stalemate, insufficient, threefold, fifty-move, ply-limit, ... */
  reason: string;
  plies: number;
  /** Material balance in pawn units from Morph's side (P1 N3 B3 R5 Q9). */
  finalMaterial?: number | null;
  /** Pattern count after learning from the game. */
  patterns?: number | null;
  seconds?: number | null;
  seed?: number | null;
  pgn?: string | null;
  /** Games learned in the weights Morph played this game with (game number - 1 on the live database). */
  snapshot?: number | null;
}

/** Morph's score for a result: 1 win, 0.5 draw, 0 loss. */
export function morphScore(result: GameResult, morphColor: SideLetter): number {
  if (result === '1/2-1/2') return 0.5;
  return (result === '1-0') === (morphColor === 'w') ? 1 : 0;
}

/**
 * Inserts a games row (morph_score is derived from result and colour so the two cannot disagree) and, when the game
 * belongs to a run, counts it in runs.games. Returns the game's id.
 */
export function recordGame(db: MorphDatabase, game: GameRecord): number {
  return db.transaction(() => {
    const info = stmt(
      db,
      `INSERT INTO games (run_id, started_at, finished_at, morph_color, opponent, result, morph_score, reason, plies,
                          final_material, patterns, seconds, seed, pgn, snapshot)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      game.runId ?? null,
      game.startedAt ?? null,
      game.finishedAt ?? new Date().toISOString(),
      game.morphColor,
      game.opponent,
      game.result,
      morphScore(game.result, game.morphColor),
      game.reason,
      game.plies,
      game.finalMaterial ?? null,
      game.patterns ?? null,
      game.seconds ?? null,
      game.seed ?? null,
      game.pgn ?? null,
      game.snapshot ?? null,
    );
    if (game.runId != null) stmt(db, 'UPDATE runs SET games = games + 1 WHERE id = ?').run(game.runId);
    return Number(info.lastInsertRowid);
  })();
}
