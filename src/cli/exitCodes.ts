/**
 * The exit codes of `morph`, decided here in the CLI alone (README, "Commands"): 0 done; 1 any other failure;
 * 2 bad input (util/errors.ts's BAD_INPUT: an option, a file, a position, an engine that cannot be set up);
 * 3 a training run stopped after --max-failures failed games in a row (engine faults); 128 + the signal's number
 * for a run stopped by SIGINT (130) or SIGTERM (143), as shells report a command a signal ended.
 */
import { BAD_INPUT } from '../util/errors.ts';

export const EXIT_DONE = 0;
export const EXIT_BAD_INPUT = BAD_INPUT;
export const EXIT_FAILURES = 3;

const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

export function signalExitCode(signal: keyof typeof SIGNAL_EXIT_CODES): number {
  return SIGNAL_EXIT_CODES[signal];
}
