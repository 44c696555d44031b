import { Chess } from 'chess.js';
import { describe, expect, it } from 'vitest';
import { MorphPlayer } from '../src/player/morphPlayer.ts';
import { GameHistory } from '../src/chess/history.ts';
import { TerminalGame } from '../src/play/terminalGame.ts';
import { materialPattern } from '../src/pattern/pattern.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { DEFAULT_CONFIG, saveConfig } from '../src/learn/config.ts';
import { materialOnlyStore } from './helpers/materialStore.ts';
import { Random } from '../src/util/random.ts';
import { RELATION_TERM_FEATURES } from '../src/eval/relationTerms.ts';

/** White's queen can take a loose knight; every other move leaves the material as it is. */
const LOOSE_KNIGHT = '4k3/8/8/3n4/8/8/8/3QK3 w - - 0 1';

/**
 * The search these hints are read from: material-forks values each move by its own position and the threats it
 * follows. A full-width search over a database that knows three material balances values most lines .5 (a balance
 * it has no pattern for), which would say nothing about hints.
 */
const HINT_SEARCH = 'material-forks';

/**
 * A database that knows two material patterns (P N B R Q, side that just moved minus side to move), played with
 * each weight alone (material prior 0) unless told otherwise.
 */
function knowingPlayer(materialPrior = 0): { player: MorphPlayer; queenUp: number; store: PatternStore } {
  const store = PatternStore.open(':memory:');
  saveConfig(store.db, { ...DEFAULT_CONFIG, materialPrior });
  const queenUp = store.insert(materialPattern([0, 0, 0, 0, 1]), 'material', 0, { weight: 0.95, updates: 50 }).record.id;
  store.insert(materialPattern([0, -1, 0, 0, 1]), 'material', 0, { weight: 0.6, updates: 50 });
  return { player: new MorphPlayer(store, { maturity: 0, seed: 3, search: HINT_SEARCH }), queenUp, store };
}

function session(materialPrior = 0, startFen = LOOSE_KNIGHT) {
  const { player, queenUp, store } = knowingPlayer(materialPrior);
  const output: string[] = [];
  const game = new TerminalGame({ player, humanColor: 'white', startFen, write: (text) => output.push(text), saveFile: () => {} });
  game.start();
  const send = (line: string) => {
    const before = output.length;
    game.handleLine(line);
    return output.slice(before).join('\n');
  };
  /** The moves Morph itself plays in `fen` over a few seeds (its tie-break is a seeded random choice). */
  const choices = (fen: string) =>
    new Set(Array.from({ length: 12 }, (_, seed) => new MorphPlayer(store, { maturity: 0, seed, search: HINT_SEARCH }).choose(new GameHistory(fen, []))));
  return { game, send, queenUp, choices };
}

describe('play: hint and explain', () => {
  it('hint names the moves Morph values alike as equals: the moves it picks among at random', () => {
    const { send, choices } = session();
    const capture = new Chess(LOOSE_KNIGHT).moves({ verbose: true }).find((m) => m.captured === 'n')!.san;
    // Qh5+ checks and attacks the knight along the fifth rank: material-forks values the
    // fork at what it surely wins, the knight, as it values the capture; every other move keeps the material.
    const tie = `(${capture}, Qh5\\+|Qh5\\+, ${capture})`;
    expect(send('hint')).toMatch(
      new RegExp(`^Morph values 2 moves alike \\(0\\.950\\) and would play one of them at random: ${tie}; next \\S+ \\(0\\.600\\) \\(of \\d+ moves\\)\\.$`),
    );
    // Morph's own choice, seed by seed, falls on both of them and on nothing else.
    expect([...new Set([...choices(LOOSE_KNIGHT)].map((chosen) => chosen.move))].sort()).toEqual(['d1d5', 'd1h5']);
  });

  it('hint near the 50-move limit names the moves that draw by it', () => {
    // The same position with the half-move clock at 99: only the capture does not end the game in a draw.
    const { send } = session(0, LOOSE_KNIGHT.replace(' 0 1', ' 99 80'));
    expect(send('hint')).toMatch(
      /^Morph would play Qxd5 \(0\.950\), then \S+ \(0\.\d{3}, a draw by the 50-move rule\), then \S+ \(0\.\d{3}, a draw by the 50-move rule\) \(of \d+ moves\)\.$/,
    );
  });

  it('hint names the game search\'s move under a late-move reduction, where the full ranking puts another first', () => {
    // The position and seeded random relation terms of fullWidth.test.ts: the full ranking puts Qa4 first, the
    // game search (what Morph plays) Ng5.
    const store = materialOnlyStore();
    const rng = new Random(7);
    const relationWeights = Float64Array.from({ length: RELATION_TERM_FEATURES }, () => (rng.next() - 0.5) * 0.6);
    const startFen = 'r2qk2r/2p3pp/p1p2n2/P2b1p2/1b1Pp3/2N1P1PN/1P3P1P/R1BQK2R w KQkq - 0 13';
    const player = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'material-four-plies', relationWeights });
    const output: string[] = [];
    const game = new TerminalGame({ player, humanColor: 'white', startFen, write: (text) => output.push(text), saveFile: () => {} });
    game.start();
    game.handleLine('hint');
    expect(output.at(-1)).toMatch(/^Morph would play Ng5 \(/);
    store.close();
  });

  it('hint against a bare king names the move Morph plays by the rules, not the best value', () => {
    const bareKing = '4k3/8/8/8/8/8/P7/Q3K3 w - - 0 80';
    const { send, choices } = session(0, bareKing);
    const played = [...choices(bareKing)];
    expect(played.every((chosen) => chosen.chosenBy === 'bare-king')).toBe(true);
    const hint = /^Morph would play (\S+): against a bare king it mates by the rules' order, not by its values\.$/.exec(send('hint'));
    expect(hint).not.toBeNull();
    const sans = new Map(new Chess(bareKing).moves({ verbose: true }).map((m) => [m.lan, m.san]));
    expect(played.map((chosen) => sans.get(chosen.move))).toContain(hint![1]);
  });

  it('explain MOVE shows the pattern behind a move of yours; explain alone, Morph\'s last move', () => {
    const { send, game, queenUp } = session();
    expect(send('explain Qxd5')).toContain(`#${queenUp} material w=0.950`);
    expect(send('explain Qxd5')).toMatch(/^Qxd5 \(d1d5\) is worth 0\.9500/);
    expect(send('explain')).toBe('Morph has not moved yet: explain MOVE explains one of yours, e.g. explain e4.');
    const reply = send('Qd2');
    const [, san, value] = /Morph plays 1\.\.\. (\S+) {2}\(value ([\d.]+)\)/.exec(reply)!;
    const explained = send('explain');
    // The same move and value as Morph announced, explained in the position it was played from.
    expect(explained.startsWith(`${san} (${game.moves[1]}) is worth ${Number(value).toFixed(4)}`)).toBe(true);
    expect(send('explain Kb9')).toMatch(/neither a move nor a command|Illegal move/);
  });

  it('explain shows a material weight blended with the fitted piece values: the two terms of its log-odds', () => {
    const { send, queenUp } = session(20);
    const explained = send('explain Qxd5');
    const [, worth] = /is worth ([\d.]+)/.exec(explained)!;
    const [, material] = /\n {4}material +([-+][\d.]+) {2}material Q\+1 by the fitted piece values Q [\d.]+\n/.exec(explained)!;
    const [, own, fitted, prior] = new RegExp(
      `\\n {4}material-pattern +([-+][\\d.]+) {2}#${queenUp} material w=0\\.950 updates=50, blended with the fitted weight ([\\d.]+) as (\\d+) updates`,
    ).exec(explained)!;
    const sigma = (x: number) => 1 / (1 + Math.exp(-x));
    expect(prior).toBe('20');
    // The fitted weight is the piece values' log-odds; the pattern's own weight, blended in, adds the rest.
    expect(sigma(Number(material))).toBeCloseTo(Number(fitted), 3); // both shown to four places
    const blended = (50 * 0.95 + 20 * Number(fitted)) / 70;
    expect(sigma(Number(material) + Number(own))).toBeCloseTo(blended, 4);
    expect(Number(worth)).toBeCloseTo(blended, 4); // nothing in the look changes a queen up with no piece left to Black
  });

  it('explain values a difference the database lacks by the fitted piece values alone', () => {
    const store = PatternStore.open(':memory:');
    store.insert(materialPattern([0, 0, 0, 0, 1]), 'material', 0, { weight: 0.95, updates: 50 });
    const output: string[] = [];
    const player = new MorphPlayer(store, { maturity: 0, seed: 3 });
    const game = new TerminalGame({ player, humanColor: 'white', startFen: LOOSE_KNIGHT, write: (text) => output.push(text), saveFile: () => {} });
    game.start();
    game.handleLine('explain Kf2');
    // A queen against a knight, never seen. The fit knows only the queen: 50 updates won .95 of the time, and the
    // ridge's one pseudo-update at 0. The maximum-likelihood value solves 50·(.95 - σ(c)) = c: found by bisection.
    const sigma = (x: number) => 1 / (1 + Math.exp(-x));
    let low = 0;
    let high = 10;
    for (let i = 0; i < 100; i++) {
      const mid = (low + high) / 2;
      if (50 * (0.95 - sigma(mid)) > mid) low = mid;
      else high = mid;
    }
    const queenValue = low;
    const explained = output.join('\n');
    // The knight, never seen, is worth 0; no pattern of the difference adds a term of its own.
    const [, material] = /line: Kf2, valued where it stands.*\n {4}material +([-+][\d.]+) {2}material N-1 Q\+1 by the fitted piece values N 0\.000, Q [\d.]+$/.exec(explained)!;
    expect(Number(material)).toBeCloseTo(queenValue, 4);
    const [, value] = /is worth ([\d.]+)/.exec(explained)!;
    expect(Number(value)).toBeCloseTo(sigma(queenValue), 4);
  });
});
