/** `morph inspect`: what a database holds, in one screen (or one JSON object). */
import { statSync } from 'node:fs';
import { getCounters } from '../store/counters.ts';
import { getMeta } from '../store/meta.ts';
import { type MorphDatabase } from '../store/database.ts';

export interface DatabaseSummary {
  database: {
    path: string;
    /** Size of the main file and of its write-ahead log (the log holds recent commits not yet checkpointed). */
    bytes: number;
    walBytes: number;
    schemaVersion: number;
    morphVersion: string | null;
    createdAt: string | null;
  };
  games: {
    /** meta games_played: the games learned from. */
    played: number;
    /** Rows in the games table (games recorded with their result). */
    recorded: number;
    wins: number;
    draws: number;
    losses: number;
    /** Mean of Morph's score (1 win, .5 draw, 0 loss); null without games. */
    score: number | null;
    /** Mean final material balance from Morph's side, in pawns: the paper's "traditional chess points". */
    averageMaterial: number | null;
  };
  runs: {
    count: number;
    last: { opponent: string | null; startedAt: string | null; finishedAt: string | null; games: number; stopReason: string | null } | null;
  };
  patterns: {
    total: number;
    byKind: { graph: number; material: number };
    /** Graph patterns by node count. */
    graphBySize: Record<string, number>;
    byOrigin: Record<string, number>;
    links: number;
    recordedPositions: number;
  };
  /** The global temperature k of the last game learned from (null before the first). */
  temperature: number | null;
  /** The learning configuration stored with the database (null if none stored yet). */
  config: Record<string, unknown> | null;
  counters: Record<string, number>;
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function numberOrNull(text: string | undefined): number | null {
  if (text === undefined || text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

function countBy(db: MorphDatabase, sql: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [key, count] of db.prepare(sql).raw().all() as [string | number, number][]) counts[String(key)] = count;
  return counts;
}

/** Reads the summary; call it inside one snapshot (source.ts) so the numbers agree with each other. */
export function readSummary(db: MorphDatabase, path: string): DatabaseSummary {
  const games = db
    .prepare(
      `SELECT count(*) AS recorded,
              coalesce(sum(morph_score = 1), 0) AS wins,
              coalesce(sum(morph_score = 0.5), 0) AS draws,
              coalesce(sum(morph_score = 0), 0) AS losses,
              avg(morph_score) AS score,
              avg(final_material) AS averageMaterial
       FROM games`,
    )
    .get() as { recorded: number; wins: number; draws: number; losses: number; score: number | null; averageMaterial: number | null };
  const lastRun = db
    .prepare('SELECT opponent, started_at, finished_at, games, stop_reason FROM runs ORDER BY id DESC LIMIT 1')
    .get() as { opponent: string | null; started_at: string | null; finished_at: string | null; games: number; stop_reason: string | null } | undefined;
  const byKind = countBy(db, 'SELECT kind, count(*) FROM patterns GROUP BY kind');
  let config: Record<string, unknown> | null = null;
  const configText = getMeta(db, 'config');
  if (configText !== undefined) {
    try {
      config = JSON.parse(configText) as Record<string, unknown>;
    } catch {
      config = { unreadable: configText };
    }
  }
  return {
    database: {
      path,
      bytes: fileSize(path),
      walBytes: fileSize(`${path}-wal`),
      schemaVersion: Number(db.pragma('user_version', { simple: true })),
      morphVersion: getMeta(db, 'morph_version') ?? null,
      createdAt: getMeta(db, 'created_at') ?? null,
    },
    games: {
      played: numberOrNull(getMeta(db, 'games_played')) ?? 0,
      recorded: games.recorded,
      wins: games.wins,
      draws: games.draws,
      losses: games.losses,
      score: games.score,
      averageMaterial: games.averageMaterial,
    },
    runs: {
      count: db.prepare('SELECT count(*) FROM runs').pluck().get() as number,
      last: lastRun
        ? {
            opponent: lastRun.opponent,
            startedAt: lastRun.started_at,
            finishedAt: lastRun.finished_at,
            games: lastRun.games,
            stopReason: lastRun.stop_reason,
          }
        : null,
    },
    patterns: {
      total: (byKind.graph ?? 0) + (byKind.material ?? 0),
      byKind: { graph: byKind.graph ?? 0, material: byKind.material ?? 0 },
      graphBySize: countBy(db, "SELECT size, count(*) FROM patterns WHERE kind = 'graph' GROUP BY size ORDER BY size"),
      byOrigin: countBy(db, 'SELECT origin, count(*) FROM patterns GROUP BY origin ORDER BY count(*) DESC, origin'),
      links: db.prepare('SELECT count(*) FROM links').pluck().get() as number,
      recordedPositions: db.prepare('SELECT count(*) FROM pattern_positions').pluck().get() as number,
    },
    temperature: numberOrNull(getMeta(db, 'temperature')),
    config,
    counters: getCounters(db),
  };
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** Nested config objects as "regression.perGame 2" pairs. */
export function flatten(value: unknown, prefix = ''): [string, string][] {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) => flatten(inner, prefix ? `${prefix}.${key}` : key));
  }
  return [[prefix, typeof value === 'string' ? value : JSON.stringify(value)]];
}

/** Joins "a 1, b 2, ..." items into lines no wider than `width`, each indented. */
function wrapItems(items: string[], indent: string, width = 100): string[] {
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    if (line && indent.length + line.length + item.length + 2 > width) {
      lines.push(indent + line + ',');
      line = '';
    }
    line = line ? `${line}, ${item}` : item;
  }
  if (line) lines.push(indent + line);
  return lines;
}

const signed = (value: number, digits: number): string => (value > 0 ? '+' : '') + value.toFixed(digits);

export function summaryText(s: DatabaseSummary): string {
  const d = s.database;
  const g = s.games;
  const p = s.patterns;
  const lines = [
    `Morph database ${d.path}`,
    `  ${formatBytes(d.bytes)}${d.walBytes ? ` + ${formatBytes(d.walBytes)} write-ahead log` : ''}, schema v${d.schemaVersion}` +
      `${d.morphVersion ? `, written by Morph ${d.morphVersion}` : ''}${d.createdAt ? `, created ${d.createdAt}` : ''}`,
  ];
  const gameLine = [`Games: ${g.played} learned from`];
  if (g.recorded) {
    gameLine.push(
      `Morph W/D/L ${g.wins}/${g.draws}/${g.losses}, score ${g.score!.toFixed(3)}` +
        (g.averageMaterial !== null ? `, average final material ${signed(g.averageMaterial, 2)} pawns` : ''),
    );
  }
  lines.push(gameLine.join('; '));
  if (s.runs.last) {
    const last = s.runs.last;
    lines.push(
      `  ${s.runs.count} run${s.runs.count === 1 ? '' : 's'}; the last against ${last.opponent ?? '?'}, ${last.games} games, ` +
        `${last.stopReason ? `stopped: ${last.stopReason}` : 'still running or interrupted'}`,
    );
  }
  lines.push(`Patterns: ${p.total} (graph ${p.byKind.graph}, material ${p.byKind.material}); ${p.links} hierarchy links`);
  const sizes = Object.entries(p.graphBySize).map(([size, count]) => `${size}: ${count}`);
  if (sizes.length) lines.push(`  graph patterns by node count: ${sizes.join(', ')}`);
  const origins = Object.entries(p.byOrigin).map(([origin, count]) => `${origin} ${count}`);
  if (origins.length) lines.push(...wrapItems([`by origin: ${origins[0]}`, ...origins.slice(1)], '  '));
  const schedule = typeof s.config?.temperature === 'string' ? ` (schedule ${s.config.temperature})` : '';
  lines.push(`Global temperature: ${s.temperature ?? 'not set yet'}${schedule}`);
  const counters = Object.entries(s.counters).map(([name, value]) => `${name} ${value}`);
  if (counters.length) {
    lines.push('Learning counters:');
    lines.push(...wrapItems(counters, '  '));
  }
  if (s.config) {
    lines.push('Configuration:');
    lines.push(...wrapItems(flatten(s.config).map(([key, value]) => `${key} ${value}`), '  '));
  } else {
    lines.push('Configuration: none stored yet (the defaults apply)');
  }
  return lines.join('\n');
}
