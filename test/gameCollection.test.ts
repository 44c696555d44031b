import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { splitPgnGames } from '../src/game/pgnFile.ts';
import { resumeCollection } from '../src/match/gameCollection.ts';

const dir = mkdtempSync(join(tmpdir(), 'morph-collection-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** training/opponent-games.ts with seeded built-in players, whose games replay exactly. */
function collect(out: string, games: number): void {
  execFileSync(
    process.execPath,
    ['bin/run-ts.js', 'training/opponent-games.ts', '--player', 'greedy', '--partners', 'random;ab:1', '--games', String(games),
      '--held-out-every', '3', '--seed', '5', '--max-plies', '60', '--out', out],
    { stdio: 'pipe' },
  );
}
const read = (file: string) => readFileSync(file, 'utf8');
const rounds = (text: string) => splitPgnGames(text).map((g) => Number(/\[Round "(\d+)"\]/.exec(g.text)?.[1]));

describe('an interrupted opponent collection', () => {
  it('goes on from its first missing game and ends with the files an uninterrupted run writes', () => {
    collect(join(dir, 'full'), 7);
    expect(rounds(read(join(dir, 'full.train.pgn')))).toEqual([1, 2, 4, 5, 7]);
    expect(rounds(read(join(dir, 'full.heldout.pgn')))).toEqual([3, 6]);

    // Killed during game 5: four games recorded, and the fifth cut short halfway through its text.
    collect(join(dir, 'cut'), 4);
    const fifth = splitPgnGames(read(join(dir, 'full.train.pgn')))[3].text;
    appendFileSync(join(dir, 'cut.train.pgn'), fifth.slice(0, Math.floor(fifth.length / 2)));
    collect(join(dir, 'cut'), 7);
    expect(read(join(dir, 'cut.train.pgn'))).toBe(read(join(dir, 'full.train.pgn')));
    expect(read(join(dir, 'cut.heldout.pgn'))).toBe(read(join(dir, 'full.heldout.pgn')));

    // Run again when complete: nothing changes.
    collect(join(dir, 'cut'), 7);
    expect(read(join(dir, 'cut.train.pgn'))).toBe(read(join(dir, 'full.train.pgn')));
  }, 120_000);

  it("refuses another collection's files, and the split's wrong file, leaving them as they are", () => {
    const train = read(join(dir, 'full.train.pgn'));
    const heldOut = read(join(dir, 'full.heldout.pgn'));
    expect(resumeCollection(train, heldOut, { player: 'ab:2', seed: 5, every: 3 })).toBeInstanceOf(Error);
    expect(resumeCollection(train, heldOut, { player: 'greedy', seed: 6, every: 3 })).toBeInstanceOf(Error);
    expect(resumeCollection(heldOut, train, { player: 'greedy', seed: 5, every: 3 })).toBeInstanceOf(Error);
    const resumed = resumeCollection(train, heldOut, { player: 'greedy', seed: 5, every: 3 });
    expect(resumed).toMatchObject({ next: 7 });

    writeFileSync(join(dir, 'other.train.pgn'), train);
    writeFileSync(join(dir, 'other.heldout.pgn'), heldOut);
    let status = 0;
    let stderr = '';
    try {
      execFileSync(
        process.execPath,
        ['bin/run-ts.js', 'training/opponent-games.ts', '--player', 'greedy', '--partners', 'random', '--games', '9',
          '--held-out-every', '3', '--seed', '8', '--out', join(dir, 'other')],
        { stdio: 'pipe' },
      );
    } catch (error) {
      status = (error as { status: number }).status;
      stderr = String((error as { stderr: Buffer }).stderr);
    }
    expect(status).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('seed');
    expect(read(join(dir, 'other.train.pgn'))).toBe(train);
  });

  it('drops a game whose round is missing, and every game after it, so the rounds stay in order', () => {
    const games = splitPgnGames(read(join(dir, 'full.train.pgn'))).map((g) => g.text.trim() + '\n\n');
    // Round 2 lost (say, by hand editing): rounds 4, 5 and 7 cannot be kept without it.
    const resumed = resumeCollection(games[0] + games.slice(2).join(''), read(join(dir, 'full.heldout.pgn')), {
      player: 'greedy', seed: 5, every: 3,
    });
    expect(resumed).not.toBeInstanceOf(Error);
    const { train, heldOut, next } = resumed as Exclude<typeof resumed, Error>;
    expect(next).toBe(1);
    expect(rounds(train)).toEqual([1]);
    expect(heldOut).toBe('');
  });
});
