/**
 * Forgetting (reference section 8). A pattern's utility grows with how extreme its weight is (it says
 * something), how often it was updated (it is trusted) and how recently it was used; it shrinks with size
 * (specific patterns match rarely) and with its average weight change per update (it is unstable).
 * Patterns younger than `minAge` games are never judged. Decided: seeds and material patterns are protected:
 * seeds are the roots retrieval starts from, and material patterns are few (one per material vector).
 */
import type { PatternRecord } from '../store/patternRecord.ts';

export interface DeletionConfig {
  enabled: boolean;
  threshold: number;
  minAge: number;
  cap: number;
}

export function isProtected(record: PatternRecord): boolean {
  return record.kind === 'material' || record.origin === 'seed';
}

export function utility(record: PatternRecord, gamesPlayed: number): number {
  const extremeness = Math.abs(record.weight - 0.5) * 2;
  const confidence = record.updates / (record.updates + 10);
  const idle = gamesPlayed - (record.lastUsedGame ?? record.createdGame);
  const recency = 1 / (1 + Math.max(0, idle) / 50);
  const instability = record.updates > 0 ? record.variance / record.updates : 0;
  const sizeCost = 1 + 0.1 * record.size;
  return ((0.1 + extremeness) * (0.1 + confidence) * recency) / (sizeCost * (1 + 2 * instability));
}

/** The patterns to delete after game `gamesPlayed`: those below the threshold, then the least useful over the cap. */
export function patternsToDelete(records: Iterable<PatternRecord>, total: number, gamesPlayed: number, config: DeletionConfig): PatternRecord[] {
  if (!config.enabled) return [];
  const judged: { record: PatternRecord; utility: number }[] = [];
  for (const record of records) {
    if (isProtected(record) || gamesPlayed - record.createdGame < config.minAge) continue;
    judged.push({ record, utility: utility(record, gamesPlayed) });
  }
  const doomed = judged.filter((j) => j.utility < config.threshold);
  const remaining = total - doomed.length;
  if (remaining > config.cap) {
    const survivors = judged.filter((j) => j.utility >= config.threshold).sort((a, b) => a.utility - b.utility);
    doomed.push(...survivors.slice(0, remaining - config.cap));
  }
  return doomed.map((j) => j.record);
}
