import { Command, CommanderError } from 'commander';
import { TriageError } from '../core/errors.js';
import { packageVersion } from '../core/package-root.js';
import { commandsFor } from './commands/index.js';

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
    .showHelpAfterError()
    .configureHelp({ sortSubcommands: true })
    // Before the subcommands are added: they copy this setting when they are created, so a
    // usage error in a subcommand also ends in `runCli`'s exit code 2 instead of process.exit.
    .exitOverride();
  for (const register of await commandsFor(argv)) register(program);
  return program;
}

/**
 * Runs the CLI. Expected failures (bad input, bad configuration) print one line on standard error
 * and exit with code 2; anything else exits with 1. Never prints a stack trace for a user error.
 */
export async function runCli(argv: readonly string[]): Promise<number> {
  try {
    const program = await buildProgram(argv);
    await program.parseAsync([...argv]);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit "with an error" of code 0; usage errors were already printed.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof TriageError) {
      process.stderr.write(`triage: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(`triage: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`);
    return 1;
  }
}
