/**
 * How the first player's games of a `morph match --json` end, by material (issue 12; measurement only). Material
 * is counted with 1/3/3/5/9 for this analysis alone (Morph itself is given no piece values), from the first
 * player's side. For each result (W, D, L) it counts:
 *   - the way the game ended and the material at its end (ahead or behind by 1-2, by 3 or more, or level);
 *   - the largest lead the first player held for four plies running (so not a lead in the middle of an exchange);
 *   - for a draw ending three or more ahead, what the other side has left: a bare king, king and pawns, or pieces.
 *
 *   node bin/run-ts.js training/game-ends.ts MATCH.json [MATCH.json...]
 */
import { Command } from 'commander';
import { Chess } from 'chess.js';
import { readMatchGames } from './match-games.ts';

const POINTS: Record<string, number> = { p: 1, n: 3, b: 3, r: 5, q: 9, k: 0 };
/** Plies a lead must last to count as held. */
const HELD = 4;

const program = new Command().argument('<matches...>').parse();

/** Material of White minus Black's. */
function material(board: Chess): number {
  let sum = 0;
  for (const row of board.board()) for (const piece of row) if (piece) sum += (piece.color === 'w' ? 1 : -1) * POINTS[piece.type];
  return sum;
}

function materialClass(lead: number): string {
  if (lead >= 3) return 'ahead 3+';
  if (lead >= 1) return 'ahead 1-2';
  if (lead > -1) return 'level';
  return lead > -3 ? 'behind 1-2' : 'behind 3+';
}

/** What the side other than `color` has besides its king. */
function otherSideLeft(board: Chess, color: 'w' | 'b'): string {
  const theirs = board.board().flat().filter((piece) => piece && piece.color !== color && piece.type !== 'k');
  if (theirs.length === 0) return 'bare king';
  return theirs.every((piece) => piece!.type === 'p') ? 'king and pawns' : 'pieces';
}

for (const file of program.args) {
  const counts = new Map<string, number>();
  const count = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const { game, firstColor } of readMatchGames(file)) {
    const headers = game.getHeaders();
    const sign = firstColor === 'w' ? 1 : -1;
    const result = headers.Result === '1/2-1/2' ? 'D' : (headers.Result === '1-0') === (sign === 1) ? 'W' : 'L';
    const board = new Chess(headers.FEN ?? undefined);
    const leads: number[] = [];
    for (const move of game.history()) {
      board.move(move);
      leads.push(sign * material(board));
    }
    let held = -Infinity;
    for (let i = 0; i + HELD <= leads.length; i++) held = Math.max(held, Math.min(...leads.slice(i, i + HELD)));
    count(`${result} ${headers.Termination ?? '?'}, ending ${materialClass(leads.at(-1) ?? 0)}`);
    count(`${result} largest lead held ${HELD} plies: ${held >= 3 ? '3+' : held >= 1 ? '1-2' : 'none'}`);
    if (result === 'D' && (leads.at(-1) ?? 0) >= 3) count(`D ending ahead 3+, the other side left with: ${otherSideLeft(board, firstColor)}`);
  }
  console.log(JSON.stringify({ match: file, counts: Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : 1))) }, null, 1));
}
