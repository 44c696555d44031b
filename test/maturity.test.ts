/**
 * One maturity rule for every command that plays: the value given, else the database's stored setting.
 * A database trained with maturity 5 holds a strong but young pattern (2 updates): every command that plays
 * from it must ignore that pattern unless told otherwise.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { START_FEN } from '../src/chess/fen.ts';
import { parseSquare } from '../src/chess/board.ts';
import { pieceLabel } from '../src/graph/labels.ts';
import { exactDesig } from '../src/pattern/designation.ts';
import type { GraphPattern } from '../src/pattern/pattern.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { DEFAULT_CONFIG, saveConfig } from '../src/learn/config.ts';
import { morphRanker } from '../src/agree/rankers.ts';
import { UciEngine } from '../src/uci/engine.ts';
import { MORPH_BIN, runMorph } from './helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'morph-maturity-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const dbPath = join(dir, 'trained.db');
{
  const store = PatternStore.open(dbPath);
  saveConfig(store.db, { ...DEFAULT_CONFIG, maturity: 5, playSearch: 'captures-mates' }); // plays by its patterns
  // After 1.e4, a White pawn (the side that just moved) on e4.
  const pawnOnE4: GraphPattern = { kind: 'graph', labels: [pieceLabel('moved', 1)], desigs: [exactDesig(parseSquare('e4'))], edges: [] };
  store.insert(pawnOnE4, 'manual', 0, { weight: 0.9, updates: 2 });
  store.close();
}

describe('maturity: the database setting unless given', () => {
  it('morph move', async () => {
    const stored = await runMorph(['move', '--fen', START_FEN, '--json', '--db', dbPath]);
    expect(stored.code, stored.stderr).toBe(0);
    expect(JSON.parse(stored.stdout).ranking.find((r: { move: string }) => r.move === 'e2e4').value).toBe(0.5);
    const given = await runMorph(['move', '--fen', START_FEN, '--json', '--db', dbPath, '--maturity', '0']);
    expect(JSON.parse(given.stdout).best).toBe('e2e4');
  });

  it('morph play', () => {
    const run = spawnSync(process.execPath, [MORPH_BIN, 'play', '--db', dbPath, '--seed', '1'], { input: 'quit\n', encoding: 'utf8' });
    expect(run.stdout).toMatch(/maturity 5,/);
  });

  it('morph uci', () => {
    const lines: string[] = [];
    const store = PatternStore.open(dbPath, { readonly: true });
    const engine = new UciEngine({ store, databasePath: dbPath, openDatabase: () => store, write: (line) => lines.push(line) });
    engine.handleLine('uci');
    engine.handleLine('position startpos');
    engine.handleLine('go');
    expect(lines.at(-2)).toMatch(/ score cp 0 /);
    engine.handleLine('setoption name Maturity value 0');
    engine.handleLine('go');
    expect(lines.at(-1)).toBe('bestmove e2e4');
    engine.end();
  });

  it('morph agree (and match, through the same rule)', () => {
    const ranker = morphRanker(dbPath);
    expect(ranker.score(START_FEN).find((r) => r.move === 'e2e4')?.value).toBe(0.5);
    ranker.close();
    const given = morphRanker(dbPath, { maturity: 0 });
    expect(given.score(START_FEN)[0]).toEqual({ move: 'e2e4', value: 0.9 });
    given.close();
  });
});
