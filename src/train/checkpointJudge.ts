/**
 * A training checkpoint judged as it plays, in seconds rather than a match: its move quality on scored positions
 * from engine games Morph did not play (the mean win-chance loss of the moves it chooses, agree/metrics.ts). `morph
 * train --checkpoint-every N` records one such row per checkpoint in checkpoint_results, so `morph report` draws the
 * curve of what the database is worth beside the training games' own score (which says little: Morph loses most
 * games to its sparring partner however much it has learned).
 */
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseLabelledPositions } from '../agree/positions.ts';
import { measureQuality } from '../agree/metrics.ts';
import { morphRanker } from '../agree/rankers.ts';
import { readInputLines } from '../util/inputLines.ts';
import { badInput } from '../util/errors.ts';
import type { CheckpointResult } from './checkpointResults.ts';
import type { LabelledPosition } from '../agree/positions.ts';

/** The scored positions shipped with Morph: 400 positions of engine games, every move scored by Stockfish at depth 8. */
export const SCORED_POSITIONS = fileURLToPath(new URL('../../positions/move-scores.jsonl', import.meta.url));

/** The scored positions of a file, checked before a run starts (a bad file is refused before any game). */
export function readScoredPositions(file: string): LabelledPosition[] {
  const parsed = parseLabelledPositions(readInputLines(file));
  const scored = parsed.positions.filter((position) => position.scores !== undefined);
  if (parsed.problems.length > 0) throw badInput(`${file} line ${parsed.problems[0].line}: ${parsed.problems[0].message}`);
  if (scored.length === 0) throw badInput(`${file} has no positions with every move scored ("scores")`);
  return scored;
}

/**
 * The move quality of the checkpoint at `checkpoint` (learned from `trainedGames` games) on `positions` (from the
 * file named `positionsFile`), played with the policy at `policy` (false: none), as a checkpoint_results row.
 */
export function judgeCheckpoint(
  checkpoint: string,
  trainedGames: number,
  positions: readonly LabelledPosition[],
  positionsFile: string,
  policy: string | false,
): CheckpointResult {
  // Move quality reads only the best move and its ties: a game move's work, not a full ranking's (several times
  // dearer with a full-width search). The share of the engine's move in Morph's top 4 needs the full ranking, so a
  // judged checkpoint no longer records it (morph agree on the checkpoint gives it).
  const ranker = morphRanker(checkpoint, { policy, bestOnly: true });
  try {
    const quality = measureQuality(positions, ranker)!;
    return {
      trainedGames,
      measure: 'quality',
      against: basename(positionsFile).replace(/\.jsonl$/, ''),
      samples: quality.positions,
      meanLoss: quality.meanLoss,
      lossLow: quality.intervals.meanLoss[0],
      lossHigh: quality.intervals.meanLoss[1],
      blunder: quality.blunder,
      blunderLow: quality.intervals.blunder[0],
      blunderHigh: quality.intervals.blunder[1],
      checkpoint,
    };
  } finally {
    ranker.close();
  }
}
