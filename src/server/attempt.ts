import { EventEmitter } from 'node:events';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import type { Target } from './catalog.js';
import { errorBody, errorTypeOf, statusText } from './errors.js';
import { passUpstreamHeaders } from './headers.js';
import { EventFramer, isEventStream, sseErrorEvent } from './sse.js';
import type { Upstream } from './upstreams.js';

/**
 * One try of one upstream model. Nothing reaches the client until the upstream has produced
 * something worth sending (a whole non-streamed body, or the first complete event of a stream):
 * until then every failure is reported back so the next model can be tried; after it, the only
 * thing left to do on a failure is to end the stream with an error event.
 */

/** Why an upstream model could not answer. */
export type FailureReason =
  | 'timeout'
  | 'connect_timeout'
  | 'connection_refused'
  | 'connection_error'
  | 'status';

/** The upstream failed before anything reached the client: another model may be tried. */
export interface AttemptFailure {
  readonly kind: 'failed';
  readonly reason: FailureReason;
  /** The upstream's status, for `status` failures (408, 429 or 5xx). */
  readonly status?: number;
  /** The provider's own error message, when it sent one. */
  readonly providerMessage?: string;
  /** The upstream's `retry-after` header, when it sent one. */
  readonly retryAfter?: string;
  /** One line saying what happened (no upstream body, no prompt). */
  readonly detail: string;
  /** Milliseconds from sending to the failure. */
  readonly ms: number;
}

/** The client got this upstream's answer (a success or a final error), or its start. */
export interface AttemptAnswer {
  readonly kind: 'answered';
  readonly status: number;
  readonly streamed: boolean;
  /** Milliseconds from sending to the first byte sent to the client. */
  readonly firstByteMs: number;
  /** Set when a stream broke after its first byte: what the error event said. */
  readonly interrupted?: string;
}

/** The client went away; the upstream request was cancelled. */
export interface AttemptAborted {
  readonly kind: 'aborted';
}

export type AttemptOutcome = AttemptFailure | AttemptAnswer | AttemptAborted;

const ABORTED: AttemptAborted = Object.freeze({ kind: 'aborted' });

/**
 * Cancels one upstream request. undici accepts an EventEmitter as a signal; it costs a fraction
 * of an `AbortController` (which the request path would otherwise create for every attempt).
 */
class AttemptSignal extends EventEmitter {
  aborted = false;

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }
}

/**
 * The client side of one proxied request: its response, and cancellation. When the client
 * disconnects before the response is complete, `signal` aborts and so does the upstream request
 * in flight. The `AbortSignal` is only created when something asks for it (a decision that has
 * to wait for its LLM check): most requests never need one.
 */
export class Exchange {
  readonly res: ServerResponse;
  #client: AbortController | undefined;
  #gone = false;
  #attempt: AttemptSignal | undefined;

  constructor(res: ServerResponse) {
    this.res = res;
    res.once('close', () => {
      if (res.writableFinished) return;
      this.#gone = true;
      this.#client?.abort();
      this.#attempt?.abort();
    });
  }

  /** Aborts when the client goes away. */
  get signal(): AbortSignal {
    if (this.#client === undefined) {
      this.#client = new AbortController();
      if (this.#gone) this.#client.abort();
    }
    return this.#client.signal;
  }

  /** True once the client went away. */
  get gone(): boolean {
    return this.#gone;
  }

  /** A signal for the next upstream request, aborted if the client goes away. */
  beginAttempt(): AttemptSignal {
    const signal = new AttemptSignal();
    this.#attempt = signal;
    return signal;
  }
}

/** Upstream statuses worth trying another model for: timeouts, rate limits, server errors. */
export function isRetriableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * Sends `body` to `target` and forwards its answer to the client, adding `headers` (the decision
 * headers) when the first byte goes out.
 */
export async function attempt(
  exchange: Exchange,
  upstream: Upstream,
  target: Target,
  body: string | Buffer,
  headers: OutgoingHttpHeaders,
): Promise<AttemptOutcome> {
  const started = performance.now();
  const control = exchange.beginAttempt();
  let timedOut = false;
  const timeoutMs = target.model.timeoutMs;
  const timer = setTimeout(() => {
    timedOut = true;
    control.abort();
  }, timeoutMs);
  const fail = (error: unknown): AttemptOutcome => {
    clearTimeout(timer);
    if (exchange.gone) return ABORTED;
    return failure(error, timedOut, timeoutMs, performance.now() - started);
  };

  let response: Dispatcher.ResponseData;
  try {
    response = await upstream.pool.request({
      path: upstream.path,
      method: 'POST',
      headers: upstream.headers,
      body,
      signal: control,
      headersTimeout: timeoutMs,
    });
  } catch (error) {
    return fail(error);
  }
  const status = response.statusCode;
  if (status < 400 && isEventStream(response.headers['content-type'])) {
    return streamAnswer(exchange, response, headers, timer, started, fail);
  }
  let payload: Buffer;
  try {
    payload = Buffer.from(await response.body.arrayBuffer());
  } catch (error) {
    return fail(error);
  }
  clearTimeout(timer);
  if (exchange.gone) return ABORTED;
  const ms = performance.now() - started;
  if (status >= 400 && isRetriableStatus(status)) {
    const providerMessage = providerMessageOf(payload);
    const retryAfter = response.headers['retry-after'];
    return {
      kind: 'failed',
      reason: 'status',
      status,
      ...(providerMessage === undefined ? {} : { providerMessage }),
      ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
      detail: `HTTP ${status}`,
      ms,
    };
  }
  const out = passUpstreamHeaders(response.headers, headers);
  if (status >= 400 && providerMessageOf(payload, true) === undefined) {
    // Not an OpenAI-style error body: say so in one, keeping what the upstream said.
    payload = Buffer.from(JSON.stringify(wrapUpstreamError(target, status, payload)));
    out['content-type'] = 'application/json';
  }
  out['content-length'] = payload.length;
  exchange.res.writeHead(status, out);
  exchange.res.end(payload);
  return { kind: 'answered', status, streamed: false, firstByteMs: ms };
}

/**
 * Forwards an event stream: held back until its first complete event (so a failure before it can
 * still fall back), then passed through byte for byte, with backpressure. Partial events are
 * held back, so that an error event after a broken stream is never glued to half an event.
 */
function streamAnswer(
  exchange: Exchange,
  response: Dispatcher.ResponseData,
  headers: OutgoingHttpHeaders,
  timer: NodeJS.Timeout,
  started: number,
  fail: (error: unknown) => AttemptOutcome,
): Promise<AttemptOutcome> {
  const { res } = exchange;
  const body = response.body;
  const status = response.statusCode;
  return new Promise((resolve) => {
    const framer = new EventFramer();
    let committed = false;
    let paused = false;
    let firstByteMs = 0;
    const resume = () => {
      paused = false;
      body.resume();
    };
    const commit = () => {
      clearTimeout(timer);
      committed = true;
      firstByteMs = performance.now() - started;
      res.writeHead(status, passUpstreamHeaders(response.headers, headers));
    };
    let corked = false;
    const uncork = () => {
      corked = false;
      res.uncork();
    };
    const send = (data: Buffer) => {
      // Pieces that arrive in the same tick leave in one write (one system call), at the end of
      // the tick: no added delay.
      if (!corked) {
        corked = true;
        res.cork();
        process.nextTick(uncork);
      }
      if (!res.write(data) && !paused) {
        paused = true;
        body.pause();
        res.once('drain', resume);
      }
    };
    body.on('data', (chunk: Buffer) => {
      if (exchange.gone) return;
      const ready = framer.push(chunk);
      if (ready === undefined) return;
      if (!committed) commit();
      send(ready);
    });
    body.on('end', () => {
      if (exchange.gone) return resolve(ABORTED);
      if (!committed) commit();
      res.end(framer.flush());
      resolve({ kind: 'answered', status, streamed: true, firstByteMs });
    });
    body.on('error', (error: Error) => {
      if (exchange.gone) return resolve(ABORTED);
      if (!committed) return resolve(fail(error));
      // After the first byte the client has part of an answer: end it with an error event,
      // never with a second answer.
      const interrupted = `the upstream stream broke after it started (${describeCause(error)})`;
      res.end(
        sseErrorEvent(
          errorBody(
            `${interrupted}; the answer is incomplete`,
            'server_error',
            'upstream_interrupted',
          ),
        ),
      );
      resolve({ kind: 'answered', status, streamed: true, firstByteMs, interrupted });
    });
  });
}

function failure(error: unknown, timedOut: boolean, timeoutMs: number, ms: number): AttemptFailure {
  const code = (error as { code?: string } | undefined)?.code;
  if (timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return { kind: 'failed', reason: 'timeout', detail: `no answer within ${timeoutMs} ms`, ms };
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return { kind: 'failed', reason: 'connect_timeout', detail: 'connection timed out', ms };
  }
  if (code === 'ECONNREFUSED') {
    return { kind: 'failed', reason: 'connection_refused', detail: 'connection refused', ms };
  }
  return {
    kind: 'failed',
    reason: 'connection_error',
    detail: `connection failed (${describeCause(error)})`,
    ms,
  };
}

/** An error's code or name, never its message (which may quote a URL or a body). */
function describeCause(error: unknown): string {
  const e = error as { code?: unknown; name?: unknown } | undefined;
  if (typeof e?.code === 'string') return e.code;
  if (typeof e?.name === 'string') return e.name;
  return 'unknown error';
}

/**
 * The message of an error body: OpenAI's `{ error: { message } }`, or (unless `strict`) a plain
 * `{ error: "…" }` or `{ message: "…" }`. Capped at 500 characters.
 */
function providerMessageOf(payload: Buffer, strict = false): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { error, message } = parsed as { error?: unknown; message?: unknown };
  let text: unknown;
  if (typeof error === 'object' && error !== null) text = (error as { message?: unknown }).message;
  else if (!strict) text = typeof error === 'string' ? error : message;
  return typeof text === 'string' ? text.slice(0, 500) : undefined;
}

function wrapUpstreamError(target: Target, status: number, payload: Buffer) {
  const said = providerMessageOf(payload) ?? printableSnippet(payload);
  return errorBody(
    `upstream ${target.model.id} answered HTTP ${status} ${statusText(status)}${said ? `: ${said}` : ''}`,
    errorTypeOf(status),
    'upstream_error',
  );
}

function printableSnippet(payload: Buffer): string {
  return payload
    .subarray(0, 300)
    .toString('utf8')
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim();
}
