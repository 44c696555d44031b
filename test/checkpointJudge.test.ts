/**
 * `morph train --checkpoint-every N` judges each checkpoint on scored positions as it plays, and records the move
 * quality in checkpoint_results: checked against `morph agree` run separately on the same checkpoint and positions,
 * which plays with the move policy kept beside the checkpoint.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ownPolicyPath } from '../src/model/ownPolicy.ts';
import { openMorphDatabase } from '../src/store/database.ts';
import { readCheckpointResults } from '../src/train/checkpointResults.ts';
import { SCORED_POSITIONS } from '../src/train/checkpointJudge.ts';
import { runMorph } from './helpers/cli.ts';

const tempDir = mkdtempSync(join(tmpdir(), 'morph-judge-'));
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));

/** The first `count` shipped scored positions, as a file of their own (a judgement of 400 takes about a minute). */
function fewPositions(count: number): string {
  const path = join(tempDir, `few-${count}.jsonl`);
  writeFileSync(path, readFileSync(SCORED_POSITIONS, 'utf8').split('\n').slice(0, count).join('\n') + '\n');
  return path;
}

describe('checkpoints judged during training', () => {
  it("records each checkpoint's move quality, the same as morph agree finds on it, with the policy as it stood kept beside it", async () => {
    const db = join(tempDir, 'judged.db');
    const positions = fewPositions(8);
    const train = await runMorph([
      'train', '--db', db, '--games', '2', '--opponent', 'random', '--jobs', '1', '--seed', '5', '--relation-lessons', '0',
      '--checkpoint-every', '1', '--judge', positions, '--policy',
    ]);
    expect(train.code, train.stderr).toBe(0);
    expect(train.stderr).toMatch(/checkpoint after game 2 judged on 8 scored positions: mean win-chance loss/);
    const store = openMorphDatabase(db, { readonly: true });
    const rows = readCheckpointResults(store);
    store.close();
    expect(rows.map((r) => [r.trainedGames, r.measure, r.samples])).toEqual([[1, 'quality', 8], [2, 'quality', 8]]);
    for (const row of rows) {
      expect(existsSync(row.checkpoint)).toBe(true);
      // A judged checkpoint and its policy are left frozen: no -wal or -shm beside them.
      const policy = ownPolicyPath(row.checkpoint);
      for (const file of [row.checkpoint, policy]) expect(existsSync(`${file}-wal`) || existsSync(`${file}-shm`)).toBe(false);
      // The policy beside each copy is the one after exactly the checkpoint's games (it records its last game).
      const copy = new Database(policy, { readonly: true, fileMustExist: true });
      try {
        expect(JSON.parse(copy.prepare("SELECT value FROM meta WHERE key = 'model_info'").pluck().get() as string).lastGame).toBe(row.trainedGames);
      } finally {
        copy.close();
      }
    }
    {
      const row = rows[1];
      // morph agree on the checkpoint plays with the policy beside it: the judge found the same.
      const agree = await runMorph(['agree', '--db', row.checkpoint, '--positions', positions, '--json']);
      expect(agree.code, agree.stderr).toBe(0);
      const report = JSON.parse(agree.stdout);
      expect(report.ranker).toContain('policy=');
      expect(row.meanLoss).toBeCloseTo(report.quality.meanLoss, 9);
      expect(row.blunder).toBeCloseTo(report.quality.blunder, 9);
      // The judge reads only the moves Morph chooses among, so it leaves the top-4 share to agree.
      expect(row.top4).toBeUndefined();
    }
  }, 120_000);

  it('refuses a positions file without scores before anything is written', async () => {
    const db = join(tempDir, 'refused.db');
    const unscored = join(tempDir, 'unscored.jsonl');
    writeFileSync(unscored, '{"fen":"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1","best":"e7e5"}\n');
    const train = await runMorph(['train', '--db', db, '--games', '2', '--opponent', 'random', '--jobs', '1', '--checkpoint-every', '1', '--judge', unscored]);
    expect(train.code).toBe(2);
    expect(train.stderr.trim().split('\n')).toHaveLength(1);
    expect(train.stderr).toMatch(/no positions with every move scored/);
    expect(existsSync(db)).toBe(false);
  });
});
