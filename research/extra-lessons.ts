/**
 * More relation-term lessons from a database's recorded games than training drew (issue 69: does the relation terms'
 * fit keep improving with more lessons, so that more lessons a game would make a long run keep paying?). Each of
 * games FROM..TO (by id) gives PER_GAME positions (both sides', seeded), each valued exactly as training values a
 * lesson (`relationLessons`, train/relationLessons.ts: the lesson search one ply deeper, with the database's piece
 * values as they are now), appended to the database's kept lessons (table relation_lessons). Refit afterwards with
 * research/relation-refit.ts. Run it on a copy; two processes on two copies with disjoint game ranges parallelise it.
 *
 *   node bin/run-ts.js research/extra-lessons.ts --db COPY.db --from 1 --to 1000 --per-game 8 [--seed 1] [--search SPEC]
 */
import { Command } from 'commander';
import { PatternStore } from '../src/store/patternStore.ts';
import { loadConfig } from '../src/learn/config.ts';
import { gameFromPgn } from '../src/learn/learningGame.ts';
import { recordRelationLessons } from '../src/learn/relationLearning.ts';
import { relationLessons } from '../src/train/relationLessons.ts';
import { Random } from '../src/util/random.ts';

const opts = new Command()
  .requiredOption('--db <file>', 'the database whose games are read and whose kept lessons grow (a copy)')
  .requiredOption('--from <id>', 'first game id', Number)
  .requiredOption('--to <id>', 'last game id', Number)
  .option('--per-game <n>', 'lessons drawn from each game', Number, 8)
  .option('--seed <n>', 'the draws are seeded by this and the game id', Number, 1)
  .option('--search <spec>', "the search that values each lesson (default: training's, lessonSearchFor)")
  .parse()
  .opts<{ db: string; from: number; to: number; perGame: number; seed: number; search?: string }>();

const store = PatternStore.open(opts.db);
const config = loadConfig(store.db);
const rows = store.db.prepare('SELECT id, pgn, morph_color AS color FROM games WHERE pgn IS NOT NULL AND id BETWEEN ? AND ? ORDER BY id')
  .all(opts.from, opts.to) as { id: number; pgn: string; color: 'w' | 'b' }[];
const started = performance.now();
let made = 0;
for (const { id, pgn, color } of rows) {
  const lessons = relationLessons(store, gameFromPgn(pgn, color), opts.perGame, new Random(opts.seed * 1_000_003 + id), config, opts.search);
  // One transaction a game, as training writes them: a killed run keeps every finished game's lessons.
  store.db.transaction(() => recordRelationLessons(store.db, id, lessons))();
  made += lessons.length;
  if (id % 100 === 0) console.error(`game ${id}: ${made} lessons, ${((performance.now() - started) / made).toFixed(1)} ms a lesson`);
}
console.log(JSON.stringify({ games: rows.length, lessons: made, seconds: Math.round((performance.now() - started) / 1000) }));
store.close();
