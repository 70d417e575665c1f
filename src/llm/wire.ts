import type { CompletionRequest, TokenUsage } from './types.js';

/** What an adapter read from a successful response body. */
export interface WireReply {
  readonly text: string;
  /** Structured output the wire format delivered already parsed (Anthropic tool input). */
  readonly json?: unknown;
  readonly usage?: TokenUsage;
  readonly model?: string;
  readonly finishReason?: string;
}

/**
 * One wire format, client side: where to send a chat, how to authenticate, how to turn a
 * {@link CompletionRequest} into a body and a response body back into a reply. Transport, timeouts,
 * retries and validation are shared ({@link HttpProvider}); an adapter is only this mapping.
 */
export interface WireAdapter {
  /** Path appended to the base URL (e.g. `/chat/completions`). */
  readonly path: string;
  /** Headers carrying the API key (none when there is no key), plus any the format requires. */
  headers(apiKey: string | undefined): Record<string, string>;
  /** The request body. */
  body(request: CompletionRequest, model: string): unknown;
  /**
   * Reads a 2xx response body. Throws a plain `Error` describing what is missing when the body
   * does not have the format's shape; the provider turns it into an invalid-output error.
   */
  read(body: unknown, request: CompletionRequest): WireReply;
}

/**
 * The provider's message in an error body, in any of the three formats: OpenAI and Anthropic
 * (`{error: {message}}`), Ollama (`{error: "…"}`), or a bare `{message}` some proxies send.
 */
export function providerErrorMessage(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  if (isRecord(body.error) && typeof body.error.message === 'string') return body.error.message;
  if (typeof body.error === 'string') return body.error;
  return typeof body.message === 'string' ? body.message : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A token count from a response field, when it is one. */
export function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Usage from input/output counts, when both are present. */
export function usageOf(input: unknown, output: unknown): TokenUsage | undefined {
  const inputTokens = count(input);
  const outputTokens = count(output);
  return inputTokens === undefined || outputTokens === undefined
    ? undefined
    : { inputTokens, outputTokens };
}

/** Spreads `{ [key]: value }` only when the value is defined (strict optional properties). */
export function defined<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** `Authorization: Bearer <key>` when there is a key (OpenAI-compatible servers, proxied Ollama). */
export function bearer(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}
