/**
 * A copy of a Morph database with some learning settings changed, e.g. to play a trained database with another
 * evaluation function or maturity in `morph match`, which plays with the database's own settings:
 *
 *   node bin/run-ts.js research/with-config.ts SRC.db DST.db evaluation=shrunk prior=20 maturity=5
 *
 * SRC must not be in training (it is copied as a file); the copy is opened for writing, which also upgrades an
 * older schema.
 */
import { copyFileSync } from 'node:fs';
import { loadConfig, mergeConfig, saveConfig } from '../src/learn/config.ts';
import { PatternStore } from '../src/store/patternStore.ts';

const [source, target, ...settings] = process.argv.slice(2);
if (!source || !target) throw new Error('usage: with-config.ts SRC.db DST.db key=value...');
copyFileSync(source, target);
const to = PatternStore.open(target);
const patch: Record<string, unknown> = {};
for (const setting of settings) {
  const equals = setting.indexOf('=');
  const [key, value] = [setting.slice(0, equals), setting.slice(equals + 1)];
  patch[key] = /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value === 'true' || value === 'false' ? value === 'true' : value;
}
const config = mergeConfig(loadConfig(to.db), patch);
saveConfig(to.db, config);
to.close();
console.log(`${target}: ${JSON.stringify(patch)}`);
