/**
 * How Morph's lost games were lost to mates (issue 12; measurement only). For each game of the PGN files that
 * Morph (the player whose White or Black tag starts with "morph") lost, finds its first move after which the
 * opponent mates by checks alone within N of its moves (src/search/search.ts mateByChecks, N = 1 .. --depth),
 * and whether another legal move there allowed no such mate ("avoidable"). A game where none is found was lost
 * to longer or quiet mating lines.
 *
 *   node bin/run-ts.js research/mate-losses.ts [--depth 4] GAMES.pgn...
 */
import { readFileSync } from 'node:fs';
import { Chess } from 'chess.js';
import { Command } from 'commander';
import { applyMove, boardFromFen, cloneBoard, WHITE, BLACK } from '../src/chess/board.ts';
import { START_FEN } from '../src/chess/fen.ts';
import { findLegalMove, generateLegalMoves } from '../src/chess/movegen.ts';
import { splitPgnGames } from '../src/game/pgnFile.ts';
import { mateByChecks, shortestMateByChecks } from '../src/search/search.ts';

const program = new Command()
  .argument('<pgn...>')
  .option('--depth <n>', 'the longest mate by checks looked for, in the opponent\'s moves', '4')
  .parse();
const depth = Number(program.opts().depth);

const counts = new Map<string, number>();
let lost = 0;
for (const file of program.args) {
  for (const { text } of splitPgnGames(readFileSync(file, 'utf8'))) {
    const chess = new Chess();
    chess.loadPgn(text);
    const tag = (name: string): string | undefined => chess.getHeaders()[name];
    const morphIsWhite = tag('White')?.startsWith('morph') ?? false;
    if (!morphIsWhite && !tag('Black')?.startsWith('morph')) continue;
    if (tag('Result') !== (morphIsWhite ? '0-1' : '1-0')) continue;
    lost++;
    const start = tag('FEN') ?? START_FEN;
    const board = boardFromFen(start);
    const morph = morphIsWhite ? WHITE : BLACK;
    let kind = 'no mate by checks found';
    for (const played of chess.history({ verbose: true })) {
      const before = cloneBoard(board);
      const mover = board.turn;
      applyMove(before, findLegalMove(before, played.from + played.to + (played.promotion ?? ''))!, board);
      if (mover !== morph) continue;
      const n = shortestMateByChecks(board, depth)?.mateIn;
      if (n === undefined) continue;
      const after = cloneBoard(before);
      const avoidable = generateLegalMoves(before).some((move) => {
        applyMove(before, move, after);
        return mateByChecks(after, n) === undefined;
      });
      kind = `${avoidable ? 'avoidable' : 'forced'} mate by checks in ${n}`;
      break;
    }
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
}
console.log(`${lost} games lost; the first move after which the opponent mates by checks within ${depth}:`);
for (const [kind, count] of [...counts].sort()) console.log(`  ${kind}: ${count}`);
