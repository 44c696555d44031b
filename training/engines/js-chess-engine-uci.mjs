#!/usr/bin/env node
// npm's js-chess-engine (https://www.npmjs.com/package/js-chess-engine: alpha-beta over material and piece-square
// tables, levels 1-5) as a UCI engine, so that Morph can play and model it (issue 14's collections):
//   uci:training/engines/js-chess-engine-uci.mjs:depth=2[,Level=N]
// It is not a dependency of Morph: install it anywhere with `npm install --prefix DIR js-chess-engine@2.4.6` and
// point JS_CHESS_ENGINE_DIR at DIR. chess.js (Morph's own dependency) replays the game, because the engine's
// move() cannot take a promotion piece; each search starts from the FEN, so a move depends on the position only.
// `go depth N` sets the engine's base depth, the level (option Level, default 2) its extensions and quiescence;
// other limits are ignored (the engine has no clock). Randomness is 0: the engine plays one move per position.
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { Chess } from 'chess.js';

const engineDir = process.env.JS_CHESS_ENGINE_DIR;
if (!engineDir) {
  process.stderr.write('js-chess-engine-uci: set JS_CHESS_ENGINE_DIR to the prefix js-chess-engine is installed in\n');
  process.exit(2);
}
const { Game } = createRequire(`${engineDir.replace(/\/$/, '')}/`)('js-chess-engine');
const VERSION = createRequire(`${engineDir.replace(/\/$/, '')}/`)('js-chess-engine/package.json').version;

let level = 2;
let board = new Chess();

function setPosition(words) {
  const movesAt = words.indexOf('moves');
  const head = movesAt < 0 ? words : words.slice(0, movesAt);
  board = head[0] === 'fen' ? new Chess(head.slice(1).join(' ')) : new Chess();
  for (const uci of movesAt < 0 ? [] : words.slice(movesAt + 1)) {
    board.move({ from: uci.slice(0, 2), to: uci.slice(2, 4), promotion: uci[4] });
  }
}

function bestMove(words) {
  const depthAt = words.indexOf('depth');
  const depth = depthAt < 0 ? undefined : { base: Number(words[depthAt + 1]) };
  if (board.moves().length === 0) return '0000';
  const { move } = new Game(board.fen()).ai({ level, depth, randomness: 0 });
  const [from, to] = Object.entries(move)[0].map((square) => square.toLowerCase());
  const piece = board.get(from);
  // The engine always promotes to a queen.
  const promotes = piece?.type === 'p' && (to[1] === '8' || to[1] === '1');
  return `${from}${to}${promotes ? 'q' : ''}`;
}

const say = (line) => process.stdout.write(`${line}\n`);
createInterface({ input: process.stdin }).on('line', (line) => {
  const [command, ...words] = line.trim().split(/\s+/);
  try {
    if (command === 'uci') {
      say(`id name js-chess-engine ${VERSION}`);
      say('id author Josef Jadrny (UCI wrapper: Morph)');
      say('option name Level type spin default 2 min 1 max 5');
      say('uciok');
    } else if (command === 'isready') say('readyok');
    else if (command === 'setoption' && words[1]?.toLowerCase() === 'level') level = Number(words[3]);
    else if (command === 'ucinewgame') board = new Chess();
    else if (command === 'position') setPosition(words);
    else if (command === 'go') say(`bestmove ${bestMove(words)}`);
    else if (command === 'quit') process.exit(0);
  } catch (error) {
    process.stderr.write(`js-chess-engine-uci: ${error.message}\n`);
    process.exit(1);
  }
});
