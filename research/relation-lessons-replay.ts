/**
 * Experiment (issue 69, lessons per game): more relation lessons for a run's games, without replaying the run.
 * Training's games do not read the relation terms, so a run with more lessons a game plays the same games; this
 * searches `--per-game` lessons of each stored game (relationLessons, as training's actors do, but with the
 * database's weights as they are now rather than as they were at that game) and appends them to the database's
 * relation_lessons table. Run it on a copy; split a long replay over processes with --from/--to.
 *
 *   node bin/run-ts.js research/relation-lessons-replay.ts --db COPY.db --per-game 16 [--from 1 --to 1000] [--seed 1]
 */
import { Command } from 'commander';
import { PatternStore } from '../src/store/patternStore.ts';
import { loadConfig } from '../src/learn/config.ts';
import { gameFromPgn } from '../src/learn/learningGame.ts';
import { recordRelationLessons } from '../src/learn/relationLearning.ts';
import { relationLessons } from '../src/train/relationLessons.ts';
import { stmt } from '../src/store/statements.ts';
import { Random } from '../src/util/random.ts';

const program = new Command()
  .requiredOption('--db <file>', 'a copy of a training database: lessons are appended to it')
  .requiredOption('--per-game <n>', 'lessons a game', Number)
  .option('--from <n>', 'first game', Number, 1)
  .option('--to <n>', 'last game', Number, Number.MAX_SAFE_INTEGER)
  .option('--seed <n>', 'the draw of positions', Number, 1)
  .parse();
const opts = program.opts();

const store = PatternStore.open(opts.db);
const config = loadConfig(store.db);
const games = stmt(store.db, 'SELECT id, morph_color, pgn FROM games WHERE id BETWEEN ? AND ? ORDER BY id').all(opts.from, opts.to) as { id: number; morph_color: 'w' | 'b'; pgn: string }[];
const read = games.map((g) => ({ id: g.id, game: gameFromPgn(g.pgn, g.morph_color) }));
const started = performance.now();
let lessons = 0;
for (const { id, game } of read) {
  // Searched outside the transaction (a parallel replay on the same file waits only for the writes).
  const found = relationLessons(store, game, opts.perGame, new Random(opts.seed * 1_000_003 + id), config);
  store.db.transaction(() => recordRelationLessons(store.db, id, found))();
  lessons += found.length;
  if (id % 100 === 0) console.error(`game ${id}: ${lessons} lessons, ${((performance.now() - started) / lessons).toFixed(1)} ms each`);
}
store.close();
console.log(JSON.stringify({ db: opts.db, games: read.length, lessons, msPerLesson: (performance.now() - started) / lessons }));
