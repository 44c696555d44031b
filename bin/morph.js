#!/usr/bin/env node
// The `morph` command: runs the compiled CLI (build/, see build.js), rebuilding it first when a source file is
// newer. Node runs this file directly, so signals (Ctrl-C, SIGTERM from a GUI) reach the command itself.
import { pathToFileURL } from 'node:url';
import { build, buildIsStale, currentEntry } from './build.js';

let entry = currentEntry();
if (entry === null || buildIsStale()) {
  try {
    entry = await build();
  } catch (error) {
    entry = null;
    process.stderr.write(`morph: could not build (${String(error).split('\n')[0]}); running from source\n`);
  }
}
if (entry !== null) {
  await import(pathToFileURL(entry).href);
} else {
  // No working build: the sources through tsx (slower to start, same behaviour).
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
