/**
 * The search's patterns=K look (issue 71 phase 2; search/extensions.ts, MorphPlayer): the K quiet moves the move
 * patterns rank highest are followed through every reply, as own-threats follows a threat. It is written like any
 * other extension, changes no preset, needs a move-pattern database, raises only the moves it follows, and the game
 * path (bestMove's shortcut) plays what the full ranking plays.
 */
import { describe, expect, it } from 'vitest';
import { boardFromFen, uciMove, type Board } from '../src/chess/board.ts';
import { GameHistory } from '../src/chess/history.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { MorphPlayer, type MovePatternRanker } from '../src/player/morphPlayer.ts';
import { extensionsOf, formatSearch, PRESET_EXTENSIONS, SEARCH_PRESETS } from '../src/search/extensions.ts';
import { fixturePositions } from './helpers/patternSamples.ts';
import { materialOnlyStore } from './helpers/materialStore.ts';

/** Move patterns that prefer the moves `preferred` gives 1 (the rest 0). */
const stubRanker = (preferred: (move: string) => number): MovePatternRanker => ({
  name: 'stub',
  rankBoard: (board: Board) => generateLegalMoves(board).map((m) => ({ move: uciMove(m), score: preferred(uciMove(m)) })),
});

const PATTERNS_SEARCH = 'material,quiescence,mates=4,patterns=1,bare-king';

describe('the patterns=K look', () => {
  it('is written as a list like any extension, and no preset has it', () => {
    expect(extensionsOf(PATTERNS_SEARCH).patterns).toBe(1);
    expect(formatSearch(extensionsOf('patterns=3,material,quiescence'))).toBe('material,quiescence,patterns=3');
    for (const preset of SEARCH_PRESETS) expect(PRESET_EXTENSIONS[preset].patterns).toBe(0);
    expect(formatSearch(extensionsOf('material,quiescence,mates=4,threats=1,own-threats,bare-king'))).toBe('material-forks');
    expect(() => extensionsOf('material,patterns')).toThrow(/patterns needs a count/);
    expect(() => extensionsOf('material,patterns=0')).toThrow(/whole number from 1/);
  });

  it('needs move patterns', () => {
    const store = materialOnlyStore();
    expect(() => new MorphPlayer(store, { maturity: 0, seed: 1, search: PATTERNS_SEARCH })).toThrow(/move-pattern database/);
    store.close();
  });

  it('raises a quiet fork the move patterns choose to what it wins, and only the moves they choose', () => {
    const store = materialOnlyStore();
    // White's Nc7+ forks the king on e8 and the rook on a8 (the pawns keep the material short of a draw by rule).
    const fen = 'r3k3/7p/8/1N6/8/8/P7/4K3 w - - 0 1';
    const value = (ranker: MovePatternRanker, search = PATTERNS_SEARCH) =>
      new Map(new MorphPlayer(store, { maturity: 0, seed: 1, search, movePatterns: ranker }).rankMoves(new GameHistory(fen)).map((r) => [r.move, r.value]));
    const plain = value(stubRanker(() => 0), 'material,quiescence,mates=4,bare-king');
    const forkChosen = value(stubRanker((move) => (move === 'b5c7' ? 1 : 0)));
    const otherChosen = value(stubRanker((move) => (move === 'b5d6' ? 1 : 0)));
    expect(forkChosen.get('b5c7')!).toBeGreaterThan(plain.get('b5c7')! + 0.2);
    expect(otherChosen.get('b5c7')).toBe(plain.get('b5c7'));
    for (const [move, v] of plain) if (move !== 'b5c7') expect(forkChosen.get(move)).toBe(v);
    // Played: the game path's shortcut bounds a followed move by the highest value, so it finds the fork too.
    const player = new MorphPlayer(store, { maturity: 0, seed: 1, search: PATTERNS_SEARCH, movePatterns: stubRanker((move) => (move === 'b5c7' ? 1 : 0)) });
    expect(player.bestMove(new GameHistory(fen))).toBe('b5c7');
    expect(player.lastValued).toBeGreaterThan(0);
    store.close();
  });

  it('bestMove plays what the full ranking plays, with the look following many quiet moves', () => {
    const store = materialOnlyStore();
    // Move patterns of a made-up taste: a fixed pseudo-random score of each move's text.
    const taste = stubRanker((move) => [...move].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 97, 7));
    let differed = 0;
    let positions = 0;
    for (const fen of fixturePositions().filter((_, i) => i % 20 === 3).slice(0, 12)) {
      if (generateLegalMoves(boardFromFen(fen)).length === 0) continue;
      const search = 'material,quiescence,mates=1,patterns=99';
      const ranking = new MorphPlayer(store, { maturity: 0, seed: 1, search, movePatterns: taste }).rankMoves(new GameHistory(fen));
      const played = new MorphPlayer(store, { maturity: 0, seed: 1, search, movePatterns: taste }).bestRanked(new GameHistory(fen));
      const best = ranking[0].value;
      // The move played is one of the best of the full ranking, at the same value.
      expect(ranking.filter((r) => r.value >= best - 1e-12).map((r) => r.move)).toContain(played.move);
      expect(played.value).toBeCloseTo(best, 12);
      const without = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'material,quiescence,mates=1', movePatterns: taste }).rankMoves(new GameHistory(fen));
      const before = new Map(without.map((r) => [r.move, r.value]));
      for (const r of ranking) {
        expect(r.value).toBeGreaterThanOrEqual(before.get(r.move)! - 1e-12);
        if (r.value > before.get(r.move)! + 1e-12) differed++;
      }
      positions++;
    }
    expect(positions).toBeGreaterThan(5);
    expect(differed).toBeGreaterThan(0); // not vacuous: the look raised some move
    store.close();
  });
});
