import { Chess } from 'chess.js';
import { describe, expect, it } from 'vitest';
import type { GamePlayer } from '../src/engines/gamePlayer.ts';
import { GreedyPlayer, RandomPlayer } from '../src/engines/simplePlayers.ts';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

function at(fen: string) {
  return { startFen: fen, moves: [], fen };
}

/** Plays a game to its end (or maxPlies), checking every move with chess.js (move() throws on an illegal one); returns the moves. */
async function playGame(white: GamePlayer, black: GamePlayer, maxPlies: number): Promise<string[]> {
  const chess = new Chess();
  const moves: string[] = [];
  while (!chess.isGameOver() && moves.length < maxPlies) {
    const player = chess.turn() === 'w' ? white : black;
    const move = await player.chooseMove({ startFen: START, moves: [...moves], fen: chess.fen() });
    expect(() => chess.move({ from: move.slice(0, 2), to: move.slice(2, 4), promotion: move[4] })).not.toThrow();
    moves.push(move);
  }
  return moves;
}

describe('RandomPlayer and GreedyPlayer', () => {
  it('play only legal moves over a few seeded games', async () => {
    let plies = 0;
    for (const seed of [1, 2, 3, 4]) {
      const players: [GamePlayer, GamePlayer] = [new RandomPlayer(seed), new GreedyPlayer(seed + 100)];
      const [white, black] = seed % 2 === 0 ? players : [players[1], players[0]];
      plies += (await playGame(white, black, 200)).length;
    }
    expect(plies).toBeGreaterThan(100);
  });

  it('repeat the same moves from the same seed, and differ with another seed', async () => {
    const game = (seed: number) => playGame(new RandomPlayer(seed), new GreedyPlayer(seed), 40);
    const first = await game(7);
    expect(await game(7)).toEqual(first);
    expect(await game(8)).not.toEqual(first);
  });

  it('random picks every legal move of the start position', async () => {
    const player = new RandomPlayer(11);
    const seen = new Set<string>();
    for (let i = 0; i < 400; i++) seen.add(await player.chooseMove(at(START)));
    expect(seen.size).toBe(20);
  });

  it('refuse to move in a finished game', async () => {
    const mated = 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3';
    await expect(new RandomPlayer(1).chooseMove(at(mated))).rejects.toThrow(/no legal move/);
    await expect(new GreedyPlayer(1).chooseMove(at(mated))).rejects.toThrow(/no legal move/);
  });
});

describe('GreedyPlayer', () => {
  it('takes a hanging queen rather than a pawn', async () => {
    // White can take the queen on d5 with the rook, or the pawn on e2 with the king.
    const fen = '4k3/8/8/3q4/8/8/4p3/3RK3 w - - 0 1';
    for (const seed of [1, 2, 3, 4, 5]) expect(await new GreedyPlayer(seed).chooseMove(at(fen))).toBe('d1d5');
  });

  it('counts material from the side to move (Black here)', async () => {
    // Black's rook on d5 can take the knight on a5 (3) or the rook on d2 (5).
    const fen = '4k3/8/8/N2r4/8/8/3R4/4K3 b - - 0 1';
    for (const seed of [1, 2, 3]) expect(await new GreedyPlayer(seed).chooseMove(at(fen))).toBe('d5d2');
  });

  it('promotes to a queen', async () => {
    expect(await new GreedyPlayer(1).chooseMove(at('k7/4P3/8/8/8/8/8/4K3 w - - 0 1'))).toBe('e7e8q');
  });

  it('breaks ties at random', async () => {
    const openings = new Set<string>();
    for (let seed = 0; seed < 10; seed++) openings.add(await new GreedyPlayer(seed).chooseMove(at(START)));
    expect(openings.size).toBeGreaterThan(3);
  });
});
