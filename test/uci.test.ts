import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Chess } from 'chess.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { START_FEN } from '../src/chess/fen.ts';
import { stockfishCommand } from '../src/engines/stockfish.ts';
import { UciClient } from '../src/engines/uciClient.ts';
import { materialPattern } from '../src/pattern/pattern.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { DEFAULT_CONFIG, saveConfig } from '../src/learn/config.ts';
import { MAX_MULTIPV, UciEngine, valueToCentipawns, valueToWdl, type UciEngineConfig } from '../src/uci/engine.ts';
import { SEARCH_FORMS } from '../src/search/extensions.ts';
import { MorphPlayer, type MovePolicy } from '../src/player/morphPlayer.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { uciMove } from '../src/chess/board.ts';
import { fixturePositions } from './helpers/patternSamples.ts';
import { GameHistory } from '../src/chess/history.ts';
import { writeMovePatternFile } from './helpers/movePatternFile.ts';

const MORPH_BIN = fileURLToPath(new URL('../bin/morph.js', import.meta.url));
const tempDir = mkdtempSync(join(tmpdir(), 'morph-uci-engine-'));
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));

/** A position after 1.f3 e5 2.g4: Black mates with Qh4. */
const FOOLS_MATE = 'rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2';
/** Black to move and checkmated. */
const BLACK_MATED = '7k/6Q1/6K1/8/8/8/8/8 b - - 0 1';
const INFO_LINE = /^info depth (\d+) multipv 1 score (cp -?\d+|mate 1) nodes (\d+) time (\d+) pv ([a-h][1-8][a-h][1-8][qrbn]?)$/;
const VERSION = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

/** Legal moves (UCI) after `moves` from `fen`. */
function legalMoves(fen: string, moves: string[] = []): string[] {
  const chess = new Chess(fen);
  for (const move of moves) chess.move({ from: move.slice(0, 2), to: move.slice(2, 4), promotion: move[4] });
  return chess.moves({ verbose: true }).map((m) => m.lan);
}

/** A store where every equal-material position values `weight` (one material pattern, 5 updates). */
function storeWithEqualMaterialPattern(weight: number): PatternStore {
  const store = PatternStore.open(':memory:');
  // The weight alone, not blended with fitted piece values (materialFit.ts): these tests are of the protocol.
  saveConfig(store.db, { ...DEFAULT_CONFIG, materialPrior: 0 });
  store.insert(materialPattern([0, 0, 0, 0, 0]), 'seed', 0, { weight, updates: 5 });
  return store;
}

/**
 * The search the tests of storeWithEqualMaterialPattern play: it values a position with any piece taken at .5 (no
 * pattern), and a full-width search reaches captures from the start position, so its score would not be the weight;
 * material-forks values each first move by its own position, where the weight shows.
 */
const EQUAL_MATERIAL_SEARCH = 'material-forks';

/** An engine whose output is collected; `send` returns the lines one input line produced. */
function engineUnderTest(config: Partial<UciEngineConfig> = {}) {
  const output: string[] = [];
  let quits = 0;
  const engine = new UciEngine({
    store: PatternStore.open(':memory:'),
    databasePath: '/somewhere/morph.db',
    openDatabase: () => {
      throw new Error('no such database');
    },
    write: (line) => output.push(line),
    onQuit: () => quits++,
    ...config,
  });
  const send = (line: string): string[] => {
    const before = output.length;
    engine.handleLine(line);
    return output.slice(before);
  };
  return { engine, send, output, quits: () => quits };
}

describe('valueToCentipawns', () => {
  it('maps 0.5 to 0, is antisymmetric and clamps the ends', () => {
    expect(valueToCentipawns(0.5)).toBe(0);
    expect(valueToCentipawns(0.75)).toBe(191);
    expect(valueToCentipawns(0.25)).toBe(-191);
    expect(valueToCentipawns(0.8)).toBe(241);
    expect(valueToCentipawns(1)).toBe(2000);
    expect(valueToCentipawns(0)).toBe(-2000);
  });
});

describe('valueToWdl', () => {
  it('splits the expected outcome as two independent half-games: W = E², D = 2E(1 − E), L = (1 − E)²', () => {
    expect(valueToWdl(0.5)).toEqual([250, 500, 250]);
    expect(valueToWdl(0.8)).toEqual([640, 320, 40]);
    expect(valueToWdl(0.1)).toEqual([10, 180, 810]);
    expect(valueToWdl(1)).toEqual([1000, 0, 0]);
    for (const e of [0.03, 0.37, 0.5, 0.91]) {
      const [w, d, l] = valueToWdl(e);
      expect(w + d + l).toBe(1000);
      expect((w + d / 2) / 1000).toBeCloseTo(e, 2);
      // The centipawn score and the WDL tell the same expected outcome: E = 1/(1 + 10^(−cp/400)).
      expect(1 / (1 + 10 ** (-valueToCentipawns(e) / 400))).toBeCloseTo(e, 2); // cp is rounded
    }
  });
});

describe('UciEngine (the protocol state machine)', () => {
  it('identifies itself with its options', () => {
    const { send } = engineUnderTest({ notice: 'fresh database' });
    expect(send('uci')).toEqual([
      `id name Morph ${VERSION}`,
      'id author Morph team',
      'option name Database type string default /somewhere/morph.db',
      'option name Maturity type spin default 0 min 0 max 100000',
      'option name Search type combo default material-five-plies var one-ply var material-one-ply var captures-mates var material-quiescence var material-forks var material-full-width var material-four-plies var material-five-plies',
      'option name MaterialPrior type spin default 1000000 min 0 max 1000000',
      'option name Contempt type spin default 17 min -800 max 800',
      'option name Seed type spin default 1 min 0 max 2147483647',
      'option name MultiPV type spin default 1 min 1 max 256',
      'option name UCI_ShowWDL type check default false',
      'info string fresh database',
      'uciok',
    ]);
    expect(send('isready')).toEqual(['readyok']);
  });

  it('takes MaterialPrior from the GUI: with it the fitted piece values value a difference the database lacks', () => {
    const store = PatternStore.open(':memory:');
    saveConfig(store.db, { ...DEFAULT_CONFIG, materialPrior: 0 });
    store.insert(materialPattern([0, 1, 0, 0, 0]), 'manual', 0, { weight: 0.8, updates: 200 });
    store.insert(materialPattern([0, -1, 0, 0, 0]), 'manual', 0, { weight: 0.2, updates: 200 });
    const { send } = engineUnderTest({ store });
    expect(send('uci')).toContain('option name MaterialPrior type spin default 0 min 0 max 1000000'); // the database's
    // A knight up, White can take Black's last knight: two knights up, a difference the database has never seen.
    send('position fen 4k3/8/8/3n4/8/4N3/8/1N2K3 w - - 0 1');
    const bestMove = () => send('go').at(-1);
    expect(bestMove()).not.toBe('bestmove e3d5'); // the weights alone: .5 for it, .8 for keeping the knight up
    expect(send('setoption name MaterialPrior value 1000000')).toEqual([]);
    expect(bestMove()).toBe('bestmove e3d5');
    expect(send('setoption name MaterialPrior value 0')).toEqual([]);
    expect(bestMove()).not.toBe('bestmove e3d5');
    expect(send('setoption name MaterialPrior value -3')).toEqual(['info string option MaterialPrior needs a whole number from 0 to 1000000, got "-3"']);
  });

  it('takes Contempt from the GUI in centipawns: a pawn up, it stalemates only when a draw is worth more', () => {
    const store = PatternStore.open(':memory:');
    store.insert(materialPattern([1, 0, 0, 0, 0]), 'manual', 0, { weight: 0.7, updates: 200 });
    store.insert(materialPattern([-1, 0, 0, 0, 0]), 'manual', 0, { weight: 0.3, updates: 200 });
    const { send } = engineUnderTest({ store });
    // 17 centipawns: .1 in log-odds (400/ln 10 centipawns each), the default with material-forks.
    expect(send('uci')).toContain('option name Contempt type spin default 17 min -800 max 800');
    // Kf7 and Kf8 stalemate Black (materialFit.test.ts checks it with chess.js); the other moves keep a pawn up.
    send('position fen 7k/p3K3/P5P1/8/8/8/8/8 w - - 0 1');
    const stalemates = ['bestmove e7f7', 'bestmove e7f8'];
    const bestMove = () => send('go').at(-1)!;
    expect(stalemates).not.toContain(bestMove());
    expect(send('setoption name Contempt value -300')).toEqual([]); // a draw worth .85, more than a pawn up
    expect(stalemates).toContain(bestMove());
    expect(send('setoption name Contempt value 0')).toEqual([]);
    expect(stalemates).not.toContain(bestMove());
    expect(send('setoption name Contempt value 1.5')).toEqual(['info string option Contempt needs a whole number from -800 to 800, got "1.5"']);
    expect(send('setoption name Contempt value -801')).toEqual(['info string option Contempt needs a whole number from -800 to 800, got "-801"']);
  });

  it('opens its database and builds its player (with any models) at isready, not at uci, and plays on from an empty one when that fails', () => {
    let opened = 0;
    let built = 0;
    const { send } = engineUnderTest({
      store: () => {
        opened++;
        return storeWithEqualMaterialPattern(0.8);
      },
      search: EQUAL_MATERIAL_SEARCH,
      createPlayer: (store, options, name) => {
        built++;
        return new MorphPlayer(store, options, name);
      },
    });
    expect(send('uci').at(-1)).toBe('uciok');
    expect([opened, built]).toEqual([0, 0]);
    expect(send('isready')).toEqual(['readyok']);
    expect(send('isready')).toEqual(['readyok']);
    expect([opened, built]).toEqual([1, 1]);
    send('position startpos');
    expect(send('go')[0]).toMatch(/ score cp 241 /);
    expect(built).toBe(1); // the first go found its player ready

    const broken = engineUnderTest({
      store: () => {
        throw new Error('not a SQLite database');
      },
    });
    expect(broken.send('isready')).toEqual([
      'info string cannot open the database: not a SQLite database; every move values 0.5',
      'readyok',
    ]);
    expect(broken.send('go')[0]).toMatch(/ score cp 0 /);
  });

  it('ignores unknown commands, and unknown tokens before a known command', () => {
    const { send } = engineUnderTest();
    for (const line of ['', 'hello', 'd', 'flip', 'debug on', 'register later', 'ponderhit', 'stop']) {
      expect(send(line)).toEqual([]);
    }
    expect(send('joho isready')).toEqual(['readyok']);
  });

  it('repeats only a bounded, escaped piece of bad input in its info strings', () => {
    const { send } = engineUnderTest();
    const huge = `${'X'.repeat(1_000_000)}\x1b[2J`;
    const lines = [...send(`setoption name ${huge} value 1`), ...send(`position fen ${huge}`)];
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).toMatch(/^info string .*… \(\d+ more characters\)/); // the cut may sit inside a quote
      expect(line.length).toBeLessThan(600);
      expect(line).not.toMatch(/[\x00-\x1f]/);
    }
  });

  it('answers go with an info line and a legal bestmove, whatever the time control', () => {
    const { send } = engineUnderTest();
    send('position startpos moves e2e4 e7e5');
    const legal = legalMoves(START_FEN, ['e2e4', 'e7e5']);
    for (const go of ['go', 'go wtime 300000 btime 300000 winc 0 binc 0', 'go movetime 50', 'go depth 12', 'go nodes 5', 'go mate 3']) {
      const [info, best, ...rest] = send(go);
      expect(rest).toEqual([]);
      const parsed = INFO_LINE.exec(info);
      expect(parsed, info).not.toBeNull();
      expect(parsed![1]).toBe('6'); // the default search follows every move five plies past it
      expect(parsed![2]).toBe('cp 0'); // a fresh database values every move 0.5
      expect(Number(parsed![3])).toBeGreaterThanOrEqual(legal.length); // every move's position, then the search's
      const move = best.replace(/^bestmove /, '');
      expect(legal).toContain(move);
      expect(parsed![5]).toBe(move);
    }
  });

  it('reports a malformed position with info string and plays no move until a good one', () => {
    const { send } = engineUnderTest();
    send('position startpos moves e2e4');
    const malformed: [string, RegExp][] = [
      ['position fen not/a/fen w - - 0 1', /^info string position ignored: bad FEN/],
      ['position fen', /^info string position ignored: expected/],
      ['position', /^info string position ignored: expected/],
      ['position sideways moves e2e4', /^info string position ignored: expected/],
      ['position startpos moves e7e5', /^info string position ignored: move 1 "e7e5" is not legal/],
      ['position startpos moves e2e4 e7e5 e1e3', /^info string position ignored: move 3 "e1e3" is not legal/],
      ['position startpos moves e2e4 zz', /^info string position ignored: move 2 "zz" is not legal/],
      [`position fen ${FOOLS_MATE} moves d8h4 a2a3`, /^info string position ignored: move 2 "a2a3"/],
    ];
    for (const [line, message] of malformed) {
      const answer = send(line);
      expect(answer.length, line).toBe(1);
      expect(answer[0], line).toMatch(message);
    }
    expect(send('isready')).toEqual(['readyok']);
    expect(send('go wtime 1000 btime 1000')).toEqual(['info string no move: the last position command was refused', 'bestmove 0000']);
    send('position startpos moves e2e4');
    const best = send('go wtime 1000 btime 1000').at(-1)!;
    expect(legalMoves(START_FEN, ['e2e4'])).toContain(best.replace('bestmove ', ''));
  });

  it('refuses impossible positions, names the problem, and plays no move from them', () => {
    const { send } = engineUnderTest();
    const impossible: [string, RegExp][] = [
      ['4k3/8/8/8/8/8/4R3/4K3 w - - 0 1', /the side not to move is in check/],
      ['QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQkQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQKQQQ w - - 0 1', /more than 16 pieces/],
      ['r3k2r/8/8/8/8/8/8/R3K2R w KQkqKQ - 0 1', /castling field/],
    ];
    for (const [fen, problem] of impossible) {
      send('position startpos');
      const answer = send(`position fen ${fen}`);
      expect(answer).toHaveLength(1);
      expect(answer[0]).toMatch(/^info string position ignored: /);
      expect(answer[0]).toMatch(problem);
      expect(send('go').at(-1)).toBe('bestmove 0000');
    }
  });

  it('accepts a FEN with four fields, and a move list after a FEN', () => {
    const { send } = engineUnderTest();
    expect(send('position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - -')).toEqual([]);
    expect(send('go')).toEqual([expect.stringMatching(/^info depth 6 multipv 1 score mate 1 nodes \d+ time \d+ pv a1a8$/), 'bestmove a1a8']);
    expect(send('position fen rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1 moves e7e5 g2g4')).toEqual([]);
    expect(send('go movetime 10')).toEqual([expect.stringMatching(/^info depth 6 multipv 1 score mate 1 nodes \d+ time \d+ pv d8h4$/), 'bestmove d8h4']);
  });

  it('reports as depth the plies its search follows every move, and as nodes the positions it valued', () => {
    const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3';
    const depthAndNodes = (search: string) => {
      const { send } = engineUnderTest({ search });
      send(`position fen ${fen}`);
      const [, depth, nodes] = /^info depth (\d+) multipv 1 .* nodes (\d+) time \d+ pv /.exec(send('go')[0])!;
      return [Number(depth), Number(nodes)];
    };
    // The paper's player values each move's position once, nothing more.
    expect(depthAndNodes('one-ply')).toEqual([1, legalMoves(fen).length]);
    const [depth, nodes] = depthAndNodes('material,quiescence,plies=2');
    expect(depth).toBe(3);
    expect(nodes).toBeGreaterThan(legalMoves(fen).length * 10); // every reply, and every answer to it
  });

  it('answers bestmove 0000 when there is no legal move', () => {
    const { send } = engineUnderTest();
    send(`position fen ${BLACK_MATED}`);
    expect(send('go')).toEqual(['info depth 0 score mate 0', 'bestmove 0000']);
    send('position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1'); // stalemate
    expect(send('go')).toEqual(['info depth 0 score cp 0', 'bestmove 0000']);
  });

  it('holds the answer to go infinite and go ponder until stop or ponderhit', () => {
    const { send } = engineUnderTest();
    send('position startpos');
    const searching = send('go infinite');
    expect(searching).toHaveLength(1);
    expect(searching[0]).toMatch(INFO_LINE);
    expect(send('isready')).toEqual(['readyok']);
    const [best] = send('stop');
    expect(best).toBe(`bestmove ${INFO_LINE.exec(searching[0])![5]}`);
    expect(send('stop')).toEqual([]); // nothing left to stop

    expect(send('go ponder wtime 1000 btime 1000')).toHaveLength(1);
    expect(send('ponderhit')).toEqual([expect.stringMatching(/^bestmove /)]);
    // A go while one is held answers the held one first: one bestmove per go.
    send('go infinite');
    expect(send('go movetime 5').filter((line) => line.startsWith('bestmove'))).toHaveLength(2);
  });

  it('resets to the start position on ucinewgame', () => {
    const { send } = engineUnderTest();
    send(`position fen ${BLACK_MATED}`);
    send('ucinewgame');
    expect(legalMoves(START_FEN)).toContain(send('go').at(-1)!.replace('bestmove ', ''));
  });

  it('values moves from its database, honours Maturity, and reports the value in centipawns', () => {
    const { send } = engineUnderTest({ store: storeWithEqualMaterialPattern(0.8), search: EQUAL_MATERIAL_SEARCH });
    send('position startpos');
    expect(send('go')[0]).toMatch(/^info depth 1 multipv 1 score cp 241 nodes \d+ time \d+ pv /);
    expect(send('setoption name Maturity value 6')).toEqual([]); // the pattern has 5 updates: now too young
    expect(send('go')[0]).toMatch(/^info depth 1 multipv 1 score cp 0 nodes \d+ time \d+ pv /);
    expect(send('setoption name maturity value 5')).toEqual([]);
    expect(send('go')[0]).toMatch(/ score cp 241 /);
    expect(send('setoption name Maturity value -1')[0]).toMatch(/^info string option Maturity needs a whole number/);
    expect(send('setoption name Maturity value lots')[0]).toMatch(/^info string option Maturity needs/);
    expect(send('setoption name Hash value 64')[0]).toMatch(/^info string unknown option "Hash"/);
    expect(send('go')[0]).toMatch(/ score cp 241 /);
  });

  it("looks at the opponent's captures when Search is captures (or its list), and refuses an unknown search", () => {
    // Material only: White's knight against Black's pawn .5 to White; Black's pawn alone, after dxe5, .9 to Black.
    const store = PatternStore.open(':memory:');
    store.insert(materialPattern([-1, 1, 0, 0, 0]), 'seed', 0, { weight: 0.5, updates: 5 });
    store.insert(materialPattern([1, 0, 0, 0, 0]), 'seed', 0, { weight: 0.9, updates: 5 });
    const { send } = engineUnderTest({ store, search: 'one-ply' });
    send('setoption name MultiPV value 40');
    send('position fen 6k1/8/3p4/8/8/5N2/8/6K1 w - - 0 1');
    const scoreOf = (lines: string[], move: string) => lines.find((line) => line.endsWith(` pv ${move}`))?.match(/ score cp (-?\d+) /)?.[1];
    expect(scoreOf(send('go'), 'f3e5')).toBe('0');
    expect(send('setoption name Search value captures')).toEqual([]);
    const lines = send('go');
    expect(scoreOf(lines, 'f3e5')).toBe(String(valueToCentipawns(0.1)));
    expect(scoreOf(lines, 'f3d4')).toBe('0');
    expect(send('setoption name Search value deeper')[0]).toBe(`info string option Search "deeper": "deeper" is not an extension; ${SEARCH_FORMS}`);
    expect(send('setoption name Search value one-ply')).toEqual([]);
    expect(scoreOf(send('go'), 'f3e5')).toBe('0');
    // A list of extensions, as the command line takes it: captures-mates without the bare-king technique.
    expect(send('setoption name Search value mates=1,captures')).toEqual([]);
    expect(scoreOf(send('go'), 'f3e5')).toBe(String(valueToCentipawns(0.1)));
  });

  it('refuses a Search with patterns=K unless it was started with move patterns', () => {
    const { send } = engineUnderTest({ search: 'material-forks' });
    expect(send('setoption name Search value material,quiescence,patterns=4')).toEqual([
      'info string option Search: material,quiescence,patterns=4 follows the quiet moves move patterns rank highest: start morph uci with --move-patterns FILE',
    ]);
    expect(send('uci')).toContain(
      'option name Search type combo default material-forks var one-ply var material-one-ply var captures-mates var material-quiescence var material-forks var material-full-width var material-four-plies var material-five-plies',
    );
    const started = engineUnderTest({ search: 'material-forks', movePatterns: true });
    expect(started.send('setoption name Search value material,quiescence,patterns=4')).toEqual([]);
  });

  it('offers a list of extensions it was started with beside the presets, as the Search option\'s default', () => {
    const { send } = engineUnderTest({ search: 'material,quiescence,mates=4,bare-king' });
    expect(send('uci')).toContain(
      'option name Search type combo default material,quiescence,mates=4,bare-king var one-ply var material-one-ply var captures-mates var material-quiescence var material-forks var material-full-width var material-four-plies var material-five-plies var material,quiescence,mates=4,bare-king',
    );
  });

  it('scores a move the mate look proves lost as the opponent\'s mate, in moves', () => {
    const { send } = engineUnderTest({ search: 'material-forks' });
    send('setoption name MultiPV value 40');
    // Black to move: along the back rank the rook allows 1.Qg8+ Rxg8 2.Nf7#; off it, Qg8# at once.
    send('position fen r6k/6pp/7N/8/2Q5/8/8/6K1 b - - 0 1');
    const lines = send('go');
    const scoreOf = (move: string) => lines.find((line) => line.endsWith(` pv ${move}`))?.match(/ (score \S+ -?\d+) /)?.[1];
    expect(scoreOf('a8b8')).toBe('score mate -2');
    expect(scoreOf('a8a7')).toBe('score mate -1');
    expect(scoreOf('g7h6')).toMatch(/^score cp /); // taking the knight allows neither
    // In the order GUIs read them: the moves not proved lost, then the longer mates against Morph, then mates in 1.
    const shown = lines.slice(0, -1).map((line) => / score (\S+ -?\d+) /.exec(line)![1]);
    const kinds = shown.map((score) => (score.startsWith('cp') ? 'cp' : score));
    expect(kinds).toEqual([...kinds].sort((a, b) => ['cp', 'mate -2', 'mate -1'].indexOf(a) - ['cp', 'mate -2', 'mate -1'].indexOf(b)));
    expect(new Set(kinds)).toEqual(new Set(['cp', 'mate -2', 'mate -1']));
  });

  it('prints the MultiPV best moves, best first, with WDL when UCI_ShowWDL is on', () => {
    // One ply: every move's value is its own position's (the capture replies of search "captures" would lower some).
    const { send } = engineUnderTest({ store: storeWithEqualMaterialPattern(0.8), search: 'one-ply' });
    expect(send('setoption name MultiPV value 40')).toEqual([]);
    expect(send('setoption name UCI_ShowWDL value true')).toEqual([]);
    send('position startpos moves e2e4 d7d5');
    const legal = legalMoves(START_FEN, ['e2e4', 'd7d5']);
    const output = send('go');
    const best = output.pop()!;
    expect(output).toHaveLength(legal.length); // fewer moves than MultiPV: every move once
    const lines = output.map((line) => /^info depth 1 multipv (\d+) (score .*) nodes \d+ time \d+ pv (\S+)$/.exec(line)!);
    expect(lines.map((line) => Number(line[1]))).toEqual(legal.map((_, i) => i + 1));
    expect(lines.map((line) => line[3]).sort()).toEqual([...legal].sort());
    expect(best).toBe(`bestmove ${lines[0][3]}`);
    // The capture unbalances material (no pattern: .5); every other move keeps the .8 pattern.
    expect(lines.at(-1)![3]).toBe('e4d5');
    expect(lines.at(-1)![2]).toBe('score cp 0 wdl 250 500 250');
    for (const line of lines.slice(0, -1)) expect(line[2]).toBe('score cp 241 wdl 640 320 40');
    // MultiPV 2 and WDL off again; a mate leads.
    send('setoption name MultiPV value 2');
    send('setoption name UCI_ShowWDL value false');
    send(`position fen ${FOOLS_MATE}`);
    const [first, second, answer] = send('go');
    // Nodes: the positions the patterns valued, each move's but the mate's (the rules value that one).
    expect(first).toMatch(/^info depth 1 multipv 1 score mate 1 nodes 29 time \d+ pv d8h4$/);
    expect(second).toMatch(/^info depth 1 multipv 2 score cp \d+ nodes 29 time \d+ pv /);
    expect(answer).toBe('bestmove d8h4');
    expect(send('setoption name MultiPV value 0')[0]).toMatch(/^info string option MultiPV needs a whole number from 1/);
    expect(send('setoption name UCI_ShowWDL value maybe')[0]).toMatch(/^info string option UCI_ShowWDL is true or false/);
  });

  it('orders the MultiPV lines by the score they show, the move played first, on many positions with a policy', () => {
    // Material patterns that value some differences (with the fitted piece values, the default prior), and a
    // policy whose preferences have nothing to do with them, so that ranking by value plus policy and showing the
    // value alone would disagree on most positions.
    const store = PatternStore.open(':memory:');
    for (const [material, weight] of [[[0, 0, 0, 0, 0], 0.5], [[1, 0, 0, 0, 0], 0.7], [[-1, 0, 0, 0, 0], 0.3], [[0, 1, 0, 0, 0], 0.85], [[0, 0, 0, 0, -1], 0.05]] as const) {
      store.insert(materialPattern([...material]), 'seed', 0, { weight, updates: 50 });
    }
    const policy: MovePolicy = {
      name: 'scrambled',
      logProbabilities: (history) => {
        const moves = generateLegalMoves(history.board).map(uciMove);
        const logits = moves.map((move) => (([...move].reduce((hash, c) => (hash * 31 + c.charCodeAt(0)) % 1009, 7) % 97) / 97) * 6);
        const total = Math.log(logits.reduce((sum, logit) => sum + Math.exp(logit), 0));
        return new Map(moves.map((move, i) => [move, logits[i] - total]));
      },
    };
    /** A GUI's order of scores: mates for Morph (shorter first), centipawns, mates against it (longer first). */
    const order = (score: string) => {
      const [, kind, n] = /^(cp|mate) (-?\d+)/.exec(score)!;
      const number = Number(n);
      if (kind === 'cp') return number;
      return number > 0 ? 1e6 - number : -1e6 - number;
    };
    const positions = fixturePositions().slice(0, 30);
    // Both value scales: log-odds with the material searches, probability with the others (the mate look's
    // scores, in order, are the next test's).
    const searches = ['material-quiescence', 'captures', 'one-ply'] as const;
    let checked = 0;
    let reordered = 0;
    for (const search of searches) {
      for (const withPolicy of [true, false]) {
        let player: MorphPlayer | undefined;
        const { send } = engineUnderTest({
          store,
          search,
          createPlayer: (values, options, name) => (player = new MorphPlayer(values, { ...options, policy: withPolicy ? policy : undefined }, name)),
        });
        send(`setoption name MultiPV value ${MAX_MULTIPV}`);
        for (const fen of positions) {
          checked++;
          send(`position fen ${fen}`);
          const output = send('go');
          const best = output.pop()!;
          const lines = output.map((line) => /^info depth \d+ multipv (\d+) score (.*) nodes \d+ time \d+ pv (\S+)$/.exec(line)!);
          const context = `${search}${withPolicy ? ' with policy' : ''}: ${fen}`;
          expect(lines.map((line) => line[3]).sort(), context).toEqual(legalMoves(fen).sort());
          expect(lines.map((line) => Number(line[1])), context).toEqual(lines.map((_, i) => i + 1));
          expect(best, context).toBe(`bestmove ${lines[0][3]}`);
          const scores = lines.map((line) => order(line[2]));
          for (let k = 1; k < scores.length; k++) expect(scores[k], `${context}, line ${k + 1}`).toBeLessThanOrEqual(scores[k - 1]);
          if (new Set(scores).size > 1) reordered++;
          if (search === 'material-quiescence' && withPolicy) {
            // The score shown is the one Morph chose by: the value's log-odds plus the policy's term, in centipawns.
            const ranking = player!.rankMoves(new GameHistory(fen));
            for (const line of lines) {
              const ranked = ranking.find((r) => r.move === line[3])!;
              if (ranked.source === 'checkmate' || ranked.refutation?.source === 'checkmate') continue;
              const logOdds = Math.log(ranked.value / (1 - ranked.value)) + ranked.policy!;
              const expected = Math.max(-2000, Math.min(2000, Math.round((logOdds * 400) / Math.LN10)));
              expect(line[2], `${context}: ${line[3]}`).toBe(`cp ${expected}`);
            }
          }
        }
      }
    }
    // The check has something to check: most positions show different scores for different moves.
    expect(reordered).toBeGreaterThan(checked / 2);
  });

  it('switches database on setoption, and keeps the old one when the new one cannot be opened', () => {
    const losing = storeWithEqualMaterialPattern(0.25);
    const opened: string[] = [];
    const { send } = engineUnderTest({
      store: storeWithEqualMaterialPattern(0.8),
      search: EQUAL_MATERIAL_SEARCH,
      openDatabase: (path) => {
        opened.push(path);
        if (path === '/data/other.db') return losing;
        throw new Error(`no Morph database at ${path}`);
      },
    });
    send('position startpos');
    const refused = send('setoption name Database value /no/such file.db');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(/^info string cannot open database "\/no\/such file\.db": no Morph database/);
    expect(send('go')[0]).toMatch(/ score cp 241 /);
    expect(send('setoption name Database value /data/other.db')).toEqual(['info string database :memory:: 1 patterns']);
    expect(send('go')[0]).toMatch(/ score cp -191 /);
    send('setoption name Database value <empty>');
    expect(opened).toEqual(['/no/such file.db', '/data/other.db', '']);
  });

  it('plays the same moves with the same Seed', () => {
    const play = (seed: string) => {
      const { send } = engineUnderTest();
      send(`setoption name Seed value ${seed}`);
      const moves: string[] = [];
      for (let i = 0; i < 10; i++) {
        send(`position startpos moves ${moves.join(' ')}`);
        moves.push(send('go').at(-1)!.replace('bestmove ', ''));
      }
      return moves.join(' ');
    };
    expect(play('7')).toBe(play('7'));
    expect(play('7')).not.toBe(play('8'));
  });

  it('never lets an exception escape: it reports it with info string and keeps going', () => {
    const store = PatternStore.open(':memory:');
    let broken = true;
    const retrieve = store.retrieve.bind(store);
    const retrieveTogether = store.retrieveTogether.bind(store);
    store.retrieve = (graph) => {
      if (broken) throw new Error('disk on fire\nsecond line');
      return retrieve(graph);
    };
    store.retrieveTogether = (graphs) => {
      if (broken) throw new Error('disk on fire\nsecond line');
      return retrieveTogether(graphs);
    };
    const { send } = engineUnderTest({ store, search: 'captures-mates' }); // a search that retrieves
    send('position startpos');
    expect(send('go')).toEqual(['info string error: disk on fire']);
    expect(send('isready')).toEqual(['readyok']);
    broken = false;
    expect(send('go').at(-1)).toMatch(/^bestmove [a-h][1-8][a-h][1-8]$/);
  });

  it('quits once, closes its database and ignores what follows', () => {
    const store = PatternStore.open(':memory:');
    const { engine, send, quits } = engineUnderTest({ store });
    expect(send('quit')).toEqual([]);
    expect(engine.hasQuit).toBe(true);
    expect(store.db.open).toBe(false);
    expect(send('isready')).toEqual([]);
    engine.end();
    expect(quits()).toBe(1);
  });
});

/** `morph uci` as a child process, read line by line. */
class MorphProcess {
  readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: string[] = [];
  private wake: (() => void) | null = null;
  readonly exited: Promise<number | null>;

  constructor(args: string[], env: Record<string, string>) {
    this.child = spawn(process.execPath, [MORPH_BIN, 'uci', ...args], { env: { ...process.env, ...env } });
    this.exited = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      this.lines.push(line);
      this.wake?.();
    });
  }

  send(line: string): void {
    this.child.stdin.write(line + '\n');
  }

  /** The lines up to and including the first that matches `last` (fails after timeoutMs). */
  async readUntil(last: RegExp, timeoutMs = 10_000): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const at = this.lines.findIndex((line) => last.test(line));
      if (at >= 0) return this.lines.splice(0, at + 1);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no line matching ${last} within ${timeoutMs} ms; got ${JSON.stringify(this.lines)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }
}

const processes: MorphProcess[] = [];
afterEach(() => {
  for (const morph of processes.splice(0)) morph.child.kill();
});

function startMorph(args: string[] = []): MorphProcess {
  const morph = new MorphProcess(args, { MORPH_DB: join(tempDir, 'missing', 'morph.db') });
  processes.push(morph);
  return morph;
}

describe('morph uci as a process', () => {
  it('speaks UCI over stdin/stdout: handshake, unknown commands, bad positions, go, quit', async () => {
    const morph = startMorph();
    morph.send('uci');
    const handshake = await morph.readUntil(/^uciok$/);
    expect(handshake.slice(0, 2)).toEqual([`id name Morph ${VERSION}`, 'id author Morph team']);
    expect(handshake).toContain(`option name Database type string default ${join(tempDir, 'missing', 'morph.db')}`);
    expect(handshake.some((line) => /^info string no database at .* yet/.test(line))).toBe(true);

    morph.send('xyzzy');
    morph.send('setoption name Maturity value 0');
    morph.send('isready');
    expect(await morph.readUntil(/^readyok$/)).toEqual(['readyok']);

    morph.send('ucinewgame');
    morph.send('position startpos moves e2e4 e7e5');
    morph.send('position fen this is not a fen');
    morph.send('position startpos moves e2e4 e7e5 e1e8');
    morph.send('isready');
    const complaints = await morph.readUntil(/^readyok$/);
    expect(complaints).toHaveLength(3);
    expect(complaints[0]).toMatch(/^info string position ignored: bad FEN "this is not a fen"/);
    expect(complaints[1]).toMatch(/^info string position ignored: move 3 "e1e8" is not legal/);

    morph.send('go wtime 60000 btime 60000 winc 1000 binc 1000');
    expect(await morph.readUntil(/^bestmove /)).toEqual(['info string no move: the last position command was refused', 'bestmove 0000']);
    morph.send('position startpos moves e2e4 e7e5');
    morph.send('go wtime 60000 btime 60000 winc 1000 binc 1000');
    const [info, best] = await morph.readUntil(/^bestmove /);
    expect(info).toMatch(INFO_LINE);
    expect(legalMoves(START_FEN, ['e2e4', 'e7e5'])).toContain(best.split(' ')[1]);

    morph.send('go infinite');
    await morph.readUntil(/^info depth \d+ /);
    morph.send('stop');
    expect((await morph.readUntil(/^bestmove /))[0]).toMatch(/^bestmove [a-h][1-8][a-h][1-8]$/);

    morph.send('quit');
    expect(await morph.exited).toBe(0);
  });

  it('follows the quiet moves move patterns rank highest with --move-patterns, and needs them for patterns=K', async () => {
    const movePatterns = join(tempDir, 'move-patterns.db');
    writeMovePatternFile(movePatterns);
    const search = 'material,quiescence,mates=4,patterns=4,bare-king';
    const morph = startMorph(['--search', search, '--move-patterns', movePatterns]);
    morph.send('isready');
    await morph.readUntil(/^readyok$/);
    morph.send('position startpos moves e2e4 e7e5');
    morph.send('go depth 1');
    const [info, best] = await morph.readUntil(/^bestmove /);
    expect(info).toMatch(INFO_LINE);
    expect(legalMoves(START_FEN, ['e2e4', 'e7e5'])).toContain(best.split(' ')[1]);
    morph.send('quit');
    expect(await morph.exited).toBe(0);

    const without = startMorph(['--search', search]);
    let stderr = '';
    without.child.stderr.on('data', (chunk) => (stderr += chunk));
    expect(await without.exited).toBe(2);
    expect(stderr).toBe(`morph: --search ${search} follows the quiet moves move patterns rank highest: give a move-pattern database (--move-patterns FILE)\n`);
  });

  it('treats the end of input as quit', async () => {
    const morph = startMorph();
    morph.send('isready');
    await morph.readUntil(/^readyok$/);
    morph.child.stdin.end();
    expect(await morph.exited).toBe(0);
  });

  it('rejects a missing --db before speaking UCI, with a one-line error', async () => {
    const morph = startMorph(['--db', join(tempDir, 'nope.db')]);
    let stderr = '';
    morph.child.stderr.on('data', (chunk) => (stderr += chunk));
    expect(await morph.exited).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^morph: .*nope\.db/);
  });
});

describe('morph uci against the embedded Stockfish', () => {
  it('plays whole games through UciClient, every move legal', async () => {
    // An empty database file, as `morph train` would start from.
    const dbPath = join(tempDir, 'empty.db');
    PatternStore.open(dbPath).close();
    const morph = new UciClient({ command: process.execPath, args: [MORPH_BIN, 'uci', '--db', dbPath], label: 'morph' });
    const stockfish = new UciClient({ ...stockfishCommand(), label: 'stockfish', options: { 'Skill Level': 0 } });
    try {
      await Promise.all([morph.start(), stockfish.start()]);
      expect(morph.engineId).toBe(`Morph ${VERSION}`);
      expect(morph.optionNames).toEqual(['Database', 'Maturity', 'Search', 'MaterialPrior', 'Contempt', 'OpponentModel', 'Seed', 'MultiPV', 'UCI_ShowWDL']);
      let morphMoves = 0;
      for (const morphIsWhite of [true, false]) {
        await Promise.all([morph.newGame(), stockfish.newGame()]);
        const chess = new Chess();
        const moves: string[] = [];
        while (!chess.isGameOver() && moves.length < 120) {
          const morphToMove = (chess.turn() === 'w') === morphIsWhite;
          const move = morphToMove
            ? await morph.bestMove('startpos', moves, { wtime: 60_000, btime: 60_000, winc: 500, binc: 500 })
            : await stockfish.bestMove('startpos', moves, { depth: 1 });
          expect(move, `no move after ${moves.join(' ')}`).not.toBeNull();
          const legal = chess.moves({ verbose: true }).map((m) => m.lan);
          expect(legal, `${move} after ${moves.join(' ')}`).toContain(move);
          chess.move({ from: move!.slice(0, 2), to: move!.slice(2, 4), promotion: move![4] });
          moves.push(move!);
          if (morphToMove) morphMoves++;
        }
        expect(chess.isGameOver() || moves.length === 120).toBe(true);
        if (chess.isGameOver() && chess.isCheckmate()) {
          // The side to move is mated: Morph must see that it has no move.
          const mated = (chess.turn() === 'w') === morphIsWhite;
          if (mated) expect(await morph.bestMove('startpos', moves, { movetime: 100 })).toBeNull();
        }
      }
      expect(morphMoves).toBeGreaterThanOrEqual(4); // even two fool's mates take that many
    } finally {
      await Promise.all([morph.close(), stockfish.close()]);
    }
  });
});
