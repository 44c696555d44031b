/**
 * An error meant for the user: printed as one line (no stack trace) with its exit code.
 * Exit code 2 is bad input (a bad FEN, PGN, option or file); 1 is anything else that stops a command.
 */
export class MorphError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = 1,
  ) {
    super(message);
    this.name = 'MorphError';
  }
}

export const BAD_INPUT = 2;

export function badInput(message: string): MorphError {
  return new MorphError(message, BAD_INPUT);
}
