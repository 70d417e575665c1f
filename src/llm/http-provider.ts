import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher, Pool } from 'undici';
import { lazyRequire } from '../core/lazy-require.js';
import { llmDeadline } from './deadline.js';
import {
  LlmError,
  LlmHttpError,
  LlmInvalidOutputError,
  LlmNetworkError,
  LlmTimeoutError,
} from './errors.js';
import { parseJsonReply, validateJson } from './output.js';
import { backoffMs, type RetryPolicy, retryAfterMs } from './retry.js';
import type { CompletionRequest, CompletionResponse, JsonSchema, LlmProvider } from './types.js';
import { defined, providerErrorMessage, type WireAdapter, type WireReply } from './wire.js';

/** undici, loaded when the first provider is created (it takes ~100 ms to load). */
const undici = lazyRequire<typeof import('undici')>('undici');

/** The default cap on a response body: a reply larger than this is not a classifier's answer. */
export const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** Options of an {@link HttpProvider}. */
export interface HttpProviderOptions {
  readonly id: string;
  /** E.g. `https://api.openai.com/v1`; the wire format's path is appended. */
  readonly baseUrl: string;
  readonly model: string;
  readonly wire: WireAdapter;
  /** The API key itself (resolved from the environment by `createProvider`). */
  readonly apiKey?: string;
  /** Extra request headers (never secrets: those come through `apiKey`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Default time limit of a call, in milliseconds: retries and body reading included. */
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  /** Most open connections to the server. Default: unlimited. */
  readonly connections?: number;
  /** Largest response body accepted. Default {@link DEFAULT_MAX_RESPONSE_BYTES}. */
  readonly maxResponseBytes?: number;
}

/** Counters of an {@link HttpProvider} since it was created. */
export interface HttpProviderStats {
  /** Calls to `complete`. */
  calls: number;
  /** HTTP attempts made (first tries and retries). */
  attempts: number;
  retries: number;
  timeouts: number;
  /** Calls that failed other than by timeout (after any retries). */
  failures: number;
}

/**
 * An {@link LlmProvider} over HTTP, for any {@link WireAdapter}. One undici `Pool` (keep-alive
 * connections) per provider; each call runs under one strict deadline (`withDeadline`) covering
 * connection, headers, body and every retry, and is abandoned at that deadline whatever the server
 * is doing: the undici request is aborted and the caller gets an {@link LlmTimeoutError} at once.
 * Retriable failures (connection errors, 408, 429, 5xx) are retried with exponential backoff and
 * jitter, or after the server's `Retry-After`, only while the wait ends before the deadline.
 *
 * The API key lives in a private field and is sent only in the request headers; any echo of it in
 * a provider's error message is redacted.
 */
export class HttpProvider implements LlmProvider {
  readonly id: string;
  readonly model: string;
  readonly timeoutMs: number;
  readonly #pool: Pool;
  readonly #path: string;
  readonly #headers: Record<string, string>;
  readonly #apiKey: string | undefined;
  readonly #wire: WireAdapter;
  readonly #retry: RetryPolicy;
  readonly #maxBytes: number;
  readonly #stats: HttpProviderStats = {
    calls: 0,
    attempts: 0,
    retries: 0,
    timeouts: 0,
    failures: 0,
  };

  constructor(options: HttpProviderOptions) {
    this.id = options.id;
    this.model = options.model;
    this.timeoutMs = options.timeoutMs;
    const url = new URL(options.baseUrl);
    this.#path = `${url.pathname.replace(/\/+$/, '')}${options.wire.path}${url.search}`;
    this.#pool = new (undici().Pool)(url.origin, {
      ...defined('connections', options.connections),
      keepAliveTimeout: 30_000,
    });
    this.#apiKey = options.apiKey || undefined;
    this.#wire = options.wire;
    this.#retry = options.retry;
    this.#maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.#headers = {
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': 'triage',
      ...options.wire.headers(this.#apiKey),
      ...options.headers,
    };
  }

  /** A copy of the counters. */
  get stats(): HttpProviderStats {
    return { ...this.#stats };
  }

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    this.#stats.calls++;
    const started = performance.now();
    const timeoutMs = request.timeoutMs ?? this.timeoutMs;
    const model = request.model ?? this.model;
    try {
      const payload = JSON.stringify(this.#wire.body(request, model));
      const body = await llmDeadline(this.id, timeoutMs, request.signal, (signal) =>
        this.#withRetries(payload, signal, started + timeoutMs),
      );
      const reply = this.#read(body, request);
      return {
        text: reply.text,
        ...(request.schema ? { json: this.#structured(reply, request.schema) } : {}),
        ...defined('usage', reply.usage),
        model: reply.model ?? model,
        latencyMs: performance.now() - started,
        ...defined('finishReason', reply.finishReason),
      };
    } catch (error) {
      if (error instanceof LlmTimeoutError) this.#stats.timeouts++;
      else this.#stats.failures++;
      throw error;
    }
  }

  /** The reply's JSON (delivered parsed, or read from the text), validated against the schema. */
  #structured(reply: WireReply, schema: JsonSchema): unknown {
    const value =
      reply.json !== undefined
        ? reply.json
        : parseJsonReply(reply.text, this.id, reply.finishReason);
    return validateJson(value, schema, this.id);
  }

  /** Closes the connection pool (in-flight calls finish first). */
  async close(): Promise<void> {
    await this.#pool.close();
  }

  async #withRetries(payload: string, signal: AbortSignal, deadlineAt: number): Promise<unknown> {
    for (let retry = 0; ; retry++) {
      try {
        return await this.#attempt(payload, signal);
      } catch (error) {
        if (signal.aborted) throw error;
        if (!(error instanceof LlmError) || !error.retriable || retry >= this.#retry.maxRetries) {
          throw error;
        }
        const wait =
          error instanceof LlmHttpError && error.retryAfterMs !== undefined
            ? error.retryAfterMs
            : backoffMs(retry, this.#retry);
        // No time left to wait and try again: report the real failure now, not a timeout later.
        if (performance.now() + wait >= deadlineAt) throw error;
        this.#stats.retries++;
        await sleep(wait, undefined, { signal });
      }
    }
  }

  async #attempt(payload: string, signal: AbortSignal): Promise<unknown> {
    this.#stats.attempts++;
    let response: Dispatcher.ResponseData;
    try {
      response = await this.#pool.request({
        path: this.#path,
        method: 'POST',
        headers: this.#headers,
        body: payload,
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new LlmNetworkError(this.id, `request failed: ${this.#describe(error)}`, {
        cause: error,
      });
    }
    const text = await this.#readBody(response.body, signal);
    const status = response.statusCode;
    if (status < 200 || status >= 300) {
      throw new LlmHttpError(
        this.id,
        status,
        this.#providerMessage(text),
        retryAfterMs(response.headers),
      );
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new LlmInvalidOutputError(this.id, `response body is not JSON (HTTP ${status})`);
    }
  }

  /**
   * The body as text, within the size cap. Stream events rather than `for await`: the async
   * iterator costs tens of microseconds per response, a measurable share of a loopback call.
   */
  #readBody(body: Dispatcher.ResponseData['body'], signal: AbortSignal): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      body.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > this.#maxBytes) {
          reject(
            new LlmInvalidOutputError(this.id, `response body exceeds ${this.#maxBytes} bytes`),
          );
          body.destroy();
          return;
        }
        chunks.push(chunk);
      });
      let ended = false;
      body.once('end', () => {
        ended = true;
        resolve(Buffer.concat(chunks, size).toString('utf8'));
      });
      const broke = (error?: Error) => {
        if (ended) return;
        if (signal.aborted) return reject(signal.reason);
        reject(
          new LlmNetworkError(
            this.id,
            `connection broke while reading the response: ${this.#describe(error ?? new Error('closed'))}`,
            { cause: error },
          ),
        );
      };
      body.once('error', broke);
      body.once('close', () => broke());
    });
  }

  /** The provider's error message, redacted and shortened; `undefined` when the body has none. */
  #providerMessage(text: string): string | undefined {
    let message: string | undefined;
    try {
      message = providerErrorMessage(JSON.parse(text));
    } catch {
      message = text;
    }
    const cleaned = message?.replace(/\s+/g, ' ').trim();
    return cleaned ? this.#redact(cleaned.slice(0, 300)) : undefined;
  }

  #describe(error: unknown): string {
    if (!(error instanceof Error)) return this.#redact(String(error));
    const code = (error as { code?: unknown }).code;
    return this.#redact(`${typeof code === 'string' ? `${code} ` : ''}${error.message}`);
  }

  #redact(text: string): string {
    const key = this.#apiKey;
    return key && key.length >= 4 ? text.replaceAll(key, '[redacted]') : text;
  }

  #read(body: unknown, request: CompletionRequest): WireReply {
    try {
      return this.#wire.read(body, request);
    } catch (error) {
      throw new LlmInvalidOutputError(
        this.id,
        error instanceof Error ? error.message : 'unexpected response',
      );
    }
  }
}
