import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadedModules, SERVER_STACK } from '../../test/loaded-modules.js';
import { captureOutput } from './capture.test-helpers.js';
import { COMMANDS, commandsFor } from './commands/index.js';
import { runCli } from './program.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the CLI loads commands lazily', () => {
  it('registers, from each lazily loaded module, the command of its name', async () => {
    for (const { name, load } of COMMANDS) {
      const program = new Command('triage');
      (await load())(program);
      expect(program.commands.map((command) => command.name())).toEqual([name]);
    }
  });

  it('registers only the command a command line names', async () => {
    expect(await commandsFor(['node', 'triage', 'tier', '--json', 'hi'])).toHaveLength(1);
    expect(await commandsFor(['node', 'triage', '--version'])).toHaveLength(0);
    expect(await commandsFor(['node', 'triage', '--help'])).toHaveLength(COMMANDS.length);
    expect(await commandsFor(['node', 'triage', 'teir', 'hi'])).toHaveLength(COMMANDS.length);
    expect(await commandsFor(['node', 'triage'])).toHaveLength(COMMANDS.length);
  });

  it('still lists every command in the help', async () => {
    const output = captureOutput();
    expect(await runCli(['node', 'triage', '--help'])).toBe(0);
    for (const { name } of COMMANDS) expect(output.out()).toMatch(new RegExp(`^  ${name} `, 'm'));
  });

  it('suggests the command meant by a mistyped one', async () => {
    const output = captureOutput();
    expect(await runCli(['node', 'triage', 'teir', 'hi'])).toBe(2);
    expect(output.err()).toMatch(
      /^triage: unknown command 'teir'; \(Did you mean tier\?\) \(see 'triage --help'\)\n$/,
    );
  });

  it('prints a bad option value as one line naming the option and the help to read', async () => {
    const output = captureOutput();
    expect(await runCli(['node', 'triage', 'eval', 'tier', 'x.jsonl', '--limit', '0'])).toBe(2);
    expect(output.err()).toBe(
      "triage: option '--limit <n>' argument '0' is invalid. not a positive integer: 0 " +
        "(see 'triage eval tier --help')\n",
    );
    expect(output.out()).toBe('');
  });

  it('prints the version', async () => {
    const output = captureOutput();
    expect(await runCli(['node', 'triage', '--version'])).toBe(0);
    expect(output.out()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('loads neither the server nor the other subsystems for `triage tier`', async () => {
    // `node -e code a b` puts a and b right after the executable in process.argv.
    const run =
      "const { runCli } = await import('./src/cli/program.ts');" +
      "process.exitCode = await runCli(['node', 'triage', ...process.argv.slice(1)]);";
    const { urls, packages, stdout } = await loadedModules(run, ['tier', 'hello there']);
    expect(stdout).toMatch(/^tier {8}SIMPLE$/m);
    for (const name of SERVER_STACK) expect(packages.has(name), name).toBe(false);
    for (const other of ['server', 'pipeline', 'guidance', 'capabilities', 'injection']) {
      expect(
        urls.some((url) => url.includes(`/src/${other}/`)),
        other,
      ).toBe(false);
    }
  });
});
