import type { Command } from 'commander';
import { type ConfiguredProvider, createProvider } from '../llm/config.js';
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
 * Runs `work` with the provider the flags name (or `undefined` without `--llm`), and closes the
 * provider afterwards, whatever happens: an open keep-alive pool would keep the command running.
 */
export async function withLlmProvider<T>(
  flags: LlmFlags,
  work: (provider: ConfiguredProvider | undefined) => Promise<T>,
): Promise<T> {
  const provider =
    flags.llm === undefined
      ? undefined
      : createProvider(pickProviderConfig(readConfigFile(flags.llm), flags.llm, flags.provider), {
          source: flags.llm,
        });
  try {
    return await work(provider);
  } finally {
    await provider?.close();
  }
}
