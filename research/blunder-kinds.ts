/**
 * What kind of blunders a ranker makes (issue 12, "tactics at one ply"; measurement only): on positions scored
 * move by move, every chosen move losing at least 30 win-chance points (ties: each tied top move weighs its
 * share) is classed as
 *   - "leaves a piece en prise": after it the opponent can capture one of the mover's pieces that is either
 *     undefended or worth more than the capturing piece (P1 N3 B3 R5 Q9);
 *   - "misses a capture": the position offered such a capture to the mover and the move does not make one;
 *   - other.
 * For comparison it also gives how often the ranker's other (non-blunder) chosen moves leave a piece en prise.
 *
 *   node bin/run-ts.js research/blunder-kinds.ts --positions positions/move-scores.jsonl --db FILE [--search MODE]
 *   node bin/run-ts.js research/blunder-kinds.ts --positions positions/move-scores.jsonl --ranker SPEC
 */
import { Command } from 'commander';
import { applyMove, boardFromFen, cloneBoard, uciMove, WHITE, type Board, type CompactMove } from '../src/chess/board.ts';
import { generateLegalMoves, isSquareAttacked } from '../src/chess/movegen.ts';
import { readInputLines } from '../src/util/inputLines.ts';
import { parseLabelledPositions } from '../src/agree/positions.ts';
import { createRanker, morphRanker } from '../src/agree/rankers.ts';
import { TIE_TOLERANCE } from '../src/agree/metrics.ts';
import { BLUNDER, winChanceLoss } from '../src/agree/winChance.ts';
import { PIECE_VALUE } from '../src/chess/pieceValues.ts';
import type { EvaluationFunction } from '../src/eval/evaluation.ts';
import type { SearchSpec } from '../src/search/extensions.ts';

const opts = new Command()
  .requiredOption('--positions <file>')
  .option('--db <file>')
  .option('--ranker <spec>')
  .option('--evaluation <fn>')
  .option('--maturity <n>')
  .option('--search <mode>')
  .parse()
  .opts();

const valueAt = (board: Board, square: number) => PIECE_VALUE[Math.abs(board.squares[square])];

/** A capture for the side to move that wins material outright: the target undefended or worth more than the capturer. */
function winningCaptures(board: Board): CompactMove[] {
  const white = board.turn === WHITE;
  return generateLegalMoves(board).filter((move) => {
    const target = board.squares[move.to];
    if (target === 0 || Math.abs(target) === 6) return false;
    const defended = isSquareAttacked(board.squares, move.to, !white);
    return !defended || valueAt(board, move.to) > valueAt(board, move.from);
  });
}

const { positions } = parseLabelledPositions(readInputLines(opts.positions));
const ranker = opts.db
  ? morphRanker(opts.db, {
    evaluation: opts.evaluation as EvaluationFunction | undefined,
    maturity: opts.maturity !== undefined ? Number(opts.maturity) : undefined,
    search: opts.search as SearchSpec | undefined,
  })
  : createRanker(opts.ranker ?? 'greedy');
const kinds = { enPrise: 0, missedCapture: 0, other: 0 };
let blunders = 0;
// For comparison: how often a chosen move that is NOT a blunder also leaves a piece en prise.
let fine = 0;
let fineEnPrise = 0;
let scored = 0;
for (const position of positions) {
  if (!position.scores) continue;
  scored++;
  const board = boardFromFen(position.fen);
  const values = ranker.score(position.fen);
  const top = Math.max(...values.map((v) => v.value));
  const chosen = values.filter((v) => v.value >= top - TIE_TOLERANCE);
  const bestScore = Math.max(...position.scores.values());
  const offered = winningCaptures(board).map(uciMove);
  for (const { move } of chosen) {
    const weight = 1 / chosen.length;
    const compact = generateLegalMoves(board).find((m) => uciMove(m) === move)!;
    const after = cloneBoard(board);
    applyMove(board, compact, after);
    if (winChanceLoss(bestScore, position.scores.get(move)!) < BLUNDER) {
      fine += weight;
      if (winningCaptures(after).length > 0) fineEnPrise += weight;
      continue;
    }
    blunders += weight;
    if (winningCaptures(after).length > 0) kinds.enPrise += weight;
    else if (offered.length > 0 && !offered.includes(move)) kinds.missedCapture += weight;
    else kinds.other += weight;
  }
}
ranker.close();
const share = (x: number) => (blunders > 0 ? x / blunders : 0);
console.log(JSON.stringify({
  ranker: ranker.name, positions: scored, blunders: Number(blunders.toFixed(2)), blunderShare: blunders / scored,
  enPrise: share(kinds.enPrise), missedCapture: share(kinds.missedCapture), other: share(kinds.other),
  enPriseAfterOtherMoves: fine > 0 ? fineEnPrise / fine : 0,
}));
