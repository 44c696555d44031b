/**
 * The player's search modes (src/search/search.ts): which moves are captures, the capture reply that sets a
 * move's value, and the player looking one capture deep, each checked against chess.js or against the one-ply
 * player composed by hand.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chess } from 'chess.js';
import { describe, expect, it, vi } from 'vitest';
import { applyMove, boardFromFen, boardToFen, cloneBoard, parseUciMove, uciMove, type Board } from '../src/chess/board.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { materialEvaluation } from '../src/eval/evaluate.ts';
import { GameHistory } from '../src/chess/history.ts';
import { bestReplyLine, isCapture, mateByChecks, matingReply, QUIESCENCE, QUIESCENCE_DEPTH, shortestMateByChecks, threatenedPieces, threatensAnything, unparriedThreat, worstCaptureReply, worstThreatReply } from '../src/search/search.ts';
import { captureLook, defaultContempt, extensionList, extensionsOf, formatSearch, MATE_LOOK_DEPTH, PRESET_EXTENSIONS, SEARCH_FORMS, SEARCH_PRESETS, type SearchPreset, type SearchSpec } from '../src/search/extensions.ts';
import { gameEnd } from '../src/chess/gameEnd.ts';
import { rankMoves } from '../src/engines/alphabeta.ts';
import { seedPatterns } from '../src/learn/seeding.ts';
import { MorphPlayer, type MovePolicy } from '../src/player/morphPlayer.ts';
import { explainMove, explanationText } from '../src/player/explain.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { DEFAULT_CONFIG, loadConfig, mergeConfig, saveConfig } from '../src/learn/config.ts';
import { setMeta } from '../src/store/meta.ts';
import { materialPattern } from '../src/pattern/pattern.ts';
import { materialOnlyStore as madeUpMaterialStore } from './helpers/materialStore.ts';
import { Random } from '../src/util/random.ts';
import { fixturePositions } from './helpers/patternSamples.ts';
import { buildSampleDatabase } from './helpers/sampleDatabase.ts';
import { runMorph } from './helpers/cli.ts';
import { verboseMoves } from './helpers/chessMoves.ts';
import { runTraining } from '../src/train/harness.ts';
import { scoreText } from '../src/uci/engine.ts';
import type { MorphError } from '../src/util/errors.ts';

const uciOf = (m: { from: string; to: string; promotion?: string }) => m.from + m.to + (m.promotion ?? '');
/** The look of the one-capture searches (captureLook of `captures`), spelled out. */
const ONE_CAPTURE = { depth: 1, promotions: false };

/**
 * Every 25th fixture position, the positions of a few seeded random games, and two where en passant is legal.
 * (chess.js's verbose move lists are slow, so the sample is kept small.) Played once, for every test that reads it.
 */
let samples: string[] | undefined;
function samplePositions(): readonly string[] {
  return (samples ??= playedSamplePositions());
}

function playedSamplePositions(): string[] {
  const fens = fixturePositions().filter((_, i) => i % 25 === 0);
  fens.push('rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3', '4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1');
  const rng = new Random(7);
  for (let game = 0; game < 8; game++) {
    const chess = new Chess();
    for (let ply = 0; ply < 100 && !chess.isGameOver(); ply++) {
      const moves = chess.moves();
      chess.move(moves[rng.int(moves.length)]);
      fens.push(chess.fen());
    }
  }
  return fens;
}

describe('isCapture', () => {
  it('agrees with chess.js (capture or en passant) on every legal move of real and random positions', () => {
    let captures = 0;
    let enPassant = 0;
    let moves = 0;
    for (const fen of samplePositions()) {
      const board = boardFromFen(fen);
      const expected = new Map(verboseMoves(new Chess(fen)).map((m) => [uciOf(m), m.isCapture() || m.isEnPassant()]));
      for (const move of generateLegalMoves(board)) {
        const capture = isCapture(board, move);
        expect(capture, `${fen} ${uciMove(move)}`).toBe(expected.get(uciMove(move)));
        moves++;
        if (capture) captures++;
        if (capture && board.squares[move.to] === 0) enPassant++;
      }
    }
    expect(moves).toBeGreaterThan(2000);
    expect(captures).toBeGreaterThan(200);
    expect(enPassant).toBeGreaterThanOrEqual(2);
  });
});

/** A made-up value in [0, 1], a fixed pseudo-random function of a text (FNV-1a). */
function madeUpValue(text: string): number {
  let hash = 2166136261;
  for (const ch of text) hash = Math.imul(hash ^ ch.charCodeAt(0), 16777619) >>> 0;
  return (hash % 10007) / 10006;
}

describe('worstCaptureReply', () => {
  /** A made-up valuation, a fixed pseudo-random function of the position. */
  const valuation = (board: Board) => madeUpValue(boardToFen(board));

  it('is the least of the stand-pat value and one minus the valuation after each capture, as chess.js lists captures', () => {
    let refuted = 0;
    let kept = 0;
    for (const fen of samplePositions().filter((_, i) => i % 3 === 0)) {
      const board = boardFromFen(fen);
      // chess.js's captures and the value each leaves, listed once: they do not depend on the stand-pat value.
      const captures = verboseMoves(new Chess(fen))
        .filter((m) => m.isCapture() || m.isEnPassant())
        .map((m) => {
          const after = new Chess(m.after);
          const value = after.isCheckmate() ? 0 : after.isStalemate() || after.isInsufficientMaterial() ? 0.5 : 1 - valuation(boardFromFen(m.after));
          return { move: uciOf(m), value };
        });
      for (const standPat of [0.2, 0.5, 0.9]) {
        let expected = standPat;
        const best: string[] = [];
        for (const { move, value } of captures) {
          if (value < expected - 1e-12) {
            expected = value;
            best.length = 0;
          }
          if (Math.abs(value - expected) < 1e-12 && value < standPat) best.push(move);
        }
        const refutation = worstCaptureReply(board, standPat, valuation);
        if (expected < standPat) {
          refuted++;
          expect(refutation?.value).toBeCloseTo(expected, 12);
          expect(best).toContain(refutation?.move);
        } else {
          kept++;
          expect(refutation).toBeUndefined();
        }
      }
    }
    expect(refuted).toBeGreaterThan(50);
    expect(kept).toBeGreaterThan(50);
  });

  it('with depth > 1 is the full minimax over captures in turn, each side free to stop (brute force without pruning)', () => {
    /** What the side that just moved into `board` is left with, every capture sequence up to `depth` tried. */
    const bruteForce = (board: Board, standPat: number, depth: number): number => {
      if (depth === 0) return standPat;
      let value = standPat;
      for (const move of generateLegalMoves(board)) {
        if (!isCapture(board, move)) continue;
        const after = boardFromFen(boardToFen(board));
        applyMove(board, move, after);
        const end = gameEnd(after, 1);
        const reply = end === 'checkmate' ? 0 : end !== null ? 0.5 : 1 - capturerLeft(after, depth - 1);
        value = Math.min(value, reply);
      }
      return value;
    };
    /**
     * bruteForce after a capture, at the position's own valuation: a function of the position (its FEN, clocks
     * included) and the depth alone, so worked out once and reused by the other stand-pat value and the other
     * depths' trees that reach it (the same values, a fraction of the time).
     */
    const worked = new Map<string, number>();
    const capturerLeft = (after: Board, depth: number): number => {
      const key = `${depth} ${boardToFen(after)}`;
      let value = worked.get(key);
      if (value === undefined) worked.set(key, (value = bruteForce(after, valuation(after), depth)));
      return value;
    };
    let deeper = 0;
    let compared = 0;
    for (const fen of samplePositions().filter((_, i) => i % 12 === 0)) {
      const board = boardFromFen(fen);
      for (const standPat of [0.3, 0.8]) {
        const oneDeep = worstCaptureReply(board, standPat, valuation)?.value ?? standPat;
        for (const depth of [1, 2, 3, 5]) {
          const expected = bruteForce(board, standPat, depth);
          const refutation = worstCaptureReply(board, standPat, valuation, { depth, promotions: false });
          expect(refutation?.value ?? standPat, `${fen} depth ${depth}`).toBeCloseTo(expected, 12);
          if (refutation) expect(isCapture(board, parseUciMove(refutation.move)!)).toBe(true);
          compared++;
          if (Math.abs(expected - oneDeep) > 1e-9) deeper++;
        }
      }
    }
    expect(compared).toBeGreaterThan(400);
    expect(deeper).toBeGreaterThan(40); // not vacuous: the deeper look changes many values
  });

  it('with promotions follows a promotion, quiet or capturing, as it follows a capture (brute force without pruning)', () => {
    /** The brute force above, following the moves chess.js calls captures or promotions. */
    const bruteForce = (fen: string, standPat: number, depth: number): number => {
      if (depth === 0) return standPat;
      let value = standPat;
      for (const m of verboseMoves(new Chess(fen))) {
        if (!(m.isCapture() || m.isEnPassant() || m.isPromotion())) continue;
        const after = new Chess(m.after);
        const reply = after.isCheckmate() ? 0 : after.isDraw() ? 0.5 : 1 - bruteForce(m.after, valuation(boardFromFen(m.after)), depth - 1);
        value = Math.min(value, reply);
      }
      return value;
    };
    // Pawns one step from promoting, quiet and capturing, for either side, beside other captures.
    const positions = [
      '8/P5k1/8/8/8/8/6K1/8 w - - 0 1',
      '1n6/P5k1/8/8/8/8/1p4K1/8 b - - 0 1',
      '1n4k1/P7/8/8/3q4/8/1p4K1/2R5 w - - 0 1',
      '3r2k1/2P5/8/4n3/8/8/5p2/R1K3N1 b - - 0 1',
      '3r2k1/2P5/8/4n3/8/8/5p2/R1K3N1 w - - 0 1',
    ];
    let promoted = 0;
    for (const fen of positions) {
      const board = boardFromFen(fen);
      for (const standPat of [0.3, 0.8]) {
        for (const depth of [1, 2, 3]) {
          const expected = bruteForce(fen, standPat, depth);
          const refutation = worstCaptureReply(board, standPat, valuation, { depth, promotions: true });
          expect(refutation?.value ?? standPat, `${fen} depth ${depth}`).toBeCloseTo(expected, 12);
          if (refutation && parseUciMove(refutation.move)!.promotion !== 0) promoted++;
        }
      }
    }
    expect(promoted).toBeGreaterThan(5); // not vacuous: promotions refute
  });

  it('scores a capture that mates 0 for the side that just moved', () => {
    // Black's last move left the back rank open: Rxe8 takes the rook and mates.
    const board = boardFromFen('4r1k1/5ppp/8/8/8/8/5PPP/4R1K1 w - - 0 1');
    const refutation = worstCaptureReply(board, 0.5, () => 0.5);
    expect(refutation).toEqual({ move: 'e1e8', value: 0, source: 'checkmate' });
  });

  it('finds no refutation in an exchange that comes back to the same material, though 1 - (1 - x) rounds below x', () => {
    // Black to move: dxe4 takes a pawn, dxe4 takes it back. Level material is worth .1 to whoever just moved,
    // a pawn up .99, so White is left 1 - (1 - .1) after the exchange: 0.09999999999999998 in floating point.
    const board = boardFromFen('4k3/7p/8/3p4/4P3/3P4/8/4K3 b - - 0 1');
    const pawnsAhead = (after: Board) => {
      let balance = 0;
      for (const piece of after.squares) balance += Math.sign(piece) * (Math.abs(piece) === 1 ? 1 : 0);
      return after.turn === 0 ? -balance : balance; // for the side that just moved (White is 0: balance > 0 is White ahead)
    };
    const valuation = (after: Board) => ({ [-1]: 0.01, 0: 0.1, 1: 0.99 })[pawnsAhead(after)]!;
    expect(1 - (1 - 0.1)).toBeLessThan(0.1); // the rounding the search must not take for a loss
    expect(worstCaptureReply(board, 0.1, valuation, captureLook(PRESET_EXTENSIONS['material-forks']))).toBeUndefined();
    // A real loss is still found: with the pawn on d3 gone, dxe4 wins it.
    const undefended = boardFromFen('4k3/7p/8/3p4/4P3/8/7P/4K3 b - - 0 1');
    const refutation = worstCaptureReply(undefended, 0.1, valuation, captureLook(PRESET_EXTENSIONS['material-forks']));
    expect(refutation?.move).toBe('d5e4');
    expect(refutation?.value).toBeCloseTo(0.01, 12);
  });
});

describe('worstThreatReply', () => {
  /**
   * A made-up valuation, a fixed pseudo-random function of the pieces and the side to move (not of the FEN's
   * en-passant field, which chess.js writes only when a capture there is legal).
   */
  const valuation = (board: Board) => madeUpValue(boardToFen(board).split(' ').slice(0, 2).join(' '));
  /** chess.js's value, for the side that moved before it, of the position after a capture, one capture deep. */
  const afterCapture = (fen: string) => {
    const after = new Chess(fen);
    return after.isCheckmate() ? 0 : after.isStalemate() || after.isInsufficientMaterial() ? 0.5 : 1 - valuation(boardFromFen(fen));
  };
  /** What the side that just moved into `fen` is left after the other side's best capture (or none). */
  const settled = (fen: string) => {
    let value = valuation(boardFromFen(fen));
    for (const m of verboseMoves(new Chess(fen))) if (m.isCapture() || m.isEnPassant()) value = Math.min(value, afterCapture(m.after));
    return value;
  };
  /** Squares of the side to move's pieces the other side takes at a profit if the side to move passes. */
  const threatenedSquares = (fen: string) => {
    const fields = fen.split(' ');
    const passed = [fields[0], fields[1] === 'w' ? 'b' : 'w', fields[2], '-', fields[4], fields[5]].join(' ');
    const standPat = valuation(boardFromFen(passed));
    const squares = new Set<string>();
    for (const m of verboseMoves(new Chess(passed, { skipValidation: true }))) {
      if ((m.isCapture() || m.isEnPassant()) && afterCapture(m.after) < standPat - 1e-9) squares.add(m.to);
    }
    return squares.size;
  };

  /** The best the side to move in `fen` can do: each of its moves followed by the other side's best capture. */
  const bestAnswerValue = (fen: string) => {
    let best = 0;
    for (const answer of verboseMoves(new Chess(fen))) {
      const after = new Chess(answer.after);
      best = Math.max(best, after.isCheckmate() ? 1 : after.isDraw() ? 0.5 : settled(answer.after));
    }
    return best;
  };

  it('is the worst best answer to the quiet replies that check or threaten two pieces (or one), one capture deep, as chess.js plays them', () => {
    let lowered = 0;
    let doubleThreats = 0;
    let singleThreats = 0;
    for (const fen of samplePositions().filter((_, i) => i % 20 === 3).slice(0, 5)) {
      const board = boardFromFen(fen);
      // Each quiet reply that checks or threatens: how many pieces it threatens, and the mover's best answer.
      const threats: { threatened: number; answer: number }[] = [];
      for (const reply of verboseMoves(new Chess(fen))) {
        if (reply.isCapture() || reply.isEnPassant()) continue;
        const position = new Chess(reply.after);
        if (position.isGameOver()) continue;
        let threatened = Infinity; // a check
        if (!position.inCheck()) {
          // Passing is only for a side not in check (else the other side would take its king).
          threatened = threatenedSquares(reply.after);
          expect(threatenedPieces(boardFromFen(reply.after), valuation, ONE_CAPTURE), reply.after).toBe(threatened);
          if (threatened === 0) continue;
          if (threatened >= 2) doubleThreats++;
          else singleThreats++;
        }
        threats.push({ threatened, answer: bestAnswerValue(reply.after) });
      }
      for (const fewest of [2, 1]) {
        for (const value of [0.4, 0.9]) {
          const expected = Math.min(value, ...threats.filter((t) => t.threatened >= fewest).map((t) => t.answer));
          const refutation = worstThreatReply(board, value, valuation, ONE_CAPTURE, fewest);
          expect(refutation?.value ?? value, `${fen} at ${value}, ${fewest}`).toBeCloseTo(expected, 12);
          if (refutation) {
            lowered++;
            expect(isCapture(board, parseUciMove(refutation.move)!)).toBe(false);
          }
        }
      }
    }
    expect(lowered).toBeGreaterThan(3); // not vacuous
    expect(doubleThreats).toBeGreaterThan(3);
    expect(singleThreats).toBeGreaterThan(3);
  });

  it("unparriedThreat is the least, over every reply, of what the mover is left, when no reply holds it to its own value", () => {
    /**
     * The brute force, by chess.js: the least of each reply's value for the mover as the documentation judges it,
     * one capture deep; 0 when a reply mates; undefined when the move neither checks nor threatens anything.
     */
    const leastReply = (fen: string): number | undefined => {
      const position = new Chess(fen);
      if (!position.inCheck() && threatenedSquares(fen) === 0) return undefined;
      let least = Infinity;
      for (const reply of verboseMoves(position)) {
        const after = new Chess(reply.after);
        if (reply.isCapture() || reply.isEnPassant()) least = Math.min(least, afterCapture(reply.after));
        else if (after.isCheckmate()) return 0;
        else if (after.isDraw()) least = Math.min(least, 0.5);
        else if (after.inCheck() || threatenedSquares(reply.after) >= 2) least = Math.min(least, bestAnswerValue(reply.after));
        else least = Math.min(least, 1 - settled(reply.after)); // the mover's best capture, or none
      }
      return least;
    };
    let checked = 0;
    let gains = 0;
    // Four of every 40th sample position: the others' brute force, with every reply's threats, takes minutes.
    for (const fen of samplePositions().filter((_, i) => i % 40 === 5).filter((_, i) => [0, 1, 2, 7].includes(i))) {
      for (const move of verboseMoves(new Chess(fen))) {
        if (new Chess(move.after).isGameOver()) continue;
        const position = boardFromFen(move.after);
        const least = leastReply(move.after);
        for (const standPat of [0.2, valuation(position)]) {
          const expected = least !== undefined && least > standPat ? least : undefined;
          const gain = unparriedThreat(position, standPat, valuation, ONE_CAPTURE);
          checked++;
          if (expected === undefined) expect(gain, `${move.after} at ${standPat}`).toBeUndefined();
          else {
            gains++;
            expect(gain, `${move.after} at ${standPat}`).toBeCloseTo(expected, 12);
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(gains).toBeGreaterThan(5); // not vacuous
  });
});

describe('matingReply', () => {
  it('finds a reply that mates exactly when chess.js finds one, after every legal move of real and random positions', () => {
    let mated = 0;
    let moves = 0;
    // Sampled (chess.js lists every reply to every move), plus positions where some move allows a mate.
    const threats = [
      'rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2',
      '6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1',
      '4r1k1/p1p4p/4p3/8/1rbp3P/8/1P3q2/K1R5 w - - 0 44',
      'r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR b KQkq - 3 3',
    ];
    for (const fen of [...threats, ...samplePositions().filter((_, i) => i % 12 === 0)]) {
      const position = new Chess(fen);
      if (position.isGameOver()) continue;
      for (const move of verboseMoves(position)) {
        const after = new Chess(move.after);
        // chess.js marks a mating move with '#' in its SAN.
        const mates = verboseMoves(after).filter((reply) => reply.san.endsWith('#')).map(uciOf);
        const found = matingReply(boardFromFen(move.after));
        moves++;
        if (mates.length === 0) expect(found, `${move.after}`).toBeUndefined();
        else {
          mated++;
          expect(mates, `${move.after}`).toContain(found);
        }
      }
    }
    expect(moves).toBeGreaterThan(1000);
    expect(mated).toBeGreaterThan(10);
  });
});

/** chess.js's own answer: a mate the side to move forces within `depth` moves, each a check (the first moves of such lines). */
function matesByChecksPerChessJs(fen: string, depth: number): string[] {
  const forces = (position: Chess, depth: number): boolean =>
    verboseMoves(position).some((attack) => {
      const after = new Chess(attack.after);
      if (!after.isCheck()) return false;
      if (after.isCheckmate()) return true;
      return depth > 1 && verboseMoves(after).every((defence) => forces(new Chess(defence.after), depth - 1));
    });
  return verboseMoves(new Chess(fen))
    .filter((attack) => {
      const after = new Chess(attack.after);
      if (!after.isCheck()) return false;
      if (after.isCheckmate()) return true;
      return depth > 1 && verboseMoves(after).every((defence) => forces(new Chess(defence.after), depth - 1));
    })
    .map(uciOf);
}

describe('mateByChecks', () => {
  // Philidor's legacy: 1.Qg8+ Rxg8 2.Nf7#, a mate in two by checks and none in one.
  const smothered = 'r6k/6pp/7N/8/2Q5/8/8/6K1 w - - 0 1';

  it('finds the smothered mate in two and no mate in one', () => {
    expect(mateByChecks(boardFromFen(smothered), 1)).toBeUndefined();
    expect(mateByChecks(boardFromFen(smothered), 2)).toBe('c4g8');
    expect(mateByChecks(boardFromFen(smothered), 3)).toBeDefined();
  });

  it('finds a mate by checks within two moves exactly when chess.js does, on real and constructed positions', () => {
    let positions = 0;
    let found = 0;
    const constructed = [smothered, '6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1', '4r1k1/p1p4p/4p3/8/1rbp3P/8/1P3q2/K1R5 b - - 0 44', '5rk1/5ppp/8/8/8/2Q5/5PPP/6K1 w - - 0 1', '2r3k1/5ppp/8/8/8/8/1q3PPP/1R1Q2K1 b - - 0 1'];
    for (const fen of [...constructed, ...samplePositions().filter((_, i) => i % 6 === 0)]) {
      if (new Chess(fen).isGameOver()) continue;
      const expected = matesByChecksPerChessJs(fen, 2);
      const move = mateByChecks(boardFromFen(fen), 2);
      positions++;
      if (expected.length === 0) expect(move, fen).toBeUndefined();
      else {
        found++;
        expect(expected, fen).toContain(move);
      }
    }
    expect(positions).toBeGreaterThan(50);
    expect(found).toBeGreaterThan(2);
  });
});

describe('the player looking for mates by checks (the threat looks)', () => {
  // Black to move: a rook move along the back rank leaves 1.Qg8+ Rxg8 2.Nf7#; taking the knight does not.
  const fen = 'r6k/6pp/7N/8/2Q5/8/8/6K1 b - - 0 1';

  it('values a move that allows a mate by checks in two 0 with material-forks, and not with material-quiescence', () => {
    const dir = mkdtempSync(join(tmpdir(), 'morph-search-'));
    try {
      buildSampleDatabase(join(dir, 'sample.db'));
      const store = PatternStore.open(join(dir, 'sample.db'), { readonly: true });
      const forks = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'material-forks' }).rankMoves(new GameHistory(fen));
      const quiescence = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'material-quiescence' }).rankMoves(new GameHistory(fen));
      expect(forks.find((r) => r.move === 'a8b8')).toMatchObject({ value: 0, refutation: { move: 'c4g8', source: 'checkmate', mateIn: 2 } });
      // Off the back rank the rook allows a mate at once: lost too, and after the longer mate (an opponent may miss it).
      const atOnce = forks.find((r) => r.move === 'a8a7')!;
      expect(atOnce).toMatchObject({ value: 0, refutation: { source: 'checkmate', mateIn: 1 } }); // Qg8# or Qc8#
      expect(forks.indexOf(atOnce)).toBeGreaterThan(forks.findIndex((r) => r.move === 'a8b8'));
      const explained = explainMove(forks.find((r) => r.move === 'a8b8')!, 'Rb8', 0, undefined, 'Qg8+');
      expect(explained.refutation).toMatchObject({ san: 'Qg8+', source: 'checkmate', mateIn: 2 });
      expect(explanationText(explained)).toContain("after the opponent's best reply Qg8+ (c4g8), worth 0.0000 to the side moving (by the rules: it begins a mate by checks in 2)");
      expect(quiescence.find((r) => r.move === 'a8b8')!.refutation?.source).not.toBe('checkmate');
      // Every move the look proves lost allows such a mate per chess.js, and the best move allows none.
      for (const r of forks.filter((r) => r.refutation?.source === 'checkmate')) {
        const chess = new Chess(fen);
        chess.move({ from: r.move.slice(0, 2), to: r.move.slice(2, 4), promotion: r.move[4] });
        expect(matesByChecksPerChessJs(chess.fen(), 3), r.move).not.toEqual([]);
      }
      expect(forks[0].refutation?.source).not.toBe('checkmate');
      store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the player playing its own mates by checks (the threat looks)', () => {
  // Philidor's legacy, White to move: 1.Nf7+ Kg8 2.Nh6+ Kh8 3.Qg8+ Rxg8 4.Nf7#, a mate in four by checks.
  const legacy = 'r6k/6pp/8/6N1/2Q5/8/6PP/6K1 w - - 0 1';

  /** Whether `player`, choosing every move for the side to move in `fen`, mates within `moves` whatever the defender replies (per chess.js). */
  function matesAgainstEveryDefence(player: MorphPlayer, fen: string, moves: number): boolean {
    const move = player.choose(new GameHistory(fen)).move;
    const after = new Chess(fen);
    after.move({ from: move.slice(0, 2), to: move.slice(2, 4), promotion: move[4] });
    if (after.isCheckmate()) return true;
    if (moves === 1 || after.isGameOver()) return false;
    return verboseMoves(after).every((defence) => matesAgainstEveryDefence(player, defence.after, moves - 1));
  }

  it('plays the mate through against every defence with material-forks, first and fastest whatever its values say', () => {
    const store = PatternStore.open(':memory:');
    const player = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'material-forks' });
    const chosen = player.choose(new GameHistory(legacy));
    expect(chosen).toMatchObject({ move: 'g5f7', value: 1, mateIn: 4, chosenBy: 'mate' });
    expect(chosen.ranking[0]).toMatchObject({ move: 'g5f7', mateIn: 4 });
    expect(chosen.ranking.filter((r) => r.mateIn !== undefined)).toHaveLength(1);
    expect(matesByChecksPerChessJs(legacy, 4)).toContain('g5f7');
    expect(matesByChecksPerChessJs(legacy, 3)).toEqual([]);
    // The shortcut the game move takes plays the same move.
    expect(player.bestRanked(new GameHistory(legacy))).toMatchObject({ move: 'g5f7', mateIn: 4 });
    expect(matesAgainstEveryDefence(player, legacy, 4)).toBe(true);
    expect(explanationText(explainMove(chosen, 'Nf7+', 0))).toContain('by the rules: it begins a mate by checks in 4, whatever the opponent replies');
    store.close();
  });

  it('leaves training\'s search alone: captures-mates looks for a mate at once only', () => {
    const store = PatternStore.open(':memory:');
    const ranking = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'captures-mates' }).rankMoves(new GameHistory(legacy));
    expect(ranking.every((r) => r.mateIn === undefined)).toBe(true);
    expect(scoreText({ move: 'g5f7', value: 1, source: 'patterns', mateIn: 4 })).toBe('score mate 4');
    expect(scoreText({ move: 'g5f7', value: 1, source: 'patterns', mateIn: 4 }, true)).toBe('score mate 4 wdl 1000 0 0');
    store.close();
  });
});

describe('the player searching captures and mates', () => {
  // After 1.f3 e5, 2.g4?? allows Qh4# (a quiet move, which the captures look cannot see).
  const fen = 'rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2';
  const allowsMate = (move: string) => {
    const chess = new Chess(fen);
    chess.move({ from: move.slice(0, 2), to: move.slice(2, 4) });
    return verboseMoves(chess).some((reply) => new Chess(reply.after).isCheckmate());
  };
  /** A policy that prefers the moves allowing a mate by a wide margin. */
  const foolishPolicy: MovePolicy = {
    name: 'foolish',
    weight: 1,
    logProbabilities: (history) =>
      new Map(generateLegalMoves(history.board).map((m) => [uciMove(m), allowsMate(uciMove(m)) ? 0 : -5])),
  };

  it('values a move that allows a mate in one 0 and never plays it while another move does not, whatever the policy says', () => {
    const dir = mkdtempSync(join(tmpdir(), 'morph-search-'));
    try {
      buildSampleDatabase(join(dir, 'sample.db'));
      const store = PatternStore.open(join(dir, 'sample.db'), { readonly: true });
      const captures = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'captures' }).rankMoves(new GameHistory(fen));
      const player = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'captures-mates' });
      const ranking = player.rankMoves(new GameHistory(fen));
      const losing = ranking.filter((r) => allowsMate(r.move)).map((r) => r.move);
      expect(losing).toEqual(['g2g4']);
      for (const r of ranking) {
        if (r.move === 'g2g4') expect(r).toMatchObject({ value: 0, refutation: { move: 'd8h4', value: 0, source: 'checkmate' } });
        else expect(r.value).toBe(captures.find((c) => c.move === r.move)!.value);
      }
      expect(captures.find((c) => c.move === 'g2g4')!.value).toBeGreaterThan(0);
      // With a policy that prefers g2g4 the captures player plays it; the mates look never does.
      for (let seed = 1; seed <= 5; seed++) {
        const withPolicy = (search: 'captures' | 'captures-mates') => new MorphPlayer(store, { maturity: 0, seed, search, policy: foolishPolicy });
        expect(withPolicy('captures').bestMove(new GameHistory(fen))).toBe('g2g4');
        // The quick path and the full ranking play the same move (same seed).
        const played = withPolicy('captures-mates').bestMove(new GameHistory(fen));
        expect(played).not.toBe('g2g4');
        expect(withPolicy('captures-mates').choose(new GameHistory(fen)).move).toBe(played);
        const matesPlayer = withPolicy('captures-mates');
        expect(matesPlayer.choiceScore(matesPlayer.rankMoves(new GameHistory(fen)).at(-1)!)).toBeLessThan(-100);
      }
      store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the player searching captures', () => {
  it("values every move as the least of its one-ply value and what each capture reply leaves, as the one-ply player ranks the replies", () => {
    const dir = mkdtempSync(join(tmpdir(), 'morph-search-'));
    try {
      buildSampleDatabase(join(dir, 'sample.db'));
      const store = PatternStore.open(join(dir, 'sample.db'), { readonly: true });
      const onePly = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'one-ply' });
      const captures = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'captures' });
      let lowered = 0;
      let moves = 0;
      for (const fen of fixturePositions().filter((_, i) => i % 100 === 0)) {
        const plain = new Map(onePly.rankMoves(new GameHistory(fen)).map((r) => [r.move, r]));
        for (const ranked of captures.rankMoves(new GameHistory(fen))) {
          moves++;
          const first = plain.get(ranked.move)!;
          if (first.source !== 'patterns') {
            expect(ranked).toMatchObject({ value: first.value, source: first.source });
            continue;
          }
          const replies = new Chess(fen);
          replies.move({ from: ranked.move.slice(0, 2), to: ranked.move.slice(2, 4), promotion: ranked.move[4] });
          const captureReplies = new Set(verboseMoves(replies).filter((m) => m.isCapture() || m.isEnPassant()).map(uciOf));
          let expected = first.value;
          for (const reply of onePly.rankMoves(new GameHistory(fen, [ranked.move]))) {
            if (captureReplies.has(reply.move)) expected = Math.min(expected, 1 - reply.value);
          }
          expect(ranked.value, `${fen} ${ranked.move}`).toBeCloseTo(expected, 12);
          if (expected < first.value) {
            lowered++;
            expect(captureReplies.has(ranked.refutation!.move)).toBe(true);
          } else {
            expect(ranked.refutation).toBeUndefined();
          }
        }
      }
      expect(moves).toBeGreaterThan(400);
      expect(lowered).toBeGreaterThan(20);

      // The game path's shortcut (bestMove) plays what choose plays: two players with the same seed agree.
      const chooser = new MorphPlayer(store, { maturity: 0, seed: 5, search: 'captures' });
      const shortcut = new MorphPlayer(store, { maturity: 0, seed: 5, search: 'captures' });
      let differentFromOnePly = 0;
      for (const fen of fixturePositions().filter((_, i) => i % 20 === 0)) {
        if (new Chess(fen).isGameOver()) continue;
        const chosen = chooser.choose(new GameHistory(fen)).move;
        expect(shortcut.bestMove(new GameHistory(fen)), fen).toBe(chosen);
        if (onePly.choose(new GameHistory(fen)).move !== chosen) differentFromOnePly++;
      }
      expect(differentFromOnePly).toBeGreaterThan(10);
      store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sees a knight left to a pawn that the one-ply player, knowing only material, cannot tell from a safe move', () => {
    const store = PatternStore.open(':memory:');
    // Material differences (P N B R Q) for the side that just moved: White's knight against Black's pawn is
    // worth .5 to White; Black's pawn against nothing, after the pawn takes the knight, .9 to Black.
    store.insert(materialPattern([-1, 1, 0, 0, 0]), 'manual', 0, { weight: 0.5, updates: 100 });
    store.insert(materialPattern([1, 0, 0, 0, 0]), 'manual', 0, { weight: 0.9, updates: 100 });
    const fen = '6k1/8/3p4/8/8/5N2/8/6K1 w - - 0 1';
    const onePly = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'one-ply' }).rankMoves(new GameHistory(fen));
    const captures = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'captures' }).rankMoves(new GameHistory(fen));
    expect(onePly.find((r) => r.move === 'f3e5')?.value).toBe(0.5);
    expect(onePly.every((r) => r.value === 0.5)).toBe(true);
    expect(captures.find((r) => r.move === 'f3e5')).toMatchObject({ refutation: { move: 'd6e5' } });
    expect(captures.find((r) => r.move === 'f3e5')?.value).toBeCloseTo(0.1, 12);
    expect(captures.filter((r) => r.move !== 'f3e5').every((r) => r.value === 0.5)).toBe(true);
  });

  it('material-quiescence follows the captures in turn, valuing positions by their material pattern alone', () => {
    const store = PatternStore.open(':memory:');
    saveConfig(store.db, { ...DEFAULT_CONFIG, materialPrior: 0 }); // each weight alone, not blended with a fit
    // Material differences (P N B R Q) for the side that just moved, with made-up weights.
    const weights: [number[], number][] = [
      [[1, 1, 0, 0, -1], 0.5], // White's pawn and knight against Black's queen, as the position stands
      [[-1, 0, 0, 0, 1], 0.7], // Black, after the queen takes the knight
      [[1, 0, 0, 0, 0], 0.9], // White, after the pawn takes the queen back
    ];
    for (const [diff, weight] of weights) store.insert(materialPattern(diff), 'manual', 0, { weight, updates: 100 });
    // White to move; its knight on e5 is defended by the d4 pawn, and Black's queen on e7 attacks it.
    const fen = '4k3/4q3/8/4N3/3P4/8/8/6K1 w - - 0 1';
    const kingMove = (search: SearchSpec) =>
      new MorphPlayer(store, { maturity: 0, seed: 1, search }).rankMoves(new GameHistory(fen), true).find((r) => r.move === 'g1h1')!;
    // After a king move, one capture deep Qxe5 leaves White a knight down (.3); followed through, dxe5 wins the
    // queen for it, so Black does better not to capture and White keeps the position's own value, .5.
    expect(kingMove('captures')).toMatchObject({ refutation: { move: 'e7e5' } });
    expect(kingMove('captures').value).toBeCloseTo(0.3, 12);
    expect(kingMove('material-quiescence')).toMatchObject({ value: 0.5, source: 'patterns' });
    expect(kingMove('material-quiescence').refutation).toBeUndefined();
    // The knight's walk to d7, where nothing defends it, loses it to the queen or the king: .3 either way.
    const knightMove = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'material-quiescence' })
      .rankMoves(new GameHistory(fen)).find((r) => r.move === 'e5d7')!;
    expect(knightMove.value).toBeCloseTo(0.3, 12);
    expect(['e7d7', 'e8d7']).toContain(knightMove.refutation?.move);
    // Graph patterns that every position matches, with extreme weights, change nothing for this player.
    store.transaction(() => {
      for (const seed of seedPatterns()) store.insert(seed, 'seed', 0, { weight: 0.99, updates: 100 });
    });
    expect(kingMove('material-quiescence')).toMatchObject({ value: 0.5, source: 'patterns' });
    expect(kingMove('material-quiescence').evaluation!.used.map((p) => p.kind)).toEqual(['material']);
    expect(kingMove('captures').value).not.toBeCloseTo(0.3, 3); // the captures player does read them
    store.close();
  });

  it('material-threats values every move as material-quiescence does, or lower by a quiet reply that forks or checks, or by a mate by checks', () => {
    const store = madeUpMaterialStore();
    let lowered = 0;
    let moves = 0;
    for (const fen of fixturePositions().filter((_, i) => i % 40 === 7).slice(0, 10)) {
      const rank = (search: SearchSpec) => new MorphPlayer(store, { maturity: 0, seed: 1, search }).rankMoves(new GameHistory(fen));
      const quiescence = new Map(rank('material-quiescence').map((r) => [r.move, r]));
      const board = boardFromFen(fen);
      for (const ranked of rank('material-threats')) {
        const plain = quiescence.get(ranked.move)!;
        moves++;
        if (ranked.value === plain.value) continue;
        lowered++;
        expect(ranked.value).toBeLessThan(plain.value);
        // The reply that lowers it is a quiet move of the opponent's after this move, or the first of its
        // mating checks (a capture or not).
        const after = boardFromFen(boardToFen(board));
        applyMove(board, parseUciMove(ranked.move)!, after);
        if (ranked.refutation!.source === 'checkmate') expect(mateByChecks(after, MATE_LOOK_DEPTH)).toBe(ranked.refutation!.move);
        else expect(isCapture(after, parseUciMove(ranked.refutation!.move)!)).toBe(false);
      }
    }
    expect(moves).toBeGreaterThan(100);
    expect(lowered).toBeGreaterThan(5); // not vacuous
    store.close();
  });

  it('the material searches see a pawn about to promote: they stop the opponent\'s and push their own, as a 4-ply material alpha-beta judges', () => {
    const store = madeUpMaterialStore();
    const positions = [
      '7k/8/8/8/4K3/7R/1p6/8 w - - 0 1', // Black's b-pawn queens next move unless the rook guards b1
      '7k/8/1P6/8/8/8/8/K5n1 w - - 0 1', // b7 and b8=Q: the knight is too far to stop it
      '8/6p1/6K1/8/8/1r6/8/k7 w - - 0 1', // the king takes g7 (and the pawn cannot queen) or the pawn runs
      '8/1r4P1/8/8/8/k7/8/7K b - - 0 1', // Black: the rook takes the pawn or guards g8, else g8=Q
    ];
    for (const fen of positions) {
      // The judge: every move's score by the textbook values, 4 plies and captures (src/engines/alphabeta.ts,
      // an opponent's search, not Morph's); a good move is within a pawn of the best.
      const scored = rankMoves(boardFromFen(fen), { depth: 4, quiescence: true, tolerancePawns: 0, seed: 0 });
      const good = scored.filter((r) => r.score >= scored[0].score - 100).map((r) => uciMove(r.move));
      expect(good.length, fen).toBeLessThan(scored.length); // not vacuous: some moves lose the race
      for (const seed of [1, 2, 3]) {
        const chosen = new MorphPlayer(store, { maturity: 0, seed, search: 'material-forks' }).choose(new GameHistory(fen)).move;
        expect(good, `${fen} seed ${seed}`).toContain(chosen);
      }
    }
    store.close();
  });

  it("material-forks values a move as material-threats does, higher when it checks or threatens, lower by a single threat; bestMove plays choose's move", () => {
    const store = madeUpMaterialStore();
    let raised = 0;
    let lowered = 0;
    let moves = 0;
    let differentChoice = 0;
    const player = (search: SearchSpec, seed = 1) => new MorphPlayer(store, { maturity: 0, seed, search });
    const settings = player('material-forks').evaluation;
    const value = (b: Board) => materialEvaluation(store, b, 0, settings).value;
    // Positions from samplePositions' random games where moves threaten pieces (and the deep look stays quick).
    const positions = [
      '4r1n1/3p4/pp1bk1r1/1P2P2B/2P2Pp1/PR2K3/1B5P/2R2b2 w - - 0 44',
      '2n5/r2n2k1/pp6/3p2PQ/1PNP3p/2P4P/PBq2R2/R3K1N1 w - - 0 34',
      '6nB/5k2/8/8/6R1/4p2N/2Pp2R1/3K2n1 w - - 4 50',
      '4bk1r/rp4p1/pP6/2PpPp2/1b1p3p/3q1P1P/P4nKR/6N1 w - - 2 40',
    ];
    for (const fen of positions) {
      const threats = new Map(player('material-threats').rankMoves(new GameHistory(fen)).map((r) => [r.move, r]));
      const board = boardFromFen(fen);
      for (const ranked of player('material-forks').rankMoves(new GameHistory(fen))) {
        const plain = threats.get(ranked.move)!;
        moves++;
        if (ranked.value === plain.value) continue;
        const after = cloneBoard(board);
        applyMove(board, parseUciMove(ranked.move)!, after);
        if (ranked.value < plain.value) {
          // Lowered only by a quiet reply that threatens a single piece, which material-threats does not answer.
          lowered++;
          const refutation = parseUciMove(ranked.refutation!.move)!;
          const reply = cloneBoard(after);
          applyMove(after, refutation, reply);
          expect(isCapture(after, refutation)).toBe(false);
          expect(threatenedPieces(reply, value, captureLook(PRESET_EXTENSIONS['material-forks']))).toBe(1);
          continue;
        }
        // Raised only when the threats look left the move unrefuted, and it checks or threatens.
        raised++;
        expect(plain.refutation).toBeUndefined();
        expect(ranked.refutation).toBeUndefined();
        expect(threatensAnything(after, value, captureLook(PRESET_EXTENSIONS['material-forks']))).toBe(true);
      }
      // The game path's shortcut bounds a raised move by 1 and plays what choose plays (the same seed).
      const chosen = player('material-forks', 5).choose(new GameHistory(fen)).move;
      expect(player('material-forks', 5).bestMove(new GameHistory(fen)), fen).toBe(chosen);
      if (player('material-threats', 5).choose(new GameHistory(fen)).move !== chosen) differentChoice++;
    }
    expect(moves).toBeGreaterThan(100);
    expect(raised).toBeGreaterThan(10); // not vacuous
    expect(lowered).toBeGreaterThan(0);
    expect(differentChoice).toBeGreaterThan(0);
    store.close();
  });

  it("values a move after which the opponent can return to a position already seen as a draw, when it is worth more", () => {
    const store = PatternStore.open(':memory:');
    store.insert(materialPattern([0, 0, 0, 0, 1]), 'material', 0, { weight: 0.95, updates: 100 });
    store.insert(materialPattern([0, 0, 0, 0, -1]), 'material', 0, { weight: 0.05, updates: 100 });
    const start = '7k/8/8/8/8/8/8/3Q2K1 w - - 0 1';
    const moves = ['d1d2', 'h8h7', 'd2d3', 'h7g7', 'd3d4', 'g7g8'];
    const history = new GameHistory(start, moves);
    // Contempt 0: a draw is worth .5 (the contempt test below varies it).
    const ranking = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'material-forks', contempt: 0 }).rankMoves(history);
    // Qd2 leads to a new position, but Black's Kh7 then returns to the one after 1...Kh7 (checked with chess.js).
    const chess = new Chess(start);
    const seen = new Set<string>();
    const key = () => chess.fen().split(' ').slice(0, 4).join(' ');
    for (const move of moves) {
      chess.move({ from: move.slice(0, 2), to: move.slice(2, 4) });
      seen.add(key());
    }
    chess.move({ from: 'd4', to: 'd2' });
    expect(seen.has(key())).toBe(false);
    chess.move({ from: 'g8', to: 'h7' });
    expect(seen.has(key())).toBe(true);
    const back = ranking.find((r) => r.move === 'd4d2')!;
    expect(back.value).toBe(0.5);
    expect(back.refutation).toEqual({ move: 'g8h7', value: 0.5, source: 'threefold' });
    // A queen move the king cannot answer by returning keeps the queen's value.
    const forward = ranking.find((r) => r.move === 'd4d5')!;
    expect(forward.refutation).toBeUndefined();
    expect(forward.value).toBeGreaterThan(0.9);
    expect(ranking[0].move).not.toBe('d4d2');
    store.close();
  });

  it('values a draw by repetition at 1/(1+e^c) for contempt c: with the default it plays on at level material, with a negative one it repeats', () => {
    const store = PatternStore.open(':memory:');
    store.insert(materialPattern([0, 0, 0, 1, 0]), 'material', 0, { weight: 0.9, updates: 100 });
    store.insert(materialPattern([0, 0, 0, -1, 0]), 'material', 0, { weight: 0.1, updates: 100 });
    // Rooks shuffled back to the start: Ra2 now returns to the position after 1.Ra2 (checked with chess.js).
    const start = '1r4k1/8/8/8/8/8/6K1/R7 w - - 0 1';
    const moves = ['a1a2', 'b8b7', 'a2a1', 'b7b8'];
    const chess = new Chess(start);
    chess.move('Ra2');
    const afterRa2 = chess.fen().split(' ').slice(0, 4).join(' ');
    for (const move of ['Rb7', 'Ra1', 'Rb8', 'Ra2']) chess.move(move);
    expect(chess.fen().split(' ').slice(0, 4).join(' ')).toBe(afterRa2);
    const player = (contempt: number | undefined, seed = 1) =>
      new MorphPlayer(store, { maturity: 0, seed, search: 'material-forks', ...(contempt === undefined ? {} : { contempt }) });
    expect(player(undefined).drawValue).toBeCloseTo(1 / (1 + Math.exp(defaultContempt(PRESET_EXTENSIONS['material-forks']))), 15);
    expect(defaultContempt(PRESET_EXTENSIONS['material-forks'])).toBeGreaterThan(0);
    expect(defaultContempt(PRESET_EXTENSIONS['captures-mates'])).toBe(0); // training's search is left alone
    for (const contempt of [undefined, 0, -1]) {
      const ranking = player(contempt).rankMoves(new GameHistory(start, moves));
      const repeat = ranking.find((r) => r.move === 'a1a2')!;
      expect(repeat.source).toBe('repetition');
      expect(repeat.value).toBeCloseTo(player(contempt).drawValue, 15);
      // Level material is worth .5 whatever the contempt; a king move leads nowhere seen.
      expect(ranking.find((r) => r.move === 'g2f2')!.value).toBeCloseTo(0.5, 12);
    }
    for (const seed of [1, 2, 3, 4, 5]) {
      expect(player(undefined, seed).choose(new GameHistory(start, moves)).move).not.toBe('a1a2');
      expect(player(-1, seed).choose(new GameHistory(start, moves)).move).toBe('a1a2');
    }
    store.close();
  });

  it('plays the search saved in the database; a configuration saved before search modes existed plays one ply', () => {
    const store = PatternStore.open(':memory:');
    // The player plays the play search; training's games play `search` (gameActor.ts passes it).
    saveConfig(store.db, mergeConfig(DEFAULT_CONFIG, { search: 'one-ply', playSearch: 'captures' }));
    expect(new MorphPlayer(store, { maturity: 0, seed: 1 }).search).toBe('captures');
    expect(new MorphPlayer(store, { maturity: 0, seed: 1 }).search).toBe(loadConfig(store.db).playSearch);
    expect(new MorphPlayer(store, { maturity: 0, seed: 1, search: 'one-ply' }).search).toBe('one-ply');
    expect(DEFAULT_CONFIG).toMatchObject({ search: 'captures-mates', playSearch: 'material-five-plies' });
    // A configuration saved before the play search existed plays as it trains...
    const { playSearch: _p, ...beforePlaySearch } = mergeConfig(DEFAULT_CONFIG, { search: 'captures' });
    setMeta(store.db, 'config', beforePlaySearch);
    expect(loadConfig(store.db).playSearch).toBe('captures');
    expect(new MorphPlayer(store, { maturity: 0, seed: 1 }).search).toBe('captures');
    // ...and one saved before search modes existed plays one ply.
    const { search: _s, playSearch: _q, ...older } = DEFAULT_CONFIG;
    setMeta(store.db, 'config', older);
    expect(loadConfig(store.db).search).toBe('one-ply');
    expect(new MorphPlayer(store, { maturity: 0, seed: 1 }).search).toBe('one-ply');
    expect(() => mergeConfig(DEFAULT_CONFIG, { search: 'deeper' })).toThrow(/^config search "deeper": "deeper" is not an extension; a search is a preset \(one-ply, material-one-ply, captures/);
    store.close();
  });

  it("plays training's games with the training search, and games outside training with the play search", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'morph-play-search-'));
    const searches = new Set<SearchSpec>();
    const bestMove = MorphPlayer.prototype.bestMove;
    const spy = vi.spyOn(MorphPlayer.prototype, 'bestMove').mockImplementation(function (this: MorphPlayer, history) {
      searches.add(this.search);
      return bestMove.call(this, history);
    });
    try {
      const db = join(dir, 'split.db');
      const store = PatternStore.open(db);
      saveConfig(store.db, mergeConfig(DEFAULT_CONFIG, { search: 'captures', playSearch: 'one-ply' }));
      store.close();
      const summary = await runTraining({ db, games: 2, opponent: 'random', seed: 3, maxPlies: 30, progress: 'none', maxFailures: 3, jobs: 1 });
      expect(summary.games).toBe(2);
      expect([...searches]).toEqual(['captures']);
      searches.clear();
      const reopened = PatternStore.open(db, { readonly: true });
      new MorphPlayer(reopened, { maturity: 0, seed: 1 }).bestMove(new GameHistory(fixturePositions()[0]));
      reopened.close();
      expect([...searches]).toEqual(['one-ply']);
    } finally {
      spy.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an unknown --search in one line with exit code 2', async () => {
    const result = await runMorph(['move', '--fen', '6k1/8/8/8/8/8/8/6K1 w - - 0 1', '--search', 'deeper']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`morph: --search "deeper": "deeper" is not an extension; ${SEARCH_FORMS}\n`);
  });
});

describe('searches share no state', () => {
  // Positions from samplePositions' random games where moves threaten pieces, and a smothered mate by checks in two.
  const positions = [
    '4r1n1/3p4/pp1bk1r1/1P2P2B/2P2Pp1/PR2K3/1B5P/2R2b2 w - - 0 44',
    '2n5/r2n2k1/pp6/3p2PQ/1PNP3p/2P4P/PBq2R2/R3K1N1 w - - 0 34',
    '6nB/5k2/8/8/6R1/4p2N/2Pp2R1/3K2n1 w - - 4 50',
    'r6k/6pp/7N/8/2Q5/8/8/6K1 w - - 0 1', // Qg8+ Rxg8 Nf7 mate
  ];
  const summary = (ranking: readonly { move: string; value: number; refutation?: { move: string } }[]) =>
    ranking.map((r) => `${r.move} ${r.value} ${r.refutation?.move ?? ''}`);

  it('two players interleaved, move by move, rank and choose as each does alone', () => {
    const store = madeUpMaterialStore();
    const searches: SearchSpec[] = ['material-forks', 'captures-mates'];
    const playerOf = (search: SearchSpec) => new MorphPlayer(store, { maturity: 0, seed: 3, search });
    const play = (player: MorphPlayer, fen: string) => {
      const history = new GameHistory(fen);
      return [...summary(player.rankMoves(history)), player.choose(history).move, player.bestMove(history)];
    };
    const alone = searches.map((search) => {
      const player = playerOf(search);
      return positions.map((fen) => play(player, fen));
    });
    const players = searches.map(playerOf);
    const interleaved: string[][][] = [[], []];
    for (const fen of positions) players.forEach((player, i) => interleaved[i].push(play(player, fen)));
    expect(interleaved).toEqual(alone);
    store.close();
  });

  it("a search run inside another's valuation leaves the outer one's value and line as they are alone", () => {
    const store = madeUpMaterialStore();
    const settings = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'material-forks' }).evaluation;
    const value = (board: Board) => materialEvaluation(store, board, 0, settings).value;
    const inner = new MorphPlayer(store, { maturity: 0, seed: 1, search: 'material-forks' });
    let calls = 0;
    let nested = 0;
    // Every 50th valuation first runs whole searches of its own: a player's move, a reply line and a mate look.
    const nestingValue = (board: Board) => {
      if (calls++ % 50 === 0) {
        nested++;
        const history = new GameHistory(boardToFen(board));
        if (generateLegalMoves(board).length > 0) inner.bestMove(history);
        bestReplyLine(board, value, QUIESCENCE);
        shortestMateByChecks(board, 2);
      }
      return value(board);
    };
    const lines = (valueForMover: (board: Board) => number) =>
      positions.slice(2).flatMap((fen) => {
        const board = boardFromFen(fen);
        const after = cloneBoard(board);
        return generateLegalMoves(board).map((move) => {
          applyMove(board, move, after);
          const line = bestReplyLine(after, valueForMover, QUIESCENCE);
          return `${uciMove(move)} ${line.value} ${boardToFen(line.end)} ${shortestMateByChecks(after, 2)?.move ?? ''}`;
        });
      });
    expect(lines(nestingValue)).toEqual(lines(value));
    expect(nested).toBeGreaterThan(5); // not vacuous: the inner searches ran
    store.close();
  });
});

describe('search presets as extensions', () => {
  // Each preset was measured against one listed before it and named by what it added (docs/lab/): so each must do
  // everything some earlier preset does, and more. A preset listed out of that order, or an extension dropped, breaks this.
  it('lists the presets so that each does what an earlier one does, and more', () => {
    const captureDepth = { none: 0, one: 1, quiescence: 2 } as const;
    // Answering threats to one piece answers more replies than answering double threats only.
    const threatReach = (threatened: number) => (threatened === 0 ? 0 : 3 - threatened);
    const growth = (before: (typeof PRESET_EXTENSIONS)[SearchPreset], after: (typeof PRESET_EXTENSIONS)[SearchPreset]) => [
      Number(after.materialValues) - Number(before.materialValues),
      captureDepth[after.captures] - captureDepth[before.captures],
      after.mates - before.mates,
      threatReach(after.threatened) - threatReach(before.threatened),
      Number(after.ownThreats) - Number(before.ownThreats),
      after.plies - before.plies,
      Number(after.bareKing) - Number(before.bareKing),
    ];
    const extends_ = (before: SearchPreset, after: SearchPreset) => {
      const grew = growth(PRESET_EXTENSIONS[before], PRESET_EXTENSIONS[after]);
      return grew.every((d) => d >= 0) && grew.some((d) => d > 0);
    };
    for (let i = 1; i < SEARCH_PRESETS.length; i++) {
      const earlier = SEARCH_PRESETS.slice(0, i).filter((before) => extends_(before, SEARCH_PRESETS[i]));
      expect(earlier.length, `${SEARCH_PRESETS[i]} extends an earlier preset`).toBeGreaterThan(0);
    }
    // Two presets look no further than the move's own position: the paper's, and its twin valued by material.
    expect(SEARCH_PRESETS.filter((preset) => PRESET_EXTENSIONS[preset].captures === 'none')).toEqual(['one-ply', 'material-one-ply']);
  });

  it('looks at mates as deep as the threat looks follow them only where it looks at threats or every move, and mates a bare king where it looks at mates', () => {
    for (const preset of SEARCH_PRESETS) {
      const { mates, threatened, plies, bareKing } = PRESET_EXTENSIONS[preset];
      expect(mates === MATE_LOOK_DEPTH, preset).toBe(threatened > 0 || plies > 0);
      expect(bareKing, preset).toBe(mates > 0);
      expect(captureLook(PRESET_EXTENSIONS[preset]).depth, preset).toBe(PRESET_EXTENSIONS[preset].captures === 'quiescence' ? QUIESCENCE_DEPTH : 1);
    }
  });
});

describe('searches written as extensions', () => {
  const FORKS_LIST = 'material,quiescence,mates=4,threats=1,own-threats,bare-king';
  /** material-forks without its own threats: a search no preset is. */
  const FORKS_WITHOUT_OWN_THREATS = 'material,quiescence,mates=4,threats=1,bare-king';

  it('reads every preset back from its list, and writes a list that equals a preset as its name', () => {
    for (const preset of SEARCH_PRESETS) {
      const list = extensionList(PRESET_EXTENSIONS[preset]);
      if (preset !== 'one-ply') expect(extensionsOf(list), preset).toEqual(PRESET_EXTENSIONS[preset]);
      expect(formatSearch(PRESET_EXTENSIONS[preset])).toBe(preset);
    }
    expect(extensionList(PRESET_EXTENSIONS['material-forks'])).toBe(FORKS_LIST);
    expect(extensionList(PRESET_EXTENSIONS['one-ply'])).toBe(''); // no extensions: written only as its name
    // In any order, with spaces around the commas.
    expect(formatSearch(extensionsOf('bare-king, own-threats,threats=1,mates=4 ,quiescence,material'))).toBe('material-forks');
    expect(formatSearch(extensionsOf('material'))).toBe('material-one-ply');
    expect(formatSearch(extensionsOf('captures'))).toBe('captures');
  });

  it('writes any other list in one order, and reads it back as written', () => {
    const lists = [FORKS_WITHOUT_OWN_THREATS, 'quiescence', 'material,captures,mates=2', 'mates=3,bare-king', 'threats=2,own-threats', 'material,bare-king'];
    for (const list of lists) {
      const extensions = extensionsOf(list);
      expect(formatSearch(extensions), list).toBe(list);
      expect(extensionsOf(formatSearch(extensions)), list).toEqual(extensions);
    }
    expect(formatSearch(extensionsOf('own-threats,threats=2'))).toBe('threats=2,own-threats');
    expect(extensionsOf(FORKS_WITHOUT_OWN_THREATS)).toEqual({ ...PRESET_EXTENSIONS['material-forks'], ownThreats: false });
  });

  it('refuses a bad search in one line that names the fault and lists the forms a search takes', () => {
    const faults: [string, string][] = [
      ['deeper', '"deeper" is not an extension'],
      ['material,forks', '"forks" is not an extension'],
      ['', 'no extensions'],
      ['material,,quiescence', '"" is not an extension'],
      ['material,material', 'material more than once'],
      ['captures,quiescence', 'captures or quiescence, not both'],
      ['quiescence,mates', 'mates needs a count, as mates=N'],
      ['mates=0', 'mates needs a whole number from 1, got "0"'],
      ['threats=two', 'threats needs a whole number from 1, got "two"'],
      ['own-threats=1', 'own-threats takes no count'],
      ['Material', '"Material" is not an extension'],
    ];
    for (const [text, fault] of faults) {
      let message = '';
      try {
        extensionsOf(text, '--search');
      } catch (error) {
        expect((error as MorphError).exitCode, text).toBe(2);
        message = (error as MorphError).message;
      }
      expect(message, text).toBe(`--search "${text}": ${fault}; ${SEARCH_FORMS}`);
      expect(message).not.toMatch(/\n/);
    }
  });

  it('plays a list equal to material-forks exactly as material-forks, and a list no preset is, differently', () => {
    const store = madeUpMaterialStore();
    const positions = [
      '4r1n1/3p4/pp1bk1r1/1P2P2B/2P2Pp1/PR2K3/1B5P/2R2b2 w - - 0 44',
      '2n5/r2n2k1/pp6/3p2PQ/1PNP3p/2P4P/PBq2R2/R3K1N1 w - - 0 34',
      '6nB/5k2/8/8/6R1/4p2N/2Pp2R1/3K2n1 w - - 4 50',
      '4bk1r/rp4p1/pP6/2PpPp2/1b1p3p/3q1P1P/P4nKR/6N1 w - - 2 40',
      'r6k/6pp/7N/8/2Q5/8/8/6K1 w - - 0 1',
      '8/8/8/3k4/8/8/8/3QK3 w - - 0 1', // a bare king
    ];
    const play = (search: SearchSpec) => {
      const player = new MorphPlayer(store, { maturity: 0, seed: 4, search });
      return positions.map((fen) => {
        const history = new GameHistory(fen);
        const ranking = player.rankMoves(history).map((r) => `${r.move} ${r.value} ${r.refutation?.move ?? ''} ${r.mateIn ?? ''}`);
        const chosen = player.choose(history);
        return { ranking, chosen: chosen.move, chosenBy: chosen.chosenBy, played: player.bestMove(history) };
      });
    };
    const forks = play('material-forks');
    expect(play(FORKS_LIST)).toEqual(forks);
    expect(new MorphPlayer(store, { maturity: 0, seed: 4, search: FORKS_LIST }).search).toBe('material-forks');
    expect(forks.at(-1)!.chosenBy).toBe('bare-king'); // not vacuous: every extension had its say
    // Without its own threats, a move that threatens is no longer raised to what the threat wins.
    expect(new MorphPlayer(store, { maturity: 0, seed: 4, search: FORKS_WITHOUT_OWN_THREATS }).search).toBe(FORKS_WITHOUT_OWN_THREATS);
    expect(play(FORKS_WITHOUT_OWN_THREATS)).not.toEqual(forks);
    // Without the bare-king technique, the values choose against a bare king.
    const withoutBareKing = new MorphPlayer(store, { maturity: 0, seed: 4, search: 'material,quiescence,mates=4,threats=1,own-threats' });
    expect(withoutBareKing.choose(new GameHistory(positions.at(-1)!)).chosenBy).toBe('value');
    store.close();
  });

  it('stores a list that equals a preset as its name, and any other list as written', () => {
    const store = PatternStore.open(':memory:');
    saveConfig(store.db, mergeConfig(DEFAULT_CONFIG, { search: 'captures,bare-king,mates=1', playSearch: FORKS_LIST }));
    expect(loadConfig(store.db)).toMatchObject({ search: 'captures-mates', playSearch: 'material-forks' });
    saveConfig(store.db, mergeConfig(DEFAULT_CONFIG, { playSearch: 'bare-king,mates=4,threats=1,quiescence,material' }));
    expect(loadConfig(store.db).playSearch).toBe(FORKS_WITHOUT_OWN_THREATS);
    expect(new MorphPlayer(store, { maturity: 0, seed: 1 }).search).toBe(FORKS_WITHOUT_OWN_THREATS);
    expect(() => mergeConfig(DEFAULT_CONFIG, { playSearch: 'material,deeper' })).toThrow(/^config playSearch "material,deeper": "deeper" is not an extension; a search is a preset/);
    store.close();
  });

  it('takes a list wherever the command line takes a play search, and refuses a bad one in one line with exit code 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'morph-search-list-'));
    try {
      const db = join(dir, 'sample.db');
      buildSampleDatabase(db);
      const positions = join(dir, 'positions.fen');
      writeFileSync(positions, [
        'r6k/6pp/7N/8/2Q5/8/8/6K1 b - - 0 1', // a back-rank rook move allows a mate by checks in two
        'r6k/6pp/7N/8/2Q5/8/8/6K1 w - - 0 1', // and White forces it
        '4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1',
        ...fixturePositions().filter((_, i) => i % 100 === 50).slice(0, 4),
      ].join('\n') + '\n');
      const move = (search: string, ...extra: string[]) => runMorph(['move', '--db', db, '--input', positions, '--seed', '2', '--search', search, '--json', ...extra]);
      const [preset, list, other, bad, badPlaySearch] = await Promise.all([
        move('material-forks'),
        move(FORKS_LIST),
        move(FORKS_WITHOUT_OWN_THREATS),
        move('material,captures,quiescence'),
        runMorph(['train', '--db', join(dir, 'never.db'), '--games', '1', '--play-search', 'threats']),
      ]);
      expect(preset.code, preset.stderr).toBe(0);
      expect(preset.stdout.trim().split('\n')).toHaveLength(7);
      expect(list.stdout).toBe(preset.stdout);
      expect(list.code).toBe(0);
      expect(other.code, other.stderr).toBe(0);
      expect(other.stdout.trim().split('\n').map((line) => JSON.parse(line).best)).toHaveLength(7);
      expect(bad.code).toBe(2);
      expect(bad.stdout).toBe('');
      expect(bad.stderr).toBe(`morph: --search "material,captures,quiescence": captures or quiescence, not both; ${SEARCH_FORMS}\n`);
      expect(badPlaySearch.code).toBe(2);
      expect(badPlaySearch.stderr).toBe(`morph: --play-search "threats": threats needs a count, as threats=N; ${SEARCH_FORMS}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
