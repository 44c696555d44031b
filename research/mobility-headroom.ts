/**
 * Would mobility help a model predict an engine? (issue 14; an experiment, 2026-11-29.) A classical engine's
 * evaluation counts how freely its pieces move; a model's does not. Before building that into a model, this
 * asks whether it would pay (research/headroom.ts): two counts in the position a move leads to, the mover's legal
 * moves (as if it moved again) and its opponent's, each over 10 (opponentModel.ts mobilityAfter, built into models
 * since as `morph model --mobility`).
 *
 *   node bin/run-ts.js research/mobility-headroom.ts MODEL.db TRAIN.pgn HELD_OUT.pgn PLAYER [TRAIN_DECISIONS]
 */
import { mobilityAfter } from '../src/model/opponentModel.ts';
import { runHeadroom } from './headroom.ts';

runHeadroom(
  'mobility-headroom.ts',
  {
    names: ['own moves / 10', "opponent's moves / 10"],
    features: (_before, after) => mobilityAfter(after),
    fits: [[1], [2], [1, 2]],
  },
  process.argv.slice(2),
);
