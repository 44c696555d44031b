/**
 * What a training run shows while it runs: a progress bar on a terminal (cli-progress, a well-kept library,
 * rather than hand-drawn ANSI), or a plain line every so often when the output is a file or a pipe. Messages
 * (a discarded game, why the run stopped) are written in every mode; `none` only silences the progress itself.
 */
import cliProgress from 'cli-progress';
import type { TrainingSummary } from './summary.ts';

export type ProgressMode = 'auto' | 'bar' | 'lines' | 'none';

const LINE_INTERVAL_MS = 30_000;

export class TrainingProgress {
  private bar: cliProgress.SingleBar | null = null;
  private readonly mode: Exclude<ProgressMode, 'auto'>;
  private lastLine = 0;
  /** The bar's fields as last shown, to show again when the bar restarts after a log message. */
  private fields: Record<string, string | number> = {
    done: '0', wdl: '0/0/0', score: '-', material: '-', patterns: 0, rate: '-',
  };

  constructor(
    mode: ProgressMode,
    private readonly limit: { games?: number; hours?: number },
  ) {
    this.mode = mode === 'auto' ? (process.stderr.isTTY ? 'bar' : 'lines') : mode;
    if (this.mode === 'bar') {
      this.bar = new cliProgress.SingleBar(
        {
          format: '{bar} {done} | W/D/L {wdl} | score {score} | material {material} | patterns {patterns} | {rate} games/h | ETA {eta_formatted}',
          hideCursor: true,
          etaBuffer: 50,
          stream: process.stderr,
        },
        cliProgress.Presets.shades_classic,
      );
      const total = limit.games ?? Math.round((limit.hours ?? 1) * 3600);
      this.bar.start(total, 0, { ...this.fields });
    }
  }

  update(summary: TrainingSummary, averageMaterial: number, startedMs: number): void {
    const elapsed = (Date.now() - startedMs) / 1000;
    const score = (summary.wins + summary.draws / 2) / summary.games;
    const rate = Math.round((summary.games / Math.max(elapsed, 1e-3)) * 3600);
    const fields = {
      done: this.limit.games ? `${summary.games}/${this.limit.games}` : `${summary.games} games, ${(elapsed / 3600).toFixed(2)}/${this.limit.hours}h`,
      wdl: `${summary.wins}/${summary.draws}/${summary.losses}`,
      score: score.toFixed(3),
      material: averageMaterial.toFixed(2),
      patterns: summary.patterns,
      rate: String(rate),
    };
    this.fields = fields;
    if (this.bar) {
      this.bar.update(this.limit.games ? summary.games : Math.min(elapsed, (this.limit.hours ?? 1) * 3600), fields);
    } else if (this.mode === 'lines' && (Date.now() - this.lastLine >= LINE_INTERVAL_MS || summary.games === this.limit.games)) {
      this.lastLine = Date.now();
      process.stderr.write(
        `[train] game ${summary.lastGame} (${fields.done}) W/D/L ${fields.wdl} score ${fields.score} ` +
          `avg material ${fields.material} patterns ${fields.patterns} ${fields.rate} games/h\n`,
      );
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
