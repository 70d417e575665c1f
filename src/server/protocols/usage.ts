/**
 * Token usage as the server counts it, whatever the wire format said: input tokens read at full
 * price, input tokens read from the provider's prompt cache, and output tokens. OpenAI counts
 * cached tokens inside `prompt_tokens` (`prompt_tokens_details.cached_tokens`); Anthropic counts
 * them apart (`cache_read_input_tokens`), and also reports tokens written to its cache
 * (`cache_creation_input_tokens`), which are counted here as input at full price.
 */

/** Tokens of one answer. */
export interface Usage {
  /** Input tokens at the full input price (cache reads excluded). */
  readonly inputTokens: number;
  /** Input tokens read from the provider's prompt cache. */
  readonly cachedInputTokens: number;
  readonly outputTokens: number;
}

/** A usage with every count zero. */
export const NO_USAGE: Usage = Object.freeze({
  inputTokens: 0,
  cachedInputTokens: 0,
  outputTokens: 0,
});

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An OpenAI `usage` object (chat completions, completions, embeddings), or `undefined`. */
export function usageFromOpenAi(usage: unknown): Usage | undefined {
  if (!isRecord(usage)) return undefined;
  // Chat completions and completions say prompt/completion; the Responses API input/output.
  const prompt = count(usage.prompt_tokens ?? usage.input_tokens);
  const details = usage.prompt_tokens_details ?? usage.input_tokens_details;
  const cached = Math.min(prompt, count(isRecord(details) ? details.cached_tokens : 0));
  return {
    inputTokens: prompt - cached,
    cachedInputTokens: cached,
    outputTokens: count(usage.completion_tokens ?? usage.output_tokens),
  };
}

/** An Anthropic `usage` object (a message, `message_start`, `message_delta`), or `undefined`. */
export function usageFromAnthropic(usage: unknown): Usage | undefined {
  if (!isRecord(usage)) return undefined;
  return {
    inputTokens: count(usage.input_tokens) + count(usage.cache_creation_input_tokens),
    cachedInputTokens: count(usage.cache_read_input_tokens),
    outputTokens: count(usage.output_tokens),
  };
}

/**
 * A later report over an earlier one, field by field where the later one says something: an
 * Anthropic stream gives input tokens in `message_start` and the final output count in
 * `message_delta` (whose input fields, when present, are the final ones).
 */
export function mergeUsage(
  earlier: Usage | undefined,
  later: Usage | undefined,
): Usage | undefined {
  if (earlier === undefined) return later;
  if (later === undefined) return earlier;
  return {
    inputTokens: later.inputTokens || earlier.inputTokens,
    cachedInputTokens: later.cachedInputTokens || earlier.cachedInputTokens,
    outputTokens: later.outputTokens || earlier.outputTokens,
  };
}

/** The usage as OpenAI writes it in a chat completion. */
export function openAiUsage(usage: Usage): Record<string, unknown> {
  const prompt = usage.inputTokens + usage.cachedInputTokens;
  return {
    prompt_tokens: prompt,
    completion_tokens: usage.outputTokens,
    total_tokens: prompt + usage.outputTokens,
    ...(usage.cachedInputTokens > 0
      ? { prompt_tokens_details: { cached_tokens: usage.cachedInputTokens } }
      : {}),
  };
}

/** The usage as Anthropic writes it in a message. */
export function anthropicUsage(usage: Usage): Record<string, unknown> {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    ...(usage.cachedInputTokens > 0 ? { cache_read_input_tokens: usage.cachedInputTokens } : {}),
  };
}
