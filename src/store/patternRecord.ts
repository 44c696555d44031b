/**
 * One pattern in memory: its pattern (held, or spelled by its canonical key), learned statistics and links,
 * readable (inspect, explain, export) and edited by the hierarchy; retrieval reads the hierarchy's compiled copy of the links (flatHierarchy.ts).
 * Its own module so that the hierarchy, the root index and retrieval can all name it without importing each other.
 */
import type { PatternStats } from './patternRows.ts';
import { compilePattern, type CompiledPattern } from '../pattern/matcher.ts';
import { desigSquare } from '../pattern/designation.ts';
import { patternSize, type GraphPattern, type Pattern } from '../pattern/pattern.ts';
import { patternFromKey } from '../pattern/canonical.ts';

/** The shared empty trigger list (never pushed to: see Hierarchy.retrigger). */
export const NO_RECORDS: PatternRecord[] = [];

/** What a record knows besides its pattern: the learned statistics (patternRows.ts) plus where it came from. */
export interface RecordStats extends PatternStats {
  origin: string;
  createdGame: number;
}

const NO_CODES: readonly number[] = Object.freeze([]);

/** Sorted label * 64 + square of the nodes with an exact square, in an exact-size array (shared when empty). */
function exactCodesOf(pattern: GraphPattern): readonly number[] {
  let count = 0;
  for (let v = 0; v < pattern.desigs.length; v++) if (desigSquare(pattern.desigs[v]) >= 0) count++;
  if (count === 0) return NO_CODES;
  const codes: number[] = [];
  for (let v = 0; v < pattern.desigs.length; v++) {
    const square = desigSquare(pattern.desigs[v]);
    if (square >= 0) codes.push(pattern.labels[v] * 64 + square);
  }
  return count === 1 ? codes.slice() : codes.sort((a, b) => a - b).slice();
}

export class PatternRecord implements RecordStats {
  weight = 0.5;
  updates = 0;
  variance = 0;
  uses = 0;
  origin = 'manual';
  createdGame = 0;
  lastUsedGame: number | null = null;
  /** Replaced only by Hierarchy.finishLoading (with exact-size copies); edited in place otherwise. */
  parents: PatternRecord[] = [];
  children: PatternRecord[] = [];
  /** Longer than any path from a root to a parent: retrieval tests patterns in order of depth. */
  depth = 0;
  /**
   * The parent whose match puts this pattern up for testing: the parent least likely to match (the most exact
   * squares, then the most nodes). Only it lists this pattern among its `triggers`, so a retrieval walks the
   * children of rare matches rather than every child of the common seeds.
   */
  trigger: PatternRecord | null = null;
  triggers: PatternRecord[] = NO_RECORDS;
  /** Summary of the pattern's features in 4 words (patternFeatures.ts setSignature), set by the hierarchy. */
  signature0 = 0;
  signature1 = 0;
  signature2 = 0;
  signature3 = 0;
  /** Set when the hierarchy deletes the record (feature lists drop it lazily). */
  deleted = false;
  /** Where the hierarchy's compiled index (flatHierarchy.ts) keeps this graph pattern; -1 outside it. */
  slot = -1;

  readonly kind: Pattern['kind'];
  /** Node count (0 for material patterns). */
  readonly size: number;
  /** The pattern, when this record holds it (see `pattern`). */
  private held: Pattern | null;

  /**
   * `holdPattern` false keeps only the canonical key, which spells the pattern (a loaded database: a process
   * that only plays never reads most patterns, whose arrays were half its memory); `pattern` then parses it.
   */
  constructor(
    public id: number,
    readonly key: string,
    pattern: Pattern,
    stats?: Partial<RecordStats>,
    holdPattern = true,
  ) {
    this.kind = pattern.kind;
    this.size = patternSize(pattern);
    this.held = holdPattern || pattern.kind === 'material' ? pattern : null;
    // Field by field rather than Object.assign: this runs once per pattern at start-up.
    if (stats !== undefined) {
      if (stats.weight !== undefined) this.weight = stats.weight;
      if (stats.updates !== undefined) this.updates = stats.updates;
      if (stats.variance !== undefined) this.variance = stats.variance;
      if (stats.uses !== undefined) this.uses = stats.uses;
      if (stats.origin !== undefined) this.origin = stats.origin;
      if (stats.createdGame !== undefined) this.createdGame = stats.createdGame;
      if (stats.lastUsedGame !== undefined) this.lastUsedGame = stats.lastUsedGame;
    }
    this.exactCodes = pattern.kind === 'graph' ? exactCodesOf(pattern) : NO_CODES;
  }

  private compiledForm: CompiledPattern | null = null;

  /** The matcher's compiled form of a graph pattern, built on first use. */
  get compiled(): CompiledPattern {
    return (this.compiledForm ??= compilePattern(this.pattern as GraphPattern));
  }

  /** Sorted (label, exact square) codes, label * 64 + square, of the nodes that have an exact square. */
  readonly exactCodes: readonly number[];

  /**
   * The pattern: the one held, or else parsed from the key each time (in the key's node order, the order a
   * held pattern of a loaded record has too). The hierarchy makes every record hold its pattern before its first
   * insert (Hierarchy.featureIndex), so learning, which reads patterns all the time, never parses.
   */
  get pattern(): Pattern {
    return this.held ?? patternFromKey(this.key)!;
  }

  /** Keeps the pattern from now on. */
  holdPattern(): void {
    this.held ??= patternFromKey(this.key)!;
  }
}

