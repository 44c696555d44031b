/**
 * Diagnostic only (issue 12): the `morph` CLI with the material searches' piece values fixed instead of fitted
 * to the database (src/eval/materialFit.ts), to ask how much better piece values would be worth. Given in
 * log-odds per piece, P,N,B,R,Q; with `--material-prior 1000000` they stand alone, with 20 they are blended
 * with each material pattern's weight as the fitted ones are.
 *
 *   PIECE_VALUES=0.22,0.66,0.66,1.1,1.98 node bin/run-ts.js research/with-piece-values.ts match ...
 */
import { MorphPlayer } from '../src/player/morphPlayer.ts';

const given = (process.env.PIECE_VALUES ?? '').split(',').map(Number);
if (given.length !== 5 || !given.every(Number.isFinite)) {
  console.error('with-piece-values: PIECE_VALUES must be five numbers P,N,B,R,Q (log-odds)');
  process.exit(2);
}
const values = Float64Array.from(given);
// The player refits before every move (a private method); here it takes the given values instead.
(MorphPlayer.prototype as unknown as { fitPieceValues(): void }).fitPieceValues = function (this: { pieceValues?: Float64Array }) {
  this.pieceValues = values;
};
await import('../src/cli/main.ts');
