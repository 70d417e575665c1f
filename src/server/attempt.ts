import type { IncomingHttpHeaders, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import type { Target } from './catalog.js';
import { errorBody } from './errors.js';
import { type CancellableAttempt, type Exchange, sendShuttingDown } from './exchange.js';
import { passUpstreamHeaders } from './headers.js';
import type { AnswerRelay } from './protocols/relay.js';
import { jsonData } from './protocols/sse-events.js';
import { EventFramer, firstDataEvent, isEventStream, sseErrorEvent } from './sse.js';
import {
  describeCause,
  failure,
  providerMessageOf,
  StoppedAttempt,
  wrapUpstreamError,
} from './upstream-errors.js';
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
  | 'status'
  /** A whole answer larger than `server.responseLimitBytes`. */
  | 'too_large'
  /** Something that is not an answer: a redirect, a 204, a 200 whose body is not JSON, … */
  | 'invalid_answer'
  /** Not tried: its circuit breaker is open (the upstream failed repeatedly). */
  | 'breaker_open';

/** The upstream failed before anything reached the client: another model may be tried. */
export interface AttemptFailure {
  readonly kind: 'failed';
  readonly reason: FailureReason;
  /** The upstream's status, for `status` failures (408, 429 or 5xx). */
  readonly status?: number;
  /** The provider's own error message, when it sent one (keys redacted). */
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
  /** Set when the server cut the stream (shutting down) rather than the upstream. */
  readonly closedByServer?: true;
}

/** The client went away; the upstream request was cancelled. */
export interface AttemptAborted {
  readonly kind: 'aborted';
}

/**
 * The server shut down before this upstream answered: the client got a 503 and no other model is
 * tried.
 */
export interface AttemptClosed {
  readonly kind: 'closed';
}

export type AttemptOutcome = AttemptFailure | AttemptAnswer | AttemptAborted | AttemptClosed;

const ABORTED: AttemptAborted = Object.freeze({ kind: 'aborted' });
const CLOSED: AttemptClosed = Object.freeze({ kind: 'closed' });

/** Upstream statuses worth trying another model for: timeouts, rate limits, server errors. */
export function isRetriableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * Why a status carries no answer to relay, or `undefined` when it may: a redirect is not
 * followed (an upstream API that moved is a configuration error, not an answer), and a 204 or
 * 205 has no body to give.
 */
function unusableStatus(status: number): string | undefined {
  if (status === 204 || status === 205) return `HTTP ${status} with no answer`;
  if (status >= 300 && status < 400) return `HTTP ${status}, a redirect (not followed)`;
  return undefined;
}

/** How long an attempt may take before its first byte, and how to say it ran out. */
export interface AttemptDeadline {
  readonly ms: number;
  /** The failure's detail when it passes, e.g. `no answer within 60000 ms`. */
  readonly detail: string;
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
  deadline: AttemptDeadline,
  relay?: AnswerRelay,
): Promise<AttemptOutcome> {
  return new Promise((resolve) => {
    const call = new UpstreamCall(exchange, upstream, target, headers, deadline, resolve, relay);
    upstream.pool.dispatch(
      {
        path: relay?.path ?? upstream.path,
        method: 'POST',
        headers: upstream.headers,
        body,
        // A backstop: the call's own timer, to the millisecond, fires first.
        headersTimeout: deadline.ms + 1_000,
      },
      call,
    );
  });
}

/**
 * One upstream request, as an undici dispatch handler: the response arrives in callbacks and goes
 * straight to the client, with no stream object, promise, signal or async resource of undici's in
 * between: a fifth less CPU per upstream request than undici's `request()` (about 18 µs on a
 * 2-core virtual machine). A non-streamed answer is collected whole, up to the response limit;
 * an event stream is held back until its first event that carries data (so that a failure before
 * it can still fall back; keep-alive comments before it are dropped and do not count as a first
 * byte), then passed through byte for byte, with backpressure. Partial events are held back, so
 * that an error event after a broken stream is never glued to half an event. Keys the upstream
 * echoes are redacted from whatever is relayed. A `relay`, when given, reads the answer's usage
 * and may translate it into the client's wire format (complete events at a time).
 */
class UpstreamCall implements Dispatcher.DispatchHandler, CancellableAttempt {
  readonly #exchange: Exchange;
  readonly #res: ServerResponse;
  readonly #upstream: Upstream;
  readonly #target: Target;
  readonly #headers: OutgoingHttpHeaders;
  readonly #deadline: AttemptDeadline;
  readonly #resolve: (outcome: AttemptOutcome) => void;
  readonly #relay: AnswerRelay | undefined;
  readonly #started = performance.now();
  /** The first-byte timer, then (once the stream started) the idle timer. */
  #timer: NodeJS.Timeout;
  #controller: Dispatcher.DispatchController | undefined;
  /** Why the request must stop, when that was decided before undici started it. */
  #abortReason: Error | undefined;
  #settled = false;
  #status = 0;
  #responseHeaders: IncomingHttpHeaders = {};
  /** The pieces of a non-streamed answer, and their size. */
  #chunks: Buffer[] | undefined;
  #received = 0;
  /** Set for an event stream. */
  #framer: EventFramer | undefined;
  #committed = false;
  #paused = false;
  #firstByteMs = 0;
  /** When the upstream last sent something (or the client last drained), once committed. */
  #lastDataAt = 0;

  constructor(
    exchange: Exchange,
    upstream: Upstream,
    target: Target,
    headers: OutgoingHttpHeaders,
    deadline: AttemptDeadline,
    resolve: (outcome: AttemptOutcome) => void,
    relay?: AnswerRelay,
  ) {
    this.#relay = relay;
    this.#exchange = exchange;
    this.#res = exchange.res;
    this.#upstream = upstream;
    this.#target = target;
    this.#headers = headers;
    this.#deadline = deadline;
    this.#resolve = resolve;
    // A module-level callback and an argument: no closure to allocate for each attempt.
    this.#timer = setTimeout(onAttemptTimeout, deadline.ms, this);
    exchange.beginAttempt(this);
  }

  /** The first-byte deadline passed: stop the upstream request; the next model may be tried. */
  timeOut(): void {
    this.#stop(new StoppedAttempt('timeout', this.#deadline.detail));
  }

  /** The idle timer fired: cut the stream if the upstream has been silent that long. */
  checkIdle(): void {
    if (this.#settled) return;
    const now = performance.now();
    // Paused by the client's backpressure: the silence is the client's, not the upstream's.
    if (this.#paused) this.#lastDataAt = now;
    const idle = this.#upstream.idleTimeoutMs;
    const silent = now - this.#lastDataAt;
    // Node's timers may fire up to a millisecond early by this clock.
    if (silent >= idle - 1) {
      this.#stop(new StoppedAttempt('timeout', `the upstream sent nothing for ${idle} ms`));
    } else this.#timer = setTimeout(onIdleCheck, idle - silent, this);
  }

  /** The client went away: stop the upstream request. */
  cancel(): void {
    this.#stop(new StoppedAttempt('client_gone', 'the client closed the connection'));
  }

  shutDown(): boolean {
    if (this.#settled) return false;
    this.#stop(new StoppedAttempt('shutdown', 'the server is shutting down'));
    return true;
  }

  #stop(reason: Error): void {
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
    const unusable = unusableStatus(status);
    if (unusable !== undefined) {
      this.#stop(new StoppedAttempt('invalid_answer', unusable));
      return;
    }
    if (status < 300 && isEventStream(headers['content-type'])) {
      this.#framer = new EventFramer();
      return;
    }
    this.#chunks = [];
    const declared = Number(headers['content-length']);
    if (declared > this.#upstream.responseLimitBytes) this.#tooLarge();
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#exchange.gone || this.#settled) return;
    const chunks = this.#chunks;
    if (chunks) {
      this.#received += chunk.length;
      if (this.#received > this.#upstream.responseLimitBytes) this.#tooLarge();
      else chunks.push(chunk);
      return;
    }
    if (this.#committed) this.#lastDataAt = performance.now();
    let ready = (this.#framer as EventFramer).push(chunk);
    if (ready === undefined) return;
    if (!this.#committed) {
      const first = firstDataEvent(ready);
      if (first < 0) return; // keep-alive comments only: no answer yet
      this.#commit();
      if (first > 0) ready = ready.subarray(first);
    }
    if (this.#relay) ready = this.#relay.events(ready);
    if (ready.length > 0) this.#send(controller, this.#upstream.secrets.redactBytes(ready));
  }

  onResponseEnd(): void {
    clearTimeout(this.#timer);
    if (!this.#settled) this.#settle(this.#ended());
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    clearTimeout(this.#timer);
    if (!this.#settled) this.#settle(this.#failed(error));
  }

  /** A whole answer past the limit: stop receiving it, and drop what was held. */
  #tooLarge(): void {
    this.#chunks = [];
    const limit = this.#upstream.responseLimitBytes;
    this.#stop(new StoppedAttempt('too_large', `answer larger than ${limit} bytes`));
  }

  /** The outcome of an answer received whole. */
  #ended(): AttemptOutcome {
    if (this.#exchange.gone) return ABORTED;
    const framer = this.#framer;
    if (!framer) return this.#answerWhole();
    const rest = framer.flush();
    const secrets = this.#upstream.secrets;
    if (!this.#committed) {
      const first = rest === undefined ? -1 : firstDataEvent(rest);
      if (first < 0) {
        const detail = 'the stream ended before its first event';
        return { kind: 'failed', reason: 'invalid_answer', detail, ms: this.#elapsed() };
      }
      this.#commit();
      const out = this.#relayed((rest as Buffer).subarray(first)) as Buffer;
      this.#res.end(secrets.redactBytes(out));
      return this.#answer();
    }
    const last = rest === undefined ? this.#relayed(undefined) : this.#relayed(rest);
    this.#res.end(last === undefined ? undefined : secrets.redactBytes(last));
    return this.#answer();
  }

  /** The outcome of an upstream failure, or of a cancellation. */
  #failed(error: Error): AttemptOutcome {
    if (this.#exchange.gone) return ABORTED;
    const shutdown = error instanceof StoppedAttempt && error.reason === 'shutdown';
    if (!this.#committed) {
      if (!shutdown) return failure(error, this.#deadline.ms, this.#elapsed());
      sendShuttingDown(this.#res);
      return CLOSED;
    }
    // After the first byte the client has part of an answer: end it with an error event,
    // never with a second answer.
    const interrupted = shutdown
      ? 'the server shut down while the stream was open'
      : error instanceof StoppedAttempt && error.reason === 'timeout'
        ? `${error.message} after the stream started`
        : `the upstream stream broke after it started (${describeCause(error)})`;
    const said = `${interrupted}; the answer is incomplete`;
    const code = shutdown ? 'server_shutting_down' : 'upstream_interrupted';
    this.#res.end(
      this.#relay
        ? this.#relay.streamError(said, code)
        : sseErrorEvent(errorBody(said, 'server_error', code)),
    );
    return this.#answer(interrupted, shutdown);
  }

  #settle(outcome: AttemptOutcome): void {
    this.#settled = true;
    this.#resolve(outcome);
  }

  #elapsed(): number {
    return performance.now() - this.#started;
  }

  /** A whole (non-streamed) answer: a failure worth another model, or the client's answer. */
  #answerWhole(): AttemptOutcome {
    const status = this.#status;
    const chunks = this.#chunks as Buffer[];
    const secrets = this.#upstream.secrets;
    let payload = secrets.redactBytes(
      chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks),
    );
    const ms = this.#elapsed();
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
    // Parsed once: the check that the answer is a JSON object, and what the relay reads from it.
    const answer = status < 300 ? jsonData(payload.toString('utf8')) : undefined;
    if (status < 300 && answer === undefined) {
      const detail = `HTTP ${status} with a body that is not a JSON answer`;
      return { kind: 'failed', reason: 'invalid_answer', detail, ms };
    }
    const out = secrets.redactHeaders(passUpstreamHeaders(this.#responseHeaders, this.#headers));
    const relay = this.#relay;
    if (relay) {
      payload =
        answer !== undefined
          ? relay.whole(payload, answer)
          : relay.error(status, payload, this.#target);
      out['content-type'] = 'application/json';
    } else if (status >= 400 && providerMessageOf(payload, true) === undefined) {
      // Not an OpenAI-style error body: say so in one, keeping what the upstream said.
      payload = Buffer.from(JSON.stringify(wrapUpstreamError(this.#target, status, payload)));
      out['content-type'] = 'application/json';
    }
    out['content-length'] = payload.length;
    this.#res.writeHead(status, out);
    this.#res.end(payload);
    return { kind: 'answered', status, streamed: false, firstByteMs: ms };
  }

  /** The end of a stream through the relay: its last events, then what the relay adds. */
  #relayed(rest: Buffer | undefined): Buffer | undefined {
    const relay = this.#relay;
    if (!relay) return rest;
    const last = rest === undefined ? undefined : relay.events(rest);
    const tail = relay.end();
    if (tail === undefined) return last;
    return last === undefined || last.length === 0 ? tail : Buffer.concat([last, tail]);
  }

  #commit(): void {
    clearTimeout(this.#timer);
    this.#committed = true;
    const now = performance.now();
    this.#firstByteMs = now - this.#started;
    this.#lastDataAt = now;
    this.#timer = setTimeout(onIdleCheck, this.#upstream.idleTimeoutMs, this);
    const headers = passUpstreamHeaders(this.#responseHeaders, this.#headers);
    this.#res.writeHead(this.#status, this.#upstream.secrets.redactHeaders(headers));
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
        this.#lastDataAt = performance.now();
        controller.resume();
      });
    }
  }

  #answer(interrupted?: string, closedByServer = false): AttemptAnswer {
    const status = this.#status;
    const firstByteMs = this.#firstByteMs;
    if (interrupted === undefined) return { kind: 'answered', status, streamed: true, firstByteMs };
    return {
      kind: 'answered',
      status,
      streamed: true,
      firstByteMs,
      interrupted,
      ...(closedByServer ? { closedByServer: true as const } : {}),
    };
  }
}

function onAttemptTimeout(call: UpstreamCall): void {
  call.timeOut();
}

function onIdleCheck(call: UpstreamCall): void {
  call.checkIdle();
}
