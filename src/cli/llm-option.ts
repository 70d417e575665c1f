import type { Command } from 'commander';
import { type ConfiguredProvider, createProviderIfKeyed } from '../llm/config.js';
import { pickProviderConfig, readConfigFile } from './io.js';

/** The flags of a command that can ask an LLM when its local classifier is unsure. */
export interface LlmFlags {
  /** A provider configuration file (JSON or YAML, as for `triage llm check`). */
  readonly llm?: string;
  /** The provider to use, when the file lists several. */
  readonly provider?: string;
}

/**
 * Adds `--llm <file>` and `--provider <id>` to a command. `purpose` finishes the help sentence
 * ("… to ask when unsure").
 */
export function addLlmOptions(command: Command, purpose = 'to ask when unsure'): Command {
  return command
    .option(
      '--llm <file>',
      `an LLM provider configuration (JSON or YAML, as for \`triage llm check\`) ${purpose}`,
    )
    .option('--provider <id>', 'the provider to use, when the --llm file lists several');
}

/**
 * Runs `work` with the provider the flags name (or `undefined` without `--llm`, or with a warning
 * on standard error when the variable of its key is unset), and closes the provider afterwards,
 * whatever happens: an open keep-alive pool would keep the command running.
 */
export async function withLlmProvider<T>(
  flags: LlmFlags,
  work: (provider: ConfiguredProvider | undefined) => Promise<T>,
): Promise<T> {
  const built =
    flags.llm === undefined
      ? undefined
      : createProviderIfKeyed(
          pickProviderConfig(readConfigFile(flags.llm), flags.llm, flags.provider),
          { source: flags.llm },
        );
  // A key variable that is unset turns the check off (every decision local), with a warning.
  if (built?.disabled !== undefined) process.stderr.write(`triage: warning: ${built.disabled}\n`);
  const provider = built?.provider;
  try {
    return await work(provider);
  } finally {
    await provider?.close();
  }
}
