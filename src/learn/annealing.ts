/**
 * Per-pattern simulated annealing (reference section 6; paper 004, "Simulated Annealing"): each pattern moves
 * toward its TD target at a rate that falls with its own update count, scaled by a global temperature k that
 * may itself follow a schedule over the games played.
 */
import { badInput } from '../util/errors.ts';

/**
 * The paper's update W_n = (W_{n-1}·(n-1) + k·new) / (n + k - 1), with n = updatesBefore + 1 the number of
 * this update and k the temperature: k = 1 keeps the running mean of all targets, k > 1 favours the new
 * target, k < 1 trusts the past. The result is clamped to [0,1] (it only leaves it for inputs outside it).
 *
 * Edge cases:
 * - n = 1 (updatesBefore = 0): the result is exactly `target` for every k > 0, whatever `previous` was
 *   (the initial weight carries no experience), even when k < 1.
 * - k < 1: from the second update on, the past counts more than under the mean; k = 0 ignores the target
 *   entirely and returns `previous` (also on the first update, where the formula would be 0/0).
 * Throws RangeError for a negative or non-finite temperature or a negative / fractional update count.
 */
export function annealedWeight(previous: number, updatesBefore: number, target: number, temperature: number): number {
  if (!(temperature >= 0) || !Number.isFinite(temperature)) {
    throw new RangeError(`annealedWeight: temperature must be a finite number >= 0, got ${temperature}`);
  }
  if (!Number.isInteger(updatesBefore) || updatesBefore < 0) {
    throw new RangeError(`annealedWeight: updatesBefore must be an integer >= 0, got ${updatesBefore}`);
  }
  if (temperature === 0) return clampUnit(previous);
  // With n = updatesBefore + 1: n - 1 = updatesBefore and n + k - 1 = updatesBefore + k.
  const weight = (previous * updatesBefore + temperature * target) / (updatesBefore + temperature);
  return clampUnit(weight);
}

function clampUnit(value: number): number {
  return value < 0 ? 0 : value > 1 ? 1 : value;
}

/** How the global temperature k changes over the games played (game numbers count from 0). */
export type TemperatureSchedule =
  | { readonly kind: 'constant'; readonly temperature: number }
  /** From `start` at game 0 linearly to `end` at game `games`, flat at `end` afterwards. */
  | { readonly kind: 'linear'; readonly start: number; readonly end: number; readonly games: number }
  /** start·2^(-game/halfLife), never below `floor`. */
  | { readonly kind: 'exp'; readonly start: number; readonly halfLife: number; readonly floor: number };

export const DEFAULT_TEMPERATURE_SCHEDULE = 'constant:1';

const SCHEDULE_FORMS = 'constant:K, linear:K0->K1@G or exp:K0,HALF,KMIN';

/** A plain non-negative decimal (optionally with exponent); rejects '', 'abc', '-1', '0x10', 'Infinity'. */
const NON_NEGATIVE_NUMBER = /^\+?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Parses a temperature schedule: `constant:K` (the default is constant:1), `linear:K0->K1@G`, or
 * `exp:K0,HALF,KMIN`. Temperatures must be >= 0, G and HALF > 0. Anything else -> badInput (exit code 2).
 */
export function parseTemperatureSchedule(text: string = DEFAULT_TEMPERATURE_SCHEDULE): TemperatureSchedule {
  const trimmed = text.trim();
  const colon = trimmed.indexOf(':');
  if (colon < 0) throw malformed(text, 'missing "kind:"');
  const kind = trimmed.slice(0, colon).trim().toLowerCase();
  const body = trimmed.slice(colon + 1);
  switch (kind) {
    case 'constant':
      return { kind, temperature: parseNumber(text, body, 'K') };
    case 'linear': {
      const match = /^(.*)->(.*)@(.*)$/.exec(body);
      if (!match) throw malformed(text, 'expected linear:K0->K1@G');
      const games = parseNumber(text, match[3], 'G');
      if (games <= 0) throw malformed(text, 'G (games) must be > 0');
      return { kind, start: parseNumber(text, match[1], 'K0'), end: parseNumber(text, match[2], 'K1'), games };
    }
    case 'exp': {
      const parts = body.split(',');
      if (parts.length !== 3) throw malformed(text, 'expected exp:K0,HALF,KMIN');
      const halfLife = parseNumber(text, parts[1], 'HALF');
      if (halfLife <= 0) throw malformed(text, 'HALF (half-life in games) must be > 0');
      return { kind, start: parseNumber(text, parts[0], 'K0'), halfLife, floor: parseNumber(text, parts[2], 'KMIN') };
    }
    default:
      throw malformed(text, `unknown kind "${kind}"`);
  }
}

function parseNumber(text: string, field: string, name: string): number {
  const trimmed = field.trim();
  const value = NON_NEGATIVE_NUMBER.test(trimmed) ? Number(trimmed) : NaN;
  if (!Number.isFinite(value)) throw malformed(text, `${name} must be a number >= 0, got "${trimmed}"`);
  return value;
}

function malformed(text: string, why: string) {
  return badInput(`bad temperature schedule "${text}": ${why} (forms: ${SCHEDULE_FORMS})`);
}

/** The temperature k for game number `gameNumber` (0 = the first game). */
export function temperatureAt(schedule: TemperatureSchedule, gameNumber: number): number {
  if (!(gameNumber >= 0)) throw new RangeError(`temperatureAt: gameNumber must be >= 0, got ${gameNumber}`);
  switch (schedule.kind) {
    case 'constant':
      return schedule.temperature;
    case 'linear':
      if (gameNumber >= schedule.games) return schedule.end;
      return schedule.start + ((schedule.end - schedule.start) * gameNumber) / schedule.games;
    case 'exp':
      return Math.max(schedule.floor, schedule.start * 2 ** (-gameNumber / schedule.halfLife));
  }
}

/** The text form parseTemperatureSchedule reads, e.g. for recording a run's settings. */
export function formatTemperatureSchedule(schedule: TemperatureSchedule): string {
  switch (schedule.kind) {
    case 'constant':
      return `constant:${schedule.temperature}`;
    case 'linear':
      return `linear:${schedule.start}->${schedule.end}@${schedule.games}`;
    case 'exp':
      return `exp:${schedule.start},${schedule.halfLife},${schedule.floor}`;
  }
}
