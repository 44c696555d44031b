/** The positions each pattern matched recently (table pattern_positions), shown by `morph inspect pattern`. */
import type { MorphDatabase } from './database.ts';
import { stmt } from './statements.ts';

/** Records a position a pattern matched, keeping only its `keep` most recent ones. */
export function addPatternPosition(db: MorphDatabase, patternId: number, gameId: number, fen: string, keep = 5): void {
  db.transaction(() => {
    stmt(db, 'INSERT INTO pattern_positions (pattern_id, game_id, fen) VALUES (?, ?, ?)').run(patternId, gameId, fen);
    stmt(
      db,
      `DELETE FROM pattern_positions WHERE pattern_id = ? AND rowid NOT IN
         (SELECT rowid FROM pattern_positions WHERE pattern_id = ? ORDER BY rowid DESC LIMIT ?)`,
    ).run(patternId, patternId, keep);
  })();
}

/** A pattern's recorded positions, newest first. */
export function getPatternPositions(db: MorphDatabase, patternId: number): { gameId: number; fen: string }[] {
  return (
    stmt(db, 'SELECT game_id, fen FROM pattern_positions WHERE pattern_id = ? ORDER BY rowid DESC')
      .raw()
      .all(patternId) as [number, string][]
  ).map(([gameId, fen]) => ({ gameId, fen }));
}
