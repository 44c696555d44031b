/** What a training run did: the harness returns it, the progress display and the CLI show it. */
export interface TrainingSummary {
  games: number;
  wins: number;
  draws: number;
  losses: number;
  failures: number;
  stopReason: 'games-done' | 'time-limit' | 'interrupted' | 'too-many-failures';
  patterns: number;
  seconds: number;
  time: { morph: number; opponent: number; learning: number };
  firstGame: number;
  lastGame: number;
  seed: number;
  /** Checkpoint files written by this run. */
  checkpoints: string[];
}
