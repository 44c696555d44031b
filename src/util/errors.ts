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

/** File-system error codes worth a sentence of their own. */
const FILE_PROBLEMS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOENT: 'no such file or directory',
  ENOTDIR: 'a part of the path is not a directory',
  EIO: 'input/output error',
};

/** What a file-system error means in a few words ("the disk is full"); undefined for other errors. */
export function fileProblem(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? FILE_PROBLEMS[code] : undefined;
}

/** How much of a piece of bad input an error message repeats. */
export const QUOTE_LIMIT = 80;

/**
 * Text from outside (a user's argument, an engine's line, a file's contents) made safe to repeat in a one-line
 * message: control and other unprintable characters escaped (\n, \x07, \u2028), and anything beyond `limit`
 * characters cut off with a count, so a 10k-character or binary input cannot flood the terminal.
 */
export function quoteInput(text: string, limit = QUOTE_LIMIT): string {
  const kept = Array.from(text.slice(0, limit), escapeChar).join('');
  return text.length > limit ? `${kept}… (${text.length - limit} more characters)` : kept;
}

/** A message cut to one line of at most `limit` characters, its unprintable characters escaped. */
export function oneLineMessage(text: string, limit = 500): string {
  return quoteInput(text.replace(/\r?\n/g, ' '), limit);
}

const NAMED_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeChar(ch: string): string {
  // Cc (controls), Cf (format, e.g. bidi overrides), Zl/Zp (line/paragraph separators), unpaired surrogates.
  if (!/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u.test(ch)) return ch;
  const code = ch.codePointAt(0)!;
  return NAMED_ESCAPES[ch] ?? (code < 0x100 ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`);
}

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}
