import type { IncomingHttpHeaders, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import type { Target } from './catalog.js';
import { errorBody } from './errors.js';
import type { CancellableAttempt, Exchange } from './exchange.js';
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

/** The error an upstream request is aborted with when its deadline passes. */
class AttemptTimeoutError extends Error {
  override readonly name = 'AttemptTimeoutError';
}

/** The error an upstream request is aborted with when the client went away. */
class ClientGoneError extends Error {
  override readonly name = 'ClientGoneError';
}

/**
 * Sends `body` to `target` and forwards its answer to the client, adding `headers` (the decision
 * headers) when the first byte goes out.
 */
export function attempt(
  exchange: Exchange,
  upstream: Upstream,
  target: Target,
  body: Buffer,
  headers: OutgoingHttpHeaders,
): Promise<AttemptOutcome> {
  return new Promise((resolve) => {
    const call = new UpstreamCall(exchange, target, headers, resolve);
    upstream.pool.dispatch(
      {
        path: upstream.path,
        method: 'POST',
        headers: upstream.headers,
        body,
        headersTimeout: call.timeoutMs,
      },
      call,
    );
  });
}

/**
 * One upstream request, as an undici dispatch handler: the response arrives in callbacks and goes
 * straight to the client, with no stream object, promise, signal or async resource of undici's in
 * between: a fifth less CPU per upstream request than undici's `request()` (about 18 µs on a
 * 2-core virtual machine). A non-streamed answer is collected whole;
 * an event stream is held back until its first complete event (so that a failure before it can
 * still fall back), then passed through byte for byte, with backpressure. Partial events are held
 * back, so that an error event after a broken stream is never glued to half an event.
 */
class UpstreamCall implements Dispatcher.DispatchHandler, CancellableAttempt {
  readonly timeoutMs: number;
  readonly #exchange: Exchange;
  readonly #res: ServerResponse;
  readonly #target: Target;
  readonly #headers: OutgoingHttpHeaders;
  readonly #resolve: (outcome: AttemptOutcome) => void;
  readonly #started = performance.now();
  readonly #timer: NodeJS.Timeout;
  #controller: Dispatcher.DispatchController | undefined;
  /** Why the request must stop, when that was decided before undici started it. */
  #abortReason: Error | undefined;
  #timedOut = false;
  #settled = false;
  #status = 0;
  #responseHeaders: IncomingHttpHeaders = {};
  /** The pieces of a non-streamed answer. */
  #chunks: Buffer[] | undefined;
  /** Set for an event stream. */
  #framer: EventFramer | undefined;
  #committed = false;
  #paused = false;
  #firstByteMs = 0;

  constructor(
    exchange: Exchange,
    target: Target,
    headers: OutgoingHttpHeaders,
    resolve: (outcome: AttemptOutcome) => void,
  ) {
    this.#exchange = exchange;
    this.#res = exchange.res;
    this.#target = target;
    this.#headers = headers;
    this.#resolve = resolve;
    this.timeoutMs = target.model.timeoutMs;
    // A module-level callback and an argument: no closure to allocate for each attempt.
    this.#timer = setTimeout(onAttemptTimeout, this.timeoutMs, this);
    exchange.beginAttempt(this);
  }

  /** The deadline passed: stop the upstream request; the next model may be tried. */
  timeOut(): void {
    this.#timedOut = true;
    this.#abort(new AttemptTimeoutError(`no answer within ${this.timeoutMs} ms`));
  }

  /** The client went away: stop the upstream request. */
  cancel(): void {
    this.#abort(new ClientGoneError('the client closed the connection'));
  }

  #abort(reason: Error): void {
    if (this.#settled) return;
    if (this.#controller) this.#controller.abort(reason);
    else this.#abortReason = reason;
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#abortReason) controller.abort(this.#abortReason);
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    status: number,
    headers: IncomingHttpHeaders,
  ): void {
    this.#status = status;
    this.#responseHeaders = headers;
    if (status < 400 && isEventStream(headers['content-type'])) this.#framer = new EventFramer();
    else this.#chunks = [];
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#exchange.gone) return;
    if (this.#chunks) {
      this.#chunks.push(chunk);
      return;
    }
    const ready = (this.#framer as EventFramer).push(chunk);
    if (ready === undefined) return;
    if (!this.#committed) this.#commit();
    this.#send(controller, ready);
  }

  onResponseEnd(): void {
    clearTimeout(this.#timer);
    if (!this.#settled) this.#settle(this.#ended());
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    clearTimeout(this.#timer);
    if (!this.#settled) this.#settle(this.#failed(error));
  }

  /** The outcome of an answer received whole. */
  #ended(): AttemptOutcome {
    if (this.#exchange.gone) return ABORTED;
    if (!this.#framer) return this.#answerWhole();
    if (!this.#committed) this.#commit();
    this.#res.end(this.#framer.flush());
    return this.#answer();
  }

  /** The outcome of an upstream failure, or of a cancellation. */
  #failed(error: Error): AttemptOutcome {
    if (this.#exchange.gone) return ABORTED;
    if (!this.#committed) {
      return failure(error, this.#timedOut, this.timeoutMs, performance.now() - this.#started);
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
    return this.#answer(interrupted);
  }

  #settle(outcome: AttemptOutcome): void {
    this.#settled = true;
    this.#resolve(outcome);
  }

  /** A whole (non-streamed) answer: a failure worth another model, or the client's answer. */
  #answerWhole(): AttemptOutcome {
    const status = this.#status;
    const chunks = this.#chunks as Buffer[];
    let payload = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    const ms = performance.now() - this.#started;
    if (status >= 400 && isRetriableStatus(status)) {
      const providerMessage = providerMessageOf(payload);
      const retryAfter = this.#responseHeaders['retry-after'];
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
    const out = passUpstreamHeaders(this.#responseHeaders, this.#headers);
    if (status >= 400 && providerMessageOf(payload, true) === undefined) {
      // Not an OpenAI-style error body: say so in one, keeping what the upstream said.
      payload = Buffer.from(JSON.stringify(wrapUpstreamError(this.#target, status, payload)));
      out['content-type'] = 'application/json';
    }
    out['content-length'] = payload.length;
    this.#res.writeHead(status, out);
    this.#res.end(payload);
    return { kind: 'answered', status, streamed: false, firstByteMs: ms };
  }

  #commit(): void {
    clearTimeout(this.#timer);
    this.#committed = true;
    this.#firstByteMs = performance.now() - this.#started;
    this.#res.writeHead(this.#status, passUpstreamHeaders(this.#responseHeaders, this.#headers));
  }

  #send(controller: Dispatcher.DispatchController, data: Buffer): void {
    const res = this.#res;
    // No `res.cork()`: Node already corks the socket for the rest of the tick on each write (the
    // pieces of one tick leave in one system call), and a corked Node 22 response breaks streams:
    // `end()` writes the last chunk before the corked pieces, and a write refused while corked
    // is never followed by 'drain'.
    if (!res.write(data) && !this.#paused) {
      this.#paused = true;
      controller.pause();
      res.once('drain', () => {
        this.#paused = false;
        controller.resume();
      });
    }
  }

  #answer(interrupted?: string): AttemptAnswer {
    const status = this.#status;
    const firstByteMs = this.#firstByteMs;
    return interrupted === undefined
      ? { kind: 'answered', status, streamed: true, firstByteMs }
      : { kind: 'answered', status, streamed: true, firstByteMs, interrupted };
  }
}

function onAttemptTimeout(call: UpstreamCall): void {
  call.timeOut();
}
