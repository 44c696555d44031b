import { describe, expect, it } from 'vitest';
import { Chess } from 'chess.js';
import { applyMove, boardFromFen, cloneBoard, uciMove, WHITE, BLACK, type Board, type CompactMove } from '../src/chess/board.ts';
import { generateLegalMoves, hasLegalMove, isInCheck } from '../src/chess/movegen.ts';
import { GameHistory } from '../src/chess/history.ts';
import { bareKingMove, hasBareKing } from '../src/search/bareKing.ts';
import { MorphPlayer } from '../src/player/morphPlayer.ts';
import { PatternStore } from '../src/store/patternStore.ts';
import { Random } from '../src/util/random.ts';
import type { SearchSpec } from '../src/search/extensions.ts';

/** A legal position, White to move, with White's king and `pieces` against Black's bare king, placed at random. */
function randomPosition(rng: Random, pieces: string): string {
  for (;;) {
    const placed = new Map<number, string>();
    for (const piece of ['K', 'k', ...pieces]) {
      let square: number;
      do square = rng.int(64);
      while (placed.has(square) || (piece === 'P' && (square < 8 || square >= 56)));
      placed.set(square, piece);
    }
    const ranks: string[] = [];
    for (let rank = 7; rank >= 0; rank--) {
      let text = '';
      for (let file = 0; file < 8; file++) text += placed.get(rank * 8 + file) ?? '1';
      ranks.push(text.replace(/1+/g, (ones) => String(ones.length)));
    }
    const fen = `${ranks.join('/')} w - - 0 1`;
    const board = boardFromFen(fen);
    const blackToMove = { ...cloneBoard(board), turn: BLACK } as Board;
    if (!isInCheck(blackToMove) && hasLegalMove(board)) return fen;
  }
}

/** The bare king's reply: takes a piece when it can, else flees to where it has the most moves (seeded ties). */
function fleeingKing(board: Board, rng: Random): CompactMove {
  const after = cloneBoard(board);
  const scored = generateLegalMoves(board).map((move) => {
    if (board.squares[move.to] !== 0) return { move, score: 100 };
    applyMove(board, move, after);
    after.turn = board.turn;
    return { move, score: generateLegalMoves(after).length };
  });
  const best = Math.max(...scored.map((s) => s.score));
  return rng.pick(scored.filter((s) => s.score === best)).move;
}

/** Plays Morph (White) against the fleeing king from `fen`; the game as chess.js replays it. */
function playOut(fen: string, search: SearchSpec, seed: number): Chess {
  const morph = new MorphPlayer(PatternStore.open(':memory:'), { maturity: 0, seed, search });
  const rng = new Random(seed);
  const history = new GameHistory(fen);
  const game = new Chess(fen);
  // Its plies counted here: chess.js's history() writes every move's SAN again at each call.
  for (let plies = 0; !game.isGameOver() && plies < 150; plies++) {
    const move = history.board.turn === WHITE ? morph.bestMove(history) : uciMove(fleeingKing(history.board, rng));
    history.play(move);
    game.move({ from: move.slice(0, 2), to: move.slice(2, 4), promotion: move[4] });
  }
  return game;
}

describe('mating a bare king', () => {
  it('mates with queen, rook, or rook and bishop against a king that flees, and never lets the game be drawn', () => {
    const rng = new Random(11);
    for (const pieces of ['Q', 'R', 'RB', 'QPP']) {
      for (let i = 0; i < 8; i++) {
        const fen = randomPosition(rng, pieces);
        // chess.js judges the end, independently of Morph's own rules.
        const game = playOut(fen, 'material-forks', i + 1);
        expect(game.isCheckmate(), `${pieces} from ${fen}: ${game.pgn()}`).toBe(true);
        expect(game.turn()).toBe('b');
      }
    }
  });

  it('is what finishes the game: without the mates look the same player mates far less often', () => {
    const rng = new Random(11);
    let withOrder = 0;
    let withoutOrder = 0;
    for (let i = 0; i < 8; i++) {
      const fen = randomPosition(rng, 'R');
      if (playOut(fen, 'material-forks', i + 1).isCheckmate()) withOrder++;
      if (playOut(fen, 'captures', i + 1).isCheckmate()) withoutOrder++;
    }
    expect(withOrder).toBe(8);
    expect(withoutOrder).toBeLessThanOrEqual(4);
  });

  it('mates at once when it can, and otherwise neither stalemates, nor leaves a piece to the king, nor repeats', () => {
    // Qc8 mates; Qc7 would stalemate.
    expect(uciMove(bareKingMove(new GameHistory('k7/8/1K6/8/8/8/8/2Q5 w - - 0 1'), new Random(1))!)).toBe('c1c8');
    // No mate in one here: whatever the seed, the move leaves the king a legal move and nothing to take.
    const history = new GameHistory('k7/8/2K5/8/8/8/8/3Q4 w - - 0 1');
    for (let seed = 0; seed < 20; seed++) {
      const move = bareKingMove(history, new Random(seed))!;
      const after = cloneBoard(history.board);
      applyMove(history.board, move, after);
      expect(hasLegalMove(after)).toBe(true);
      expect(generateLegalMoves(after).some((reply) => after.squares[reply.to] !== 0)).toBe(false);
    }
    // After Qd2 Kb8 Qd1 Ka8 the position is back: Qd2 again would let the king bring back a position seen.
    const shuffled = new GameHistory('k7/8/2K5/8/8/8/8/3Q4 w - - 0 1', ['d1d2', 'a8b8', 'd2d1', 'b8a8']);
    for (let seed = 0; seed < 20; seed++) expect(uciMove(bareKingMove(shuffled, new Random(seed))!)).not.toBe('d1d2');
  });

  it('applies only against a bare king', () => {
    const morph = new MorphPlayer(PatternStore.open(':memory:'), { maturity: 0, seed: 1, search: 'material-forks' });
    // No mate in one, but several moves force one (Kc7: the only reply, Ka7, allows Qa4). chess.js checks the one chosen.
    const fen = 'k7/8/2K5/8/8/8/8/3Q4 w - - 0 1';
    const chosen = morph.choose(new GameHistory(fen));
    expect(chosen.chosenBy).toBe('bare-king');
    const afterMove = new Chess(fen);
    afterMove.move({ from: chosen.move.slice(0, 2), to: chosen.move.slice(2, 4) });
    for (const reply of afterMove.moves()) {
      const afterReply = new Chess(afterMove.fen());
      afterReply.move(reply);
      const mates = afterReply.moves().filter((m) => m.endsWith('#'));
      expect(mates.length, `${chosen.move} ${reply}`).toBeGreaterThan(0);
    }
    expect(morph.choose(new GameHistory('k7/p7/2K5/8/8/8/8/3Q4 w - - 0 1')).chosenBy).toBe('value');
    expect(hasBareKing(boardFromFen('k7/8/1K6/8/8/8/8/2Q5 w - - 0 1'), BLACK)).toBe(true);
    expect(hasBareKing(boardFromFen('k7/8/1K6/8/8/8/8/2Q5 w - - 0 1'), WHITE)).toBe(false);
    expect(bareKingMove(new GameHistory('k7/p7/1K6/8/8/8/8/2Q5 w - - 0 1'), new Random(1))).toBeUndefined();
  });
});
