/** Morph's results split by its colour and by how the games ended, per opponent and overall. */
import type { MorphDatabase } from '../store/database.ts';

export interface OutcomeCounts {
  wins: number;
  draws: number;
  losses: number;
}

export interface OutcomeTable {
  /** "all opponents" first, then each opponent by its first game. */
  opponent: string;
  byColor: { white: OutcomeCounts; black: OutcomeCounts };
  /** Ending (checkmate, stalemate, ply-limit, ...) -> Morph's results in games that ended so. */
  byEnding: Record<string, OutcomeCounts>;
}

export const ALL_OPPONENTS = 'all opponents';

const empty = (): OutcomeCounts => ({ wins: 0, draws: 0, losses: 0 });

function count(target: OutcomeCounts, score: number): void {
  if (score === 1) target.wins++;
  else if (score === 0) target.losses++;
  else target.draws++;
}

export function readOutcomes(db: MorphDatabase): OutcomeTable[] {
  const rows = db.prepare('SELECT opponent, morph_color, morph_score, reason FROM games ORDER BY id').raw().all() as [
    string | null, 'w' | 'b', number | null, string | null,
  ][];
  const tables = new Map<string, OutcomeTable>();
  const tableFor = (opponent: string) => {
    if (!tables.has(opponent)) tables.set(opponent, { opponent, byColor: { white: empty(), black: empty() }, byEnding: {} });
    return tables.get(opponent)!;
  };
  if (rows.length) tableFor(ALL_OPPONENTS);
  for (const [opponent, color, score, reason] of rows) {
    for (const table of [tableFor(ALL_OPPONENTS), tableFor(opponent ?? '?')]) {
      count(table.byColor[color === 'w' ? 'white' : 'black'], score ?? 0.5);
      count((table.byEnding[reason ?? '?'] ??= empty()), score ?? 0.5);
    }
  }
  // With one opponent the overall table says the same again.
  return tables.size === 2 ? [...tables.values()].slice(1) : [...tables.values()];
}
