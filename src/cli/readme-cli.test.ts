import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from './commands/index.js';
import { EXIT } from './exit-codes.js';
import { buildProgram } from './program.js';

/** The README's table of commands and exit codes says what the CLI has, and nothing it lacks. */
describe("the README's command-line section", () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(
    readme.indexOf('## The command line'),
    readme.indexOf('\n## ', readme.indexOf('## The command line') + 1),
  );
  /** The rows of the table of commands: the words of the command, and the options named. */
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('| `triage '))
    .map((line) => {
      const [usage = '', , options = ''] = line.slice(1).split(/(?<!\\)\|/);
      const words = usage
        .replace(/`/g, '')
        .trim()
        .split(/\s+/)
        .slice(1)
        .filter((word) => /^[a-z]/.test(word));
      return { words, options: options.match(/(?<![\w-])--?[a-z][\w-]*/g) ?? [] };
    });

  it('lists every command, and each kind of evaluation', async () => {
    const listed = new Set(rows.map((row) => row.words[0]));
    for (const { name } of COMMANDS) expect(listed, name).toContain(name);
    const program = await buildProgram();
    const kinds = program.commands.find((c) => c.name() === 'eval')!.commands.map((c) => c.name());
    const listedKinds = rows
      .filter((row) => row.words[0] === 'eval')
      .flatMap((row) => row.words[1]!.split('\\|'));
    expect(new Set(listedKinds)).toEqual(new Set(kinds));
  });

  it('names only options the commands have', async () => {
    const program = await buildProgram();
    for (const { words, options } of rows) {
      const [name, sub] = words;
      const kinds = sub?.split('\\|') ?? [];
      let commands: Command[] = [program.commands.find((c) => c.name() === name)!];
      if (commands[0]!.commands.length > 0) {
        commands = commands[0]!.commands.filter((c) => kinds.includes(c.name()));
      }
      for (const option of options) {
        const has = commands.some((command) =>
          command.options.some((o) => o.long === option || o.short === option),
        );
        expect(has, `${words.join(' ')} ${option}`).toBe(true);
      }
    }
  });

  it('gives the exit codes the CLI uses', () => {
    for (const code of Object.values(EXIT))
      expect(section).toMatch(new RegExp(`^\\| ${code} `, 'm'));
  });
});
