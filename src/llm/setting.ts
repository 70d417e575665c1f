import type { LlmProvider } from './types.js';

/**
 * How a subsystem takes its LLM: the provider itself, or (for subsystems whose configuration has
 * an `llm` section of settings: timeouts, cache size, …) those settings with the provider in
 * `provider`. `createTierRouter({ llm: provider })` and
 * `createTierRouter({ llm: { provider, timeoutMs: 300 } })` are the same shape.
 */
export type LlmSetting<Settings> = LlmProvider | (Settings & { readonly provider?: LlmProvider });

/** Whether `value` is an LLM provider (an object with a `complete` function). */
export function isLlmProvider(value: unknown): value is LlmProvider {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { complete?: unknown }).complete === 'function'
  );
}

/** The provider and the settings of an {@link LlmSetting}. */
export function splitLlmSetting<Settings extends object>(
  value: LlmSetting<Settings> | undefined,
): { readonly provider: LlmProvider | undefined; readonly settings: Settings | undefined } {
  if (value === undefined) return { provider: undefined, settings: undefined };
  if (isLlmProvider(value)) return { provider: value, settings: undefined };
  const { provider, ...settings } = value as Settings & { readonly provider?: LlmProvider };
  return { provider, settings: settings as Settings };
}
