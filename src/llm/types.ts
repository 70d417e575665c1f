/**
 * The LLM provider contract. The core and every subsystem depend on this interface only, never on
 * an SDK or a wire format; adapters (OpenAI-compatible, Anthropic, Ollama) implement it.
 */

/** A JSON Schema object (draft 2020-12 / 07 subset that ajv and the providers accept). */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** One message of the conversation sent to the model. The system prompt is separate. */
export interface ChatMessage {
  readonly role: 'user' | 'assistant';
  readonly content: string;
}

/** Token counts reported by the provider. */
export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** A chat completion request. */
export interface CompletionRequest {
  readonly system?: string;
  readonly messages: readonly ChatMessage[];
  /** Most tokens to generate. */
  readonly maxTokens?: number;
  readonly temperature?: number;
  /** For providers that support reproducible sampling. */
  readonly seed?: number;
  /**
   * Structured output: the provider is asked for JSON matching this schema (natively where the
   * wire format supports it), and the reply is parsed and validated before it is returned.
   */
  readonly schema?: JsonSchema;
  /** A short name for the schema, where the wire format wants one. */
  readonly schemaName?: string;
  /** Aborts the call (e.g. the client went away, or a caller's own deadline). */
  readonly signal?: AbortSignal;
  /** This call's time limit in milliseconds, overriding the provider's default. */
  readonly timeoutMs?: number;
  /** The model, overriding the provider's default. */
  readonly model?: string;
}

/** A chat completion response. */
export interface CompletionResponse {
  /** The text of the reply. */
  readonly text: string;
  /** The parsed and schema-validated JSON, when the request had a schema. */
  readonly json?: unknown;
  readonly usage?: TokenUsage;
  /** The model that answered. */
  readonly model: string;
  /** Wall time of the call in milliseconds (0 for a cache hit). */
  readonly latencyMs: number;
  /** True when the answer came from the decision cache. */
  readonly cached?: boolean;
  /**
   * Why the model stopped, in the provider's vocabulary (`stop`, `length`, `end_turn`,
   * `tool_use`, …), when it said.
   */
  readonly finishReason?: string;
}

/** Something that completes chats. */
export interface LlmProvider {
  /** Identifies the provider in cache keys, logs and metrics (e.g. `openai`, `ollama-local`). */
  readonly id: string;
  /** The default model. */
  readonly model: string;
  /**
   * Completes a chat. Rejects with an `LlmError` subclass: `LlmTimeoutError`, `LlmHttpError`,
   * `LlmNetworkError`, `LlmInvalidOutputError`, or the signal's reason when aborted.
   */
  complete(request: CompletionRequest): Promise<CompletionResponse>;
  /** The default time limit of a call in milliseconds, when the provider has one. */
  readonly timeoutMs?: number;
  /** Releases the provider's connections. Calls made after it fail. */
  close?(): Promise<void>;
}
