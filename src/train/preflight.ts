/**
 * What `morph train` checks before it touches the database or any output: the files it will append to, the
 * folder it will keep checkpoints in, the learning settings it will save, and the built-in opponents it will make per game (an engine or a morph:
 * database is checked by starting it, in harness.ts). A refusal here leaves every file as it was and records no
 * run; found later, the same mistake would cost a game written and a run row.
 */
import { DEFAULT_CONFIG, mergeConfig, type ConfigPatch } from '../learn/config.ts';
import { formatOpponentSpec, opponentMembers, type OpponentSpec } from '../engines/opponentSpec.ts';
import { createPlayer } from './playerFromSpec.ts';
import { checkAppendable, checkWritableFolder } from '../util/outputFile.ts';

export interface RunInput {
  pgn?: string;
  jsonLog?: string;
  config?: ConfigPatch;
  /** With --checkpoint-every: the folder the checkpoints go to (harness.ts checkpointFolder), created if missing. */
  checkpointFolder?: string;
}

export async function checkRunInput(input: RunInput, spec: OpponentSpec): Promise<void> {
  for (const path of [input.pgn, input.jsonLog]) if (path !== undefined) checkAppendable(path);
  if (input.checkpointFolder !== undefined) checkWritableFolder(input.checkpointFolder, 'checkpoints (--checkpoint-every)');
  // Each setting is checked on its own range, so the defaults stand in for the database's own settings.
  mergeConfig(DEFAULT_CONFIG, input.config ?? {});
  for (const member of opponentMembers(spec)) {
    // ab:D's depth and options are read when the player is made; random and greedy take none; self is Morph.
    if (member.kind !== 'ab') continue;
    const player = await createPlayer(formatOpponentSpec(member), { seed: 0 });
    await player.close();
  }
}
