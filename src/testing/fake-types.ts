import type { IncomingHttpHeaders } from 'node:http';
import type { JsonSchema } from '../llm/types.js';

/** The wire formats the fake LLM server speaks. */
export type FakeWireFormat = 'openai' | 'anthropic' | 'ollama';

/** What happened to a request's connection. */
export type FakeRequestOutcome =
  /** The response is still being written (or the server is hanging on purpose). */
  | 'pending'
  /** The whole response was written. */
  | 'completed'
  /** The client closed the connection before the response was complete. */
  | 'client-aborted'
  /** The server closed it on purpose (`closeAfterBytes`, or `close()` of the server). */
  | 'server-closed';

/** One text message of a recorded request (content parts joined). */
export interface FakeMessage {
  readonly role: string;
  readonly content: string;
}

/** A request the fake server received, as recorded. */
export interface FakeRequest {
  /** Order of arrival, from 0. */
  readonly seq: number;
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body; `undefined` when there was none or it was not JSON. */
  readonly body: unknown;
  /** The body as received. */
  readonly rawBody: string;
  /** The wire format of the route, for the chat routes. */
  readonly format?: FakeWireFormat;
  /** The model asked for. */
  readonly model?: string;
  /** The system prompt (OpenAI/Ollama system messages joined, or Anthropic's `system`). */
  readonly system?: string;
  /** The conversation, system messages excluded. */
  readonly messages: readonly FakeMessage[];
  /** The text of the last user message (`''` when there is none). */
  readonly prompt: string;
  /** Whether a streamed answer was asked for. */
  readonly stream: boolean;
  /** The JSON Schema of a structured-output request (response_format, forced tool, format). */
  readonly schema?: JsonSchema;
  /** The name of the forced Anthropic tool, when the request forced one. */
  readonly toolName?: string;
  /** What happened to the connection; updated as the response progresses. */
  readonly outcome: FakeRequestOutcome;
}

/**
 * How the fake server answers one request: what it says and how it delivers it. Every field is
 * optional; a plain string is short for `{ text }`.
 *
 * What is said, first match wins: `raw` (these bytes verbatim, e.g. malformed JSON), then `status`
 * ≥ 400 or `error` (a provider-style error body in the route's wire format), then `json` (the
 * reply text is this value serialised; an Anthropic request that forced a tool gets a `tool_use`
 * block with it as `input`), then `text`. With nothing set the reply text is `ok`.
 *
 * How it is delivered: wait `delayMs` before the headers, or never send them (`hang`); then the
 * body as one piece (JSON) or one piece per event (streams), with `intervalMs` between pieces;
 * `chunkBytes` re-cuts the body into pieces of that many bytes (trickling). `stallAfterBytes`
 * stops writing after that many body bytes and keeps the connection open; `closeAfterBytes`
 * destroys the connection after that many body bytes.
 */
export interface FakeReply {
  readonly text?: string;
  readonly json?: unknown;
  /** HTTP status; ≥ 400 answers with a provider-style error body. */
  readonly status?: number;
  /** The provider's error message (implies status 500 when `status` is absent). */
  readonly error?: string;
  /** The provider's error type (e.g. `rate_limit_error`); derived from the status by default. */
  readonly errorType?: string;
  /** `Retry-After` header value: seconds, or an HTTP date. */
  readonly retryAfter?: number | string;
  /** The body, verbatim. */
  readonly raw?: string;
  /** Content type of a `raw` body. Default `application/json`. */
  readonly contentType?: string;
  /** Extra response headers. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The model named in the reply. Default: the model asked for. */
  readonly model?: string;
  /** Token usage reported. Default: estimated from the text lengths, nothing cached. */
  readonly usage?: FakeUsage;
  /** The finish reason reported, in the route's vocabulary. Default `stop` / `end_turn`. */
  readonly finishReason?: string;
  readonly delayMs?: number;
  readonly hang?: boolean;
  readonly intervalMs?: number;
  readonly chunkBytes?: number;
  readonly stallAfterBytes?: number;
  readonly closeAfterBytes?: number;
}

/**
 * Token usage a reply reports, counted the Anthropic way: `inputTokens` are the input tokens read
 * at full price, apart from those read from the prompt cache (`cachedInputTokens`) and those
 * written to it (`cacheCreationInputTokens`). Each wire format writes them its own way: OpenAI's
 * `prompt_tokens` is their sum, with `prompt_tokens_details.cached_tokens` for the cache reads
 * (it has no cache writes: they count as plain prompt tokens); Anthropic's `input_tokens`,
 * `cache_read_input_tokens` and `cache_creation_input_tokens` are the three counts. The cache
 * fields appear only when given (then also, as the current Anthropic API does, with the input
 * counts in a stream's `message_delta`).
 */
export interface FakeUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens?: number;
  readonly cacheCreationInputTokens?: number;
}

/** A behaviour: a reply, or a string short for `{ text }`. */
export type FakeBehaviour = string | FakeReply;

/** Chooses the behaviour for a request (by prompt, model, format, …). */
export type FakeHandler = (request: FakeRequest) => FakeBehaviour | Promise<FakeBehaviour>;
