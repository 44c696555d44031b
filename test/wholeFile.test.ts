/**
 * Model files are written whole (src/store/wholeFile.ts): under a temporary name, renamed into place when
 * complete, one writer at a time, and the temporaries of writers killed mid-write are removed by the next one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { playerDecisions } from '../src/model/decisions.ts';
import { buildModel } from '../src/model/modelBuilder.ts';
import { MORPH_BIN, runMorph } from './helpers/cli.ts';
import { endedProcessId, runningProcess } from './helpers/processes.ts';

/** Two short games of "alice" (one as White, one as Black): enough decisions for a model. */
const PGN = `[White "alice"]
[Black "bob"]
[Result "*"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O *

[White "bob"]
[Black "alice"]
[Result "*"]

1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 4. e3 O-O 5. Bd3 d5 6. Nf3 c5 7. O-O Nc6 *
`;

let dir: string;
let pgn: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'morph-whole-file-'));
  pgn = join(dir, 'games.pgn');
  writeFileSync(pgn, PGN);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const seedOf = (model: string) => {
  const db = new Database(model, { readonly: true });
  try {
    return JSON.parse((db.prepare(`SELECT value FROM meta WHERE key = 'model_info'`).get() as { value: string }).value).seed;
  } finally {
    db.close();
  }
};

describe('model files written whole', () => {
  it("a build removes the temporaries left by builds of the same file whose process has ended, and no one else's", async () => {
    const out = join(dir, 'alice.model.db');
    const ended = endedProcessId();
    const running = runningProcess();
    try {
      const leftovers = [
        `${out}.building-${ended}`,
        `${out}.building-${ended}-journal`,
        `${out}.building-${ended}-wal`,
        `${out}.building-${ended}.partial-${ended}`,
        `${out}.partial-${ended}`,
      ];
      const kept = [
        `${out}.building-${running.pid}`, // a build still running
        `${out}.partial-${running.pid}`,
        `${out}.building-notes`, // not a process id
        `${join(dir, 'other.model.db')}.building-${ended}`, // another file's
      ];
      for (const file of [...leftovers, ...kept]) writeFileSync(file, Buffer.alloc(64 * 1024, 7));
      const built = await runMorph(['model', '--pgn', pgn, '--player', 'alice', '--out', out, '--seed', '1', '--no-progress']);
      expect(built.stderr).toBe('');
      expect(built.code).toBe(0);
      expect(seedOf(out)).toBe(1);
      expect(leftovers.filter(existsSync)).toEqual([]);
      expect(kept.filter(existsSync)).toEqual(kept);
    } finally {
      running.kill('SIGKILL');
    }
  }, 60_000);

  it('a second build of the same --out while one runs is refused in one line (exit 2); the first one writes its model', () => {
    const out = join(dir, 'twice.model.db');
    const { decisions, played } = playerDecisions(PGN, 'alice', pgn);
    let second: ReturnType<typeof spawnSync> | undefined;
    let existedMidBuild: boolean | undefined;
    buildModel({
      out, player: 'alice', source: pgn, games: played, decisions, seed: 1,
      // Called mid-build, before the model is written: the second build runs to its end in the meantime.
      onProgress: () => {
        existedMidBuild = existsSync(out);
        second = spawnSync(process.execPath, [MORPH_BIN, 'model', '--pgn', pgn, '--player', 'alice', '--out', out, '--seed', '2', '--no-progress'], { encoding: 'utf8' });
      },
    });
    expect(existedMidBuild).toBe(false);
    expect(second!.status).toBe(2);
    const lines = String(second!.stderr).trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/twice\.model\.db is being written by another process .*one writer at a time/);
    expect(seedOf(out)).toBe(1);
    expect(readdirSync(dir).filter((name) => name.startsWith('twice.model.db.'))).toEqual([]);
    const again = spawnSync(process.execPath, [MORPH_BIN, 'model', '--pgn', pgn, '--player', 'alice', '--out', out, '--no-progress'], { encoding: 'utf8' });
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/already exists/);
  }, 60_000);
});
