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
 *   rank, file     (label, rank) and (label, file) of a node designated by an exact square, rank or file
 *                                                              RANK_KEY_BASE + label * 8 + rank, FILE_KEY_BASE + ...
 *
 * Superpattern search adds one more kind, too many in a position to look roots up by, but what tells a real
 * superpattern from a pattern that merely has the same edges somewhere:
 *   two-edge path  (middle label, end labels, directions), three distinct nodes, any edge types
 *                                                              PATH_KEY_BASE + ((directions * 13 + middle) * 13 + end) * 13 + end
 */
import { EDGE_ATTACKS, LABEL_COUNT, SAFETY_ANY, SAFETY_DEFENDED, SAFETY_EN_PRISE } from '../graph/labels.ts';
import { tripleIndex } from '../graph/positionGraph.ts';
import { desigFile, desigRank, desigSquare } from '../pattern/designation.ts';
import { fileOf, rankOf } from '../chess/board.ts';
import { nodeSafety, type GraphPattern } from '../pattern/pattern.ts';

const TRIPLE_KEYS = LABEL_COUNT * LABEL_COUNT * 3;
const NODE_KEY_BASE = 1024;
const SAFETY_KEY_BASE = 2048;
const PAIR_KEY_BASE = 2112;
const LABEL_KEY_BASE = 2304;
const RANK_KEY_BASE = LABEL_KEY_BASE + LABEL_COUNT;
const FILE_KEY_BASE = RANK_KEY_BASE + LABEL_COUNT * 8;
/** One past the largest key of patternFeatures: the root index's arrays are this long. */
export const FEATURE_KEY_COUNT = FILE_KEY_BASE + LABEL_COUNT * 8;
const PATH_KEY_BASE = FEATURE_KEY_COUNT;
const OUT_OUT = 0;
const IN_IN = 1;
const IN_OUT = 2;
/** One past the largest key of superpatternFeatures. */
export const SUPERPATTERN_KEY_COUNT = PATH_KEY_BASE + 3 * LABEL_COUNT ** 3;

export const nodeKey = (label: number, square: number): number => NODE_KEY_BASE + label * 64 + square;
export const safetyKey = (label: number, safety: number): number => SAFETY_KEY_BASE + label * 4 + safety;
export const pairKey = (from: number, to: number): number => PAIR_KEY_BASE + from * LABEL_COUNT + to;
export const labelKey = (label: number): number => LABEL_KEY_BASE + label;
export const rankKey = (label: number, rank: number): number => RANK_KEY_BASE + label * 8 + rank;
export const fileKey = (label: number, file: number): number => FILE_KEY_BASE + label * 8 + file;
/** The pair key of a typed triple key. */
export const pairOfTriple = (triple: number): number => PAIR_KEY_BASE + Math.floor(triple / 3);
export const isTripleKey = (key: number): boolean => key < TRIPLE_KEYS;

// Keys already collected for the current pattern: a stamp per key, so collecting stays linear (it runs for every
// pattern at load).
let keyStamp = 0;
const keySeen = new Uint32Array(SUPERPATTERN_KEY_COUNT);

function addKey(keys: number[], key: number): void {
  if (keySeen[key] === keyStamp) return;
  keySeen[key] = keyStamp;
  keys.push(key);
}

/** The distinct feature keys of a graph pattern. */
export function patternFeatures(pattern: GraphPattern): number[] {
  keyStamp++;
  return collectNodeAndEdgeFeatures(pattern, []);
}

function collectNodeAndEdgeFeatures(pattern: GraphPattern, keys: number[]): number[] {
  const labels = pattern.labels;
  for (let v = 0; v < labels.length; v++) {
    const label = labels[v];
    addKey(keys, labelKey(label));
    const desig = pattern.desigs[v];
    const square = desigSquare(desig);
    if (square >= 0) {
      // An exact square also satisfies a requirement of its rank or its file.
      addKey(keys, nodeKey(label, square));
      addKey(keys, rankKey(label, rankOf(square)));
      addKey(keys, fileKey(label, fileOf(square)));
    } else if (desigRank(desig) >= 0) addKey(keys, rankKey(label, desigRank(desig)));
    else if (desigFile(desig) >= 0) addKey(keys, fileKey(label, desigFile(desig)));
    const safety = nodeSafety(pattern, v);
    if (safety !== SAFETY_ANY) addKey(keys, safetyKey(label, safety));
  }
  for (let i = 0; i < pattern.edges.length; i++) {
    const edge = pattern.edges[i];
    const a = labels[edge[0]];
    const b = labels[edge[1]];
    const code = edge[2];
    addKey(keys, pairKey(a, b));
    // The generalised "attacks" edge is satisfied by any edge type, so it requires only the pair.
    if (code !== EDGE_ATTACKS) addKey(keys, tripleIndex(a, b, code));
  }
  return keys;
}

function pathKey(labels: readonly number[], directions: number, middle: number, x: number, y: number): number {
  // Both ends alike (both out of the middle, or both into it): the pair is unordered.
  const swap = directions !== IN_OUT && labels[x] > labels[y];
  const a = swap ? labels[y] : labels[x];
  const b = swap ? labels[x] : labels[y];
  return PATH_KEY_BASE + ((directions * LABEL_COUNT + labels[middle]) * LABEL_COUNT + a) * LABEL_COUNT + b;
}

/**
 * patternFeatures plus the pattern's two-edge paths: x - middle - y over three distinct nodes, by the middle's
 * label, the ends' labels and the edges' directions (both out of the middle, both into it, or through it).
 * A superpattern has every path of P: its images of x, middle and y are distinct and keep both edges.
 */
export function superpatternFeatures(pattern: GraphPattern): number[] {
  keyStamp++;
  const keys = collectNodeAndEdgeFeatures(pattern, []);
  const { edges, labels } = pattern;
  for (let i = 0; i < edges.length; i++) {
    const f1 = edges[i][0];
    const t1 = edges[i][1];
    for (let j = i + 1; j < edges.length; j++) {
      const f2 = edges[j][0];
      const t2 = edges[j][1];
      if (f1 === f2) addKey(keys, pathKey(labels, OUT_OUT, f1, t1, t2));
      else if (t1 === t2) addKey(keys, pathKey(labels, IN_IN, t1, f1, f2));
      else if (t1 === f2 && f1 !== t2) addKey(keys, pathKey(labels, IN_OUT, t1, f1, t2));
      else if (t2 === f1 && f2 !== t1) addKey(keys, pathKey(labels, IN_OUT, f1, f2, t1));
    }
  }
  return keys;
}

/** Label rarity (P N B R Q K per side, then square), as in the matcher's plan order. */
const LABEL_RARITY = [1, 3, 3, 3, 5, 6, 1, 3, 3, 3, 5, 6, 0];

/**
 * How often a feature is expected in a position, lower is rarer: a rough static order (exact squares, x-ray
 * edges, en prise, direct edges, rank or file, defended, any edge, unattacked, bare labels), rarer labels first
 * within a kind.
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
  if (key < RANK_KEY_BASE) return 800 - LABEL_RARITY[key - LABEL_KEY_BASE];
  return 450 - LABEL_RARITY[Math.floor((key - RANK_KEY_BASE) / 8) % LABEL_COUNT];
}

/** The pattern's rarest feature by featureCommonness. */
export function rarestFeature(features: readonly number[]): number {
  let best = features[0];
  for (const key of features) if (featureCommonness(key) < featureCommonness(best)) best = key;
  return best;
}

/** What setSignature writes on a record. */
export interface FeatureSignature {
  signature0: number;
  signature1: number;
  signature2: number;
  signature3: number;
}

/**
 * A 128-bit summary of a feature set (four 32-bit words, a one-hash Bloom filter): if P's features are a
 * subset of Q's, so are P's bits of Q's. Insertion rejects most candidate superpatterns with it before matching.
 * (64 bits let a third of the candidates through on a database of 100k: large patterns set most of them.)
 */
export function setSignature(target: FeatureSignature, features: readonly number[]): void {
  let w0 = 0;
  let w1 = 0;
  let w2 = 0;
  let w3 = 0;
  for (let i = 0; i < features.length; i++) {
    const bit = Math.imul(features[i], 0x9e3779b1) >>> 25;
    const mask = 1 << (bit & 31);
    if (bit < 32) w0 |= mask;
    else if (bit < 64) w1 |= mask;
    else if (bit < 96) w2 |= mask;
    else w3 |= mask;
  }
  target.signature0 = w0;
  target.signature1 = w1;
  target.signature2 = w2;
  target.signature3 = w3;
}
