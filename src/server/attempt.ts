import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import type { Target } from './catalog.js';
import { errorBody } from './errors.js';
import type { AttemptSignal, Exchange } from './exchange.js';
import { passUpstreamHeaders } from './headers.js';
import { EventFramer, isEventStream, sseErrorEvent } from './sse.js';
import { describeCause, failure, providerMessageOf, wrapUpstreamError } from './upstream-errors.js';
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

/** Upstream statuses worth trying another model for: timeouts, rate limits, server errors. */
export function isRetriableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** What an attempt in flight needs: its cancellation, deadline and start time. */
class AttemptState {
  readonly control: AttemptSignal;
  readonly timer: NodeJS.Timeout;
  readonly started = performance.now();
  timedOut = false;

  constructor(
    readonly exchange: Exchange,
    readonly timeoutMs: number,
  ) {
    this.control = exchange.beginAttempt();
    // A module-level callback and an argument: no closure to allocate for each attempt.
    this.timer = setTimeout(onAttemptTimeout, timeoutMs, this);
  }

  /** The outcome of an error before anything reached the client. */
  fail(error: unknown): AttemptOutcome {
    clearTimeout(this.timer);
    if (this.exchange.gone) return ABORTED;
    return failure(error, this.timedOut, this.timeoutMs, performance.now() - this.started);
  }
}

function onAttemptTimeout(state: AttemptState): void {
  state.timedOut = true;
  state.control.abort();
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
  const state = new AttemptState(exchange, target.model.timeoutMs);
  let response: Dispatcher.ResponseData;
  try {
    response = await upstream.pool.request({
      path: upstream.path,
      method: 'POST',
      headers: upstream.headers,
      body,
      signal: state.control,
      headersTimeout: state.timeoutMs,
    });
  } catch (error) {
    return state.fail(error);
  }
  const status = response.statusCode;
  if (status < 400 && isEventStream(response.headers['content-type'])) {
    return new Promise((resolve) => new StreamRelay(state, response, headers, resolve));
  }
  let payload: Buffer;
  try {
    payload = Buffer.from(await response.body.arrayBuffer());
  } catch (error) {
    return state.fail(error);
  }
  clearTimeout(state.timer);
  if (exchange.gone) return ABORTED;
  const ms = performance.now() - state.started;
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
 * One object per stream, its state in fields: a stream is the hot path, and closures for each
 * of its steps cost more than the steps.
 */
class StreamRelay {
  readonly #framer = new EventFramer();
  readonly #res: ServerResponse;
  readonly #body: Dispatcher.ResponseData['body'];
  #committed = false;
  #paused = false;
  #corked = false;
  #firstByteMs = 0;

  constructor(
    private readonly state: AttemptState,
    private readonly response: Dispatcher.ResponseData,
    private readonly headers: OutgoingHttpHeaders,
    private readonly resolve: (outcome: AttemptOutcome) => void,
  ) {
    this.#res = state.exchange.res;
    this.#body = response.body;
    this.#body.on('data', (chunk: Buffer) => this.data(chunk));
    this.#body.on('end', () => this.end());
    this.#body.on('error', (error: Error) => this.error(error));
  }

  data(chunk: Buffer): void {
    if (this.state.exchange.gone) return;
    const ready = this.#framer.push(chunk);
    if (ready === undefined) return;
    if (!this.#committed) this.commit();
    this.send(ready);
  }

  end(): void {
    if (this.state.exchange.gone) {
      this.resolve(ABORTED);
      return;
    }
    if (!this.#committed) this.commit();
    this.#res.end(this.#framer.flush());
    this.resolve(this.answer());
  }

  error(error: Error): void {
    if (this.state.exchange.gone || !this.#committed) {
      this.resolve(this.state.exchange.gone ? ABORTED : this.state.fail(error));
      return;
    }
    // After the first byte the client has part of an answer: end it with an error event,
    // never with a second answer.
    const interrupted = `the upstream stream broke after it started (${describeCause(error)})`;
    this.#res.end(
      sseErrorEvent(
        errorBody(
          `${interrupted}; the answer is incomplete`,
          'server_error',
          'upstream_interrupted',
        ),
      ),
    );
    this.resolve(this.answer(interrupted));
  }

  commit(): void {
    clearTimeout(this.state.timer);
    this.#committed = true;
    this.#firstByteMs = performance.now() - this.state.started;
    const { response } = this;
    this.#res.writeHead(response.statusCode, passUpstreamHeaders(response.headers, this.headers));
  }

  send(data: Buffer): void {
    const res = this.#res;
    // Pieces that arrive in the same tick leave in one write (one system call), at the end of
    // the tick: no added delay.
    if (!this.#corked) {
      this.#corked = true;
      res.cork();
      process.nextTick(uncorkRelay, this);
    }
    if (!res.write(data) && !this.#paused) {
      this.#paused = true;
      this.#body.pause();
      res.once('drain', () => this.resume());
    }
  }

  uncork(): void {
    this.#corked = false;
    this.#res.uncork();
  }

  resume(): void {
    this.#paused = false;
    this.#body.resume();
  }

  answer(interrupted?: string): AttemptAnswer {
    const { statusCode: status } = this.response;
    const firstByteMs = this.#firstByteMs;
    return interrupted === undefined
      ? { kind: 'answered', status, streamed: true, firstByteMs }
      : { kind: 'answered', status, streamed: true, firstByteMs, interrupted };
  }
}

function uncorkRelay(relay: StreamRelay): void {
  relay.uncork();
}
