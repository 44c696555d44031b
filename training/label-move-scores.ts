/**
 * Labels positions with the score of EVERY legal move (for `morph agree`'s move-quality figures): the embedded
 * Stockfish searches each position at a fixed depth with MultiPV covering all legal moves, from a cleared hash,
 * and each move gets the centipawn score of its line at that depth (mates as lichess converts them). The output
 * is one {"fen","best","scores":{"e2e4":31,…},"depth"} object a line; "best" is the top-scored move.
 *
 * Input: any file `morph agree` reads (JSON lines with "fen", or EPD / FEN lines), e.g. the positions of
 * training/make-agreement-set.ts, which come from games between engines, not Morph's.
 *
 *   nice -n 10 node bin/run-ts.js training/label-move-scores.ts --in test/fixtures/agreement.jsonl \
 *     --depth 8 --out positions/move-scores.jsonl     (the fixture: 400 positions, 24 min on a busy 2-core machine)
 *   nice -n 10 node bin/run-ts.js training/label-move-scores.ts --in positions-seed81.jsonl \
 *     --depth 8 --out positions/move-scores-2k.jsonl  (2,100 positions of make-agreement-set.ts --seed 81, none among
 *                                                      the 400: 523 s, 0.25-1 s a position as the machine's load varied)
 *
 * --engine PATH labels with another UCI binary, e.g. Debian's native Stockfish 15.1 (/usr/games/stockfish). It is
 * not faster here: on 30 positions at depth 8 it took 0.37 s a position against the embedded build's 0.30 s
 * (depth 10 natively: 1.6 s), and its labels differ (the same best move in 13 of 30; its best lost 1.4 win-chance
 * points on the embedded labels), so a set meant to sit beside the shipped one keeps the embedded default.
 * --resume keeps what a stopped run wrote to --out and labels only the remaining positions.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { boardFromFen, uciMove } from '../src/chess/board.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { stockfishCommand } from '../src/engines/stockfish.ts';
import { readInputLines } from '../src/util/inputLines.ts';
import { parseLabelledPositions } from '../src/agree/positions.ts';
import { mateToCentipawns } from '../src/agree/winChance.ts';

const program = new Command()
  .requiredOption('--in <file>', 'positions to label (JSON lines or EPD)')
  .option('--out <file>', 'output file (JSON lines)', 'positions/move-scores.jsonl')
  .option('--depth <n>', 'search depth', '8')
  .option('--limit <n>', 'label at most this many positions', '100000')
  .option('--engine <path>', 'a UCI engine binary to label with (default: the embedded Stockfish)')
  .option('--resume', 'keep the positions already labelled in --out and label only the others, appending')
  .parse();
const opts = program.opts();
const depth = Number(opts.depth);

const { positions, problems } = parseLabelledPositions(readInputLines(opts.in), { requireBest: false });
for (const problem of problems) process.stderr.write(`line ${problem.line}: ${problem.message}\n`);

const { command, args } = opts.engine ? { command: opts.engine as string, args: [] } : stockfishCommand();
const engine = spawn(command, args ?? [], { stdio: ['pipe', 'pipe', 'inherit'] });
const lines = createInterface({ input: engine.stdout });
let waiting: { until: (line: string) => boolean; resolve: () => void } | null = null;
let onLine: (line: string) => void = () => {};
lines.on('line', (line) => {
  onLine(line);
  if (waiting && waiting.until(line)) {
    const done = waiting.resolve;
    waiting = null;
    done();
  }
});
const request = (text: string, until: (line: string) => boolean) =>
  new Promise<void>((resolve) => {
    waiting = { until, resolve };
    engine.stdin.write(text + '\n');
  });

await request('uci', (line) => line === 'uciok');
engine.stdin.write('setoption name MultiPV value 256\n');
await request('isready', (line) => line === 'readyok');

const started = performance.now();
// Written a line at a time, so a run stopped early keeps what it labelled and --resume carries on from there.
const labelled = new Set<string>();
if (opts.resume && existsSync(opts.out)) {
  const text = readFileSync(opts.out, 'utf8');
  const whole = text.slice(0, text.lastIndexOf('\n') + 1); // a line cut short by the stop is labelled again
  if (whole.length < text.length) writeFileSync(opts.out, whole);
  for (const line of whole.split('\n')) if (line.trim() !== '') labelled.add((JSON.parse(line) as { fen: string }).fen);
  process.stderr.write(`resuming: ${labelled.size} positions already in ${opts.out}\n`);
} else {
  writeFileSync(opts.out, '');
}
const output: string[] = [];
for (const position of positions.filter((p) => !labelled.has(p.fen)).slice(0, Number(opts.limit))) {
  const legal = generateLegalMoves(boardFromFen(position.fen)).map(uciMove);
  const scores: Record<string, number> = {};
  onLine = (line) => {
    // Only the final depth's lines count; each PV's first move is the move it scores.
    const match = /^info depth (\d+) .*?multipv \d+ score (cp|mate) (-?\d+).* pv (\S+)/.exec(line);
    if (!match || Number(match[1]) !== depth) return;
    const value = Number(match[3]);
    scores[match[4]] = match[2] === 'cp' ? value : mateToCentipawns(value);
  };
  engine.stdin.write('ucinewgame\n');
  await request('isready', (line) => line === 'readyok');
  engine.stdin.write(`position fen ${position.fen}\n`);
  await request(`go depth ${depth}`, (line) => line.startsWith('bestmove'));
  const missing = legal.filter((move) => scores[move] === undefined);
  if (missing.length > 0) {
    process.stderr.write(`line ${position.line}: no score for ${missing.join(' ')}; skipped\n`);
    continue;
  }
  const best = legal.reduce((a, b) => (scores[b] > scores[a] ? b : a));
  output.push(JSON.stringify({ fen: position.fen, best, depth, scores }));
  appendFileSync(opts.out, output[output.length - 1] + '\n');
  if (output.length % 25 === 0) {
    process.stderr.write(`${output.length} positions, ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  }
}
engine.stdin.write('quit\n');
console.log(
  `wrote ${output.length} positions to ${opts.out} (depth ${depth}) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
