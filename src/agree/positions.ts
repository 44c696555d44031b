/**
 * Labelled positions for move-agreement tests: one JSON object per line, `{"fen": "...", "best": "e2e4"}`, the
 * best move (UCI) as a reference engine chose it. A line that is not such an object, has a bad FEN, a position
 * with no legal move, or a best move that is not legal there is a problem reported by its line number.
 */
import { boardFromFen, uciMove } from '../chess/board.ts';
import { checkFen } from '../chess/fen.ts';
import { generateLegalMoves } from '../chess/movegen.ts';

export interface LabelledPosition {
  /** 1-based line number in the input. */
  line: number;
  fen: string;
  best: string;
}

export interface PositionProblem {
  line: number;
  message: string;
}

export interface NumberedLine {
  number: number;
  text: string;
}

/** One line as a labelled position; throws an Error with a one-line message when it is not one. */
export function parseLabelledPosition(line: NumberedLine): LabelledPosition {
  let value: unknown;
  try {
    value = JSON.parse(line.text);
  } catch {
    throw new Error('not JSON (expected {"fen":"…","best":"e2e4"})');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('expected an object {"fen":"…","best":"e2e4"}');
  }
  const { fen, best } = value as { fen?: unknown; best?: unknown };
  if (typeof fen !== 'string') throw new Error('"fen" is missing or not a string');
  if (typeof best !== 'string') throw new Error('"best" is missing or not a string');
  const checked = checkFen(fen);
  const legal = generateLegalMoves(boardFromFen(checked)).map(uciMove);
  if (legal.length === 0) throw new Error('the position has no legal move (the game is over)');
  const move = best.trim().toLowerCase();
  if (!legal.includes(move)) throw new Error(`best move "${best}" is not legal in ${checked}`);
  return { line: line.number, fen: checked, best: move };
}

/** Every line parsed; the bad ones come back as problems, in input order. */
export function parseLabelledPositions(lines: readonly NumberedLine[]): {
  positions: LabelledPosition[];
  problems: PositionProblem[];
} {
  const positions: LabelledPosition[] = [];
  const problems: PositionProblem[] = [];
  for (const line of lines) {
    try {
      positions.push(parseLabelledPosition(line));
    } catch (error) {
      problems.push({ line: line.number, message: (error as Error).message });
    }
  }
  return { positions, problems };
}
