import type { OutgoingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import type { Target } from './catalog.js';
import { errorBody } from './errors.js';
import type { Exchange } from './exchange.js';
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
