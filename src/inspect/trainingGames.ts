/**
 * The training games a database recorded (one games row per game learned from, with its PGN), read with
 * filters: by run, by opponent and by Morph's result. Used by `morph games` and by the report's game list.
 */
import type { MorphDatabase } from '../store/database.ts';
import { badInput } from '../util/errors.ts';

/** Morph's result (win, draw, loss) or the game's result as PGN writes it. */
export const RESULT_FILTERS = ['win', 'draw', 'loss', '1-0', '0-1', '1/2-1/2'] as const;
export type ResultFilter = (typeof RESULT_FILTERS)[number];

export interface GameFilter {
  /** Games of this run only (runs.id, as `morph inspect` and the report number them). */
  run?: number;
  /** Games against an opponent whose spec contains this text, e.g. "stockfish" or "skill=0". */
  opponent?: string;
  result?: ResultFilter;
  /** Only the last N of the games that pass the other filters. */
  last?: number;
}

export interface TrainingGame {
  /** games.id: the game's number in the database, in the order it was learned from. */
  id: number;
  runId: number | null;
  startedAt: string | null;
  finishedAt: string | null;
  morphColor: 'w' | 'b';
  opponent: string;
  result: '1-0' | '0-1' | '1/2-1/2';
  /** 1 win, .5 draw, 0 loss, from Morph's side. */
  morphScore: number;
  /** How the game ended: checkmate, stalemate, insufficient, threefold, fifty-move, ply-limit. */
  reason: string;
  plies: number;
  finalMaterial: number | null;
  seconds: number | null;
  seed: number | null;
  pgn: string | null;
}

export function parseResultFilter(text: string): ResultFilter {
  if (!(RESULT_FILTERS as readonly string[]).includes(text)) {
    throw badInput(`--result must be one of ${RESULT_FILTERS.join(', ')}, got "${text}"`);
  }
  return text as ResultFilter;
}

const RESULT_CONDITION: Record<ResultFilter, string> = {
  win: 'morph_score = 1',
  draw: 'morph_score = 0.5',
  loss: 'morph_score = 0',
  '1-0': "result = '1-0'",
  '0-1': "result = '0-1'",
  '1/2-1/2': "result = '1/2-1/2'",
};

interface GameRowSql {
  id: number;
  run_id: number | null;
  started_at: string | null;
  finished_at: string | null;
  morph_color: 'w' | 'b';
  opponent: string | null;
  result: '1-0' | '0-1' | '1/2-1/2';
  morph_score: number | null;
  reason: string | null;
  plies: number | null;
  final_material: number | null;
  seconds: number | null;
  seed: number | null;
  pgn: string | null;
}

/** The games that pass the filter, oldest first. */
export function readTrainingGames(db: MorphDatabase, filter: GameFilter = {}): TrainingGame[] {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (filter.run !== undefined) {
    conditions.push('run_id = ?');
    params.push(filter.run);
  }
  if (filter.opponent !== undefined) {
    conditions.push('instr(opponent, ?) > 0');
    params.push(filter.opponent);
  }
  if (filter.result) conditions.push(RESULT_CONDITION[filter.result]);
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  // The last N, read newest first with a LIMIT and put back in order, so a long history is not read whole.
  const rows = db
    .prepare(`SELECT * FROM games ${where} ORDER BY id DESC LIMIT ?`)
    .all(...params, filter.last ?? -1) as GameRowSql[];
  return rows.reverse().map((row) => ({
    id: row.id,
    runId: row.run_id,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    morphColor: row.morph_color,
    opponent: row.opponent ?? '?',
    result: row.result,
    morphScore: row.morph_score ?? 0.5,
    reason: row.reason ?? '?',
    plies: row.plies ?? 0,
    finalMaterial: row.final_material,
    seconds: row.seconds,
    seed: row.seed,
    pgn: row.pgn,
  }));
}

const SCORE_WORD: Record<number, string> = { 1: 'win', 0.5: 'draw', 0: 'loss' };

/** One line per game, for a terminal. */
export function gameListText(games: readonly TrainingGame[]): string {
  const lines = ['   game  run  date        Morph  opponent                        result   Morph  ending       plies  material'];
  for (const g of games) {
    const material = g.finalMaterial === null ? '-' : (g.finalMaterial > 0 ? '+' : '') + g.finalMaterial;
    lines.push(
      `${String(g.id).padStart(7)}  ${String(g.runId ?? '-').padStart(3)}  ${(g.startedAt ?? '').slice(0, 10).padEnd(10)}  ` +
        `${g.morphColor === 'w' ? 'white' : 'black'}  ${g.opponent.padEnd(30)}  ${g.result.padEnd(7)}  ${SCORE_WORD[g.morphScore].padEnd(5)}  ` +
        `${g.reason.padEnd(11)}  ${String(g.plies).padStart(5)}  ${material.padStart(8)}`,
    );
  }
  return lines.join('\n');
}
