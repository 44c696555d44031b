/**
 * Why the learned one-piece material weights can break the textbook order (the learning check, issue 5) when Morph
 * and its partner are unequal: replays a database's recorded games through the learner's own positions (both sides,
 * as --learn-from both) and prints, for each one-piece difference, the mean result of the games it was seen in (what
 * a weight learned once a game at temperature 1 and lambda 1 converges to), over all positions and over the quiet
 * ones only (the reply is not a capture, so the difference is not half an exchange), then split by whose positions
 * they were (Morph's, M; the partner's, P) and the mean of the two.
 *
 *   node bin/run-ts.js research/material-confound.ts DB
 */
import Database from 'better-sqlite3';
import { gameFromPgn, learnedPositions } from '../src/learn/learningGame.ts';

const file = process.argv[2];
if (!file) {
  console.error('usage: material-confound.ts DB');
  process.exit(2);
}
const db = new Database(file, { readonly: true });
const rows = db.prepare('SELECT pgn, morph_color FROM games ORDER BY id').all() as { pgn: string; morph_color: string }[];
db.close();
const PIECES = ['P', 'N', 'B', 'R', 'Q'];
type Tally = Map<string, { sum: number; n: number }>;
const tally = (): Tally => new Map();
const add = (into: Tally, key: string, result: number) => {
  const entry = into.get(key) ?? { sum: 0, n: 0 };
  entry.sum += result;
  entry.n++;
  into.set(key, entry);
};
const seen = { all: { M: tally(), P: tally(), both: tally() }, quiet: { M: tally(), P: tally(), both: tally() } };
for (const row of rows) {
  for (const side of ['w', 'b'] as const) {
    const game = gameFromPgn(row.pgn, side);
    const keys = { all: new Set<string>(), quiet: new Set<string>() };
    for (const position of learnedPositions(game)) {
      const key = Array.from(position.graph.material).join(',');
      keys.all.add(key);
      // En passant aside, a reply captures when its destination holds a piece.
      if (position.reply === null || position.board.squares[position.reply.to] === 0) keys.quiet.add(key);
    }
    const who = side === row.morph_color ? 'M' : 'P';
    for (const kind of ['all', 'quiet'] as const) {
      for (const key of keys[kind]) {
        add(seen[kind][who], key, game.result);
        add(seen[kind].both, key, game.result);
      }
    }
  }
}
const mean = (from: Tally, key: string) => {
  const entry = from.get(key);
  return entry ? entry.sum / entry.n : NaN;
};
const cell = (from: Tally, key: string) => `${mean(from, key).toFixed(3)} (${from.get(key)?.n ?? 0})`;
for (const kind of ['all', 'quiet'] as const) {
  console.log(`${kind} positions: weight (games) | Morph's | partner's | mean of the two`);
  for (let i = 4; i >= 0; i--) {
    for (const sign of [1, -1]) {
      const diff = [0, 0, 0, 0, 0];
      diff[i] = sign;
      const key = diff.join(',');
      const { M, P, both } = seen[kind];
      console.log(`  ${sign > 0 ? 'up' : 'down'} ${PIECES[i]}: ${cell(both, key)} | ${cell(M, key)} | ${cell(P, key)} | ${((mean(M, key) + mean(P, key)) / 2).toFixed(3)}`);
    }
  }
}
