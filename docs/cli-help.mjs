#!/usr/bin/env node
// Keeps docs/cli.md's option lists true: every block between `<!-- help: CMD -->` and `<!-- /help -->` is replaced
// by the output of `morph CMD --help` (80 columns, as when piped). `--check` changes nothing and exits 1 when a
// block differs, naming it.
//
//   node docs/cli-help.mjs [--check]
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const doc = fileURLToPath(new URL('./cli.md', import.meta.url));
const morph = fileURLToPath(new URL('../bin/morph.js', import.meta.url));
const check = process.argv.includes('--check');
const stale = [];
const text = readFileSync(doc, 'utf8').replace(
  /(<!-- help: ([a-z ]*) -->\n)([\s\S]*?)(<!-- \/help -->)/g,
  (whole, open, command, body, close) => {
    const args = command.trim() === '' ? ['--help'] : [...command.trim().split(' '), '--help'];
    const help = execFileSync(process.execPath, [morph, ...args], { encoding: 'utf8', env: { ...process.env, COLUMNS: '80' } });
    const fresh = '```text\n' + help.trimEnd() + '\n```\n';
    if (fresh !== body) stale.push(command.trim() || 'morph');
    return open + fresh + close;
  },
);
if (check) {
  if (stale.length > 0) {
    process.stderr.write(`docs/cli.md: out of date for ${stale.join(', ')} (run node docs/cli-help.mjs)\n`);
    process.exit(1);
  }
} else {
  writeFileSync(doc, text);
  if (stale.length > 0) process.stdout.write(`docs/cli.md: updated ${stale.join(', ')}\n`);
}
