/**
 * Relation terms: learned log-odds for the smallest graph patterns of the safety language, read from a position's
 * graph by their canonical index instead of retrieved: every one-node pattern (a piece of a side, by its safety:
 * unattacked, defended, en prise) and every two-node pattern of a direct attack or defence (the attacker's label,
 * the target's label and safety). A position's relation term is the sum of the weights of the patterns it holds,
 * each counted as often as it occurs: an n-tuple network over the position graph, whose cost per position is one
 * pass over its pieces and their attacks however large the pattern database grows.
 *
 * Why these and not the database's patterns: the database's most-specific matches are large, rare patterns with
 * exact squares, and a least-squares fit of what the play search sees beyond capture-settled material on them
 * explained nothing out of sample, where these few hundred square-free patterns explained a share of it
 * (research/gap-learnability.ts, docs/lab/2026-12.md).
 */
import { BISHOP, BLACK, KING, KNIGHT, PAWN, ROOK, type Board } from '../chess/board.ts';
import { getMetaBytes, setMetaBytes } from '../store/meta.ts';
import type { MorphDatabase } from '../store/database.ts';
import { MorphError } from '../util/errors.ts';
import { DIAGONAL_FIRST, DIRECTION_END, KING_COUNT, KING_TARGETS, KNIGHT_COUNT, KNIGHT_TARGETS, ORTHOGONAL_FIRST, RAY_LENGTH, RAY_SQUARES } from '../chess/geometry.ts';

/** Piece labels (both sides, P..K) and safeties (unattacked, defended, en prise). */
const PIECE_LABELS = 12;
const SAFETIES = 3;
/** One-node patterns: a piece label with its safety. */
export const CENSUS_FEATURES = PIECE_LABELS * SAFETIES;
/** Two-node patterns: attacker label, target label, target safety, joined by a direct edge. */
export const RELATION_FEATURES = PIECE_LABELS * PIECE_LABELS * SAFETIES;
export const RELATION_TERM_FEATURES = CENSUS_FEATURES + RELATION_FEATURES;

/**
 * Calls `visit` with the index of each small pattern occurrence in a position (a pattern once per occurrence), as
 * its position graph (graph/positionGraph.ts) has them: labels relative to the side that just moved, direct edges
 * to the first piece on a line, a piece en prise when it has more direct attackers than direct defenders (a king
 * none). Read straight from the board, without building the graph: the material searches value tens of thousands
 * of positions a move, and a graph costs several times the features.
 */
export function forEachRelationFeature(board: Pick<Board, 'squares' | 'turn'>, visit: (feature: number) => void): void {
  const count = relationFeatures(board, features);
  for (let i = 0; i < count; i++) visit(features[i]);
}

/** Writes the index of each small pattern occurrence into `out` (room for MAX_RELATION_FEATURES); returns how many. */
export function relationFeatures(board: Pick<Board, 'squares' | 'turn'>, out: Uint16Array): number {
  const squares = board.squares;
  const movedIsWhite = board.turn === BLACK;
  edgeCount = 0;
  attackers.fill(0);
  defenders.fill(0);
  for (let sq = 0; sq < 64; sq++) {
    const piece = squares[sq];
    if (piece === 0) continue;
    const type = piece > 0 ? piece : -piece;
    if (type === PAWN) {
      const ahead = piece > 0 ? sq + 8 : sq - 8;
      if (ahead < 0 || ahead > 63) continue;
      if ((sq & 7) > 0) addEdge(squares, sq, ahead - 1);
      if ((sq & 7) < 7) addEdge(squares, sq, ahead + 1);
    } else if (type === KNIGHT) {
      for (let i = sq * 8, end = i + KNIGHT_COUNT[sq]; i < end; i++) addEdge(squares, sq, KNIGHT_TARGETS[i]);
    } else if (type === KING) {
      for (let i = sq * 8, end = i + KING_COUNT[sq]; i < end; i++) addEdge(squares, sq, KING_TARGETS[i]);
    } else {
      const first = type === BISHOP ? DIAGONAL_FIRST : ORTHOGONAL_FIRST;
      const last = type === ROOK ? DIAGONAL_FIRST : DIRECTION_END;
      for (let d = first; d < last; d++) {
        const base = (sq * 8 + d) * 7;
        for (let i = 0, length = RAY_LENGTH[sq * 8 + d]; i < length; i++) {
          const to = RAY_SQUARES[base + i];
          if (squares[to] === 0) continue;
          addEdge(squares, sq, to);
          break;
        }
      }
    }
  }
  let count = 0;
  for (let sq = 0; sq < 64; sq++) {
    const piece = squares[sq];
    if (piece === 0) continue;
    label[sq] = (piece > 0 === movedIsWhite ? 0 : 6) + (piece > 0 ? piece : -piece) - 1;
    const against = attackers[sq];
    const held = piece === KING || piece === -KING ? 0 : defenders[sq];
    safety[sq] = against === 0 ? 0 : against > held ? 2 : 1;
    out[count++] = label[sq] * SAFETIES + safety[sq];
  }
  for (let e = 0; e < edgeCount; e++) {
    const to = edgeTo[e];
    out[count++] = CENSUS_FEATURES + (label[edgeFrom[e]] * PIECE_LABELS + label[to]) * SAFETIES + safety[to];
  }
  return count;
}

/**
 * A position's relation graph as relationFeatures reads it: each direct edge (from, to squares) and each piece's
 * label (0-5 the side that just moved, P..K; 6-11 the side to move) and safety (0 unattacked, 1 defended, 2 en
 * prise), indexed by square. Views of scratch, valid until the next call: for readers of larger patterns.
 */
export function relationGraph(board: Pick<Board, 'squares' | 'turn'>): { edges: number; from: Uint8Array; to: Uint8Array; label: Uint8Array; safety: Uint8Array } {
  relationFeatures(board, features);
  return { edges: edgeCount, from: edgeFrom, to: edgeTo, label, safety };
}

/**
 * Records a direct edge from the piece on `from` to `to` when `to` holds a piece, counting it as a defender or an
 * attacker of that piece. A module function over the scratch below, not a closure: relationFeatures runs at every
 * position the material searches value.
 */
function addEdge(squares: Int8Array, from: number, to: number): void {
  const target = squares[to];
  if (target === 0) return;
  edgeFrom[edgeCount] = from;
  edgeTo[edgeCount++] = to;
  if (target > 0 === squares[from] > 0) defenders[to]++;
  else attackers[to]++;
}

// Scratch for relationFeatures (synchronous, never nested).
const attackers = new Uint8Array(64);
const defenders = new Uint8Array(64);
const label = new Uint8Array(64);
const safety = new Uint8Array(64);
/** At most 16 pieces a side, each reaching at most 8 others. */
const edgeFrom = new Uint8Array(32 * 8);
const edgeTo = new Uint8Array(32 * 8);
let edgeCount = 0;
/** A position's features: a census entry a piece, a relation an edge. */
export const MAX_RELATION_FEATURES = 32 + 32 * 8;
const features = new Uint16Array(MAX_RELATION_FEATURES);

/** A readable name of a feature: "toMove Q en prise", "moved N > toMove R defended". */
export function relationFeatureName(feature: number): string {
  const side = (label: number) => (label < 6 ? 'moved' : 'toMove');
  const piece = (label: number) => 'PNBRQK'[label % 6];
  const safetyName = (s: number) => ['unattacked', 'defended', 'en prise'][s];
  if (feature < CENSUS_FEATURES) {
    const label = Math.floor(feature / SAFETIES);
    return `${side(label)} ${piece(label)} ${safetyName(feature % SAFETIES)}`;
  }
  const rest = feature - CENSUS_FEATURES;
  const pair = Math.floor(rest / SAFETIES);
  const from = Math.floor(pair / PIECE_LABELS);
  const to = pair % PIECE_LABELS;
  return `${side(from)} ${piece(from)} > ${side(to)} ${piece(to)} ${safetyName(rest % SAFETIES)}`;
}

/** The `count` largest of `weights` by size (ties by feature), named: what a database's relation terms say most. */
export function strongestRelationWeights(weights: ArrayLike<number>, count: number): { pattern: string; weight: number }[] {
  return Array.from({ length: weights.length }, (_, f) => f)
    .sort((a, b) => Math.abs(weights[b]) - Math.abs(weights[a]) || a - b)
    .slice(0, count)
    .map((f) => ({ pattern: relationFeatureName(f), weight: weights[f] }));
}

/** The sum of `weights` (RELATION_TERM_FEATURES of them, log-odds for the side that just moved) over a position. */
export function relationLogOdds(board: Pick<Board, 'squares' | 'turn'>, weights: ArrayLike<number>): number {
  const count = relationFeatures(board, features);
  let sum = 0;
  for (let i = 0; i < count; i++) sum += weights[features[i]];
  return sum;
}

/**
 * Which of a database's two sets of relation weights: fitted to the gap over capture-settled material (what the
 * capture searches read) or over static material (what the one-ply material player reads).
 */
export type RelationWeightsKind = 'settled' | 'static';

/** Where a database keeps each set of relation weights (meta, RELATION_TERM_FEATURES doubles). */
export const RELATION_WEIGHTS_KEYS: Readonly<Record<RelationWeightsKind, string>> = { settled: 'relation_weights', static: 'relation_static_weights' };

/** The relation weights of a kind a database holds, or undefined when it has none. */
export function storedRelationWeights(db: MorphDatabase, kind: RelationWeightsKind = 'settled'): Float64Array | undefined {
  const key = RELATION_WEIGHTS_KEYS[kind];
  const bytes = getMetaBytes(db, key);
  if (bytes === undefined) return undefined;
  if (bytes.byteLength !== RELATION_TERM_FEATURES * 8) {
    throw new MorphError(`meta ${key} holds ${bytes.byteLength} bytes, not the ${RELATION_TERM_FEATURES * 8} of ${RELATION_TERM_FEATURES} weights`);
  }
  // A copy: the bytes need not be aligned for a Float64Array view.
  return new Float64Array(Uint8Array.from(bytes).buffer);
}

export function storeRelationWeights(db: MorphDatabase, weights: Float64Array<ArrayBufferLike>, kind: RelationWeightsKind = 'settled'): void {
  if (weights.length !== RELATION_TERM_FEATURES) throw new RangeError(`${weights.length} relation weights, not ${RELATION_TERM_FEATURES}`);
  setMetaBytes(db, RELATION_WEIGHTS_KEYS[kind], new Uint8Array(weights.buffer, weights.byteOffset, weights.byteLength));
}
