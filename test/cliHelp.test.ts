/**
 * `morph --help` lists the commands in the order a new user needs them (issue 72): train first, graph last. A
 * command named on the line loads alone (src/cli/main.ts), so its own help, a subcommand's, and an unknown name
 * must still come out as before. A command's own help lists its common options first, under `Options:`, and the rest
 * under headings of their own (issue 70), through commander's help groups.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerTrainCommand } from '../src/cli/commands/train.ts';
import { runMorph } from './helpers/cli.ts';

/** The option sections of a command's help, in order: each heading with the long flags listed under it. */
function optionSections(help: string): { heading: string; flags: string[] }[] {
  const sections: { heading: string; flags: string[] }[] = [];
  for (const line of help.split('\n')) {
    if (/^\S.*:$/.test(line)) sections.push({ heading: line, flags: [] });
    const option = /^ {2}(?:-\w, )?(--[\w-]+)/.exec(line);
    if (option && sections.length > 0) sections.at(-1)!.flags.push(option[1]);
  }
  return sections;
}

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

  it('morph train --help: the common options first, then each group once under its heading', async () => {
    const result = await runMorph(['train', '--help']);
    expect(result.code, result.stderr).toBe(0);
    const sections = optionSections(result.stdout);
    expect(sections.map((section) => section.heading)).toEqual([
      'Options:',
      'Learning (saved in the database):',
      'Pattern creation (saved in the database):',
      'Search (saved in the database):',
      'Workers:',
      'Output and monitoring:',
      'External engines:',
    ]);
    const [common, learning, creation, search, workers, output, engines] = sections.map((section) => section.flags);
    expect(common).toEqual(expect.arrayContaining(['--db', '--games', '--hours', '--opponent', '--jobs', '--seed', '--help']));
    expect(learning).toEqual(expect.arrayContaining(['--lambda', '--evaluation', '--maturity', '--material-prior']));
    expect(creation).toEqual(expect.arrayContaining(['--language', '--subgraphs-per-game', '--specialisations-per-game']));
    expect(search).toEqual(expect.arrayContaining(['--search', '--play-search', '--temperature']));
    expect(workers).toEqual(['--snapshot-every']);
    expect(output).toEqual(expect.arrayContaining(['--progress', '--pgn', '--json-log', '--checkpoint-every', '--no-judge']));
    expect(engines).toEqual(expect.arrayContaining(['--engine-timeout', '--engine-hang', '--max-failures']));
    // Grouping moves options, it loses none and lists none twice: the listing is every option train registers.
    const program = new Command();
    registerTrainCommand(program);
    const registered = program.commands.find((command) => command.name() === 'train')!.options.map((option) => option.long!);
    const listed = sections.flatMap((section) => section.flags);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual([...registered, '--help'].sort());
  });

  it.each(['play', 'uci', 'move', 'match', 'agree', 'model'])(
    'morph %s --help: Options: first, with --help, then each heading once',
    async (command) => {
      const result = await runMorph([command, '--help']);
      expect(result.code, result.stderr).toBe(0);
      const sections = optionSections(result.stdout);
      const headings = sections.map((section) => section.heading);
      expect(headings[0]).toBe('Options:');
      expect(sections[0].flags).toContain('--help');
      expect(headings.length).toBeGreaterThan(1);
      expect(new Set(headings).size).toBe(headings.length);
      const listed = sections.flatMap((section) => section.flags);
      expect(new Set(listed).size).toBe(listed.length);
    },
  );
});
