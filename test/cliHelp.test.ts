/** `morph --help` lists the commands in the order a new user needs them (issue 72): train first, graph last. */
import { describe, expect, it } from 'vitest';
import { runMorph } from './helpers/cli.ts';

describe('morph --help', () => {
  it('lists train, play, uci, inspect, report and match first, in that order, and every command once', async () => {
    const result = await runMorph(['--help']);
    expect(result.code, result.stderr).toBe(0);
    const commandsSection = result.stdout.slice(result.stdout.indexOf('Commands:'));
    const listed = [...commandsSection.matchAll(/^ {2}([a-z]+)\b/gm)].map((match) => match[1]);
    expect(listed.slice(0, 6)).toEqual(['train', 'play', 'uci', 'inspect', 'report', 'match']);
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed).toEqual(expect.arrayContaining(['move', 'learn', 'games', 'export', 'agree', 'model', 'predict', 'graph', 'help']));
  });
});
