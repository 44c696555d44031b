/**
 * Would a feature help a model predict an engine? The harness of the headroom experiments (mobility-headroom.ts,
 * pawn-headroom.ts, development-headroom.ts), run before a feature is built into a model: each legal move gets the model's own score and
 * the feature's values in the position the move leads to; a conditional logit on them is fitted on an even sample
 * of the training decisions, and its top-1 (ties at their expectation) measured on every held-out decision,
 * beside the model's score alone; and cross-fitted on the held-out games alone (odd and even games in turn), with
 * the log-likelihood, since the model's score is sharper on the decisions its patterns were induced from.
 */
import { applyMove, cloneBoard, parseUciMove, type Board } from '../src/chess/board.ts';
import { conditionalLogit, sparseRow } from '../src/model/choiceEvaluation.ts';
import { decisionHistories, playerDecisions, readPgnText } from '../src/model/decisions.ts';
import { OpponentModel } from '../src/model/opponentModel.ts';

export interface Headroom {
  /** The features beside the model's score, by name. */
  names: readonly string[];
  /** Their values after a move: `before` is the position the mover moved in, `after` the one its move leads to. */
  features: (before: Board, after: Board) => readonly number[];
  /** Which features each fit uses beside the model's score (1-based: column 0 is the score). */
  fits: readonly (readonly number[])[];
}

interface Decided {
  game: number;
  features: Float64Array[];
  chosen: number;
}

/** Runs the experiment from the command line: MODEL.db TRAIN.pgn HELD_OUT.pgn PLAYER [TRAIN_DECISIONS]. */
export function runHeadroom(script: string, headroom: Headroom, args: readonly string[]): void {
  const [modelPath, trainPgn, heldOutPgn, player, trainDecisions = '1500'] = args;
  if (player === undefined) throw new Error(`usage: ${script} MODEL.db TRAIN.pgn HELD_OUT.pgn PLAYER [TRAIN_DECISIONS]`);
  const model = OpponentModel.open(modelPath);
  const names = ['model score', ...headroom.names];
  const decided = (pgn: string, limit: number): Decided[] => {
    const all = playerDecisions(readPgnText(pgn), player, pgn).decisions;
    const step = Math.max(1, Math.floor(all.length / limit));
    const sample = all.filter((_, i) => i % step === 0).slice(0, limit);
    const out: Decided[] = [];
    for (const [decision, history] of decisionHistories(sample)) {
      const ranked = model.rank(history);
      if (ranked.length < 2) continue;
      const board = history.board;
      const next = cloneBoard(board);
      const features = ranked.map((scored) => {
        applyMove(board, parseUciMove(scored.move)!, next);
        return Float64Array.of(scored.score, ...headroom.features(board, next));
      });
      out.push({ game: decision.game, features, chosen: ranked.findIndex((m) => m.move === decision.chosen) });
    }
    return out;
  };
  const train = decided(trainPgn, Number(trainDecisions));
  const heldOut = decided(heldOutPgn, Infinity);
  const fit = (columns: readonly number[], on: readonly Decided[]) =>
    conditionalLogit(
      on.map((d) => d.features.map((f) => sparseRow(Float64Array.from(columns, (c) => f[c])))),
      on.map((d) => d.chosen),
      columns.length,
      0.01,
    );
  /** Each of a decision's moves scored by a fit's weights on its columns. */
  const scoresOf = (columns: readonly number[], weights: Float64Array, d: Decided): number[] =>
    d.features.map((f) => columns.reduce((sum, c, k) => sum + weights[k] * f[c], 0));
  const hits = (columns: readonly number[], weights: Float64Array, on: readonly Decided[]): number => {
    let total = 0;
    for (const d of on) {
      const scores = scoresOf(columns, weights, d);
      const best = Math.max(...scores);
      const tied = scores.flatMap((s, i) => (s >= best - 1e-9 ? [i] : []));
      if (tied.includes(d.chosen)) total += 1 / tied.length;
    }
    return total;
  };
  const logLikelihood = (columns: readonly number[], weights: Float64Array, on: readonly Decided[]): number => {
    let total = 0;
    for (const d of on) {
      const scores = scoresOf(columns, weights, d);
      const top = Math.max(...scores);
      total += scores[d.chosen] - top - Math.log(scores.reduce((z, s) => z + Math.exp(s - top), 0));
    }
    return total;
  };
  // The model's score on its own training decisions is sharper than on new ones (its patterns were induced from
  // them), so a fit there trusts it too much and gives the other features its in-sample residuals. Cross-fitting on
  // the held-out games (fit on the odd ones, measure on the even, and the reverse) sees the score as it is on new games.
  const odd = heldOut.filter((d) => d.game % 2 === 1);
  const even = heldOut.filter((d) => d.game % 2 === 0);
  console.log(`${train.length} training decisions, ${heldOut.length} held out (${odd.length} in odd games, ${even.length} in even)`);
  for (const columns of [[0], ...headroom.fits.map((extra) => [0, ...extra])]) {
    const weights = fit(columns, train);
    const [onOdd, onEven] = [fit(columns, odd), fit(columns, even)];
    const crossHits = hits(columns, onOdd, even) + hits(columns, onEven, odd);
    const crossLikelihood = (logLikelihood(columns, onOdd, even) + logLikelihood(columns, onEven, odd)) / heldOut.length;
    const named = columns.map((c, k) => `${names[c]} ${weights[k].toFixed(3)}`).join(', ');
    const onTraining = (100 * hits(columns, weights, heldOut)) / heldOut.length;
    console.log(`top-1 ${onTraining.toFixed(1)}% fitted on training decisions, ${((100 * crossHits) / heldOut.length).toFixed(1)}% cross-fitted, log-likelihood ${crossLikelihood.toFixed(3)} a move  (${named})`);
  }
  model.close();
}
