/**
 * The square values' evidence (choiceEvaluation.ts, SquareEvidence), kept in a policy model so that its next
 * rebuild adds the new games to it instead of fitting every game again: the scalars and the evaluation as JSON,
 * the logit's weights, lines seen and precision as one BLOB of float64s (about 4.8 MB tapered).
 */
import type { MorphDatabase } from '../store/database.ts';
import { getMetaBytes, getMetaJson, setMeta, setMetaBytes } from '../store/meta.ts';
import type { LearnedEvaluation, SquareEvidence } from './choiceEvaluation.ts';

const EVIDENCE_KEY = 'model_square_evidence';
const ARRAYS_KEY = 'model_square_evidence_arrays';

interface EvidenceHeader {
  tapered: boolean;
  /** null: every legal move (JSON has no Infinity). */
  alternatives: number | null;
  decisions: number;
  offered: number;
  fits: number;
  valueTotal: number;
  evaluation: Required<LearnedEvaluation>;
  dims: number;
}

export function writeSquareEvidence(db: MorphDatabase, evidence: SquareEvidence): void {
  const dims = evidence.weights.length;
  const header: EvidenceHeader = {
    tapered: evidence.tapered,
    alternatives: Number.isFinite(evidence.alternatives) ? evidence.alternatives : null,
    decisions: evidence.decisions,
    offered: evidence.offered,
    fits: evidence.fits,
    valueTotal: evidence.valueTotal,
    evaluation: evidence.evaluation,
    dims,
  };
  const arrays = new Float64Array(2 * dims + dims * dims);
  arrays.set(evidence.weights, 0);
  arrays.set(evidence.seen, dims);
  arrays.set(evidence.precision, 2 * dims);
  setMeta(db, EVIDENCE_KEY, header);
  setMetaBytes(db, ARRAYS_KEY, new Uint8Array(arrays.buffer));
}

/** The evidence writeSquareEvidence kept, or null when there is none or its parts do not fit together. */
export function readSquareEvidence(db: MorphDatabase): SquareEvidence | null {
  let header: EvidenceHeader | undefined;
  try {
    header = getMetaJson<EvidenceHeader>(db, EVIDENCE_KEY);
  } catch {
    return null;
  }
  const bytes = getMetaBytes(db, ARRAYS_KEY);
  if (!header || !bytes || !Number.isInteger(header.dims) || header.dims <= 0) return null;
  const dims = header.dims;
  if (bytes.byteLength !== 8 * (2 * dims + dims * dims)) return null;
  // A copy: the BLOB's buffer need not be aligned for float64s.
  const arrays = new Float64Array(new Uint8Array(bytes).buffer);
  return {
    tapered: header.tapered,
    alternatives: header.alternatives ?? Infinity,
    decisions: header.decisions,
    offered: header.offered,
    fits: header.fits,
    valueTotal: header.valueTotal,
    evaluation: header.evaluation,
    weights: arrays.slice(0, dims),
    seen: arrays.slice(dims, 2 * dims),
    precision: arrays.slice(2 * dims),
  };
}
