/**
 * The material patterns as the paper's Table 1: piece-count differences, learned weight, updates, variance, age,
 * and the traditional value beside them (P1 N3 B3 R5 Q9). A weight of .5 corresponds to a traditional value of 0.
 */
import type { MorphDatabase } from '../store/database.ts';
import { MATERIAL_PIECES, patternFromJson } from '../pattern/pattern.ts';
import { MorphError } from '../util/errors.ts';
import { fitPieceValues, type PieceValues } from '../eval/materialFit.ts';

export type MaterialPiece = (typeof MATERIAL_PIECES)[number];
export type MaterialDiff = Record<MaterialPiece, number>;

export const TRADITIONAL_VALUES: Readonly<MaterialDiff> = { P: 1, N: 3, B: 3, R: 5, Q: 9 };

export interface MaterialRow {
  /** The side that just moved minus the side to move (the normal form): "up a knight" is N: 1. */
  diff: MaterialDiff;
  weight: number;
  updates: number;
  /** Sum of absolute weight changes. */
  variance: number;
  /** Games the pattern has been in the database. */
  age: number;
  /** The traditional value of the difference, in pawns. */
  value: number;
  id: number;
}

export function traditionalValue(diff: MaterialDiff): number {
  return MATERIAL_PIECES.reduce((sum, piece) => sum + diff[piece] * TRADITIONAL_VALUES[piece], 0);
}

/** Every material pattern, most updated first (as the paper's table roughly is), ties by traditional value. */
export function readMaterialTable(db: MorphDatabase): MaterialRow[] {
  const rows = db
    .prepare(`SELECT id, body, weight, updates, variance, age FROM pattern_stats WHERE kind = 'material'`)
    .all() as { id: number; body: string; weight: number; updates: number; variance: number; age: number }[];
  const table = rows.map((row): MaterialRow => {
    let pattern;
    try {
      pattern = patternFromJson(row.body);
    } catch (error) {
      throw new MorphError(`pattern ${row.id} is unreadable: ${(error as Error).message}`, 2);
    }
    if (pattern.kind !== 'material') throw new MorphError(`pattern ${row.id} is stored as material but is not`, 2);
    const diff = Object.fromEntries(MATERIAL_PIECES.map((piece, i) => [piece, pattern.diff[i]])) as MaterialDiff;
    return { diff, weight: row.weight, updates: row.updates, variance: row.variance, age: row.age, value: traditionalValue(diff), id: row.id };
  });
  return table.sort((a, b) => b.updates - a.updates || b.value - a.value || a.id - b.id);
}

const signedInt = (n: number): string => (n > 0 ? `+${n}` : String(n));

/** The piece values fitted to every material pattern of the table (eval/materialFit.ts). */
export function tablePieceValues(rows: readonly MaterialRow[]): PieceValues {
  return fitPieceValues(rows.map((row) => ({ diff: MATERIAL_PIECES.map((piece) => row.diff[piece]), weight: row.weight, updates: row.updates })));
}

/**
 * The fitted piece values in log-odds, and in pawns beside the traditional ones (meaningless while the pawn's
 * fitted value is not above 0).
 */
export function pieceValuesText(values: PieceValues): string {
  const logOdds = MATERIAL_PIECES.map((piece, i) => `${piece} ${values[i].toFixed(2)}`).join(', ');
  const line = `Learned piece values (the weights fitted as a sum of one value per piece, in log-odds): ${logOdds}`;
  if (!(values[0] > 0.01)) return `${line}.`;
  const pawns = MATERIAL_PIECES.map((piece, i) => `${piece} ${(values[i] / values[0]).toFixed(1)}`).join(', ');
  return `${line};
in pawns: ${pawns} (traditionally ${MATERIAL_PIECES.map((piece) => `${piece} ${TRADITIONAL_VALUES[piece]}`).join(', ')}).`;
}

export function materialTableText(rows: readonly MaterialRow[], total = rows.length): string {
  const header = '     P    N    B    R    Q   weight  updates  variance    age  value';
  const lines = [
    `Material patterns: ${total}${rows.length < total ? ` (showing ${rows.length})` : ''}.`,
    'P N B R Q: piece-count differences, the side that just moved minus the side to move (the normal form);',
    'weight: the expected outcome for the side that just moved (.5 is even, like a value of 0).',
    header,
  ];
  for (const row of rows) {
    const pieces = MATERIAL_PIECES.map((piece) => signedInt(row.diff[piece]).padStart(5)).join('');
    lines.push(
      `${pieces}  ${row.weight.toFixed(3).padStart(7)}  ${String(row.updates).padStart(7)}  ${row.variance.toFixed(2).padStart(8)}` +
        `  ${String(row.age).padStart(5)}  ${signedInt(row.value).padStart(5)}`,
    );
  }
  if (rows.length === 0) lines.push('  (none yet: material patterns appear as positions are learned from)');
  return lines.join('\n');
}

/** The JSON form the issue specifies: diff, weight, updates, variance, age (then value and id). */
export function materialRowJson(row: MaterialRow): Record<string, unknown> {
  return { diff: row.diff, weight: row.weight, updates: row.updates, variance: row.variance, age: row.age, value: row.value, id: row.id };
}
