/**
 * Deletion by a kept utility order (UtilityOrder) against the version that scans every pattern
 * (patternsToDelete): the same set every game, on seeded runs of random learning-like changes, and in real
 * learning with a cap small enough that deletion works every game.
 */
import { describe, expect, it } from 'vitest';
import { RandomPlayer } from '../src/engines/simplePlayers.ts';
import { playGame } from '../src/game/playGame.ts';
import { DEFAULT_CONFIG, mergeConfig } from '../src/learn/config.ts';
import { UtilityOrder, patternsToDelete, utility, type DeletionConfig } from '../src/learn/deletion.ts';
import { gamesPlayed, learnFromGame, seedIfNew } from '../src/learn/learner.ts';
import { allSeedPatterns } from '../src/learn/seeding.ts';
import { morphScore } from '../src/store/games.ts';
import { PatternRecord } from '../src/store/hierarchy.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { Random } from '../src/util/random.ts';

const ids = (records: PatternRecord[]) => records.map((record) => record.id).sort((a, b) => a - b);

/** Patterns of 1 and 2 nodes, reused as the bodies of many records (deletion reads only statistics and size). */
const BODIES = allSeedPatterns().slice(0, 40);

describe('UtilityOrder', () => {
  it.each([1, 2, 3, 4, 5])('deletes the same patterns as the scan, game after game (seed %i)', (seed) => {
    const rng = new Random(seed);
    const config: DeletionConfig = { enabled: true, threshold: 0.02, minAge: 5, cap: 200 };
    const records = new Map<number, PatternRecord>();
    let nextId = 1;
    const create = (game: number) => {
      const body = BODIES[rng.int(BODIES.length)];
      // Some patterns are protected (seed origin): never judged, but counted in the total.
      const origin = rng.next() < 0.05 ? 'seed' : 'forward';
      const record = new PatternRecord(nextId, `k${nextId}`, body, {
        weight: 0.5, updates: 0, variance: 0, uses: 0, origin, createdGame: game, lastUsedGame: null,
      });
      records.set(nextId++, record);
      return record;
    };
    for (let i = 0; i < 300; i++) create(0);
    const order = new UtilityOrder(records.values());
    let deletedByCap = 0;
    let deletedByThreshold = 0;
    for (let game = 1; game <= 150; game++) {
      // Learning moves some patterns (often to the same rounded weights, so utilities tie) and creates others.
      const all = [...records.values()];
      for (let i = 0; i < 25; i++) {
        const record = all[rng.int(all.length)];
        const before = record.weight;
        record.weight = rng.next() < 0.3 ? 0.5 : Math.round(rng.next() * 10) / 10;
        record.updates++;
        record.variance += Math.abs(record.weight - before);
        record.lastUsedGame = game;
        order.track(record);
      }
      for (let i = 0; i < 12; i++) order.track(create(game));
      const expected = patternsToDelete(records.values(), records.size, game, config);
      const actual = order.patternsToDelete(records.size, game, config);
      expect(ids(actual)).toEqual(ids(expected));
      for (const record of actual) {
        if (utility(record, game) < config.threshold) deletedByThreshold++;
        else deletedByCap++;
        records.delete(record.id);
        order.forget(record);
      }
    }
    // Both rules were exercised.
    expect(deletedByThreshold).toBeGreaterThan(0);
    expect(deletedByCap).toBeGreaterThan(0);
  });

  it('in real learning with a small cap, leaves nothing the scan would still delete', async () => {
    const store = PatternStore.open(':memory:');
    const config = mergeConfig(DEFAULT_CONFIG, { deletion: { enabled: true, threshold: 0.02, minAge: 2, cap: 1200 } });
    seedIfNew(store, config);
    let deleted = 0;
    for (let i = 0; i < 8; i++) {
      const white = new RandomPlayer(100 + i);
      const black = new RandomPlayer(200 + i);
      const played = (await playGame({ white, black, maxPlies: 60 }))!;
      const learner = i % 2 === 0 ? 'w' : 'b';
      const summary = learnFromGame(
        store,
        { startFen: played.startFen, moves: played.moves, learner, result: morphScore(played.result, learner) },
        config,
        new Random(i),
      );
      deleted += summary.deleted;
      const game = gamesPlayed(store);
      expect(patternsToDelete(store.hierarchy.byId.values(), store.size, game, config.deletion)).toEqual([]);
    }
    expect(deleted).toBeGreaterThan(0);
    expect(store.size).toBeLessThanOrEqual(1200);
    store.close();
  });
});
