/**
 * Experiment (issue 69, capacity that grows): do graph patterns larger than the relation terms' one- and two-node
 * ones explain more of what the play search sees beyond capture-settled material, and does what they explain keep
 * growing with the lessons where the small ones level off?
 *
 * Reads a training database's kept relation lessons (table relation_lessons), splits them by game (the first 80%
 * to fit, the next 10% to choose the ridge penalty, the last 10% held out), and reports the held-out R2 of the
 * clipped gap (target less settled) for feature families added one on top of another:
 *   base   the relation terms (src/eval/relationTerms.ts): a piece with its safety; an edge with its target's safety;
 *   fork   three-node patterns of one piece attacking two enemy pieces (each target's label and safety);
 *   pile   three-node patterns of two pieces attacking one enemy piece (the target's label and safety);
 *   king   each king's neighbouring squares attacked by the other side, counted (0, 1, 2, 3+), and its free ones;
 *   square each piece's label and safety on its exact square, as the side that just moved sees the board;
 *   reply  threats the side to move can make: for each of its quiet legal moves, the enemy pieces the moved piece
 *          attacks from its destination (its label and the target's, with the target's safety after the move),
 *          two at once (a fork), or a check, each with the destination's safety; each pattern counted once a
 *          position (whether such a move exists), since the search follows the best of them;
 *   again  the same for the side that just moved, as if it could move again (what it threatens: the threat the
 *          side to move must answer).
 * Each family is fitted on the first quarter, half and all of the fitting games, so the curve shows whether more
 * lessons keep paying for it.
 *
 *   node bin/run-ts.js research/relation-capacity.ts --db RUN.db [--clip 0.5]
 */
import { Command } from 'commander';
import { PatternStore } from '../src/store/patternStore.ts';
import { applyMove, BLACK, boardFromFen, cloneBoard, KING, WHITE, type Board } from '../src/chess/board.ts';
import { KING_COUNT, KING_TARGETS } from '../src/chess/geometry.ts';
import { generateLegalMoves, isSquareAttacked } from '../src/chess/movegen.ts';
import { relationFeatures, relationGraph, MAX_RELATION_FEATURES } from '../src/eval/relationTerms.ts';
import { storedRelationLessons } from '../src/learn/relationLearning.ts';
import { chosenRidge, rmsError, sparseDesign, type SparseRow } from './ridge.ts';

const program = new Command()
  .requiredOption('--db <file>', 'a training database with kept relation lessons')
  .option('--clip <x>', 'the gap counts at most this many log-odds', Number, 0.5)
  .option('--families <list>', 'families to add in turn', 'base,fork,pile,king')
  .parse();
const opts = program.opts();

const store = PatternStore.open(opts.db, { readonly: true });
const lessons = [...storedRelationLessons(store.db)];
store.close();

const scratch = new Uint16Array(MAX_RELATION_FEATURES);
const add = (row: SparseRow, key: string) => row.set(key, (row.get(key) ?? 0) + 1);
const sameSide = (a: number, b: number) => a < 6 === b < 6;

/**
 * The threat patterns the side to move's quiet moves make (family reply), each once: the moved piece's label (0-5)
 * and the enemy targets it attacks from its destination (labels 6-11 there) with their safety after the move, and
 * the destination's own safety.
 */
function threatMoves(board: Board, row: SparseRow, prefix: string): void {
  const seen = new Set<string>();
  const after = cloneBoard(board);
  for (const move of generateLegalMoves(board)) {
    if (board.squares[move.to] !== 0 || move.promotion !== 0) continue;
    if ((board.squares[move.from] === 1 || board.squares[move.from] === -1) && (move.to & 7) !== (move.from & 7)) continue;
    applyMove(board, move, after);
    const g = relationGraph(after);
    const mover = g.label[move.to];
    const safe = g.safety[move.to];
    const targets: number[] = [];
    for (let e = 0; e < g.edges; e++) {
      if (g.from[e] !== move.to || g.label[g.to[e]] < 6) continue;
      const t = g.to[e];
      if (g.label[t] === 11) seen.add(`${prefix}C${mover}:${safe}`);
      else targets.push(g.label[t] * 3 + g.safety[t]);
    }
    targets.sort((p, q) => q - p);
    for (const t of targets) seen.add(`${prefix}T${mover}:${safe}:${t}`);
    if (targets.length >= 2) seen.add(`${prefix}F${mover}:${safe}:${targets[0]}:${targets[1]}`);
  }
  for (const key of seen) add(row, key);
}

const families: Record<string, (board: Board, row: SparseRow) => void> = {
  reply(board, row) {
    threatMoves(board, row, 'r');
  },
  again(board, row) {
    const passed = cloneBoard(board);
    passed.turn = board.turn === WHITE ? BLACK : WHITE;
    passed.epSquare = -1;
    threatMoves(passed, row, 'a');
  },
  base(board, row) {
    const count = relationFeatures(board, scratch);
    for (let i = 0; i < count; i++) add(row, `b${scratch[i]}`);
  },
  fork(board, row) {
    const g = relationGraph(board);
    for (let e = 0; e < g.edges; e++) {
      const a = g.from[e];
      if (sameSide(g.label[a], g.label[g.to[e]])) continue;
      for (let f = e + 1; f < g.edges && g.from[f] === a; f++) {
        if (sameSide(g.label[a], g.label[g.to[f]])) continue;
        const [x, y] = [g.label[g.to[e]] * 3 + g.safety[g.to[e]], g.label[g.to[f]] * 3 + g.safety[g.to[f]]].sort((p, q) => p - q);
        add(row, `f${g.label[a]}:${x}:${y}`);
      }
    }
  },
  pile(board, row) {
    const g = relationGraph(board);
    const byTarget = new Map<number, number[]>();
    for (let e = 0; e < g.edges; e++) {
      if (sameSide(g.label[g.from[e]], g.label[g.to[e]])) continue;
      const list = byTarget.get(g.to[e]) ?? [];
      list.push(g.label[g.from[e]]);
      byTarget.set(g.to[e], list);
    }
    for (const [target, attackers] of byTarget) {
      attackers.sort((p, q) => p - q);
      for (let i = 0; i < attackers.length; i++) {
        for (let j = i + 1; j < attackers.length; j++) add(row, `p${g.label[target] * 3 + g.safety[target]}:${attackers[i]}:${attackers[j]}`);
      }
    }
  },
  square(board, row) {
    // One-node patterns with their exact square (the paper's language has squares): label, safety and the square
    // as the side that just moved sees the board (mirrored when that side is Black).
    const g = relationGraph(board);
    const flip = board.turn === WHITE ? 56 : 0;
    for (let sq = 0; sq < 64; sq++) {
      if (board.squares[sq] === 0) continue;
      add(row, `s${g.label[sq]}:${g.safety[sq]}:${sq ^ flip}`);
    }
  },
  king(board, row) {
    const squares = board.squares;
    for (let sq = 0; sq < 64; sq++) {
      if (squares[sq] !== KING && squares[sq] !== -KING) continue;
      const white = squares[sq] > 0;
      const side = white === (board.turn === BLACK) ? 'moved' : 'toMove';
      let attacked = 0;
      let free = 0;
      for (let i = sq * 8, end = i + KING_COUNT[sq]; i < end; i++) {
        const to = KING_TARGETS[i];
        if (isSquareAttacked(squares, to, !white)) attacked++;
        else if (squares[to] === 0 || squares[to] > 0 !== white) free++;
      }
      add(row, `k${side}a${Math.min(attacked, 3)}`);
      add(row, `k${side}f${Math.min(free, 3)}`);
    }
  },
};

const chosen = (opts.families as string).split(',');
for (const name of chosen) if (!families[name]) throw new Error(`no family ${name}`);
const gameOf = lessons.map((l) => l.game);
const games = [...new Set(gameOf)].sort((a, b) => a - b);
const cut = (share: number) => games[Math.min(games.length - 1, Math.floor(share * games.length))];
const clip = (x: number) => Math.max(-opts.clip, Math.min(opts.clip, x));
const boards = lessons.map((l) => boardFromFen(l.fen));
const y = lessons.map((l) => clip(l.target - l.settled));
console.log(`${lessons.length} lessons of ${games.length} games; families ${chosen.join('+')}`);

const split = (from: number, to: number) => lessons.map((_, i) => i).filter((i) => gameOf[i] >= cut(from) && (to >= 1 || gameOf[i] < cut(to)));
const held = split(0.9, 1);
const heldMean = held.reduce((s, i) => s + y[i], 0) / held.length;
const heldTotal = Math.sqrt(held.reduce((s, i) => s + (y[i] - heldMean) ** 2, 0) / held.length);
for (let upTo = 1; upTo <= chosen.length; upTo++) {
  const using = chosen.slice(0, upTo);
  const rows = boards.map((board) => {
    const row: SparseRow = new Map();
    for (const name of using) families[name](board, row);
    return row;
  });
  const part = (indices: number[]) => ({ rows: indices.map((i) => rows[i]), y: indices.map((i) => y[i]) });
  const test = part(held);
  const curve = [0.2, 0.4, 0.8].map((share) => {
    const fitted = chosenRidge(part(split(0, share * 0.875)), part(split(share * 0.875, share)), [3, 30, 300, 3000]);
    const rms = rmsError(sparseDesign(test.rows, fitted.design), fitted.weights, test.y);
    return `${Math.round(share * 100)}%: R2 ${(1 - (rms / heldTotal) ** 2).toFixed(3)} (lambda ${fitted.lambda}, ${fitted.design.features} features)`;
  });
  console.log(`${using.join('+')}: ${curve.join('; ')}`);
}
