import { Argument, type Command } from 'commander';
import { completionScript, SHELLS, type Shell } from '../completion.js';

/** Registers `triage completion bash|zsh|fish`. */
export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish) for every command and option')
    .addArgument(new Argument('<shell>', 'the shell').choices([...SHELLS]))
    .action(async (shell: Shell) => {
      // Every command registered, whichever this command line loaded: the script covers all.
      const { buildProgram } = await import('../program.js');
      process.stdout.write(completionScript(await buildProgram(), shell));
    });
}
