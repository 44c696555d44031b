/**
 * The learning check (issue 5), the part that runs in CI: after 150 games against Stockfish with the default
 * settings, the material patterns must say what chess players know. Asserted here: every "up one piece"
 * pattern above .5 and every "down one piece" pattern below it; the pawn the least valuable of the advantages
 * and the least harmful of the deficits (against the piece deficits pooled). The full textbook order (queen > rook > both minors > pawn) needs
 * more games than CI can afford, because hardly any game is ever exactly a rook up: it is checked on a fresh
 * 3000-game database by `npm run bench -- --quick --learning` and training/recipes/learning-check.sh
 * (src/inspect/materialOrder.ts).
 *
 * The opponent is Stockfish at full skill and depth 1: below skill 20 Stockfish randomises its moves with a
 * time-seeded generator, so a run could not be repeated and the check would be flaky.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTraining } from '../src/train/harness.ts';
import { ONE_PIECE_ORDER, materialOrderReport } from '../src/inspect/materialOrder.ts';
import { openMorphDatabase } from '../src/store/database.ts';

const PIECES = ONE_PIECE_ORDER;

describe('learning from games against the embedded Stockfish (deterministic: skill 20, depth 1)', () => {
  // Two seeds, so that a pass is not one lucky run.
  it.each([2, 3])('values material the way chess players do after 150 games (seed %i)', { timeout: 600_000 }, async (seed) => {
    const dir = mkdtempSync(join(tmpdir(), 'morph-learning-check-'));
    try {
      const db = join(dir, 'check.db');
      const summary = await runTraining({
        db, games: 150, opponent: 'stockfish:skill=20,depth=1', seed, maxPlies: 300, progress: 'none', maxFailures: 3,
        // The relation terms' lessons (4 searches a game, default) change neither the games nor the material
        // patterns this checks, and were three quarters of its time (137 s of the suite's 360, 2026-12-05).
        config: { relationLessons: 0 },
      });
      expect(summary.games).toBe(150);
      const database = openMorphDatabase(db, { readonly: true });
      const report = materialOrderReport(database);
      database.close();
      const learned = (side: 'up' | 'down', piece: (typeof PIECES)[number]) => {
        const pattern = report.pieces.find((p) => p.piece === piece)![side];
        expect(pattern, `material pattern ${side} a ${piece} was never seen`).toBeDefined();
        expect(pattern!.updates).toBeGreaterThan(5);
        return pattern!;
      };
      const weight = (side: 'up' | 'down', piece: (typeof PIECES)[number]) => learned(side, piece).weight;
      const up = Object.fromEntries(PIECES.map((p) => [p, weight('up', p)]));
      const down = Object.fromEntries(PIECES.map((p) => [p, weight('down', p)]));
      console.log('learned material weights', { up, down });
      for (const piece of PIECES) {
        expect(up[piece], `up a ${piece}`).toBeGreaterThan(0.5);
        expect(down[piece], `down a ${piece}`).toBeLessThan(0.5);
      }
      for (const piece of ['N', 'B', 'R', 'Q'] as const) {
        expect(up.P, `up a pawn < up a ${piece}`).toBeLessThan(up[piece]);
      }
      // The pawn deficit against the piece deficits pooled (their mean result over all their updates), not one by
      // one: against this opponent Morph loses nearly every game, so every deficit learns a weight near 0, and
      // each single piece deficit is rare (10-40 positions in 150 games), so one drawn game lifts it to or above
      // the pawn's by chance. Seen with the safety language (seed 3: down a bishop .059, one draw in 17; down a
      // pawn .029). The 3000-game check in the benchmark orders every deficit one by one.
      const pieceDeficits = (['N', 'B', 'R', 'Q'] as const).map((piece) => learned('down', piece));
      const pooled = pieceDeficits.reduce((sum, p) => sum + p.weight * p.updates, 0) / pieceDeficits.reduce((sum, p) => sum + p.updates, 0);
      expect(down.P, 'down a pawn > down a piece (N, B, R, Q pooled)').toBeGreaterThan(pooled);
      expect(up.Q, 'up a queen > up a pawn by a clear margin').toBeGreaterThan(up.P + 0.15);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
