/**
 * Opponent specs: the short text that names a sparring partner on the command line and in logs, e.g.
 * "stockfish:skill=3,depth=2", "gnuchess:depth=2", "uci:/usr/bin/myengine:Hash=32", "xboard:fairymax:depth=2", "ab:2", "random",
 * "mix:random;ab:1", "ladder:stockfish@1000;stockfish:skill=20,depth=1".
 *
 * Parsing fills in the defaults, so formatOpponentSpec gives the full, canonical text of what will play
 * (bare "stockfish" becomes "stockfish:skill=0,depth=1") and a recorded spec can be replayed exactly.
 */
import { badInput } from '../util/errors.ts';
import type { GoParams } from './uciClient.ts';

export type OpponentSpec =
  /** options: skill, depth, nodes, movetime, and any other engine option by its UCI name. */
  | { kind: 'stockfish'; options: Record<string, string> }
  /** options: depth, nodes, movetime, and any other engine option by its UCI name. */
  | { kind: 'uci'; path: string; options: Record<string, string> }
  /**
   * An engine speaking xboard's CECP. command: the program and its arguments, separated by spaces. options:
   * depth (`sd`) or movetime (`st`, milliseconds rounded up to seconds).
   */
  | { kind: 'xboard'; command: string; options: Record<string, string> }
  | { kind: 'gnuchess'; depth: number }
  | { kind: 'morph'; dbPath: string }
  | { kind: 'random' }
  | { kind: 'greedy' }
  /**
   * The inner player, but a uniformly random legal move with this probability (a handicap). With `target`
   * (noisy:auto=T:SPEC) the probability starts at `probability` and training adjusts it after every game to
   * hold Morph's score near T (NoisyPlayer.adapt).
   */
  | { kind: 'noisy'; probability: number; inner: OpponentSpec; target?: number }
  /** Self-play: the opponent is the learning Morph itself, on the same live database (training only). */
  | { kind: 'self' }
  /** body: what follows "ab:", read by the alpha-beta engine's own factory. */
  | { kind: 'ab'; body: string }
  /** Training against several opponents in turn: game n (1-based) plays members[(n - 1) mod k] (training only). */
  | { kind: 'mix'; members: OpponentSpec[] }
  /**
   * Training against stronger partners as the database grows: rung i plays every game numbered up to its
   * `lastGame` (the database's game numbers, 1-based, so a resumed run meets the same rung); the last rung, which
   * has none, plays every game after (training only).
   */
  | { kind: 'ladder'; rungs: LadderRung[] };

export interface LadderRung {
  spec: OpponentSpec;
  /** The last game number this rung plays; undefined for the last rung. */
  lastGame?: number;
}

export type OpponentKind = OpponentSpec['kind'];

export const VALID_OPPONENT_FORMS =
  'stockfish[:skill=N,depth=N,nodes=N,movetime=MS,Name=value,...], gnuchess[:depth=N], ' +
  'uci:PATH[:depth=N,nodes=N,movetime=MS,Name=value,...], xboard:COMMAND[:depth=N,movetime=MS,clock=MS], morph:DB_PATH, ab:D, random, greedy, noisy:P:SPEC, noisy:auto=T:SPEC, self (training only), ' +
  'mix:SPEC;SPEC;... (training only: game n plays member (n - 1) mod k), ' +
  'ladder:SPEC@N;SPEC@M;...;SPEC (training only: the first plays games 1-N, the next up to M, the last every game after)';

/** Where an adaptive handicap's probability starts on a database that has none recorded. */
export const ADAPTIVE_START_PROBABILITY = 0.5;

/** Spec keys that are search limits rather than engine options. */
const GO_KEYS = ['depth', 'nodes', 'movetime'] as const;
/** An xboard engine's limits: `sd`, `st`, or a clock for the rest of the game (xboardClient.ts). */
const XBOARD_KEYS = ['depth', 'movetime', 'clock'] as const;
const STOCKFISH_DEFAULT_SKILL = '0';
const DEFAULT_DEPTH = '1';
const MAX_STOCKFISH_SKILL = 20;

export function parseOpponentSpec(text: string): OpponentSpec {
  const spec = text.trim();
  const colon = spec.indexOf(':');
  const kind = colon < 0 ? spec : spec.slice(0, colon);
  const body = colon < 0 ? undefined : spec.slice(colon + 1).trim();
  const fail = (problem: string): never => {
    throw badInput(`bad opponent "${text}": ${problem}; valid forms: ${VALID_OPPONENT_FORMS}`);
  };
  if (body === '') fail(`nothing after "${kind}:"`);

  switch (kind) {
    case 'random':
    case 'greedy':
    case 'self':
      if (body !== undefined) fail(`${kind} takes no options`);
      return { kind };
    case 'ab':
      return { kind, body: body ?? '' };
    case 'noisy': {
      const split = (body ?? '').indexOf(':');
      if (split < 0) fail('noisy needs a probability and a player: noisy:P:SPEC, e.g. noisy:0.3:stockfish');
      const probabilityText = body!.slice(0, split).trim();
      const adaptive = /^auto=(.*)$/.exec(probabilityText);
      const number = Number(adaptive ? adaptive[1] : probabilityText);
      if ((adaptive ? adaptive[1] : probabilityText).trim() === '' || !(number >= 0 && number <= 1)) {
        fail(adaptive ? `the target score must be in [0, 1], got "${adaptive[1]}"` : `the probability must be in [0, 1], got "${probabilityText}"`);
      }
      const probability = adaptive ? ADAPTIVE_START_PROBABILITY : number;
      const target = adaptive ? number : undefined;
      const inner = parsePart(body!.slice(split + 1), '', fail);
      if (inner.kind === 'self') fail('self-play cannot be noisy');
      if (inner.kind === 'mix') fail('a mix cannot be noisy; make its members noisy instead');
      if (inner.kind === 'ladder') fail('a ladder cannot be noisy; make its rungs noisy instead');
      return target === undefined ? { kind, probability, inner } : { kind, probability, inner, target };
    }
    case 'morph':
      if (body === undefined) fail('morph needs its database: morph:DB_PATH');
      return { kind, dbPath: body! };
    case 'gnuchess': {
      const options = parseOptionList(body ?? '', ['depth'], fail);
      for (const name of Object.keys(options)) {
        if (name !== 'depth') fail(`gnuchess takes only depth=N, not "${name}"`);
      }
      return { kind, depth: positiveInteger('depth', options.depth ?? DEFAULT_DEPTH, fail) };
    }
    case 'stockfish': {
      const options = parseOptionList(body ?? '', [...GO_KEYS, 'skill'], fail);
      return { kind, options: stockfishOptions(options, fail) };
    }
    case 'uci': {
      if (body === undefined) fail('uci needs the engine binary: uci:PATH');
      const { head, options } = splitTrailingOptions(body!, GO_KEYS, fail);
      const path = head.trim();
      if (path === '') fail('uci needs the engine binary: uci:PATH');
      return { kind, path, options: withDefaultDepth(checkedSearchLimits(options, fail)) };
    }
    case 'xboard': {
      if (body === undefined) fail('xboard needs the engine command: xboard:COMMAND');
      const { head, options } = splitTrailingOptions(body!, XBOARD_KEYS, fail);
      const command = head.replace(/\s+/g, ' ').trim();
      if (command === '') fail('xboard needs the engine command: xboard:COMMAND');
      for (const name of Object.keys(options)) {
        if (!(XBOARD_KEYS as readonly string[]).includes(name)) {
          fail(`xboard takes only depth=N, movetime=MS and clock=MS, not "${name}"`);
        }
      }
      const { clock, ...limits } = options;
      if (clock === undefined) return { kind, command, options: withDefaultDepth(checkedSearchLimits(limits, fail)) };
      // A clock is a limit of its own: no default depth beside it.
      return { kind, command, options: { ...checkedSearchLimits(limits, fail), clock: String(positiveInteger('clock', clock, fail)) } };
    }
    case 'mix': {
      const texts = (body ?? '').split(';');
      if (body === undefined || texts.length < 2) fail('a mix needs at least two members: mix:SPEC;SPEC;..., e.g. mix:random;ab:1');
      const members = texts.map((member, index) => parseScheduledPart(member, `member ${index + 1}: `, 'mix', fail));
      return { kind, members };
    }
    case 'ladder': {
      const texts = (body ?? '').split(';');
      if (body === undefined || texts.length < 2) {
        fail('a ladder needs at least two rungs: ladder:SPEC@N;SPEC, e.g. ladder:stockfish@1000;stockfish:skill=20,depth=1');
      }
      let previous = 0;
      const rungs = texts.map((text, index): LadderRung => {
        const label = `rung ${index + 1}: `;
        const isLast = index === texts.length - 1;
        const bound = /@\s*([^@;]*)$/.exec(text);
        const spec = parseScheduledPart(bound ? text.slice(0, bound.index) : text, label, 'ladder', fail);
        if (isLast && bound) fail(`${label}the last rung plays every game after the others, so it takes no @N`);
        if (!isLast && !bound) fail(`${label}needs the last game it plays: SPEC@N`);
        if (!bound) return { spec };
        const lastGame = Number(bound[1]); // "" and blanks read as 0, below every bound
        if (!Number.isInteger(lastGame) || lastGame <= previous) {
          fail(`${label}@N must be a whole number above ${previous === 0 ? '0' : `the rung before's ${previous}`}, got "${bound[1]!.trim()}"`);
        }
        previous = lastGame;
        return { spec, lastGame };
      });
      return { kind, rungs };
    }
    default:
      return fail(kind === '' ? 'it is empty' : `unknown opponent "${kind}"`);
  }
}

/** A spec inside another (a noisy player's, a mix member): what is wrong with it, but naming the whole spec. */
function parsePart(text: string, label: string, fail: (problem: string) => never): OpponentSpec {
  try {
    return parseOpponentSpec(text);
  } catch (error) {
    const problem = (error as Error).message.replace(/^bad opponent "[^"]*": /, '').replace(/; valid forms: .*$/, '');
    return fail(label + problem);
  }
}

/**
 * A mix member or a ladder rung: any single opponent, but not a mix or a ladder itself, nor an adaptive handicap
 * (its probability is one per run).
 */
function parseScheduledPart(text: string, label: string, within: 'mix' | 'ladder', fail: (problem: string) => never): OpponentSpec {
  const nested = /^\s*(mix|ladder)(:|$)/.exec(text);
  if (nested) fail(`${label}a ${within} cannot hold a ${nested[1]}`);
  const spec = parsePart(text, label, fail);
  if (spec.kind === 'noisy' && spec.target !== undefined) {
    const role = within === 'mix' ? 'a mix member' : 'a rung';
    fail(`${label}an adaptive handicap (noisy:auto=T) cannot be ${role}, its probability is one per run; use noisy:P:SPEC`);
  }
  return spec;
}

/** The opponents a spec stands for: a mix's members, a ladder's rungs, or the spec itself. */
export function opponentMembers(spec: OpponentSpec): OpponentSpec[] {
  if (spec.kind === 'ladder') return spec.rungs.map((rung) => rung.spec);
  return spec.kind === 'mix' ? spec.members : [spec];
}

/**
 * The opponent of game `gameNumber` (1-based): a mix's members take turns by game number; a ladder's rung is the
 * first whose last game is not before it.
 */
export function opponentOfGame(spec: OpponentSpec, gameNumber: number): OpponentSpec {
  if (spec.kind === 'ladder') {
    return (spec.rungs.find((rung) => rung.lastGame === undefined || gameNumber <= rung.lastGame) ?? spec.rungs.at(-1)!).spec;
  }
  const members = opponentMembers(spec);
  return members[(((gameNumber - 1) % members.length) + members.length) % members.length]!;
}

export function formatOpponentSpec(spec: OpponentSpec): string {
  switch (spec.kind) {
    case 'random':
    case 'greedy':
    case 'self':
      return spec.kind;
    case 'ab':
      return spec.body === '' ? 'ab' : `ab:${spec.body}`;
    case 'morph':
      return `morph:${spec.dbPath}`;
    case 'noisy':
      return `noisy:${spec.target === undefined ? spec.probability : `auto=${spec.target}`}:${formatOpponentSpec(spec.inner)}`;
    case 'gnuchess':
      return `gnuchess:depth=${spec.depth}`;
    case 'stockfish':
      return withOptions('stockfish', spec.options);
    case 'uci':
      return withOptions(`uci:${spec.path}`, spec.options);
    case 'xboard':
      return withOptions(`xboard:${spec.command}`, spec.options);
    case 'mix':
      return `mix:${spec.members.map(formatOpponentSpec).join(';')}`;
    case 'ladder':
      return `ladder:${spec.rungs.map((rung) => formatOpponentSpec(rung.spec) + (rung.lastGame === undefined ? '' : `@${rung.lastGame}`)).join(';')}`;
  }
}

/** Splits an engine spec's options into search limits (depth, nodes, movetime) and `setoption`s. */
export function engineSettings(options: Readonly<Record<string, string>>): {
  go: GoParams;
  setoptions: Record<string, string>;
} {
  const go: GoParams = {};
  const setoptions: Record<string, string> = {};
  for (const [name, value] of Object.entries(options)) {
    if ((GO_KEYS as readonly string[]).includes(name)) go[name as (typeof GO_KEYS)[number]] = Number(value);
    else setoptions[name] = value;
  }
  return { go, setoptions };
}

function withOptions(head: string, options: Readonly<Record<string, string>>): string {
  const list = Object.entries(options).map(([name, value]) => `${name}=${value}`);
  return list.length === 0 ? head : `${head}:${list.join(',')}`;
}

/** An engine's command and its options: they follow the last colon, if what follows it reads as options (a path may contain colons). */
function splitTrailingOptions(
  body: string,
  specKeys: readonly string[],
  fail: (problem: string) => never,
): { head: string; options: Record<string, string> } {
  const lastColon = body.lastIndexOf(':');
  const hasOptions = lastColon >= 0 && body.slice(lastColon + 1).includes('=');
  return {
    head: hasOptions ? body.slice(0, lastColon) : body,
    options: parseOptionList(hasOptions ? body.slice(lastColon + 1) : '', specKeys, fail),
  };
}

/** Reads "Name=value,..."; `specKeys` (the spec's own keys) are case-insensitive, engine option names are not. */
function parseOptionList(
  text: string,
  specKeys: readonly string[],
  fail: (problem: string) => never,
): Record<string, string> {
  const options: Record<string, string> = {};
  if (text.trim() === '') return options;
  for (const item of text.split(',')) {
    const equals = item.indexOf('=');
    if (equals < 0) fail(`option "${item.trim()}" needs a value (Name=value)`);
    let name = item.slice(0, equals).trim();
    const value = item.slice(equals + 1).trim();
    if (name === '') fail(`option "${item.trim()}" has no name`);
    if (value === '') fail(`option "${name}" has no value`);
    if (specKeys.includes(name.toLowerCase())) name = name.toLowerCase();
    if (name in options) fail(`option "${name}" is given twice`);
    options[name] = value;
  }
  return options;
}

/** Validates the search limits and puts them first, in a fixed order, so the canonical text is stable. */
function checkedSearchLimits(
  options: Record<string, string>,
  fail: (problem: string) => never,
): Record<string, string> {
  const ordered: Record<string, string> = {};
  for (const key of GO_KEYS) {
    if (options[key] !== undefined) ordered[key] = String(positiveInteger(key, options[key], fail));
  }
  const engineOptions = Object.entries(options).filter(([name]) => !(name in ordered));
  return { ...ordered, ...Object.fromEntries(engineOptions) };
}

/** skill first (default 0), then the search limits (default depth 1), then engine options. */
function stockfishOptions(options: Record<string, string>, fail: (problem: string) => never): Record<string, string> {
  const { skill, ...rest } = options;
  if (skill !== undefined && rest['Skill Level'] !== undefined) fail('give skill or "Skill Level", not both');
  if (skill !== undefined && (!/^\d+$/.test(skill) || Number(skill) > MAX_STOCKFISH_SKILL)) {
    fail(`skill must be a whole number from 0 to ${MAX_STOCKFISH_SKILL}, got "${skill}"`);
  }
  const limited = withDefaultDepth(checkedSearchLimits(rest, fail));
  if (rest['Skill Level'] !== undefined) return limited;
  return { skill: String(Number(skill ?? STOCKFISH_DEFAULT_SKILL)), ...limited };
}

/** An engine with no search limit would think forever; sparring defaults to depth 1. */
function withDefaultDepth(options: Record<string, string>): Record<string, string> {
  if (GO_KEYS.some((key) => options[key] !== undefined)) return options;
  return { depth: DEFAULT_DEPTH, ...options };
}

function positiveInteger(name: string, value: string, fail: (problem: string) => never): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) fail(`${name} must be a positive whole number, got "${value}"`);
  return Number(value);
}
