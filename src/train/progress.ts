/**
 * What a training run shows while it runs: a progress bar on a terminal (cli-progress, a well-kept library,
 * rather than hand-drawn ANSI), or a plain line every so often when the output is a file or a pipe. Messages
 * (a discarded game, why the run stopped) are written in every mode; `none` only silences the progress itself.
 *
 * The line puts what a watcher needs first (done, ETA, games/hour, elapsed, opponent, recent score) because a
 * terminal cuts what does not fit; the cumulative W/D/L, material and pattern count follow.
 */
import { createRequire } from 'node:module';
import type * as CliProgress from 'cli-progress';

/**
 * cli-progress, loaded only when a bar is drawn: importing it was a fifth of the start of a `morph train` process
 * (0.14 of 0.69 s), which runs with --progress lines or none, and every game worker, never use.
 */
const loadCliProgress = (): typeof CliProgress => createRequire(import.meta.url)('cli-progress') as typeof CliProgress;

export type ProgressMode = 'auto' | 'bar' | 'lines' | 'none';

/** The run's counts so far (the harness's summary has these and more). */
export interface ProgressCounts {
  games: number;
  wins: number;
  draws: number;
  losses: number;
  patterns: number;
  lastGame: number;
}

export interface ProgressLimit {
  games?: number;
  hours?: number;
  /** The opponent's spec, shown on the line. */
  opponent?: string;
}

const LINE_INTERVAL_MS = 30_000;
/** Games in the recent-score window. */
export const RECENT_GAMES = 20;
const OPPONENT_WIDTH = 28;

/** Seconds as h:mm:ss (or m:ss under an hour): --hours 0.005 reads 0:18, not 0.01h. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '-';
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

export interface ProgressFields {
  done: string;
  /** Time left (cli-progress's own {eta} would shadow a field of that name). */
  remaining: string;
  rate: string;
  elapsed: string;
  opponent: string;
  recent: string;
  wdl: string;
  score: string;
  material: string;
  patterns: number;
}

/** The fields of the progress line after `counts.games` games and `elapsedSeconds` of the run. */
export function progressFields(
  counts: ProgressCounts,
  recentScores: readonly number[],
  averageMaterial: number,
  elapsedSeconds: number,
  limit: ProgressLimit,
): ProgressFields {
  const perHour = (counts.games / Math.max(elapsedSeconds, 1e-3)) * 3600;
  const remaining = limit.games !== undefined
    ? ((limit.games - counts.games) / Math.max(perHour, 1e-9)) * 3600
    : (limit.hours ?? 0) * 3600 - elapsedSeconds;
  const recent = recentScores.length ? recentScores.reduce((a, b) => a + b, 0) / recentScores.length : null;
  const opponent = limit.opponent ?? '?';
  return {
    done: limit.games !== undefined ? `${counts.games}/${limit.games}` : `${counts.games} games`,
    // Before the first game there is no rate to tell the time left of a run limited to games.
    remaining: limit.games !== undefined && counts.games === 0 ? '-' : formatDuration(Math.max(0, remaining)),
    rate: counts.games ? perHour.toFixed(0) : '-',
    elapsed: limit.hours !== undefined ? `${formatDuration(elapsedSeconds)}/${formatDuration(limit.hours * 3600)}` : formatDuration(elapsedSeconds),
    opponent: opponent.length > OPPONENT_WIDTH ? `${opponent.slice(0, OPPONENT_WIDTH - 1)}…` : opponent,
    recent: recent === null ? '-' : `${recent.toFixed(2)} (last ${recentScores.length})`,
    wdl: `${counts.wins}/${counts.draws}/${counts.losses}`,
    score: counts.games ? ((counts.wins + counts.draws / 2) / counts.games).toFixed(3) : '-',
    material: averageMaterial.toFixed(2),
    patterns: counts.patterns,
  };
}

/** One line for a log file: the same fields, in the same order, as the bar. */
export function progressLine(gameNumber: number, f: ProgressFields): string {
  return (
    `[train] game ${gameNumber} (${f.done}) ETA ${f.remaining} | ${f.rate} games/h | ${f.elapsed} | vs ${f.opponent} | ` +
    `score ${f.recent} | W/D/L ${f.wdl} score ${f.score} | material ${f.material} | patterns ${f.patterns}`
  );
}

export const BAR_SIZE = 16;
export const BAR_FORMAT =
  '{bar} {done} ETA {remaining} | {rate} games/h | {elapsed} | vs {opponent} | score {recent} | W/D/L {wdl} | material {material} | patterns {patterns}';

export class TrainingProgress {
  private bar: CliProgress.SingleBar | null = null;
  private readonly mode: Exclude<ProgressMode, 'auto'>;
  private lastLine = 0;
  private readonly recent: number[] = [];
  private previous = { wins: 0, draws: 0, losses: 0 };
  /** The bar's fields as last shown, to show again when the bar restarts after a log message. */
  private fields: ProgressFields;

  constructor(
    mode: ProgressMode,
    private readonly limit: ProgressLimit,
  ) {
    this.mode = mode === 'auto' ? (process.stderr.isTTY ? 'bar' : 'lines') : mode;
    this.fields = progressFields({ games: 0, wins: 0, draws: 0, losses: 0, patterns: 0, lastGame: 0 }, [], 0, 0, limit);
    if (this.mode === 'bar') {
      const cliProgress = loadCliProgress();
      this.bar = new cliProgress.SingleBar(
        { format: BAR_FORMAT, barsize: BAR_SIZE, hideCursor: true, stream: process.stderr },
        cliProgress.Presets.shades_classic,
      );
      const total = limit.games ?? Math.round((limit.hours ?? 1) * 3600);
      this.bar.start(total, 0, { ...this.fields });
    }
  }

  /** Called after each game with the run's counts so far; the game's result is read from what changed. */
  update(counts: ProgressCounts, averageMaterial: number, startedMs: number): void {
    const score = counts.wins > this.previous.wins ? 1 : counts.losses > this.previous.losses ? 0 : 0.5;
    if (counts.wins + counts.draws + counts.losses > this.previous.wins + this.previous.draws + this.previous.losses) {
      this.recent.push(score);
      if (this.recent.length > RECENT_GAMES) this.recent.shift();
    }
    this.previous = { wins: counts.wins, draws: counts.draws, losses: counts.losses };
    const elapsed = (Date.now() - startedMs) / 1000;
    const fields = progressFields(counts, this.recent, averageMaterial, elapsed, this.limit);
    this.fields = fields;
    if (this.bar) {
      this.bar.update(this.limit.games ? counts.games : Math.min(elapsed, (this.limit.hours ?? 1) * 3600), { ...fields });
    } else if (this.mode === 'lines' && (Date.now() - this.lastLine >= LINE_INTERVAL_MS || counts.games === this.limit.games)) {
      this.lastLine = Date.now();
      process.stderr.write(progressLine(counts.lastGame, fields) + '\n');
    }
  }

  /** A message that matters (a discarded game, a stop): written in every mode, `none` included. */
  log(message: string): void {
    if (this.bar) this.bar.stop();
    process.stderr.write(`[train] ${message}\n`);
    // start() forgets the payload, which would leave the field names showing as "{done}" and so on.
    if (this.bar) this.bar.start(this.bar.getTotal(), this.bar.getProgress() * this.bar.getTotal(), { ...this.fields });
  }

  stop(): void {
    this.bar?.stop();
  }
}
