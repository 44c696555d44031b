/**
 * A database in a read-only directory (or on a read-only file system): WAL mode needs a -shm side file there,
 * which SQLite cannot create, yet read commands must work, and training must say in one line that it cannot.
 * A non-root user gets a read-only directory from chmod; root ignores permissions, so for root the directory is
 * bind-mounted read-only in a private mount namespace (unshare) for the commands alone.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { buildSampleDatabase, GAMES_PLAYED, MORPH_BIN } from './helpers/sampleDatabase.ts';

const dir = mkdtempSync(join(tmpdir(), 'morph-ro-'));
const outputs = mkdtempSync(join(tmpdir(), 'morph-ro-output-'));
afterAll(() => {
  chmodSync(dir, 0o755);
  rmSync(dir, { recursive: true, force: true });
  rmSync(outputs, { recursive: true, force: true });
});

const isRoot = process.getuid?.() === 0;
const canMountReadOnly = isRoot && spawnSync('unshare', ['-m', 'true']).status === 0;

/** Runs `morph ARGS` with `dir` read-only; the exit status, stdout and stderr of each. */
function morphInReadOnlyDir(...commands: string[][]): { status: number; stdout: string; stderr: string }[] {
  const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
  const lines = commands.map(
    (args, i) => `${[process.execPath, MORPH_BIN, ...args].map(quote).join(' ')} >${outputs}/out${i} 2>${outputs}/err${i}; echo $? >${outputs}/status${i}`,
  );
  const script = canMountReadOnly
    ? [`mount --bind ${quote(dir)} ${quote(dir)}`, `mount -o remount,ro,bind ${quote(dir)}`, ...lines].join('\n')
    : lines.join('\n');
  if (!canMountReadOnly) chmodSync(dir, 0o555);
  try {
    const run = spawnSync(canMountReadOnly ? 'unshare' : 'sh', canMountReadOnly ? ['-m', 'sh', '-c', script] : ['-c', script], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status).toBe(0);
  } finally {
    chmodSync(dir, 0o755);
  }
  return commands.map((_, i) => {
    const read = (suffix: string) => readFileSync(join(outputs, `${suffix}${i}`), 'utf8');
    return { status: Number(read('status')), stdout: read('out'), stderr: read('err') };
  });
}

it.skipIf(isRoot && !canMountReadOnly)('reads a database in a read-only directory, and refuses to train there in one line', () => {
  const path = join(dir, 'morph.db');
  const sample = buildSampleDatabase(path);
  const before = readdirSync(dir).sort();
  const [inspect, train] = morphInReadOnlyDir(
    ['inspect', '--db', path, '--json'],
    ['train', '--db', path, '--games', '1', '--opponent', 'random', '--progress', 'none'],
  );
  expect(inspect.stderr).toBe('');
  expect(inspect.status).toBe(0);
  const summary = JSON.parse(inspect.stdout);
  expect(summary.games.played).toBe(GAMES_PLAYED);
  expect(summary.games.recorded).toBe(sample.games.length);
  expect(train.status).toBe(2);
  expect(train.stderr).toBe(
    `morph: ${path} cannot be written (its directory ${dir} is read-only): ` +
      'Morph cannot train or learn on it; read commands still work\n',
  );
  expect(readdirSync(dir).sort()).toEqual(before);
});
