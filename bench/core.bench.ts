/**
 * Issue-2 figures: position graphs built per second (successor generation included: for each middlegame
 * position, every legal move is applied on the compact board and the successor's graph built), and pattern
 * matches per second (2-6-node patterns cut from other positions, against middlegame graphs). Also the fixed
 * reference every ratio is taken against: chess.js legal-move generation.
 */
import { Chess } from 'chess.js';
import { applyMove, boardFromFen, cloneBoard } from '../src/chess/board.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { buildPositionGraph, PositionGraph } from '../src/graph/positionGraph.ts';
import { orderedSubpattern } from '../src/learn/nodeOrder.ts';
import { compilePattern } from '../src/pattern/matcher.ts';
import { Random } from '../src/util/random.ts';
import { type Figure, ratePerSecond } from './figures.ts';
import { splitFens } from './positions.ts';

/** chess.js `moves({ verbose: true })` calls per second over middlegame positions: the reference measurement. */
export function referenceRate(): number {
  const games = splitFens().test.slice(0, 50).map((fen) => new Chess(fen));
  let i = 0;
  return ratePerSecond(() => {
    games[i++ % games.length].moves({ verbose: true });
  }, 1500);
}

export function benchCore(): Figure[] {
  const { train, test } = splitFens();
  const boards = test.slice(0, 200).map(boardFromFen);
  const scratch = cloneBoard(boards[0]);
  const graph = new PositionGraph();
  let successors = 0;
  let index = 0;
  const positionsPerSecond = ratePerSecond(() => {
    const board = boards[index++ % boards.length];
    for (const move of generateLegalMoves(board)) {
      applyMove(board, move, scratch);
      buildPositionGraph(scratch, graph);
      successors++;
    }
  }, 2000);
  const averageSuccessors = successors / index;

  const rng = new Random(17);
  const sourceGraphs = train.slice(0, 300).map((fen) => buildPositionGraph(boardFromFen(fen)));
  const patterns = Array.from({ length: 2000 }, () => {
    const source = rng.pick(sourceGraphs);
    return compilePattern(orderedSubpattern(source, rng.int(source.nodeCount), 2 + rng.int(5), rng));
  });
  const targets = boards.map((board) => buildPositionGraph(board));
  let matched = 0;
  let calls = 0;
  const matchesPerSecond = ratePerSecond(() => {
    const pattern = patterns[calls % patterns.length];
    if (pattern.matches(targets[(calls * 7) % targets.length])) matched++;
    calls++;
  }, 2000);
  return [
    {
      name: 'position graphs/s (successors of middlegame positions, move generation included)',
      value: Math.round(positionsPerSecond * averageSuccessors),
      unit: 'graphs/s',
      target: '>= 50000',
    },
    {
      name: 'pattern matches/s (2-6 nodes vs middlegame graphs)',
      value: Math.round(matchesPerSecond),
      unit: 'matches/s',
      note: `${((100 * matched) / calls).toFixed(1)}% matched`,
    },
  ];
}
