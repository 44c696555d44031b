/**
 * `morph --help` lists the commands in the order a new user needs them (issue 72): train first, graph last. A
 * command named on the line loads alone (src/cli/main.ts), so its own help, a subcommand's, and an unknown name
 * must still come out as before.
 */
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

  it("shows a command's help, a subcommand's, and names an unknown command in one line with exit code 2", async () => {
    const [uci, material, helpInspect, unknown] = await Promise.all([
      runMorph(['uci', '--help']),
      runMorph(['inspect', 'material', '--help']),
      runMorph(['help', 'inspect']),
      runMorph(['tarin']),
    ]);
    expect(uci.code).toBe(0);
    expect(uci.stdout).toMatch(/^Usage: morph uci \[options\]/);
    expect(material.code).toBe(0);
    expect(material.stdout).toMatch(/^Usage: morph inspect material \[options\]/);
    expect(helpInspect.code).toBe(0);
    expect(helpInspect.stdout).toMatch(/^Usage: morph inspect \[options\] \[command\]/);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^error: unknown command 'tarin'\n\(Did you mean train\?\)/);
  });
});
