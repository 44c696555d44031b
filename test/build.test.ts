/**
 * The `morph` command runs compiled JavaScript: bin/morph.js builds the CLI with esbuild on first use (and `npm ci`
 * builds it through the `prepare` script), rebuilds when a source file is newer, and runs the build, not the
 * TypeScript sources. Checked on a copy of the checkout, so the real build is left alone.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const copy = mkdtempSync(join(tmpdir(), 'morph-build-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

for (const entry of ['bin', 'src', 'db', 'openings', 'package.json']) cpSync(join(ROOT, entry), join(copy, entry), { recursive: true });
symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;

const morph = (args: string[], input?: string) =>
  spawnSync(process.execPath, [join(copy, 'bin', 'morph.js'), ...args], { input, encoding: 'utf8' });
const currentBuild = () => readFileSync(join(copy, 'build', 'current'), 'utf8').trim();

describe('the morph command', () => {
  it('builds on first use, runs the build, and rebuilds when a source changes', () => {
    expect(existsSync(join(copy, 'build'))).toBe(false);
    const first = morph(['--version']);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout.trim()).toBe(version);
    const build = currentBuild();
    expect(existsSync(join(copy, 'build', build, 'main.js'))).toBe(true);

    // Unchanged sources: the same build again.
    expect(morph(['--version']).status).toBe(0);
    expect(currentBuild()).toBe(build);

    // A newer source file: a new build.
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(copy, 'src', 'cli', 'run.ts'), later, later);
    expect(morph(['--version']).status).toBe(0);
    expect(currentBuild()).not.toBe(build);

    // Without the sources the build still runs: it is compiled JavaScript, not TypeScript loaded through tsx.
    renameSync(join(copy, 'src'), join(copy, 'src-away'));
    const uci = morph(['uci', '--db', join(copy, 'none.db')], 'uci\nquit\n');
    expect(uci.stderr).toMatch(/^morph: .*none\.db/); // a missing database, reported by the compiled CLI
    const handshake = morph(['--help']);
    expect(handshake.status).toBe(0);
    expect(handshake.stdout).toMatch(/Usage: morph/);
    renameSync(join(copy, 'src-away'), join(copy, 'src'));
  });
});
