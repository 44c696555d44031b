/**
 * Everything the report shows, read from the database in one snapshot (so it can be made while training runs
 * and every number agrees with the others).
 */
import { readRelationTerms, type RelationTerms } from '../inspect/relations.ts';
import type { MorphDatabase } from '../store/database.ts';
import { readSummary, type DatabaseSummary } from '../inspect/summary.ts';
import { readMaterialTable, type MaterialRow } from '../inspect/material.ts';
import { materialOrderReport, type MaterialOrderReport } from '../inspect/materialOrder.ts';
import { readPatternDetail, type PatternDetail } from '../inspect/patterns.ts';
import { readTrainingGames, type TrainingGame } from '../inspect/trainingGames.ts';
import { trainingGamePgn } from '../inspect/pgnExport.ts';
import { learningSeries, readGameRows, type LearningSeries } from './series.ts';
import { readRuns, type RunRow } from './runs.ts';
import { rollingByOpponent, type OpponentRolling } from './rolling.ts';
import { readOutcomes, type OutcomeTable } from './outcomes.ts';
import { patternGrowth, type GrowthSeries } from './patternGrowth.ts';
import { readCheckpointResults, type CheckpointResult } from '../train/checkpointResults.ts';
import { distinctPatterns } from './distinctPatterns.ts';

export interface ReportOptions {
  /** Strongest and weakest patterns drawn, one per idea (default 8 each). */
  top?: number;
  /** Only patterns updated at least this often are drawn (default 10), so a lucky newcomer does not lead. */
  minUpdates?: number;
  /** Only patterns of at least this many nodes are drawn (default 2: a lone piece reads as well in a list). */
  minSize?: number;
  /** Material rows shown, the most updated first (default 40). */
  materialRows?: number;
  /** Relation terms shown of each set, the strongest first (default 12). */
  relationRows?: number;
  /** The last games listed with their PGN (default 10). */
  lastGames?: number;
  /** The time printed in the page (tests pass a fixed one). */
  generatedAt?: Date;
}

export interface DrawnPattern extends PatternDetail {
  /** Copies of the same idea passed over. */
  similar: number;
}

export interface ReportGame {
  game: TrainingGame;
  /** Export-format PGN, or why there is none. */
  pgn: string | null;
  problem: string | null;
}

export interface ReportData {
  summary: DatabaseSummary;
  series: LearningSeries;
  runs: RunRow[];
  rolling: OpponentRolling[];
  outcomes: OutcomeTable[];
  /** Strength measured at training checkpoints (the learning curve), when the curve recipe recorded any. */
  curve: CheckpointResult[];
  growth: { byOrigin: GrowthSeries[]; bySize: GrowthSeries[] };
  material: MaterialRow[];
  materialOrder: MaterialOrderReport;
  /** The relation terms play reads: the smallest graph patterns, both sets, strongest first. */
  relations: RelationTerms;
  strongest: DrawnPattern[];
  weakest: DrawnPattern[];
  lastGames: ReportGame[];
  minUpdates: number;
  minSize: number;
  materialRows: number;
}

export function readReportData(db: MorphDatabase, path: string, options: ReportOptions = {}): ReportData {
  const minUpdates = options.minUpdates ?? 10;
  const top = options.top ?? 8;
  const minSize = options.minSize ?? 2;
  const drawn = (direction: 'strongest' | 'weakest'): DrawnPattern[] =>
    distinctPatterns(db, { direction, minUpdates, minSize, limit: top }).map(({ id, similar }) => ({ ...readPatternDetail(db, id, path), similar }));
  return {
    summary: readSummary(db, path),
    series: learningSeries(readGameRows(db)),
    runs: readRuns(db),
    rolling: rollingByOpponent(db),
    outcomes: readOutcomes(db),
    curve: readCheckpointResults(db),
    growth: patternGrowth(db),
    material: readMaterialTable(db),
    materialOrder: materialOrderReport(db),
    relations: readRelationTerms(db, options.relationRows ?? 12),
    strongest: drawn('strongest'),
    weakest: drawn('weakest'),
    lastGames: readTrainingGames(db, { last: options.lastGames ?? 10 })
      .reverse()
      .map((game) => {
        const pgn = trainingGamePgn(game);
        return pgn instanceof Error ? { game, pgn: null, problem: pgn.message } : { game, pgn, problem: null };
      }),
    minUpdates,
    minSize,
    materialRows: options.materialRows ?? 40,
  };
}
