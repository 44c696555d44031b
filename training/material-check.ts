/**
 * Prints a database's learned one-piece material weights next to the paper's Table 1 and checks the textbook
 * order (src/inspect/materialOrder.ts). Exit code 1 when a required claim fails. Used by
 * training/recipes/learning-check.sh.
 *
 *   node bin/run-ts.js training/material-check.ts --db FILE [--json]
 */
import { Command } from 'commander';
import { materialOrderReport, materialOrderText } from '../src/inspect/materialOrder.ts';
import { openMorphDatabase } from '../src/store/database.ts';
import { MorphError } from '../src/util/errors.ts';

const opts = new Command()
  .requiredOption('--db <file>', 'pattern database')
  .option('--json', 'print the report as JSON')
  .parse()
  .opts<{ db: string; json?: boolean }>();
try {
  const db = openMorphDatabase(opts.db, { readonly: true });
  const report = materialOrderReport(db);
  db.close();
  console.log(opts.json ? JSON.stringify(report) : materialOrderText(report));
  process.exitCode = report.passed ? 0 : 1;
} catch (error) {
  if (!(error instanceof MorphError)) throw error;
  console.error(`material-check: ${error.message}`);
  process.exitCode = 2;
}
