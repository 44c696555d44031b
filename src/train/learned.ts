/**
 * What a training run leaves Morph knowing, for the last lines of `morph train`: the piece values fitted to its
 * material patterns (as `morph inspect material` leads with them), how many patterns it has, what its relation
 * terms learned from and their largest weights, and with
 * `--yardstick` where it stands on a fixed yardstick: its move quality on a fixed sample of the scored positions
 * (checkpointJudge.ts's measure, in seconds rather than a minute), beside the same measure of the database as the
 * run found it.
 *
 * Why the yardstick is asked for and not always measured: on the default run (20 games, about 8 s on a 2-core
 * machine) ranking 60 positions with the default play search took about 6 s, most of the run again; the issue's
 * bound was a tenth.
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { measureQuality } from '../agree/metrics.ts';
import { morphRanker, type MoveRanker } from '../agree/rankers.ts';
import type { LabelledPosition } from '../agree/positions.ts';
import { GameHistory } from '../chess/history.ts';
import { readMaterialTable, tablePieceValues, TRADITIONAL_VALUES } from '../inspect/material.ts';
import { loadConfig, mergeConfig, saveConfig, type ConfigPatch } from '../learn/config.ts';
import { relationProgress } from '../learn/relationLearning.ts';
import { storedRelationWeights, strongestRelationWeights } from '../eval/relationTerms.ts';
import { MATERIAL_PIECES } from '../pattern/pattern.ts';
import { MorphPlayer, playingMaturity } from '../player/morphPlayer.ts';
import { closeMorphDatabase, openMorphDatabase } from '../store/database.ts';
import { PatternStore } from '../store/patternStore.ts';

/** Scored positions in the yardstick's sample: a few seconds of ranking. */
export const YARDSTICK_POSITIONS = 60;

/** A pawn's fitted value below this is no unit to count the others in (a database that has learned next to nothing). */
const SMALLEST_PAWN = 0.01;

export interface MoveQualityFigure {
  /** Mean win-chance points lost by the chosen move (agree/metrics.ts), with its 95% interval. */
  meanLoss: number;
  lossLow: number;
  lossHigh: number;
  /** Share of moves losing at least 30 points. */
  blunder: number;
}

export interface Yardstick {
  /** The scored positions' file, and how many of them the sample has. */
  against: string;
  positions: number;
  now: MoveQualityFigure;
  /** The same measure of the database as the run found it (an empty one when the run created it). */
  start: MoveQualityFigure;
  /** Both measures' time. */
  seconds: number;
}

export interface Learned {
  /** The fitted piece values P N B R Q, in log-odds (materialFit.ts). */
  pieceValues: Record<(typeof MATERIAL_PIECES)[number], number>;
  materialPatterns: number;
  graphPatterns: number;
  /** The relation terms (eval/relationTerms.ts), once they have learned: lessons, and the largest weights by name. */
  relations?: { lessons: number; strongest: { pattern: string; weight: number }[] };
  yardstick?: Yardstick;
}

/** YARDSTICK_POSITIONS of `positions`, spread evenly over them (the same ones every time). */
export function yardstickSample(positions: readonly LabelledPosition[]): LabelledPosition[] {
  if (positions.length <= YARDSTICK_POSITIONS) return [...positions];
  return Array.from({ length: YARDSTICK_POSITIONS }, (_, i) => positions[Math.floor((i * positions.length) / YARDSTICK_POSITIONS)]);
}

/**
 * The piece values and pattern counts of the database at `path`, read from its tables (as `morph inspect material`
 * reads them): no hierarchy to load, so a large database costs no more than a small one. Opened as a writer that
 * writes nothing: SQLite leaves the write-ahead log beside the file when the last connection to close is read-only
 * (harness.ts, removeWriteAheadLog), and this is the run's last.
 */
export function readLearned(path: string): Learned {
  const db = openMorphDatabase(path, { create: false, quickCheck: false });
  try {
    const values = tablePieceValues(readMaterialTable(db));
    const counts = db.prepare('SELECT kind, count(*) AS n FROM patterns GROUP BY kind').all() as { kind: string; n: number }[];
    const count = (kind: string) => counts.find((c) => c.kind === kind)?.n ?? 0;
    const progress = relationProgress(db);
    const weights = storedRelationWeights(db);
    const strongest = weights ? strongestRelationWeights(weights, 3) : [];
    return {
      pieceValues: Object.fromEntries(MATERIAL_PIECES.map((piece, i) => [piece, values[i]])) as Learned['pieceValues'],
      materialPatterns: count('material'),
      graphPatterns: count('graph'),
      ...(progress && progress.lessons > 0 ? { relations: { lessons: progress.lessons, strongest } } : {}),
    };
  } finally {
    closeMorphDatabase(db);
  }
}

/**
 * The move quality, on `sample`, of Morph over the database at `path` as it is now (with its own policy, as it plays),
 * or, when there is no such file yet, of a new one with the run's settings (`config`).
 */
export function measureMoveQuality(path: string, sample: readonly LabelledPosition[], config: ConfigPatch = {}): MoveQualityFigure {
  // Move quality reads only the best move and its ties: a game move's work, not a full ranking's.
  const ranker = existsSync(path) ? morphRanker(path, { bestOnly: true }) : newDatabaseRanker(config);
  try {
    const quality = measureQuality(sample, ranker)!;
    return { meanLoss: quality.meanLoss, lossLow: quality.intervals.meanLoss[0], lossHigh: quality.intervals.meanLoss[1], blunder: quality.blunder };
  } finally {
    ranker.close();
  }
}

/** Morph over an empty database with the settings a run with `config` gives a new one. */
function newDatabaseRanker(config: ConfigPatch): MoveRanker {
  const store = PatternStore.open(':memory:');
  saveConfig(store.db, mergeConfig(loadConfig(store.db), config));
  const player = new MorphPlayer(store, { maturity: playingMaturity(store), seed: 0 }, 'morph (a new database)');
  return {
    name: player.name,
    partial: true,
    score: (fen) => player.bestRanking(new GameHistory(fen)).map((r) => ({ move: r.move, value: player.choiceScore(r) })),
    close: () => store.close(),
  };
}

/** The yardstick from its two measures. */
export function yardstick(file: string, sample: readonly LabelledPosition[], start: MoveQualityFigure, now: MoveQualityFigure, seconds: number): Yardstick {
  return { against: basename(file).replace(/\.jsonl$/, ''), positions: sample.length, now, start, seconds };
}

const pawns = (value: number, pawn: number) => (value / pawn).toFixed(1);

/** The last lines of `morph train`: what the database knows now. */
export function learnedText(learned: Learned): string[] {
  const values = learned.pieceValues;
  const counted = `from ${learned.materialPatterns} material patterns; ${learned.graphPatterns} graph patterns`;
  const lines =
    values.P > SMALLEST_PAWN
      ? [
        `learned piece values, in pawns: ${MATERIAL_PIECES.slice(1).map((p) => `${p} ${pawns(values[p], values.P)}`).join(', ')} ` +
          `(textbook ${MATERIAL_PIECES.slice(1).map((p) => TRADITIONAL_VALUES[p]).join(', ')}; a pawn ${values.P.toFixed(2)} in log-odds), ${counted}`,
      ]
      : [`learned piece values, in log-odds: ${MATERIAL_PIECES.map((p) => `${p} ${values[p].toFixed(2)}`).join(', ')} (no pawn's worth yet), ${counted}`];
  const relations = learned.relations;
  if (relations) {
    const named = relations.strongest.map((s) => `${s.pattern} ${s.weight >= 0 ? '+' : ''}${s.weight.toFixed(3)}`).join('; ');
    lines.push(`relation terms learned from ${relations.lessons} positions; the largest, in log-odds for the side that just moved: ${named}`);
  }
  const stick = learned.yardstick;
  if (stick) {
    const figure = (q: MoveQualityFigure) => `${q.meanLoss.toFixed(1)} [${q.lossLow.toFixed(1)}, ${q.lossHigh.toFixed(1)}]`;
    const blunders = (q: MoveQualityFigure) => `${(q.blunder * 100).toFixed(0)}%`;
    lines.push(
      `move quality on ${stick.positions} positions of ${stick.against}: loses ${figure(stick.now)} win-chance points a move, ` +
        `blunders ${blunders(stick.now)}; at the run's start ${figure(stick.start)}, ${blunders(stick.start)} (measured in ${stick.seconds.toFixed(1)} s)`,
    );
  } else lines.push(`(--yardstick adds its move quality on ${YARDSTICK_POSITIONS} scored positions, beside the run's start)`);
  return lines;
}
