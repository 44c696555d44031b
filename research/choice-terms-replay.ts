/**
 * Experiment (issue 69, the second design): graph-pattern terms learned online from the sparring partner's
 * choices, as one conditional-logit model over each decision's moves whose score is the move's settled material
 * log-odds plus the graph term of the position it leads to (SGD on the log-likelihood of the partner's move: every
 * decision of every game, nothing windowed). The graph patterns then carry what the windowed policy carries today,
 * in the evaluation's own units. Replays DB's games oldest first, then measures move quality paired: the database
 * as it plays without a policy, against the same with the terms times each --weights value.
 *
 *   node bin/run-ts.js research/choice-terms-replay.ts --db DB --positions positions/move-scores.jsonl \
 *     [--games N] [--rate R] [--weights 0.5,1]
 */
import { Command } from 'commander';
import { PatternStore } from '../src/store/patternStore.ts';
import { loadConfig, evaluationSettings } from '../src/learn/config.ts';
import { databasePieceValues, materialEvaluation } from '../src/eval/evaluate.ts';
import { MorphPlayer } from '../src/player/morphPlayer.ts';
import { GraphTerms } from '../src/eval/graphTerms.ts';
import { settledMaterialValue } from '../src/learn/graphTermLearning.ts';
import { gameFromPgn } from '../src/learn/learningGame.ts';
import { readInputLines } from '../src/util/inputLines.ts';
import { parseLabelledPositions } from '../src/agree/positions.ts';
import { meanWithInterval, positionQuality } from '../src/agree/metrics.ts';
import { GameHistory } from '../src/chess/history.ts';
import { applyMove, cloneBoard, parseUciMove, uciMove, type Board } from '../src/chess/board.ts';
import { parseFen } from '../src/chess/fen.ts';
import { generateLegalMoves } from '../src/chess/movegen.ts';
import { PositionGraphPool } from '../src/graph/positionGraph.ts';
import { logit } from '../src/eval/combine.ts';

const program = new Command()
  .requiredOption('--db <file>')
  .requiredOption('--positions <file>')
  .option('--games <n>', 'replay at most this many games', Number)
  .option('--rate <x>', 'SGD rate (log-likelihood gradient, shared among a position\'s matches)', Number, 1)
  .option('--weights <list>', 'weights of the terms in play', '0.25,0.5,1')
  .parse();
const opts = program.opts();

const store = PatternStore.open(opts.db, { readonly: true });
const config = loadConfig(store.db);
const evaluation = evaluationSettings(config);
const pieceValues = databasePieceValues(store);
const valueForMover = (board: Board) => materialEvaluation(store, board, 0, evaluation, pieceValues).value;

const rows = store.db.prepare('SELECT pgn, morph_color AS color FROM games WHERE pgn IS NOT NULL ORDER BY id').all() as { pgn: string; color: 'w' | 'b' }[];
const games = rows.slice(0, opts.games ?? rows.length);
const terms = new GraphTerms();
const pool = new PositionGraphPool();
const started = performance.now();
let loss = 0;
let decisions = 0;
games.forEach(({ pgn, color }, g) => {
  const game = gameFromPgn(pgn, color);
  const board = parseFen(game.startFen);
  const partner = color === 'w' ? 1 : 0; // the compact board's turn: 0 white, 1 black
  for (const uci of game.moves) {
    const played = parseUciMove(uci)!;
    if (board.turn === partner) {
      const moves = generateLegalMoves(board);
      if (moves.length > 1) {
        const chosen = moves.findIndex((m) => uciMove(m) === uci);
        const after = moves.map((m) => {
          const next = cloneBoard(board);
          applyMove(board, m, next);
          return next;
        });
        after.forEach((next, k) => pool.build(k, next));
        const matches = store.retrieveTogether(pool.first(after.length)).map((r) => [...terms.read(r.matches)]);
        const scores = after.map((next, k) => logit(settledMaterialValue(next, valueForMover)) + terms.sum(matches[k]));
        const top = Math.max(...scores);
        const exps = scores.map((s) => Math.exp(s - top));
        const total = exps.reduce((a, b) => a + b, 0);
        loss -= Math.log(exps[chosen] / total);
        decisions++;
        for (let k = 0; k < after.length; k++) {
          const gradient = (k === chosen ? 1 : 0) - exps[k] / total;
          if (matches[k].length === 0 || Math.abs(gradient) < 1e-4) continue;
          const share = (opts.rate * gradient) / matches[k].length;
          for (const record of matches[k]) {
            const updates = terms.get(record.id)?.updates ?? 0;
            terms.add(record.id, (share * 50) / (updates + 50));
          }
        }
      }
    }
    applyMove(board, played);
  }
  if ((g + 1) % 250 === 0) {
    console.error(`game ${g + 1}: mean log-loss ${(loss / decisions).toFixed(4)} over ${decisions} decisions, terms ${terms.size}, ${((performance.now() - started) / 1000).toFixed(0)} s`);
    loss = 0;
    decisions = 0;
  }
});

const positions = parseLabelledPositions(readInputLines(opts.positions)).positions.filter((p) => p.scores);
function qualities(weight: number) {
  const scaled = new GraphTerms();
  for (const [id, t] of terms.entries()) scaled.set(id, t.term * weight, t.updates);
  const player = new MorphPlayer(store, { maturity: config.maturity, evaluation, search: config.playSearch, seed: 0, ...(weight > 0 ? { graphTerms: scaled } : {}) });
  return positions.map((p) => {
    const ranked = player.rankMoves(new GameHistory(p.fen));
    return positionQuality(ranked.map((r) => ({ move: r.move, value: player.choiceScore(r) })), p.scores!);
  });
}
const base = qualities(0);
const f = (x: number) => x.toFixed(2);
for (const weight of String(opts.weights).split(',').map(Number)) {
  const learned = qualities(weight);
  const diff = meanWithInterval(learned.map((q, i) => q.meanLoss - base[i].meanLoss));
  console.log(JSON.stringify({
    db: opts.db, games: games.length, rate: opts.rate, weight,
    base: f(meanWithInterval(base.map((q) => q.meanLoss)).mean), learned: f(meanWithInterval(learned.map((q) => q.meanLoss)).mean),
    difference: f(diff.mean), interval: diff.interval.map(f),
  }));
}
store.close();
