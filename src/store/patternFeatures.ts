/**
 * Features of a graph pattern: small facts every graph it matches must contain, as integer keys. A position
 * (or a pattern read as a graph) that lacks one of P's features cannot match P, and a superpattern of P has all
 * of P's features. The hierarchy uses them as index keys: retrieval looks roots up by the position's features
 * (rootIndex.ts), and insertion draws candidate superpatterns from the patterns sharing P's rarest feature.
 *
 * Keys, one range per kind:
 *   typed triple   (from label, to label, edge type 1..3)       0 .. 506 (positionGraph.ts tripleIndex)
 *   exact node     (label, exact square)                        NODE_KEY_BASE + label * 64 + square
 *   safety node    (label, safety 1..3)                         SAFETY_KEY_BASE + label * 4 + safety
 *   edge pair      (from label, to label), any edge type        PAIR_KEY_BASE + from * 13 + to
 *   label          (label)                                      LABEL_KEY_BASE + label
 * Rank and file designations give no feature (their node still gives its label).
 */
import { EDGE_ATTACKS, LABEL_COUNT, SAFETY_ANY, SAFETY_DEFENDED, SAFETY_EN_PRISE } from '../graph/labels.ts';
import { tripleIndex } from '../graph/positionGraph.ts';
import { desigSquare } from '../pattern/designation.ts';
import { nodeSafety, type GraphPattern } from '../pattern/pattern.ts';

const TRIPLE_KEYS = LABEL_COUNT * LABEL_COUNT * 3;
const NODE_KEY_BASE = 1024;
const SAFETY_KEY_BASE = 2048;
const PAIR_KEY_BASE = 2112;
const LABEL_KEY_BASE = 2304;
/** One past the largest key: index arrays are this long. */
export const FEATURE_KEY_COUNT = LABEL_KEY_BASE + LABEL_COUNT;

export const nodeKey = (label: number, square: number): number => NODE_KEY_BASE + label * 64 + square;
export const safetyKey = (label: number, safety: number): number => SAFETY_KEY_BASE + label * 4 + safety;
export const pairKey = (from: number, to: number): number => PAIR_KEY_BASE + from * LABEL_COUNT + to;
export const labelKey = (label: number): number => LABEL_KEY_BASE + label;
/** The pair key of a typed triple key. */
export const pairOfTriple = (triple: number): number => PAIR_KEY_BASE + Math.floor(triple / 3);
export const isTripleKey = (key: number): boolean => key < TRIPLE_KEYS;

/** The distinct feature keys of a graph pattern. */
export function patternFeatures(pattern: GraphPattern): number[] {
  const keys: number[] = [];
  // Patterns are small: a list is cheaper than a set (this runs for every pattern at load).
  const add = (key: number) => {
    if (!keys.includes(key)) keys.push(key);
  };
  pattern.labels.forEach((label, v) => {
    add(labelKey(label));
    const square = desigSquare(pattern.desigs[v]);
    if (square >= 0) add(nodeKey(label, square));
    const safety = nodeSafety(pattern, v);
    if (safety !== SAFETY_ANY) add(safetyKey(label, safety));
  });
  for (const [from, to, code] of pattern.edges) {
    const a = pattern.labels[from];
    const b = pattern.labels[to];
    add(pairKey(a, b));
    // The generalised "attacks" edge is satisfied by any edge type, so it requires only the pair.
    if (code !== EDGE_ATTACKS) add(tripleIndex(a, b, code));
  }
  return keys;
}

/** Label rarity (P N B R Q K per side, then square), as in the matcher's plan order. */
const LABEL_RARITY = [1, 3, 3, 3, 5, 6, 1, 3, 3, 3, 5, 6, 0];

/**
 * How often a feature is expected in a position, lower is rarer: a rough static order (exact squares, x-ray
 * edges, en prise, direct edges, defended, any edge, unattacked, bare labels), rarer labels first within a kind.
 * It only chooses which feature keys a root, so a poor guess costs tests, never correctness.
 */
export function featureCommonness(key: number): number {
  if (key < TRIPLE_KEYS) {
    const pair = Math.floor(key / 3);
    const rarity = LABEL_RARITY[Math.floor(pair / LABEL_COUNT)] + LABEL_RARITY[pair % LABEL_COUNT];
    return (key % 3 === 0 ? 400 : 200) - rarity;
  }
  if (key < SAFETY_KEY_BASE) return 100 - LABEL_RARITY[Math.floor((key - NODE_KEY_BASE) / 64)];
  if (key < PAIR_KEY_BASE) {
    const safety = (key - SAFETY_KEY_BASE) % 4;
    const rarity = LABEL_RARITY[Math.floor((key - SAFETY_KEY_BASE) / 4)];
    return (safety === SAFETY_EN_PRISE ? 300 : safety === SAFETY_DEFENDED ? 500 : 700) - rarity;
  }
  if (key < LABEL_KEY_BASE) {
    const pair = key - PAIR_KEY_BASE;
    return 600 - LABEL_RARITY[Math.floor(pair / LABEL_COUNT)] - LABEL_RARITY[pair % LABEL_COUNT];
  }
  return 800 - LABEL_RARITY[key - LABEL_KEY_BASE];
}

/** The pattern's rarest feature by featureCommonness. */
export function rarestFeature(features: readonly number[]): number {
  let best = features[0];
  for (const key of features) if (featureCommonness(key) < featureCommonness(best)) best = key;
  return best;
}

/**
 * A 64-bit summary of a feature set (two 32-bit words, a one-hash Bloom filter): if P's features are a subset
 * of Q's, so are P's bits of Q's. Insertion rejects most candidate superpatterns with it before matching.
 */
export function featureSignature(features: readonly number[]): [number, number] {
  let low = 0;
  let high = 0;
  for (const key of features) {
    const bit = Math.imul(key, 0x9e3779b1) >>> 26;
    if (bit < 32) low |= 1 << bit;
    else high |= 1 << (bit - 32);
  }
  return [low, high];
}
