/**
 * Experiment (issue 69, the signal): the relation terms' lessons valued by another search. Every lesson a database
 * keeps (table relation_lessons) gets its target again from SEARCH (the lesson's position, searched as training's
 * lesson searcher does: graph patterns off, the database's piece values as they are now), and nothing else changes.
 * Refit afterwards with research/relation-refit.ts. To compare two lesson searches on the same positions, retarget
 * two copies, one with each (the control with the search the lessons had, so that both use today's piece values).
 * The position is searched from its FEN alone: no game history, so no repetition is seen.
 *
 *   node bin/run-ts.js research/relation-retarget.ts --db COPY.db --search material-full-width [--every 1]
 */
import { Command } from 'commander';
import { PatternStore } from '../src/store/patternStore.ts';
import { loadConfig } from '../src/learn/config.ts';
import { lessonSearch, searchedLesson } from '../src/train/relationLessons.ts';
import { GameHistory } from '../src/chess/history.ts';
import { stmt } from '../src/store/statements.ts';

const opts = new Command()
  .requiredOption('--db <file>', 'a copy of a training database: its lessons are changed in place')
  .requiredOption('--search <spec>', 'the search that values each lesson')
  .option('--every <n>', 'keep only every n-th lesson (the others are deleted)', Number, 1)
  .option('--with-terms', "the search's leaves read the database's relation terms (a bootstrapped target); no policy")
  .parse()
  .opts<{ db: string; search: string; every: number; withTerms?: boolean }>();

const store = PatternStore.open(opts.db);
const config = loadConfig(store.db);
const search = lessonSearch(store, config, opts.search, !!opts.withTerms);
if (search === undefined) throw new Error(`${opts.db}: its play search does not value positions by material`);
const lessons = stmt(store.db, 'SELECT id, fen FROM relation_lessons ORDER BY id').all() as { id: number; fen: string }[];
const update = stmt(store.db, 'UPDATE relation_lessons SET settled = ?, static = ?, target = ? WHERE id = ?');
const remove = stmt(store.db, 'DELETE FROM relation_lessons WHERE id = ?');
const started = performance.now();
let done = 0;
for (const [i, { id, fen }] of lessons.entries()) {
  if (i % opts.every !== 0) {
    remove.run(id);
    continue;
  }
  const lesson = searchedLesson(search, new GameHistory(fen));
  update.run(lesson.settled, lesson.static, lesson.target, id);
  if (++done % 250 === 0) console.error(`${done} lessons, ${((performance.now() - started) / done).toFixed(0)} ms each`);
}
console.error(`${done} lessons retargeted by ${opts.search} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
store.close();
