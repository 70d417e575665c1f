import type { Command } from 'commander';

/** Registers one subcommand on the program. Each subsystem adds its own in this folder. */
export type RegisterCommand = (program: Command) => void;

/** A subcommand: its name, and how to load the module that registers it. */
export interface LazyCommand {
  readonly name: string;
  readonly load: () => Promise<RegisterCommand>;
}

/**
 * Every subcommand (help sorts them by name). A command's module, and the subsystem behind it, is
 * loaded only when that command runs, or when the whole list is needed (help, a mistyped
 * command): loading all of them, the server's packages included, took most of each call's start.
 */
export const COMMANDS: readonly LazyCommand[] = [
  { name: 'eval', load: async () => (await import('./eval.js')).registerEval },
  { name: 'llm', load: async () => (await import('./llm.js')).registerLlm },
  { name: 'context', load: async () => (await import('./context.js')).registerContext },
  {
    name: 'capabilities',
    load: async () => (await import('./capabilities.js')).registerCapabilities,
  },
  { name: 'guidance', load: async () => (await import('./guidance.js')).registerGuidance },
  { name: 'pipeline', load: async () => (await import('./pipeline.js')).registerPipeline },
  { name: 'inject', load: async () => (await import('./inject.js')).registerInject },
  { name: 'tier', load: async () => (await import('./tier.js')).registerTier },
  { name: 'calibrate', load: async () => (await import('./calibrate.js')).registerCalibrate },
  { name: 'train', load: async () => (await import('./train.js')).registerTrain },
  { name: 'bench', load: async () => (await import('./bench.js')).registerBench },
  { name: 'serve', load: async () => (await import('./serve.js')).registerServe },
  {
    name: 'completion',
    load: async () => (await import('./completion.js')).registerCompletion,
  },
];

/**
 * The commands a command line needs: the one it names, or all of them when it names none (help,
 * a mistyped command), or none for a bare `--version`.
 */
export async function commandsFor(argv: readonly string[]): Promise<RegisterCommand[]> {
  const args = argv.slice(2);
  // The program's own options (-h, -V) take no value, so the first word is the command's name.
  const name = args.find((arg) => !arg.startsWith('-'));
  const named = COMMANDS.find((command) => command.name === name);
  if (named) return [await named.load()];
  if (
    name === undefined &&
    args.length > 0 &&
    args.every((arg) => arg === '-V' || arg === '--version')
  ) {
    return [];
  }
  return Promise.all(COMMANDS.map((command) => command.load()));
}
