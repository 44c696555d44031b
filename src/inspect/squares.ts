/**
 * `morph inspect squares`: the square values a Morph database plays with (its policy's, fitted to its partner's
 * choices, src/model/choiceEvaluation.ts), one board per piece type as its own side sees it, in hundredths of the
 * pawn value learned beside them (centipawns, as an engine's piece-square tables are written). Tapered values
 * (squareValues.ts) show the middlegame tables, then the endgame ones.
 */
import { squareIndex, squareName } from '../chess/board.ts';
import { isTapered, SQUARE_VALUES, squareValueIndex, type LearnedSquares } from '../eval/squareValues.ts';
import { policyModelFor } from '../model/ownPolicy.ts';
import { OpponentModel } from '../model/opponentModel.ts';
import type { ChoiceSquaresFit } from '../model/choiceEvaluation.ts';
import { badInput } from '../util/errors.ts';

const PIECES = ['P', 'N', 'B', 'R', 'Q', 'K'] as const;

export interface SquareTables {
  /** The policy model they come from. */
  policy: string;
  /** P N B R Q in the model's units, learned beside the square values. */
  pieceValues: number[];
  /**
   * Per piece type, by square name (a1..h8, as White sees the board; Black's mirrored), in centipawns: with all
   * the officers on the board when tapered, in every phase otherwise.
   */
  tables: PieceTables;
  /** Tapered: the same with no officers left; a piece counts the two by the share of officers still on the board. */
  endgameTables?: PieceTables;
  /** The partner decisions they were fitted on, of those offered, over how many policy builds (when recorded). */
  fittedOn?: { decisions: number; of: number; builds: number };
}

type PieceTables = Record<(typeof PIECES)[number], Record<string, number>>;

/** The square values of the player over `dbPath` (its own policy, or `policy`), or a one-line error when there are none. */
export function readSquareTables(dbPath: string, policy?: string): SquareTables {
  const path = policyModelFor(dbPath, policy);
  if (path === undefined) throw badInput(`${dbPath} has no move policy, so no square values (a new database trains without one: morph train --policy keeps one, morph model --from-db ${dbPath} builds one)`);
  const model = OpponentModel.open(path);
  let squares: (LearnedSquares & Partial<ChoiceSquaresFit>) | null;
  try {
    squares = model.choiceSquares;
  } finally {
    model.close();
  }
  if (squares === null) throw badInput(`${path} has no square values (rebuild it: morph model --from-db ${dbPath})`);
  const pawn = squares.values[0];
  const table = (offset: number) =>
    Object.fromEntries(
      PIECES.map((piece, type) => [
        piece,
        Object.fromEntries(
          Array.from({ length: 64 }, (_, sq) => [squareName(sq), Math.round((100 * squares.squareValues[offset + squareValueIndex(type + 1, sq)]) / pawn)]),
        ),
      ]),
    ) as PieceTables;
  return {
    policy: path,
    pieceValues: squares.values,
    tables: table(0),
    ...(isTapered(squares.squareValues) ? { endgameTables: table(SQUARE_VALUES) } : {}),
    ...(typeof squares.decisions === 'number' && typeof squares.of === 'number'
      ? { fittedOn: { decisions: squares.decisions, of: squares.of, builds: squares.fits ?? 1 } }
      : {}),
  };
}

export function squareTablesText(s: SquareTables): string {
  const pawn = s.pieceValues[0];
  const lines = [
    `Square values from ${s.policy}: what the choices it was fitted to say each piece is worth on each square,`,
    `in centipawns of the pawn learned beside them (piece values in pawns: ${PIECES.slice(0, 5)
      .map((piece, i) => `${piece} ${(s.pieceValues[i] / pawn).toFixed(2)}`)
      .join(', ')}). As White sees the board; Black's are the same, mirrored.`,
    ...(s.fittedOn
      ? [`Fitted on ${s.fittedOn.decisions} of ${s.fittedOn.of} partner decisions${s.fittedOn.builds > 1 ? `, added up over ${s.fittedOn.builds} policy builds` : ''}.`]
      : []),
  ];
  const phases: [string, PieceTables][] = s.endgameTables
    ? [[' with every officer on the board', s.tables], [' with no officers left (in between, blended by their share)', s.endgameTables]]
    : [['', s.tables]];
  for (const [phase, tables] of phases) {
    for (const piece of PIECES) {
      lines.push('', `${piece}${phase}`);
      for (let rank = 7; rank >= 0; rank--) {
        const row = Array.from({ length: 8 }, (_, file) => String(tables[piece][squareName(squareIndex(file, rank))]).padStart(5));
        lines.push(`${rank + 1} ${row.join('')}`);
      }
      lines.push(`  ${'abcdefgh'.split('').map((f) => f.padStart(5)).join('')}`);
    }
  }
  return lines.join('\n');
}
