/**
 * How often Morph had a mate by checks of its own and did not win (issue 12; measurement only). For each game of
 * the inputs that Morph played (the player whose White or Black tag starts with "morph"), finds Morph's first
 * turn at which it forced a mate by checks alone within --depth of its moves (src/search/search.ts
 * shortestMateByChecks, longer than one move: a mate at once Morph always plays), and counts the games by their
 * result from there: the upper bound of what playing such mates can change.
 *
 *   node bin/run-ts.js research/own-mate-chances.ts [--depth 4] GAMES.pgn|MATCH.json...
 *
 * A MATCH.json is `morph match --json` output with its games (its "pgn" array).
 */
import { readFileSync } from 'node:fs';
import { Chess } from 'chess.js';
import { Command } from 'commander';
import { applyMove, boardFromFen, cloneBoard, WHITE, BLACK } from '../src/chess/board.ts';
import { START_FEN } from '../src/chess/fen.ts';
import { findLegalMove } from '../src/chess/movegen.ts';
import { splitPgnGames } from '../src/game/pgnFile.ts';
import { shortestMateByChecks } from '../src/search/search.ts';

const program = new Command()
  .argument('<games...>')
  .option('--depth <n>', 'the longest mate by checks looked for, in Morph\'s moves', '4')
  .parse();
const depth = Number(program.opts().depth);

const games = (file: string): string[] =>
  file.endsWith('.json')
    ? (JSON.parse(readFileSync(file, 'utf8')) as { pgn: string[] }).pgn
    : splitPgnGames(readFileSync(file, 'utf8')).map((game) => game.text);

let played = 0;
const byResult = new Map<string, number>();
for (const file of program.args) {
  for (const text of games(file)) {
    const chess = new Chess();
    chess.loadPgn(text);
    const tag = (name: string): string | undefined => chess.getHeaders()[name];
    const morphIsWhite = tag('White')?.startsWith('morph') ?? false;
    if (!morphIsWhite && !tag('Black')?.startsWith('morph')) continue;
    played++;
    const board = boardFromFen(tag('FEN') ?? START_FEN);
    const morph = morphIsWhite ? WHITE : BLACK;
    for (const move of chess.history({ verbose: true })) {
      if (board.turn === morph) {
        const mate = shortestMateByChecks(board, depth);
        if (mate !== undefined && mate.mateIn > 1) {
          const result = tag('Result') === '1/2-1/2' ? 'draw' : (tag('Result') === '1-0') === morphIsWhite ? 'win' : 'loss';
          const key = `${result}, first mate in ${mate.mateIn}`;
          byResult.set(key, (byResult.get(key) ?? 0) + 1);
          break;
        }
      }
      const before = cloneBoard(board);
      applyMove(before, findLegalMove(before, move.from + move.to + (move.promotion ?? ''))!, board);
    }
  }
}
const had = [...byResult.values()].reduce((a, b) => a + b, 0);
console.log(`${played} games; Morph had a mate by checks within ${depth} moves (longer than one) in ${had}:`);
for (const [key, count] of [...byResult].sort()) console.log(`  ${key}: ${count}`);
