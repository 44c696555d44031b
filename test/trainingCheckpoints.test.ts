/**
 * Training extras for measuring strength: checkpoints (consistent copies every N games) and the adaptive
 * handicap (noisy:auto=T:SPEC), whose probability follows Morph's results and is recorded per game.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ADAPTATION_RATE, NoisyPlayer } from '../src/engines/noisyPlayer.ts';
import { formatOpponentSpec, parseOpponentSpec } from '../src/engines/opponentSpec.ts';
import { RandomPlayer } from '../src/engines/simplePlayers.ts';
import { checkpointPath, HANDICAP_META, runTraining } from '../src/train/harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'morph-checkpoints-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const train = (db: string, games: number, extra: Partial<Parameters<typeof runTraining>[0]> = {}) =>
  runTraining({ db, games, opponent: 'random', seed: 3, maxPlies: 30, progress: 'none', maxFailures: 3, ...extra });

describe('checkpoints', () => {
  it('keeps a copy every N games, each a database holding exactly that many games', async () => {
    const db = join(dir, 'run.db');
    // Judging checkpoints as they are taken is checkpointJudge.test.ts's; here only the copies.
    const summary = await train(db, 5, { checkpointEvery: 2, judgePositions: false });
    expect(summary.checkpoints).toEqual([checkpointPath(db, 2), checkpointPath(db, 4)]);
    expect(readdirSync(join(dir, 'run.checkpoints')).sort()).toEqual(['games-000002.db', 'games-000004.db']);
    for (const [path, games] of [[checkpointPath(db, 2), 2], [checkpointPath(db, 4), 4]] as const) {
      const copy = new Database(path, { readonly: true });
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect((copy.prepare('SELECT COUNT(*) AS n FROM games').get() as { n: number }).n).toBe(games);
      expect((copy.prepare("SELECT value FROM meta WHERE key = 'games_played'").get() as { value: string }).value).toBe(String(games));
      copy.close();
    }
    // A resumed run numbers its checkpoints by the database's game count, not the run's.
    const resumed = await train(db, 2, { checkpointEvery: 3, judgePositions: false });
    expect(resumed.checkpoints).toEqual([checkpointPath(db, 6)]);
  });

  it('puts checkpoints in a folder named after the database', () => {
    expect(checkpointPath('data/morph.db', 1000)).toBe(join('data', 'morph.checkpoints', 'games-001000.db'));
    expect(checkpointPath('/x/y/run', 7)).toBe(join('/x/y', 'run.checkpoints', 'games-000007.db'));
  });
});

describe('adaptive handicap', () => {
  it('parses noisy:auto=T:SPEC, starting at .5, and formats it back', () => {
    const spec = parseOpponentSpec('noisy:auto=0.3:greedy');
    expect(spec).toEqual({ kind: 'noisy', probability: 0.5, target: 0.3, inner: { kind: 'greedy' } });
    expect(formatOpponentSpec(spec)).toBe('noisy:auto=0.3:greedy');
    expect(() => parseOpponentSpec('noisy:auto=2:greedy')).toThrow(/target score must be in \[0, 1\], got "2"/);
    expect(() => parseOpponentSpec('noisy:auto=:greedy')).toThrow(/target score must be in \[0, 1\]/);
  });

  it('moves the probability by rate·(target - score), within [0, 1]; a fixed handicap never moves', () => {
    const player = new NoisyPlayer('noisy:auto=0.3:random', new RandomPlayer(1), 0.5, 1, 0.3);
    player.adapt(0);
    expect(player.probability).toBeCloseTo(0.5 + ADAPTATION_RATE * 0.3, 15);
    player.adapt(1);
    expect(player.probability).toBeCloseTo(0.5 + ADAPTATION_RATE * (0.3 - 0.7), 15);
    expect(player.currentName()).toBe(`noisy:${player.probability.toFixed(3)}:random`);
    player.probability = 0.01;
    player.adapt(1);
    expect(player.probability).toBe(0);
    const fixed = new NoisyPlayer('noisy:0.4:random', new RandomPlayer(1), 0.4, 1);
    fixed.adapt(0);
    expect([fixed.probability, fixed.currentName()]).toEqual([0.4, 'noisy:0.4:random']);
  });

  it('records each game with the probability it was played at, and a resumed run continues it', async () => {
    const db = join(dir, 'handicap.db');
    await train(db, 3, { opponent: 'noisy:auto=0.2:random' });
    await train(db, 2, { opponent: 'noisy:auto=0.2:random' });
    const file = new Database(db, { readonly: true });
    const games = file.prepare('SELECT opponent, morph_score AS score FROM games ORDER BY id').all() as { opponent: string; score: number }[];
    // Replay the rule from the recorded scores: each game is played at the probability the games before it left.
    let probability = 0.5;
    for (const game of games) {
      expect(game.opponent).toBe(`noisy:${probability.toFixed(3)}:random`);
      probability = Math.min(1, Math.max(0, probability + ADAPTATION_RATE * (0.2 - game.score)));
    }
    expect(games).toHaveLength(5);
    const stored = file.prepare('SELECT value FROM meta WHERE key = ?').get(HANDICAP_META) as { value: string };
    expect(Number(stored.value)).toBeCloseTo(probability, 12);
    file.close();
  });
});
