/**
 * Move generator benchmark: perft nodes/s on the compact board, and the compact generator against chess.js's
 * `moves({ verbose: true })` on a middlegame position (the call the compact board exists to avoid on the hot path).
 * Run alone with `node bin/run-ts.js bench/movegen.bench.ts`.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Chess } from 'chess.js';
import { boardFromFen } from '../src/chess/board.ts';
import { generateLegalMoves, hasLegalMove, perft } from '../src/chess/movegen.ts';
import { gamePgn } from '../src/game/playGame.ts';
import { Random } from '../src/util/random.ts';
import { randomPlayout } from '../test/helpers/playedGames.ts';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  target?: string;
}

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
/** A Queen's Gambit Declined middlegame: 40-odd legal moves, all piece kinds active. */
const MIDDLEGAME = 'r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 2 8';

/** Repeats `action` (after one warm-up) until at least `minMs` have passed; returns runs per second. */
function runsPerSecond(action: () => void, minMs: number): number {
  action();
  let runs = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    action();
    runs++;
    elapsed = performance.now() - start;
  } while (elapsed < minMs);
  return (runs * 1000) / elapsed;
}

export async function benchMovegen(): Promise<BenchResult[]> {
  const start = boardFromFen(START);
  const perftNodes = perft(start, 4);
  const perftPerSecond = runsPerSecond(() => perft(start, 4), 1500) * perftNodes;

  const board = boardFromFen(MIDDLEGAME);
  const compactCalls = runsPerSecond(() => generateLegalMoves(board), 500);
  const hasMoveCalls = runsPerSecond(() => hasLegalMove(board), 500);
  const chess = new Chess(MIDDLEGAME);
  const chessJsCalls = runsPerSecond(() => chess.moves({ verbose: true }), 1000);

  // A training game's PGN, written once per game by the learner: ours (chess/san.ts) against chess.js replaying
  // the moves and writing it, as gamePgn did before.
  const game = randomPlayout(START, 120, new Random(1));
  const headers = { white: 'Morph', black: 'Partner' };
  const ownPgns = runsPerSecond(() => gamePgn(game, headers), 500);
  const chessJsPgns = runsPerSecond(() => {
    const replay = new Chess();
    for (const uci of game.moves) replay.move({ from: uci.slice(0, 2), to: uci.slice(2, 4), promotion: uci[4] });
    replay.pgn();
  }, 1000);

  const round = (value: number) => Math.round(value);
  return [
    { name: 'movegen: perft startpos depth 4', value: round(perftPerSecond), unit: 'nodes/s', target: '>= 1,000,000' },
    { name: 'movegen: generateLegalMoves (middlegame)', value: round(compactCalls), unit: 'calls/s' },
    { name: 'movegen: hasLegalMove (middlegame)', value: round(hasMoveCalls), unit: 'calls/s' },
    { name: 'movegen: chess.js moves({verbose:true}) (middlegame)', value: round(chessJsCalls), unit: 'calls/s' },
    { name: `PGN of a ${game.plies}-ply game: gamePgn (own SAN)`, value: round(ownPgns), unit: 'games/s' },
    { name: `PGN of a ${game.plies}-ply game: chess.js replay and pgn()`, value: round(chessJsPgns), unit: 'games/s' },
    { name: 'PGN: gamePgn against chess.js, same run', value: Math.round((10 * ownPgns) / chessJsPgns) / 10, unit: 'x' },
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  for (const { name, value, unit, target } of await benchMovegen()) {
    console.log(`${name}: ${value} ${unit}${target ? ` (target ${target})` : ''}`);
  }
}
