import type { Logger } from 'pino';
import { createProviderIfKeyed, type ProviderOrDisabled } from '../llm/config.js';
import type { Triage } from '../triage.js';
import type { ServerConfig } from './config.js';
import type { ServerMetrics } from './metrics.js';

/**
 * The server's LLM check: the `llm` section built into a provider, or, when the environment
 * variable of its key is unset, no provider and one warning. The server still starts, every
 * decision local (the original design degrades the same way: "no API key for classifier model: skips the
 * LLM"); `/health` and the `triage_llm_check_enabled` gauge say so.
 */

/** The subsystems that ask the LLM check, as labelled in the gauge and in `/health`. */
export const LLM_CHECK_SUBSYSTEMS = ['tier', 'injection', 'context'] as const;

/** Whether the LLM check is on, and why not when it is off. */
export interface LlmCheckStatus {
  /** A provider is configured and was built. */
  readonly enabled: boolean;
  /** Why it is off although configured (the unset variable); `null` otherwise. */
  readonly reason: string | null;
  /** Whether each subsystem asks it. */
  readonly subsystems: Readonly<Record<(typeof LLM_CHECK_SUBSYSTEMS)[number], boolean>>;
}

/** Builds the provider of the `llm` section, warning once when its key is missing. */
export function serverLlm(
  config: ServerConfig,
  env: Readonly<Record<string, string | undefined>>,
  logger: Logger,
): ProviderOrDisabled | undefined {
  if (config.llm === undefined) return undefined;
  const built = createProviderIfKeyed(config.llm, { env, source: 'llm' });
  if (built.disabled !== undefined) logger.warn({ llm: config.llm.id }, built.disabled);
  return built;
}

/** The status of the LLM check, also set in the metrics' gauge. */
export function llmCheckStatus(
  triage: Triage,
  built: ProviderOrDisabled | undefined,
  metrics: ServerMetrics,
): LlmCheckStatus {
  const subsystems = {
    tier: triage.tier?.llmEnabled ?? false,
    injection: triage.injection?.llmEnabled ?? false,
    context: triage.context?.llmEnabled ?? false,
  };
  for (const subsystem of LLM_CHECK_SUBSYSTEMS) {
    metrics.llmCheckEnabled.set({ subsystem }, subsystems[subsystem] ? 1 : 0);
  }
  return {
    enabled: built?.provider !== undefined,
    reason: built?.disabled ?? null,
    subsystems,
  };
}
