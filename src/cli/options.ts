/** Parsing command-line options (numbers, seeds, searches, policy weights) with one-line errors. */
import { badInput } from '../util/errors.ts';
import { MODEL_SEARCH_MODES, type ModelSearchMode } from '../search/search.ts';
import { defaultContempt, defaultPolicyWeight, normalizeSearch, PRESET_EXTENSIONS, SEARCH_PRESETS, type SearchSpec } from '../search/extensions.ts';
import { DEFAULT_MODEL_MODE, MODEL_MODES, type ModelMode } from '../model/predictedReplies.ts';
import { MATERIAL_FIT_ALONE } from '../eval/materialFit.ts';

/**
 * The help text of a play search's option (`--search`, `--play-search`), before what it is for: the presets, and
 * the extension lists docs/cli.md ("Searches") spells out.
 */
const EXTENSIONS_HELP = 'material, captures|quiescence, mates=N, threats=N, own-threats, plies=N, late=N, bare-king';
export const SEARCH_HELP = `${SEARCH_PRESETS.join(' | ')}, or extensions joined by commas (${EXTENSIONS_HELP}, patterns=K with --move-patterns)`;
/** Training's searches: a database carries no move patterns, so patterns=K is not among them. */
export const TRAINING_SEARCH_HELP = `${SEARCH_PRESETS.join(' | ')}, or extensions joined by commas (${EXTENSIONS_HELP})`;

/** The searches that value positions by material, as help text says them: "a, b, c and any list with material". */
const MATERIAL_SEARCHES = `${SEARCH_PRESETS.filter((preset) => PRESET_EXTENSIONS[preset].materialValues).join(', ')} and any list with material`;

/** The help text of `--policy-weight`, for every command that takes a move policy. */
export const POLICY_WEIGHT_HELP = `with a policy: what a unit of log-probability counts against a unit of value (default ${defaultPolicyWeight(PRESET_EXTENSIONS['material-quiescence'])} with the searches ${MATERIAL_SEARCHES}, else ${defaultPolicyWeight(PRESET_EXTENSIONS['captures-mates'])})`;

/** `--policy-weight`: a number of at least 0, or undefined when not given (the policy's default). */
export function parsePolicyWeightOption(text: string | undefined): number | undefined {
  return text === undefined ? undefined : parseNumberOption('--policy-weight', text, 0);
}

/** The help text of `--contempt`, for every command that plays Morph. */
export const CONTEMPT_HELP = `how much less than an even result a draw is worth to Morph, in log-odds (a draw is worth 1/(1+e^c)); 0 for .5 (default ${defaultContempt(PRESET_EXTENSIONS['material-forks'])} with the searches ${MATERIAL_SEARCHES}, else ${defaultContempt(PRESET_EXTENSIONS['captures-mates'])})`;

/** `--contempt`: a number from -5 to 5 (a draw worth .007 to .993), or undefined when not given (the search's default). */
export function parseContemptOption(text: string | undefined): number | undefined {
  return text === undefined ? undefined : parseNumberOption('--contempt', text, -5, 5);
}

/** The help text of `--material-prior`, for every command that plays Morph with a database's settings. */
export const MATERIAL_PRIOR_HELP = `pseudo-counts of the fitted piece values blended into each material weight by the material searches, 0 for none, ${MATERIAL_FIT_ALONE} for the fitted values alone (default: the database's)`;

/** `--material-prior`: from 0 to MATERIAL_FIT_ALONE, or undefined when not given (the database's own). */
export function parseMaterialPriorOption(text: string | undefined): number | undefined {
  return text === undefined ? undefined : parseNumberOption('--material-prior', text, 0, MATERIAL_FIT_ALONE);
}

function rangeText(min: number, max: number): string {
  if (min > -Infinity && max < Infinity) return ` from ${min} to ${max}`;
  if (min > -Infinity) return ` of at least ${min}`;
  return max < Infinity ? ` of at most ${max}` : '';
}

export function parseIntegerOption(name: string, text: string, min = -Infinity, max = Infinity): number {
  const value = Number(text);
  if (!/^-?\d+$/.test(text.trim()) || value < min || value > max) {
    throw badInput(`${name} needs a whole number${rangeText(min, max)}, got "${text}"`);
  }
  return value;
}

export function parseNumberOption(name: string, text: string, min = -Infinity, max = Infinity): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < min || value > max) {
    throw badInput(`${name} needs a number${rangeText(min, max)}, got "${text}"`);
  }
  return value;
}

/** A number that must be more than 0 (a duration: 0 would mean "stop at once", or be taken as "no limit"). */
export function parsePositiveNumberOption(name: string, text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0) {
    throw badInput(`${name} needs a number more than 0, got "${text}"`);
  }
  return value;
}

/** Seeds are 32-bit: the seeded generator (util/random.ts) keeps 32 bits of state. */
const MAX_SEED = 2 ** 32 - 1;

/** A --seed option: a whole number in [0, 2^32 - 1], or undefined when not given. */
export function parseSeedOption(text: string | undefined): number | undefined {
  return text === undefined ? undefined : parseIntegerOption('--seed', text, 0, MAX_SEED);
}

/**
 * A --search option (or another named one, e.g. --play-search): a preset's name or a list of extensions, as it is
 * stored and shown (the preset's name when the list is one), or undefined when not given. A bad one is refused in
 * one line that lists the forms a search takes.
 */
export function parseSearchOption(text: string | undefined, option = '--search'): SearchSpec | undefined {
  return text === undefined ? undefined : normalizeSearch(text, option);
}

/** `--search` of an opponent model (morph model, predict). */
export function parseModelSearchOption(text: string | undefined): ModelSearchMode | undefined {
  return parseModeOption('--search', MODEL_SEARCH_MODES, text);
}

function parseModeOption<T extends string>(option: string, modes: readonly T[], text: string | undefined): T | undefined {
  if (text === undefined) return undefined;
  if (!(modes as readonly string[]).includes(text)) throw badInput(`${option} must be one of ${modes.join(', ')}, got "${text}"`);
  return text as T;
}

export const MODEL_MODE_HELP =
  `with an opponent model: look (a move is worth no more than the worst of the model's likeliest replies leaves, ` +
  `on top of the captures look and policy) | coach (IAM: the mean over those replies, no policy) | line (the best few ` +
  `moves followed along the likeliest reply to Morph's best answer, weighted by its probability) (default ${DEFAULT_MODEL_MODE})`;

export function parseModelModeOption(text: string | undefined): ModelMode | undefined {
  return parseModeOption('--model-mode', MODEL_MODES, text);
}
