/**
 * Labelled positions for agreement and move-quality tests, one a line, in either of two forms:
 * - JSON: `{"fen": "...", "best": "e2e4", "scores": {"e2e4": 31, ...}}`. "best" is a reference engine's move
 *   (UCI); "scores", optional, gives every legal move's centipawn score for the side to move (with it, "best"
 *   may be left out: the top-scored move is best).
 * - EPD: the four FEN fields (or all six), then operations such as `bm Nf3; id "x";`. The first `bm` move
 *   (SAN, or UCI) is the best move.
 * A line that is neither, has a bad FEN, a position with no legal move, a best move that is not legal there or
 * scores that miss a legal move is a problem reported by its line number.
 */
import { Chess } from 'chess.js';
import { boardFromFen, uciMove } from '../chess/board.ts';
import { checkFen } from '../chess/fen.ts';
import { generateLegalMoves } from '../chess/movegen.ts';

export interface LabelledPosition {
  /** 1-based line number in the input. */
  line: number;
  fen: string;
  /** The reference move; '' only when parsed with requireBest false and none was given. */
  best: string;
  /** Centipawn score of every legal move for the side to move, when the set carries them. */
  scores?: ReadonlyMap<string, number>;
}

export interface PositionProblem {
  line: number;
  message: string;
}

export interface NumberedLine {
  number: number;
  text: string;
}

export interface ParseOptions {
  /** False: a position without a best move is kept (for labelling it). Default true. */
  requireBest?: boolean;
}

const JSON_FORM = '{"fen":"…","best":"e2e4"}';

/** One line as a labelled position; throws an Error with a one-line message when it is not one. */
export function parseLabelledPosition(line: NumberedLine, options: ParseOptions = {}): LabelledPosition {
  const raw: RawPosition = line.text.trimStart().startsWith('{') ? fromJson(line.text) : fromEpd(line.text);
  const fen = checkFen(raw.fen);
  const legal = generateLegalMoves(boardFromFen(fen)).map(uciMove);
  if (legal.length === 0) throw new Error('the position has no legal move (the game is over)');
  let scores: Map<string, number> | undefined;
  if (raw.scores !== undefined) {
    scores = new Map();
    for (const move of legal) {
      const score = raw.scores[move];
      if (typeof score !== 'number' || !Number.isFinite(score)) throw new Error(`"scores" has no number for the legal move ${move}`);
      scores.set(move, score);
    }
  }
  let best = raw.best === undefined ? '' : raw.best.trim();
  if (best !== '' && !legal.includes(best.toLowerCase())) best = sanToUci(fen, best) ?? best;
  best = best.toLowerCase();
  if (best === '' && scores) best = legal.reduce((a, b) => (scores!.get(b)! > scores!.get(a)! ? b : a));
  if (best === '' && options.requireBest !== false) throw new Error('no best move ("best" or EPD "bm")');
  if (best !== '' && !legal.includes(best)) throw new Error(`best move "${raw.best}" is not legal in ${fen}`);
  return { line: line.number, fen, best, ...(scores ? { scores } : {}) };
}

interface RawPosition {
  fen: string;
  best?: string;
  scores?: Record<string, unknown>;
}

function fromJson(text: string): RawPosition {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`not JSON (expected ${JSON_FORM}) nor EPD`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`expected an object ${JSON_FORM}`);
  const { fen, best, scores } = value as { fen?: unknown; best?: unknown; scores?: unknown };
  if (typeof fen !== 'string') throw new Error('"fen" is missing or not a string');
  if (best !== undefined && typeof best !== 'string') throw new Error('"best" is not a string');
  if (scores !== undefined && (typeof scores !== 'object' || scores === null || Array.isArray(scores))) {
    throw new Error('"scores" is not an object of move: centipawns');
  }
  return { fen, best: best as string | undefined, scores: scores as Record<string, unknown> | undefined };
}

/** EPD: four FEN fields, optionally the two counters, then `opcode operands;` operations. */
function fromEpd(text: string): RawPosition {
  const fields = text.trim().split(/\s+/);
  if (fields.length < 4) throw new Error(`not JSON (expected ${JSON_FORM}) nor EPD (four FEN fields, then operations)`);
  const counters = /^\d+$/.test(fields[4] ?? '') && /^\d+$/.test(fields[5] ?? '');
  const fen = [...fields.slice(0, 4), ...(counters ? fields.slice(4, 6) : ['0', '1'])].join(' ');
  const operations = text.trim().split(/\s+/).slice(counters ? 6 : 4).join(' ');
  const bm = /(?:^|;)\s*bm\s+([^;]+)/.exec(operations);
  return { fen, best: bm ? bm[1].trim().split(/\s+/)[0] : undefined };
}

/** A SAN move as UCI through chess.js (the rules authority at the edges), or undefined when it is not legal. */
function sanToUci(fen: string, san: string): string | undefined {
  try {
    const move = new Chess(fen).move(san);
    return move.from + move.to + (move.promotion ?? '');
  } catch {
    return undefined;
  }
}

/** Every line parsed; the bad ones come back as problems, in input order. */
export function parseLabelledPositions(
  lines: readonly NumberedLine[],
  options: ParseOptions = {},
): {
  positions: LabelledPosition[];
  problems: PositionProblem[];
} {
  const positions: LabelledPosition[] = [];
  const problems: PositionProblem[] = [];
  for (const line of lines) {
    try {
      positions.push(parseLabelledPosition(line, options));
    } catch (error) {
      problems.push({ line: line.number, message: (error as Error).message });
    }
  }
  return { positions, problems };
}
