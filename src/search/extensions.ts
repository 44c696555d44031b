/**
 * What Morph's search is made of: independent extensions of the paper's one-ply player over the learned evaluator,
 * and how a search is written down (options, the database's config, names in results).
 *
 * A search is written either as a preset's name (SEARCH_PRESETS) or as the list of its extensions, joined by commas,
 * in any order, each at most once:
 *   material      positions valued by their material (fitted piece values, relation terms, square values), not by
 *                 every matching pattern
 *   captures      the opponent's captures after each move, one deep
 *   quiescence    the captures followed in turn, each side free to stop, QUIESCENCE_DEPTH deep, promotions too
 *                 (instead of `captures`)
 *   mates=N       the opponent's mates by checks within N of its moves, and its returns to a position already seen;
 *                 from N = 2, Morph's own mates by checks as deep, played first
 *   threats=N     the opponent's quiet replies that check or threaten N or more of Morph's pieces, answered
 *   own-threats   what Morph's own move threatens, followed through every reply
 *   plies=N       every move of each side followed N plies past the move (full width, alpha-beta), each line then
 *                 settled by the captures look; it finds what captures, threats and own-threats look for, so a search
 *                 with it does not run those
 *   patterns=K    the K quiet moves a move-pattern database ranks highest (learned, not written: issue 71), each
 *                 followed through every reply as own-threats follows a threat; needs the database (--move-patterns)
 *   late=K        with plies: after the K moves tried first at a node, quiet moves searched a ply shallower unless
 *                 they would be chosen (a late-move reduction)
 *   null=R       with plies: at a node three plies or more from the end, the side to move first passes, the line
 *                searched R plies shallower; where even then the side that just moved gains nothing, the node is
 *                cut (null-move pruning); never in check, nor with only king and pawns to move (zugzwang)
 *   bare-king     against a bare king, the rules' order of moves toward mate instead of the values
 * So `material,quiescence,mates=4,threats=1,own-threats,bare-king` is material-forks, and a list that equals a preset
 * is written as the preset's name: what a database stores stays readable by a Morph that knows only the presets.
 */
import { badInput, quoteInput } from '../util/errors.ts';
import { ONE_CAPTURE, QUIESCENCE, type CaptureLook } from './search.ts';

/** What a search looks at, each extension independent of the others; the search reads only this. */
export interface SearchExtensions {
  /**
   * Positions valued by their material (the fitted piece values, plus relation terms and square values) instead of
   * by every matching pattern: cheap and bounded, so the looks below can afford to value many positions.
   */
  materialValues: boolean;
  /** The opponent's captures after each move: none, one capture, or a capture quiescence (QUIESCENCE). */
  captures: 'none' | 'one' | 'quiescence';
  /**
   * How many of its own moves the opponent's mates by checks are followed: 0 none, 1 a reply that mates at once.
   * Any mates look also counts a reply that returns to a position already seen as a draw; from 2, Morph's own mates
   * by checks as deep are played whatever the values say (MorphPlayer.ownMate).
   */
  mates: number;
  /** The opponent's quiet threats: 0 not looked at, else how many of Morph's pieces a reply must threaten (or check). */
  threatened: number;
  /** What Morph's own move threatens, followed through every reply (search.ts unparriedThreat). */
  ownThreats: boolean;
  /**
   * How many of the quiet moves the move patterns rank highest (MorphPlayerOptions.movePatterns) are followed through
   * every reply (search.ts followedThroughReplies); 0 none.
   */
  patterns: number;
  /**
   * How many plies past the move every legal move of each side is followed (search.ts fullWidthValue), each line
   * then settled by the captures look; 0 none. In place of the captures, threats and own-threats looks.
   */
  plies: number;
  /**
   * With plies: after this many moves tried at a node with two plies or more to go, quiet moves (no capture,
   * promotion or check) are searched a ply shallower, and again at full depth if they would be chosen (a late-move
   * reduction, search.ts fullWidthValue); 0 none.
   */
  late: number;
  /**
   * With plies: at a node with three plies or more to go, the side to move first passes (a null move) and the line
   * is searched this many plies shallower; if even then the side that just moved gains nothing over what it has
   * elsewhere, the node is cut (null-move pruning, search.ts fullWidthValue); 0 none. Not where the side to move is
   * in check or has only its king and pawns (where passing can be its best, zugzwang).
   */
  nullMove: number;
  /** Against a bare king, the rules' order of moves toward mate instead of the values (bareKing.ts). */
  bareKing: boolean;
}

/**
 * How many moves the threat looks follow the opponent's mates by checks. Against gnuchess at depth 1, 111 of
 * Morph's 146 losses (400 games) had a move after which the opponent mated by checks alone within four moves
 * where another move did not allow it: 53 within two, 35 within three, 23 within four (research/mate-losses.ts).
 * Measured against that opponent, paired by opening over 400 games: 3 moves +.052 a game over a mate at once,
 * 4 moves +.015 more (with the longest mate first); the look over every move of a position then takes 4.2 ms on
 * average, 19 ms at the 95th percentile and 346 ms at worst, and a game move's time does not measurably change
 * (docs/lab/2026-11.md, 2026-11-28, "mates by checks").
 */
export const MATE_LOOK_DEPTH = 4;

/**
 * The searches measured in docs/lab/, each against one before it and named by what it added; search.ts's header
 * says what each measured. Kept by name: the paper's player, the defaults (captures-mates trains, material-four-plies
 * plays), and the four a measurement still compares with (material-one-ply, the 1-ply target; material-quiescence,
 * the training search measured against the default; material-forks and material-full-width, the play searches
 * before it). Two steps on the way were retired as names (session 75,
 * docs/lab/2026-12.md) and stay writable as lists: `captures` (itself a list of one extension) and
 * `material-threats` (RETIRED_PRESETS).
 */
export const SEARCH_PRESETS = ['one-ply', 'material-one-ply', 'captures-mates', 'material-quiescence', 'material-forks', 'material-full-width', 'material-four-plies', 'material-five-plies'] as const;
export type SearchPreset = (typeof SEARCH_PRESETS)[number];

/** Every extension of each preset: its name tells only its last addition, this all of them. */
export const PRESET_EXTENSIONS = freezeEach<SearchPreset, SearchExtensions>({
  'one-ply': { materialValues: false, captures: 'none', mates: 0, threatened: 0, ownThreats: false, patterns: 0, plies: 0, late: 0, nullMove: 0, bareKing: false },
  // The paper's one ply with material values: what the relation terms fitted over static material know of pieces
  // en prise stands in for a capture search (the static terms, learn/relationLearning.ts).
  'material-one-ply': { materialValues: true, captures: 'none', mates: 0, threatened: 0, ownThreats: false, patterns: 0, plies: 0, late: 0, nullMove: 0, bareKing: false },
  // The bare-king technique came with the mates look, and every preset that looks at mates has it.
  'captures-mates': { materialValues: false, captures: 'one', mates: 1, threatened: 0, ownThreats: false, patterns: 0, plies: 0, late: 0, nullMove: 0, bareKing: true },
  'material-quiescence': { materialValues: true, captures: 'quiescence', mates: 1, threatened: 0, ownThreats: false, patterns: 0, plies: 0, late: 0, nullMove: 0, bareKing: true },
  // The forks look also answers a single threat no move parries (a pin, a trapped piece), as it follows its own.
  'material-forks': { materialValues: true, captures: 'quiescence', mates: MATE_LOOK_DEPTH, threatened: 1, ownThreats: true, patterns: 0, plies: 0, late: 0, nullMove: 0, bareKing: true },
  // Every move of each side three plies past the move, in place of the hand-written threat looks: what they find,
  // and whatever else the learned values see that deep (docs/lab/2026-12.md, session 77).
  'material-full-width': { materialValues: true, captures: 'quiescence', mates: MATE_LOOK_DEPTH, threatened: 0, ownThreats: false, patterns: 0, plies: 3, late: 0, nullMove: 0, bareKing: true },
  // A fourth ply for about twice the work: after the three moves tried first at a node, quiet moves a ply shallower
  // unless they would be chosen (docs/lab/2026-12.md, sessions 81 and 82).
  'material-four-plies': { materialValues: true, captures: 'quiescence', mates: MATE_LOOK_DEPTH, threatened: 0, ownThreats: false, patterns: 0, plies: 4, late: 3, nullMove: 0, bareKing: true },
  // A fifth ply for about twice the work of four, by null-move pruning (docs/lab/2026-12.md, session 83).
  'material-five-plies': { materialValues: true, captures: 'quiescence', mates: MATE_LOOK_DEPTH, threatened: 0, ownThreats: false, patterns: 0, plies: 5, late: 3, nullMove: 2, bareKing: true },
});

/** The record frozen, and each of its values: every player of a preset shares that preset's extensions. */
function freezeEach<K extends string, T extends object>(record: Record<K, T>): Readonly<Record<K, Readonly<T>>> {
  for (const value of Object.values<T>(record)) Object.freeze(value);
  return Object.freeze(record);
}

/**
 * A search as text: a preset's name, or a list of extensions (this module's header). What options, a database's
 * config and players' names hold; extensionsOf reads it.
 */
export type SearchSpec = string;

/** The forms a search may take, for the one-line error that refuses a bad one. */
export const SEARCH_FORMS =
  `a search is a preset (${SEARCH_PRESETS.join(', ')}) or extensions joined by commas, each at most once: ` +
  'material, captures or quiescence, mates=N, threats=N, own-threats, patterns=N, plies=N, late=N, null=N, bare-king (N a whole number from 1; ' +
  'e.g. material,quiescence,mates=4,threats=1,own-threats,bare-king)';

const isPreset = (text: string): text is SearchPreset => (SEARCH_PRESETS as readonly string[]).includes(text);

/** Why a search with patterns=K cannot start without a move-pattern database; `remedy` says how to give one. */
export function movePatternsNeeded(search: string, remedy: string): string {
  return `${search} follows the quiet moves move patterns rank highest: ${remedy}`;
}

/**
 * The extensions of a search written as a preset's name or as a list; a bad one is refused in one line (exit 2),
 * `what` naming where it came from (an option, a config field).
 */
export function extensionsOf(search: SearchSpec, what = 'search'): Readonly<SearchExtensions> {
  if (isPreset(search)) return PRESET_EXTENSIONS[search];
  if (typeof search === 'string' && Object.hasOwn(RETIRED_PRESETS, search)) return extensionsOf(RETIRED_PRESETS[search], what);
  const refuse = (reason: string) => badInput(`${what} "${quoteInput(String(search))}": ${reason}; ${SEARCH_FORMS}`);
  // A config is JSON: its search may be anything.
  if (typeof search !== 'string') throw refuse('not text');
  if (search.trim() === '') throw refuse('no extensions');
  const extensions: SearchExtensions = { ...PRESET_EXTENSIONS['one-ply'] };
  const seen = new Set<string>();
  for (const item of search.split(',').map((text) => text.trim())) {
    const equals = item.indexOf('=');
    const name = equals < 0 ? item : item.slice(0, equals);
    const count = equals < 0 ? undefined : item.slice(equals + 1);
    if (!EXTENSION_NAMES.has(name)) throw refuse(`"${quoteInput(item)}" is not an extension`);
    if (seen.has(name)) throw refuse(`${name} more than once`);
    // Two depths of one look: a search follows the captures one deep or in turn.
    if (seen.has(name === 'captures' ? 'quiescence' : name === 'quiescence' ? 'captures' : '')) throw refuse('captures or quiescence, not both');
    seen.add(name);
    const counted = name === 'mates' || name === 'threats' || name === 'patterns' || name === 'plies' || name === 'late' || name === 'null';
    if (counted && count === undefined) throw refuse(`${name} needs a count, as ${name}=N`);
    if (!counted && count !== undefined) throw refuse(`${name} takes no count`);
    if (counted && !/^[1-9]\d*$/.test(count!)) throw refuse(`${name} needs a whole number from 1, got "${quoteInput(count!)}"`);
    if (name === 'material') extensions.materialValues = true;
    else if (name === 'captures') extensions.captures = 'one';
    else if (name === 'quiescence') extensions.captures = 'quiescence';
    else if (name === 'mates') extensions.mates = Number(count);
    else if (name === 'threats') extensions.threatened = Number(count);
    else if (name === 'own-threats') extensions.ownThreats = true;
    else if (name === 'patterns') extensions.patterns = Number(count);
    else if (name === 'plies') extensions.plies = Number(count);
    else if (name === 'late') extensions.late = Number(count);
    else if (name === 'null') extensions.nullMove = Number(count);
    else extensions.bareKing = true;
  }
  if (extensions.late > 0 && extensions.plies === 0) throw refuse('late reduces the plies look: it needs plies=N');
  if (extensions.nullMove > 0 && extensions.plies === 0) throw refuse('null prunes the plies look: it needs plies=N');
  return Object.freeze(extensions);
}

const EXTENSION_NAMES: ReadonlySet<string> = new Set(['material', 'captures', 'quiescence', 'mates', 'threats', 'own-threats', 'patterns', 'plies', 'late', 'null', 'bare-king']);

/**
 * Preset names no longer offered, as the lists they were: a database saved with one still opens and plays as it
 * did, and shows the list. `material-threats` answered only double threats; material-forks, which answers single
 * ones and follows Morph's own, measured stronger (learn/config.ts, playSearch).
 */
const RETIRED_PRESETS: Readonly<Record<string, string>> = {
  'material-threats': `material,quiescence,mates=${MATE_LOOK_DEPTH},threats=2,bare-king`,
};

/** The extensions as a list in the canonical order ('' for none: the one-ply player). */
export function extensionList(extensions: Readonly<SearchExtensions>): string {
  const items: string[] = [];
  if (extensions.materialValues) items.push('material');
  if (extensions.captures === 'one') items.push('captures');
  if (extensions.captures === 'quiescence') items.push('quiescence');
  if (extensions.mates > 0) items.push(`mates=${extensions.mates}`);
  if (extensions.threatened > 0) items.push(`threats=${extensions.threatened}`);
  if (extensions.ownThreats) items.push('own-threats');
  if (extensions.patterns > 0) items.push(`patterns=${extensions.patterns}`);
  if (extensions.plies > 0) items.push(`plies=${extensions.plies}`);
  if (extensions.late > 0) items.push(`late=${extensions.late}`);
  if (extensions.nullMove > 0) items.push(`null=${extensions.nullMove}`);
  if (extensions.bareKing) items.push('bare-king');
  return items.join(',');
}

/** How a search is written: the preset's name when the extensions are a preset's, else their canonical list. */
export function formatSearch(extensions: Readonly<SearchExtensions>): SearchSpec {
  const list = extensionList(extensions);
  return SEARCH_PRESETS.find((preset) => extensionList(PRESET_EXTENSIONS[preset]) === list) ?? list;
}

/** A search as it is stored and shown (formatSearch of its extensions); refused as extensionsOf refuses it. */
export function normalizeSearch(search: SearchSpec, what = 'search'): SearchSpec {
  return formatSearch(extensionsOf(search, what));
}

/** A search's capture look (search.ts): the quiescence's, or one capture (also what the threat looks follow without captures). */
export const captureLook = (extensions: Readonly<SearchExtensions>): CaptureLook => (extensions.captures === 'quiescence' ? QUIESCENCE : ONE_CAPTURE);

/**
 * Whether a move's value depends on the window and order it was searched in (a late-move reduction, null-move
 * pruning): the full ranking (every move with an open window) can then put first a move the game search does not
 * play, so what Morph plays is read from the game search (MorphPlayer.choose, agree's chooseAmong).
 */
export const windowDependent = (extensions: Readonly<SearchExtensions>): boolean => extensions.late > 0 || extensions.nullMove > 0;

/** Whether a search looks past a move's own position at all (MorphPlayer.bestMove's shortcut then applies). */
export const looksPastTheMove = (extensions: Readonly<SearchExtensions>): boolean =>
  extensions.captures !== 'none' || extensions.mates > 0 || extensions.threatened > 0 || extensions.ownThreats || extensions.patterns > 0 || extensions.plies > 0;

/**
 * The move policy's default weight (src/model/policy.ts) for a player looking this far (docs/lab/).
 * With the looks that value positions by all their patterns, .1: measured best on the scored positions, and
 * level with .05-1 in games.
 * With the material searches (materialValues), whose values are settled material, .03: there the policy should
 * choose among moves of equal material, not outvote a lost pawn. Against .1 on the same four databases: mean
 * win-chance loss -0.40, -0.10, -0.76 and -0.37, and in games against ab:2,q +.033, +.025 and +.010 (2026-11-24).
 */
export function defaultPolicyWeight(extensions: Readonly<SearchExtensions>): number {
  return extensions.materialValues ? 0.03 : 0.1;
}

/**
 * How much less than an even result a draw is worth to Morph after its own move, in log-odds (a draw is then
 * worth 1 / (1 + e^c)): contempt, as engines call it. With the material searches .1 (a draw .475), so that at
 * level material Morph plays on rather than repeat: against ab:2,q about two thirds of its draws were repetitions,
 * many of them at level material in the middlegame, and it wins more of the games it plays on than it loses
 * (docs/lab/2026-11.md, 2026-11-25, "contempt"). Else 0: training's search is left as it was. Against a stronger
 * opponent a draw is worth more than Morph's expected result; against gnuchess:depth=1 (.335 without contempt)
 * it measured no cost (+.030 [-.037, +.097]), and `--contempt 0` is there for such opponents.
 */
export function defaultContempt(extensions: Readonly<SearchExtensions>): number {
  return extensions.materialValues ? 0.1 : 0;
}
