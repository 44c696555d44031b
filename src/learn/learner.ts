/**
 * Learning from one finished game (reference sections 6-8), all of it in ONE SQLite transaction: weight
 * updates by TD targets and per-pattern annealing, pattern creation, deletion, run metadata, and whatever the
 * caller adds (the training loop records the game in the same transaction). Killing the process at any
 * moment therefore loses at most the game in progress.
 */
import { targetValue } from '../eval/evaluation.ts';
import { materialPattern, withoutSafety, type GraphPattern } from '../pattern/pattern.ts';
import { boardToFen } from '../chess/board.ts';
import { addPatternPosition } from '../store/patternPositions.ts';
import { getMeta, getMetaNumber, setMeta } from '../store/meta.ts';
import { incrementCounter } from '../store/counters.ts';
import type { PatternRecord } from '../store/patternRecord.ts';
import type { PatternStore } from '../store/patternStore.ts';
import type { Random } from '../util/random.ts';
import { annealedWeight, parseTemperatureSchedule, temperatureAt } from './annealing.ts';
import { evaluationSettings, type LearningConfig } from './config.ts';
import {
  generalisationProposals, nodeOrderedProposals, regressionProposals, specialisationProposals, type Proposal,
} from './creation.ts';
import { UtilityOrder } from './deletion.ts';
import type { Hierarchy } from '../store/hierarchy.ts';
import { learnedPositions, type LearnedPosition, type LearningGame } from './learningGame.ts';
import { allSeedPatterns, safetySeedPatterns } from './seeding.ts';
import { tdSweep } from './tdTargets.ts';

export interface LearningSummary {
  /** The game's number in this database (1 for the first game learned). */
  gameNumber: number;
  positions: number;
  temperature: number;
  /** Distinct patterns whose weight was updated. */
  patternsUpdated: number;
  created: Record<string, number>;
  deleted: number;
  patterns: number;
  /** TD targets per position of the learner's own sequence (for inspection and tests). */
  targets: number[];
}

/** Patterns per game whose teaching position is recorded (each keeps its five most recent). */
const POSITIONS_RECORDED_PER_GAME = 20;

/**
 * The utility order of each loaded hierarchy (a store reloads into a new one after a failed transaction), built
 * by one scan when a store first learns and kept up to date by learnFromGame.
 */
const utilityOrders = new WeakMap<Hierarchy, UtilityOrder>();

function utilityOrderOf(store: PatternStore): UtilityOrder {
  let order = utilityOrders.get(store.hierarchy);
  // Patterns added or deleted other than by learnFromGame (seeding, a caller's own inserts): start again.
  if (!order || order.size !== store.size) {
    order = new UtilityOrder(store.hierarchy.byId.values());
    utilityOrders.set(store.hierarchy, order);
  }
  return order;
}

export function gamesPlayed(store: PatternStore): number {
  return getMetaNumber(store.db, 'games_played') ?? 0;
}

/**
 * Seeds a database once (seeding.ts): one-node exact-square and two-node patterns, weight .5; in the safety
 * language also the en-prise seeds, once, even when the database was seeded in the paper's language before.
 */
export function seedIfNew(store: PatternStore, config: LearningConfig): number {
  if (!config.seeding) return 0;
  const batches: { meta: string; patterns: () => GraphPattern[] }[] = [];
  if (getMeta(store.db, 'seeded') === undefined) batches.push({ meta: 'seeded', patterns: allSeedPatterns });
  if (config.language === 'safety' && getMeta(store.db, 'seeded-safety') === undefined) {
    batches.push({ meta: 'seeded-safety', patterns: safetySeedPatterns });
  }
  if (batches.length === 0) return 0;
  return store.transaction(() => {
    let created = 0;
    for (const batch of batches) {
      for (const pattern of batch.patterns()) if (store.insert(pattern, 'seed', 0).created) created++;
      setMeta(store.db, batch.meta, new Date().toISOString());
    }
    incrementCounter(store.db, 'created:seed', created);
    return created;
  });
}

export function learnFromGame(
  store: PatternStore,
  game: LearningGame,
  config: LearningConfig,
  rng: Random,
  alsoInTransaction?: (summary: LearningSummary) => void,
): LearningSummary {
  // The learner's own positions, and with learnFrom "both" also the opponent's, each judged by its own result.
  const other: LearningGame['learner'] = game.learner === 'w' ? 'b' : 'w';
  const sides = config.learnFrom === 'both' ? [game.learner, other] : [game.learner];
  const sequences = sides.map((side) => {
    const result = side === game.learner ? game.result : 1 - game.result;
    return { result, positions: learnedPositions({ ...game, learner: side, result }) };
  });
  return store.transaction(() => {
    const gameNumber = gamesPlayed(store) + 1;
    const order = utilityOrderOf(store);
    const temperature = temperatureAt(parseTemperatureSchedule(config.temperature), gameNumber - 1);
    const created: Record<string, number> = {};
    const count = (method: string, n = 1) => {
      created[method] = (created[method] ?? 0) + n;
    };

    // Material patterns are created on sight, so every position has one to learn into.
    for (const { positions } of sequences) {
      for (const position of positions) {
        const inserted = store.insert(materialPattern(position.graph.material), 'material', gameNumber);
        if (inserted.created) {
          count('material');
          order.track(inserted.record);
        }
      }
    }
    // In order of id: retrieval's own order follows which parent triggers which child (reviewed as positions are
    // retrieved) and the order links were made, and learning reads matches in order (the patterns a game touched,
    // in turn, feed pattern creation's seeded draws), so this keeps a game's learning a function of the patterns.
    // A game's positions are retrieved together (retrieval.ts): neighbours in a game share most of their matches.
    const matchesOf = sequences.map(({ positions }) =>
      store.retrieveTogether(positions.map((position) => position.graph)).map((retrieval) => inIdOrder(retrieval.matches)),
    );

    const touched = new Set<PatternRecord>();
    const changes = new Map<PatternRecord, { change: number; largestStep: number; position: LearnedPosition }>();
    const settings = evaluationSettings(config);
    const targetsOf = sequences.map(({ positions, result }, s) => {
      const matchesAt = matchesOf[s];
      const counted = (t: number) => matchesAt[t].filter((r) => r.updates >= config.targetMaturity);
      const evaluate = (t: number) => targetValue(counted(t), settings, config.beta);
      const applyUpdate = (record: PatternRecord, movedBy: number, position: LearnedPosition) => {
        const before = record.weight;
        record.weight = annealedWeight(before, record.updates, movedBy, temperature);
        record.updates++;
        record.variance += Math.abs(record.weight - before);
        touched.add(record);
        // The game's total change, and where the pattern moved most (specialisation grows it there).
        const step = Math.abs(record.weight - before);
        const entry = changes.get(record) ?? { change: 0, largestStep: -1, position };
        entry.change += record.weight - before;
        if (step > entry.largestStep) {
          entry.largestStep = step;
          entry.position = position;
        }
        changes.set(record, entry);
      };
      if (config.updatePer === 'position') {
        return tdSweep(positions.length, result, config.lambda, evaluate, (t, target) => {
          for (const record of matchesAt[t]) applyUpdate(record, target, positions[t]);
        }, config.discount);
      }
      // One update per pattern and game: toward the mean of its targets over the
      // positions it matched, recorded at the position whose target was farthest from its weight
      // (specialisation grows it there).
      const pending = new Map<PatternRecord, { sum: number; count: number; farthest: number; position: LearnedPosition }>();
      const targets = tdSweep(positions.length, result, config.lambda, evaluate, (t, target) => {
        for (const record of matchesAt[t]) {
          const distance = Math.abs(target - record.weight);
          const entry = pending.get(record);
          if (!entry) pending.set(record, { sum: target, count: 1, farthest: distance, position: positions[t] });
          else {
            entry.sum += target;
            entry.count++;
            if (distance > entry.farthest) {
              entry.farthest = distance;
              entry.position = positions[t];
            }
          }
        }
      }, config.discount);
      for (const [record, entry] of pending) applyUpdate(record, entry.sum / entry.count, entry.position);
      return targets;
    });
    const positions = sequences.flatMap((sequence) => sequence.positions);
    for (const record of touched) {
      record.uses++;
      record.lastUsedGame = gameNumber;
      store.saveStats(record);
    }

    for (const record of touched) order.track(record);

    const touchedList = [...touched];
    const proposals: Proposal[] = [];
    if (config.subgraphsPerGame > 0) {
      proposals.push(...nodeOrderedProposals(positions, config.subgraphsPerGame, config.maxPatternSize, rng));
    }
    if (config.regression.enabled) {
      const settings = { ...config.regression, maxSize: config.maxPatternSize };
      sequences.forEach((sequence, s) => proposals.push(...regressionProposals(sequence.positions, matchesOf[s], settings)));
    }
    if (config.generalisation.enabled) proposals.push(...generalisationProposals(touchedList, config.generalisation, rng));
    if (config.specialisation.enabled) {
      const list = [...changes].map(([record, c]) => ({ record, change: c.change, position: c.position }));
      proposals.push(...specialisationProposals(list, { ...config.specialisation, maxSize: config.maxPatternSize }));
    }
    for (const proposal of proposals) {
      const pattern = config.language === 'paper' ? withoutSafety(proposal.pattern) : proposal.pattern;
      const { record, created: isNew } = store.insert(pattern, proposal.method, gameNumber, { weight: proposal.weight });
      if (isNew) {
        count(proposal.method);
        order.track(record);
      }
    }

    const doomed = order.patternsToDelete(store.size, gameNumber, config.deletion);
    for (const record of doomed) {
      store.delete(record);
      order.forget(record);
    }

    // Where the game's most-changed patterns moved most, for `morph inspect pattern ID` (a few rows per game).
    const mostChanged = largestChanges(changes, POSITIONS_RECORDED_PER_GAME, (record) => !record.deleted);
    for (const [record, { position }] of mostChanged) {
      addPatternPosition(store.db, record.id, gameNumber, boardToFen(position.board));
    }

    for (const [method, n] of Object.entries(created)) incrementCounter(store.db, `created:${method}`, n);
    if (doomed.length) incrementCounter(store.db, 'deleted', doomed.length);
    setMeta(store.db, 'games_played', gameNumber);
    setMeta(store.db, 'temperature', temperature);

    const summary: LearningSummary = {
      gameNumber,
      positions: positions.length,
      temperature,
      patternsUpdated: touched.size,
      created,
      deleted: doomed.length,
      patterns: store.size,
      targets: targetsOf[0],
    };
    alsoInTransaction?.(summary);
    return summary;
  });
}

/**
 * The `count` entries of `changes` (kept ones only) that changed most, largest first, ties in the map's order: what
 * a stable sort of every entry by size, then the first `count`, gives, without sorting the 12,000 a game changes
 * at 100k patterns.
 */
function largestChanges<V extends { change: number }>(
  changes: Map<PatternRecord, V>,
  count: number,
  keep: (record: PatternRecord) => boolean,
): [PatternRecord, V][] {
  const largest: [PatternRecord, V][] = [];
  for (const entry of changes) {
    const size = Math.abs(entry[1].change);
    if (largest.length === count && size <= Math.abs(largest[count - 1][1].change)) continue;
    if (!keep(entry[0])) continue;
    let at = largest.length;
    while (at > 0 && Math.abs(largest[at - 1][1].change) < size) at--;
    largest.splice(at, 0, entry);
    if (largest.length > count) largest.pop();
  }
  return largest;
}

/** Room for a list index in a sort key (id * INDEX_ROOM + index). */
const INDEX_ROOM = 2 ** 21;

/**
 * The records in order of id. At 100k patterns a learned position matches about 500 most-specific patterns, and
 * a comparator sort of 90 such lists was a few percent of a game's learning: the typed array's own numeric sort of
 * keys id * 2^21 + index (exact in a double for ids below 2^31) does it without calling back into JavaScript.
 */
function inIdOrder(records: PatternRecord[]): PatternRecord[] {
  const byId = (a: PatternRecord, b: PatternRecord) => a.id - b.id; // when the keys would not be exact
  if (records.length >= INDEX_ROOM) return records.sort(byId);
  const keys = new Float64Array(records.length);
  for (let i = 0; i < records.length; i++) {
    const id = records[i].id;
    if (id >= 2 ** 31) return records.sort(byId);
    keys[i] = id * INDEX_ROOM + i;
  }
  keys.sort();
  const sorted = new Array<PatternRecord>(records.length);
  for (let i = 0; i < keys.length; i++) sorted[i] = records[keys[i] % INDEX_ROOM];
  return sorted;
}
