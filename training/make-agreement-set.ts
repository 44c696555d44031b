/**
 * Builds a move-agreement test set (for `morph agree`): positions from games between real engines, each
 * labelled with the embedded Stockfish's best move at a fixed depth, one {"fen","best"} JSON object a line.
 *
 * The games pair the embedded Stockfish at mixed skill and depth with itself or with the alpha-beta baseline,
 * after a few random opening moves for variety. Positions are sampled after the opening (the first 8 plies are
 * skipped) at most one every few plies, and repeated positions are dropped. The labeller is a separate
 * full-strength Stockfish whose hash is cleared before every position, so a label depends on the position only.
 *
 *   node bin/run-ts.js training/make-agreement-set.ts --games 60 --positions 400 --depth 8 --seed 11 \
 *     --out test/fixtures/agreement.jsonl
 *
 * The positions of positions/move-scores-2k.jsonl (then labelled by training/label-move-scores.ts), 2,100 from
 * 194 games in 326 s on the busy 2-core machine (84 s of it labelling); none of them is among the 400 above
 * (compared by FEN without the move counters):
 *
 *   nice -n 10 node bin/run-ts.js training/make-agreement-set.ts --games 400 --positions 2100 --depth 8 --seed 81 \
 *     --out positions-seed81.jsonl
 */
import { writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { boardToFen, uciMove } from '../src/chess/board.ts';
import { START_FEN } from '../src/chess/fen.ts';
import { GameHistory } from '../src/chess/history.ts';
import { positionKey } from '../src/chess/positionKey.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { createPlayer } from '../src/train/playerFromSpec.ts';
import type { GamePlayer } from '../src/engines/gamePlayer.ts';
import { stockfishCommand } from '../src/engines/stockfish.ts';
import { UciClient } from '../src/engines/uciClient.ts';
import { Random } from '../src/util/random.ts';

const program = new Command()
  .option('--games <n>', 'at most this many games', '60')
  .option('--positions <n>', 'stop once this many positions are labelled', '400')
  .option('--out <file>', 'output file (JSON lines)', 'test/fixtures/agreement.jsonl')
  .option('--depth <n>', "the labeller's search depth", '8')
  .option('--seed <n>', 'seed for opening moves, sampling and the players', '11')
  .option('--every <n>', 'at least this many plies between sampled positions of a game', '6')
  .option('--max-plies <n>', 'games end (unfinished) after this many plies', '200')
  .parse();
const opts = program.opts();
const games = Number(opts.games);
const target = Number(opts.positions);
const depth = Number(opts.depth);
const every = Number(opts.every);
const maxPlies = Number(opts.maxPlies);
const SKIPPED_OPENING_PLIES = 8;
const rng = new Random(Number(opts.seed));

/** White and Black of game g: Stockfish of mixed strength against itself or the alpha-beta baseline. */
const PAIRINGS: [string, string][] = [
  ['stockfish:skill=3,depth=4', 'stockfish:skill=10,depth=6'],
  ['ab:2', 'stockfish:skill=5,depth=5'],
  ['stockfish:skill=1,depth=3', 'stockfish:skill=8,depth=5'],
  ['stockfish:skill=15,depth=6', 'ab:2,q'],
];

// Engine processes are kept for the whole run; in-process players are made per game with a fresh seed.
const engines = new Map<string, GamePlayer>();
async function playerFor(spec: string): Promise<GamePlayer> {
  if (!spec.startsWith('stockfish')) return createPlayer(spec, { seed: rng.int(2 ** 32) });
  let engine = engines.get(spec);
  if (!engine) engines.set(spec, (engine = await createPlayer(spec, { seed: 0 })));
  return engine;
}

const labeller = new UciClient({ ...stockfishCommand(), label: `stockfish-label:depth=${depth}` });
await labeller.start();

const started = performance.now();
let labelSeconds = 0;
const lines: string[] = [];
const seen = new Set<number>();
let played = 0;
for (let game = 0; game < games && lines.length < target; game++) {
  const [whiteSpec, blackSpec] = PAIRINGS[game % PAIRINGS.length];
  const sides = game % 2 === 0 ? [whiteSpec, blackSpec] : [blackSpec, whiteSpec];
  const players = [await playerFor(sides[0]), await playerFor(sides[1])];
  for (const player of players) await player.newGame();
  const history = new GameHistory(START_FEN);
  const moves: string[] = [];
  const randomPlies = 2 + rng.int(5);
  let nextSample = SKIPPED_OPENING_PLIES + rng.int(every);
  while (history.verdict() === null && moves.length < maxPlies && lines.length < target) {
    const fen = boardToFen(history.board);
    if (moves.length >= nextSample && !seen.has(positionKey(history.board))) {
      seen.add(positionKey(history.board));
      const labelStarted = performance.now();
      await labeller.newGame();
      const best = await labeller.bestMove(fen, [], { depth });
      labelSeconds += (performance.now() - labelStarted) / 1000;
      if (best !== null) lines.push(JSON.stringify({ fen, best }));
      nextSample = moves.length + every + rng.int(3);
    }
    let move: string;
    if (moves.length < randomPlies) {
      move = uciMove(rng.pick(generateLegalMoves(history.board)));
    } else {
      move = await players[moves.length % 2].chooseMove({ startFen: START_FEN, moves: [...moves], fen });
    }
    history.play(move);
    moves.push(move);
  }
  for (const player of players) if (![...engines.values()].includes(player)) await player.close();
  played++;
  const seconds = (performance.now() - started) / 1000;
  process.stderr.write(
    `game ${game + 1} (${sides[0]} - ${sides[1]}): ${moves.length} plies, ${lines.length} positions, ${seconds.toFixed(0)} s\n`,
  );
}
for (const engine of engines.values()) await engine.close();
await labeller.close();
writeFileSync(opts.out, lines.join('\n') + '\n');
const seconds = (performance.now() - started) / 1000;
console.log(
  `wrote ${lines.length} positions from ${played} games to ${opts.out} in ${seconds.toFixed(0)} s ` +
    `(labelling at depth ${depth}: ${labelSeconds.toFixed(0)} s)`,
);
