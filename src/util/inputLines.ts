/**
 * Reading `--input FILE` batches: one item per non-empty line, `-` for stdin. Each line is handled on its own so
 * that a bad line is reported by number and the rest still run.
 */
import { readFileSync } from 'node:fs';
import { badInput } from './errors.ts';

export interface InputLine {
  number: number;
  text: string;
}

export function readInputLines(path: string): InputLine[] {
  let content: string;
  try {
    content = readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (error) {
    throw badInput(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return content
    .split(/\r?\n/)
    .map((text, i) => ({ number: i + 1, text: text.trim() }))
    .filter((line) => line.text !== '' && !line.text.startsWith('#'));
}
