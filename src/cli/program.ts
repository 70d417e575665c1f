import { Command, CommanderError } from 'commander';
import { TriageError } from '../core/errors.js';
import { packageVersion } from '../core/package-root.js';
import { commandsFor } from './commands/index.js';
import { EXIT } from './exit-codes.js';

/**
 * Builds the `triage` command with the subcommands `argv` needs registered (every one when it
 * names none: see `commandsFor`).
 */
export async function buildProgram(argv: readonly string[] = []): Promise<Command> {
  const program = new Command('triage')
    .description(
      'Decide how each request to an LLM application should be handled (model tier, injection ' +
        'risk, context policy, capabilities, agent guidance), locally in microseconds.',
    )
    .version(packageVersion())
    .configureHelp({ sortSubcommands: true })
    // Before the subcommands are added: they copy this setting when they are created, so a
    // usage error in a subcommand also ends in `runCli`'s exit code 2 instead of process.exit.
    .exitOverride();
  for (const register of await commandsFor(argv)) register(program);
  oneLineUsageErrors(program);
  return program;
}

/** `triage eval tier`: the words that run a command. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The pointer to a command's help that ends every error line. */
function helpHint(command: Command): string {
  return `(see '${commandPath(command)} --help')`;
}

/** The command a command line names (`triage eval tier …` → eval tier), before it runs. */
function commandNamed(program: Command, argv: readonly string[]): Command {
  let command = program;
  for (const word of argv.slice(2)) {
    const sub = command.commands.find((c) => c.name() === word);
    if (sub) command = sub;
  }
  return command;
}

/** Errors on one line, whatever the source: a message may hold a list or a parser's excerpt. */
function oneLine(message: string): string {
  return message.trim().replace(/\s*\n\s*/g, '; ');
}

/**
 * Makes every command print a usage error as one line naming the problem and pointing to its
 * own help, instead of the whole help text (which buries the one line that matters).
 */
function oneLineUsageErrors(command: Command): void {
  command.configureOutput({
    outputError: (message, write) => {
      const text = oneLine(message).replace(/^error: /, '');
      write(`triage: ${text} ${helpHint(command)}\n`);
    },
  });
  for (const sub of command.commands) oneLineUsageErrors(sub);
}

/**
 * Runs the CLI and returns its exit code (see `./exit-codes.ts`): expected failures (bad usage,
 * bad input, bad configuration) print one line on standard error and give 2; a check that finds
 * what it was asked to fail on sets 1 itself. Never prints a stack trace for a user error.
 */
export async function runCli(argv: readonly string[]): Promise<number> {
  let running: Command | undefined;
  let program: Command | undefined;
  try {
    program = await buildProgram(argv);
    program.hook('preAction', (_program, action) => {
      running = action;
    });
    await program.parseAsync([...argv]);
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit "with an error" of code 0; usage errors were already printed.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof TriageError) {
      const command = running ?? (program && commandNamed(program, argv));
      const hint = command ? ` ${helpHint(command)}` : '';
      process.stderr.write(`triage: ${oneLine(error.message)}${hint}\n`);
      return EXIT.usage;
    }
    process.stderr.write(`triage: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`);
    return EXIT.internal;
  }
}
