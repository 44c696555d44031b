/**
 * The embedded Stockfish: npm's `stockfish` package, single-threaded lite WASM build, run by this Node binary.
 * Always available (it is a dependency), so it is the default sparring partner; at skill 0 and depth 1 it is
 * cheap enough to play thousands of training games.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { MorphError } from '../util/errors.ts';
import { engineSettings } from './opponentSpec.ts';
import type { EngineTimeouts, UciClientConfig } from './uciClient.ts';
import { UciEnginePlayer } from './uciEnginePlayer.ts';

const STOCKFISH_SCRIPT = 'bin/stockfish-19-lite-single.js';

/** The build's script, found through module resolution so it works from any working directory. */
export function stockfishScriptPath(): string {
  const require = createRequire(import.meta.url);
  let packageJson: string;
  try {
    packageJson = require.resolve('stockfish/package.json');
  } catch {
    throw new MorphError('the stockfish npm package is missing: run `npm install` in the Morph checkout');
  }
  const script = join(dirname(packageJson), STOCKFISH_SCRIPT);
  if (!existsSync(script)) throw new MorphError(`the stockfish npm package has no ${STOCKFISH_SCRIPT}`);
  return script;
}

/** Command and arguments that start the embedded Stockfish as a UCI process. */
export function stockfishCommand(): Pick<UciClientConfig, 'command' | 'args'> {
  return { command: process.execPath, args: [stockfishScriptPath()] };
}

/**
 * A Stockfish player from a parsed spec's options: skill=N is Stockfish's "Skill Level", depth/nodes/movetime
 * limit each search, anything else is passed as `setoption`.
 */
export function createStockfishPlayer(
  name: string,
  options: Readonly<Record<string, string>>,
  timeouts: EngineTimeouts = {},
): UciEnginePlayer {
  const { go, setoptions } = engineSettings(options);
  const { skill, ...rest } = setoptions;
  const engineOptions = skill === undefined ? rest : { 'Skill Level': skill, ...rest };
  return new UciEnginePlayer({ name, ...stockfishCommand(), options: engineOptions, go, ...timeouts });
}
