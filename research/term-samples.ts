/**
 * The positions research/treestrap-terms.ts values and saves (--save, a JSON line each), as the experiments that
 * fit terms to them read them back (treestrap-terms.ts --load, gap-learnability.ts, relation-terms.ts).
 */
import { readFileSync } from 'node:fs';

/** One position a search valued: its settled material and the search's value (log-odds), its graph matches. */
export interface TermSample {
  game: number;
  /** A position of the game itself, not one of the search's interior nodes (--interior). */
  root: boolean;
  settled: number;
  target: number;
  ids: number[];
  /** The position (saved since 2026-12-05's learnability check, research/gap-learnability.ts; older files lack it). */
  fen?: string;
}

/** The samples of the files, in order. */
export function readTermSamples(files: readonly string[]): TermSample[] {
  return files.flatMap((file) => readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as TermSample));
}

/** The game positions of the files that carry their FEN: what fits over a position's own features need. */
export function rootsWithFen(files: readonly string[]): (TermSample & { fen: string })[] {
  const roots = readTermSamples(files).filter((s): s is TermSample & { fen: string } => s.root && s.fen !== undefined);
  if (roots.length === 0) throw new Error(`${files.join(', ')}: no game positions with a FEN`);
  return roots;
}
