import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { deliver, type PreparedResponse } from './delivery.js';
import type {
  FakeBehaviour,
  FakeHandler,
  FakeReply,
  FakeRequest,
  FakeRequestOutcome,
  FakeWireFormat,
} from './fake-types.js';
import { anthropicWire } from './wire-anthropic.js';
import { ollamaWire } from './wire-ollama.js';
import { openAiWire } from './wire-openai.js';
import {
  estimateTokens,
  FAKE_CREATED,
  lastUserText,
  type ParsedChat,
  type WireFormatEncoder,
} from './wire-shared.js';

/** Options of {@link startFakeLlm}. */
export interface FakeLlmServerOptions {
  /** How requests are answered when no scripted behaviour is queued. Default: the text `ok`. */
  readonly reply?: FakeBehaviour | FakeHandler;
  /** Models listed by `GET /v1/models` and `GET /api/tags`. Default `['fake-model']`. */
  readonly models?: readonly string[];
  /** Port to listen on. Default 0 (a random free port). */
  readonly port?: number;
  /**
   * Queue of connections not yet accepted. Default 511 (Node's); a load test that opens more
   * connections at once raises it, so that it measures its client, not the kernel's queue.
   */
  readonly backlog?: number;
}

const CHAT_ROUTES: Readonly<Record<string, FakeWireFormat>> = {
  '/v1/chat/completions': 'openai',
  '/chat/completions': 'openai',
  '/v1/messages': 'anthropic',
  '/api/chat': 'ollama',
};

const WIRES: Readonly<Record<FakeWireFormat, WireFormatEncoder>> = {
  openai: openAiWire,
  anthropic: anthropicWire,
  ollama: ollamaWire,
};

const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

type MutableRecord = { -readonly [K in keyof FakeRequest]: FakeRequest[K] };

interface Waiter {
  readonly ready: () => boolean;
  readonly resolve: () => void;
}

/**
 * A fake LLM server for tests: a real HTTP server on 127.0.0.1 and a random port, speaking
 * OpenAI chat completions (`/v1/chat/completions`, JSON and SSE, plus `/v1/models`), Anthropic
 * Messages (`/v1/messages`, JSON and SSE) and Ollama's native chat (`/api/chat`, JSON and NDJSON,
 * plus `/api/tags`).
 *
 * Each chat request is answered by the next scripted behaviour ({@link script}), or else by the
 * default behaviour or handler ({@link reply}; {@link byModel} picks one per model). Behaviours
 * cover replies, provider-style errors, malformed bodies, delays, hangs, trickling and broken
 * connections (see {@link FakeReply}). Every request is recorded with its parsed body and what
 * happened to its connection, so a test can assert that a client disconnect reached the server.
 *
 * Output is deterministic: the same script gives the same bytes on every run.
 */
export class FakeLlmServer {
  readonly #server: Server;
  readonly #models: readonly string[];
  readonly #records: MutableRecord[] = [];
  readonly #queue: FakeBehaviour[] = [];
  readonly #waiters = new Set<Waiter>();
  #handler: FakeHandler;
  #aborted = 0;
  #closing = false;

  private constructor(server: Server, options: FakeLlmServerOptions) {
    this.#server = server;
    this.#models = options.models ?? ['fake-model'];
    this.#handler = toHandler(options.reply ?? 'ok');
  }

  /** Starts a server on 127.0.0.1. */
  static async start(options: FakeLlmServerOptions = {}): Promise<FakeLlmServer> {
    const server = createServer();
    const fake = new FakeLlmServer(server, options);
    server.on('request', (req, res) => {
      fake.#handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(openAiWire.error(500, `fake LLM server failed: ${String(error)}`));
        } else res.destroy();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', options.backlog ?? 511, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return fake;
  }

  /** `http://127.0.0.1:<port>`: the base URL of the Anthropic and Ollama routes. */
  get url(): string {
    const { port } = this.#server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** `http://127.0.0.1:<port>/v1`: the base URL an OpenAI-compatible client wants. */
  get openAiBaseUrl(): string {
    return `${this.url}/v1`;
  }

  /** Every request received, in order of arrival. */
  get requests(): readonly FakeRequest[] {
    return this.#records;
  }

  /** The chat requests received (the model list and unknown routes left out). */
  get chatRequests(): readonly FakeRequest[] {
    return this.#records.filter((record) => record.format !== undefined);
  }

  /** How many connections the client closed before their response was complete. */
  get aborted(): number {
    return this.#aborted;
  }

  /** Queues behaviours answering the next chat requests, one each, before the default. */
  script(...behaviours: FakeBehaviour[]): this {
    this.#queue.push(...behaviours);
    return this;
  }

  /** Sets how requests are answered once the script is used up. */
  reply(behaviour: FakeBehaviour | FakeHandler): this {
    this.#handler = toHandler(behaviour);
    return this;
  }

  /** Forgets recorded requests, queued behaviours and counters (the default reply stays). */
  reset(): this {
    this.#records.length = 0;
    this.#queue.length = 0;
    this.#aborted = 0;
    return this;
  }

  /** Resolves once `ready()` holds (checked on every request event); rejects after `timeoutMs`. */
  waitFor(ready: () => boolean, timeoutMs = 5000): Promise<void> {
    if (ready()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        ready,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        reject(new Error(`fake LLM server: condition not met within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#waiters.add(waiter);
    });
  }

  /** Resolves once at least `count` connections were closed early by the client. */
  whenAborted(count = 1, timeoutMs = 5000): Promise<void> {
    return this.waitFor(() => this.#aborted >= count, timeoutMs);
  }

  /** Resolves once at least `count` requests arrived. */
  whenRequests(count: number, timeoutMs = 5000): Promise<void> {
    return this.waitFor(() => this.#records.length >= count, timeoutMs);
  }

  /** Stops the server at once: open connections (hung ones included) are destroyed. */
  async close(): Promise<void> {
    this.#closing = true;
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await closed;
  }

  #notify(): void {
    for (const waiter of this.#waiters) {
      if (waiter.ready()) {
        this.#waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBody = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const format = req.method === 'POST' ? CHAT_ROUTES[path] : undefined;
    const wire = WIRES[format ?? 'openai'];
    let body: unknown;
    let bodyError = rawBody === undefined ? 'request body too large' : undefined;
    if (rawBody) {
      try {
        body = JSON.parse(rawBody);
      } catch {
        bodyError = 'request body is not valid JSON';
      }
    }
    const parsed: ParsedChat = format ? wire.parse(body) : { messages: [], stream: false };
    const record: MutableRecord = {
      seq: this.#records.length,
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      body,
      rawBody: rawBody ?? '',
      ...(format ? { format } : {}),
      ...parsed,
      prompt: lastUserText(parsed.messages),
      outcome: 'pending',
    };
    this.#records.push(record);
    const controller = new AbortController();
    res.on('close', () => {
      // Stops the delivery timers of an unfinished response (an abort is not free: skip it).
      if (!res.writableFinished) controller.abort();
      if (record.outcome !== 'pending') return this.#notify();
      const outcome: FakeRequestOutcome = res.writableFinished
        ? 'completed'
        : this.#closing
          ? 'server-closed'
          : 'client-aborted';
      record.outcome = outcome;
      if (outcome === 'client-aborted') this.#aborted++;
      this.#notify();
    });
    this.#notify();

    let behaviour: FakeReply;
    let response: PreparedResponse;
    if (!format) {
      behaviour = {};
      response = this.#otherRoute(req.method ?? 'GET', path, body);
    } else if (bodyError) {
      behaviour = {};
      response = errorResponse(wire, bodyError === 'request body too large' ? 413 : 400, {
        error: bodyError,
      });
    } else {
      behaviour = await this.#choose(record);
      response = prepare(wire, record, behaviour);
    }
    await deliver(res, response, behaviour, controller.signal, () => {
      record.outcome = 'server-closed';
    });
  }

  async #choose(record: FakeRequest): Promise<FakeReply> {
    const next = this.#queue.shift();
    if (next !== undefined) return normalise(next);
    try {
      return normalise(await this.#handler(record));
    } catch (error) {
      return { status: 500, error: `fake handler threw: ${String(error)}` };
    }
  }

  #otherRoute(method: string, path: string, body: unknown): PreparedResponse {
    if (method === 'GET' && (path === '/v1/models' || path === '/models')) {
      return json(200, {
        object: 'list',
        data: this.#models.map((id) => ({
          id,
          object: 'model',
          created: FAKE_CREATED,
          owned_by: 'fake',
        })),
      });
    }
    if (method === 'POST' && OPENAI_EXTRAS[path] !== undefined) {
      return (OPENAI_EXTRAS[path] as (body: unknown) => PreparedResponse)(body);
    }
    if (method === 'POST' && path === '/v1/messages/count_tokens') {
      // Anthropic's token counting, as estimated for usage figures (4 characters a token).
      const chat = anthropicWire.parse(body);
      const text = [chat.system ?? '', ...chat.messages.map((m) => m.content)]
        .filter((part) => part.length > 0)
        .join('\n');
      return json(200, { input_tokens: estimateTokens(text) });
    }
    if (method === 'GET' && path === '/api/tags') {
      return json(200, {
        models: this.#models.map((name) => ({ name, model: name, size: 0, digest: 'fake' })),
      });
    }
    return errorResponse(openAiWire, 404, { error: `unknown route ${method} ${path}` });
  }
}

/** Starts a {@link FakeLlmServer} on 127.0.0.1 and a random port. */
export function startFakeLlm(options: FakeLlmServerOptions = {}): Promise<FakeLlmServer> {
  return FakeLlmServer.start(options);
}

/**
 * A handler that answers by the model asked for, e.g.
 * `byModel({ a: { status: 500 }, b: 'hello' })`; other models get `otherwise` (default: a 404
 * "model not found" error, as real servers answer).
 */
export function byModel(
  behaviours: Readonly<Record<string, FakeBehaviour | FakeHandler>>,
  otherwise?: FakeBehaviour | FakeHandler,
): FakeHandler {
  return (request) => {
    const chosen = (request.model !== undefined && Object.hasOwn(behaviours, request.model)
      ? behaviours[request.model]
      : undefined) ??
      otherwise ?? { status: 404, error: `model '${request.model ?? ''}' not found` };
    return typeof chosen === 'function' ? chosen(request) : chosen;
  };
}

/** The text of `input` (a string, or strings) of embeddings, completions and responses. */
function inputText(body: unknown): string[] {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const input = b.input ?? b.prompt;
  if (typeof input === 'string') return [input];
  if (Array.isArray(input))
    return input.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
  return [];
}

function modelOf(body: unknown): string {
  const model = (body as { model?: unknown } | undefined)?.model;
  return typeof model === 'string' ? model : 'fake-model';
}

/**
 * OpenAI's other endpoints, with fixed answers: embeddings (4 numbers per input, from its
 * length), legacy completions (`ok`) and the Responses API (`ok`, JSON or a short event stream).
 */
const OPENAI_EXTRAS: Readonly<Record<string, (body: unknown) => PreparedResponse>> = {
  '/v1/embeddings': (body) => {
    const inputs = inputText(body);
    const tokens = estimateTokens(inputs.join(''));
    return json(200, {
      object: 'list',
      data: inputs.map((text, index) => ({
        object: 'embedding',
        index,
        embedding: [text.length, index, 0.5, -0.5],
      })),
      model: modelOf(body),
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  },
  '/v1/completions': (body) => {
    const tokens = estimateTokens(inputText(body).join(''));
    return json(200, {
      id: 'cmpl-fake',
      object: 'text_completion',
      created: FAKE_CREATED,
      model: modelOf(body),
      choices: [{ text: 'ok', index: 0, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: tokens, completion_tokens: 1, total_tokens: tokens + 1 },
    });
  },
  '/v1/responses': (body) => {
    const tokens = estimateTokens(inputText(body).join(''));
    const response = {
      id: 'resp_fake',
      object: 'response',
      created_at: FAKE_CREATED,
      status: 'completed',
      model: modelOf(body),
      output: [
        {
          type: 'message',
          id: 'msg_fake',
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'ok', annotations: [] }],
        },
      ],
      usage: { input_tokens: tokens, output_tokens: 1, total_tokens: tokens + 1 },
    };
    if ((body as { stream?: unknown } | undefined)?.stream !== true) return json(200, response);
    const event = (value: { type: string }) =>
      `event: ${value.type}\ndata: ${JSON.stringify(value)}\n\n`;
    return {
      status: 200,
      headers: { 'content-type': 'text/event-stream; charset=utf-8' },
      pieces: [
        event({
          type: 'response.created',
          response: { ...response, status: 'in_progress', output: [], usage: null },
        } as { type: string }),
        event({
          type: 'response.output_text.delta',
          item_id: 'msg_fake',
          output_index: 0,
          content_index: 0,
          delta: 'ok',
        } as { type: string }),
        event({ type: 'response.completed', response } as { type: string }),
      ],
      streamed: true,
    };
  },
};

function toHandler(behaviour: FakeBehaviour | FakeHandler): FakeHandler {
  return typeof behaviour === 'function' ? behaviour : () => behaviour;
}

function normalise(behaviour: FakeBehaviour): FakeReply {
  return typeof behaviour === 'string' ? { text: behaviour } : behaviour;
}

function prepare(
  wire: WireFormatEncoder,
  request: FakeRequest,
  reply: FakeReply,
): PreparedResponse {
  const extra = { ...(reply.headers ?? {}) };
  if (reply.retryAfter !== undefined) extra['retry-after'] = String(reply.retryAfter);
  if (reply.raw !== undefined) {
    return {
      status: reply.status ?? 200,
      headers: { 'content-type': reply.contentType ?? 'application/json', ...extra },
      pieces: [reply.raw],
      streamed: false,
    };
  }
  if ((reply.status !== undefined && reply.status >= 400) || reply.error !== undefined) {
    return errorResponse(wire, reply.status ?? 500, reply, extra);
  }
  const isJson = reply.json !== undefined;
  const text = isJson ? JSON.stringify(reply.json) : (reply.text ?? 'ok');
  const inputText = [request.system ?? '', ...request.messages.map((m) => m.content)].join('\n');
  const body = wire.encode({
    request,
    model: reply.model ?? request.model ?? 'fake-model',
    text,
    ...(isJson ? { json: reply.json } : {}),
    isJson,
    usage: reply.usage ?? {
      inputTokens: estimateTokens(inputText),
      outputTokens: Math.max(1, estimateTokens(text)),
    },
    ...(reply.finishReason === undefined ? {} : { finishReason: reply.finishReason }),
  });
  const headers: Record<string, string> = { 'content-type': body.contentType, ...extra };
  if (body.streamed) headers['cache-control'] = 'no-cache';
  return { status: reply.status ?? 200, headers, pieces: body.pieces, streamed: body.streamed };
}

function errorResponse(
  wire: WireFormatEncoder,
  status: number,
  reply: Pick<FakeReply, 'error' | 'errorType'>,
  extra: Record<string, string> = {},
): PreparedResponse {
  const message = reply.error ?? STATUS_CODES[status] ?? `HTTP ${status}`;
  return {
    status,
    headers: { 'content-type': 'application/json', ...extra },
    pieces: [wire.error(status, message, reply.errorType)],
    streamed: false,
  };
}

function json(status: number, value: unknown): PreparedResponse {
  return {
    status,
    headers: { 'content-type': 'application/json' },
    pieces: [JSON.stringify(value)],
    streamed: false,
  };
}

/** The body as UTF-8 text; `undefined` when it exceeds the size limit. */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_REQUEST_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
