/** Parsing numeric command-line options with one-line errors. */
import { badInput } from '../util/errors.ts';

export function parseIntegerOption(name: string, text: string, min = -Infinity, max = Infinity): number {
  const value = Number(text);
  if (!/^-?\d+$/.test(text.trim()) || value < min || value > max) {
    throw badInput(`${name} needs a whole number${min > -Infinity ? ` >= ${min}` : ''}${max < Infinity ? ` <= ${max}` : ''}, got "${text}"`);
  }
  return value;
}

export function parseNumberOption(name: string, text: string, min = -Infinity, max = Infinity): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < min || value > max) {
    throw badInput(`${name} needs a number${min > -Infinity ? ` >= ${min}` : ''}${max < Infinity ? ` <= ${max}` : ''}, got "${text}"`);
  }
  return value;
}
