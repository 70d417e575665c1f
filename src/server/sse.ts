import type { OpenAiErrorBody } from './errors.js';

/**
 * Server-sent events, as far as the proxy needs them: where the last complete event of a chunk
 * ends (so that a partial event is never forwarded ahead of an error event), and the error event
 * itself, in the shape OpenAI's SDKs raise as an API error.
 */

const LF_LF = Buffer.from('\n\n');
const CRLF_CRLF = Buffer.from('\r\n\r\n');

/** The offset just past the last blank line (event boundary) in `chunk`, or -1 when none. */
export function lastEventEnd(chunk: Buffer): number {
  // The usual piece of a stream ends with its event: no search through it needed.
  const n = chunk.length;
  if (n >= 2 && chunk[n - 1] === 0x0a && (chunk[n - 2] === 0x0a || endsWithCrlfCrlf(chunk, n))) {
    return n;
  }
  const lf = chunk.lastIndexOf(LF_LF);
  const crlf = chunk.lastIndexOf(CRLF_CRLF);
  if (lf < 0 && crlf < 0) return -1;
  return Math.max(lf < 0 ? -1 : lf + 2, crlf < 0 ? -1 : crlf + 4);
}

function endsWithCrlfCrlf(chunk: Buffer, n: number): boolean {
  return n >= 4 && chunk[n - 2] === 0x0d && chunk[n - 3] === 0x0a && chunk[n - 4] === 0x0d;
}

/** A partial event is held back at most this long before it is forwarded anyway. */
export const MAX_PENDING_EVENT_BYTES = 256 * 1024;

/**
 * Cuts a byte stream at event boundaries: `push` returns the bytes up to the last complete event
 * seen so far (or `undefined`), holding back the partial event after it; `flush` returns what is
 * held back at the end. The bytes out, in order, are exactly the bytes in. A partial event larger
 * than `maxPending` is let through, so a stream without blank lines still flows.
 */
export class EventFramer {
  #pending: Buffer | undefined;
  readonly #maxPending: number;

  constructor(maxPending = MAX_PENDING_EVENT_BYTES) {
    this.#maxPending = maxPending;
  }

  push(chunk: Buffer): Buffer | undefined {
    const data = this.#pending === undefined ? chunk : Buffer.concat([this.#pending, chunk]);
    const end = lastEventEnd(data);
    if (end < 0 && data.length < this.#maxPending) {
      this.#pending = data;
      return undefined;
    }
    if (end < 0 || end === data.length) {
      this.#pending = undefined;
      return data;
    }
    this.#pending = data.subarray(end);
    return data.subarray(0, end);
  }

  flush(): Buffer | undefined {
    const rest = this.#pending;
    this.#pending = undefined;
    return rest;
  }
}

const DATA = Buffer.from('data');
const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;

/**
 * The offset of the first event in `chunk` (complete events, as {@link EventFramer} cuts them)
 * that carries data, or -1 when it holds only comments (`: keep-alive`), blank lines and fields
 * that dispatch nothing. An upstream's keep-alive comments before its first event are not an
 * answer: they must not commit the response, nor count as its first byte.
 */
export function firstDataEvent(chunk: Buffer): number {
  for (let at = chunk.indexOf(DATA); at >= 0; at = chunk.indexOf(DATA, at + 4)) {
    const before = at === 0 ? LF : chunk[at - 1];
    const after = chunk[at + 4];
    const startsLine = before === LF || before === CR;
    // `data` is the field's whole name: `data:`, or a line of just `data`.
    if (startsLine && (after === COLON || after === LF || after === CR || after === undefined)) {
      return Math.max(0, lastEventEnd(chunk.subarray(0, at)));
    }
  }
  return -1;
}

/** An SSE `data:` event carrying an OpenAI-style error. */
export function sseErrorEvent(error: OpenAiErrorBody): Buffer {
  return Buffer.from(`data: ${JSON.stringify(error)}\n\n`);
}

/** Whether a content type is an event stream. */
export function isEventStream(contentType: string | string[] | undefined): boolean {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  return value?.toLowerCase().startsWith('text/event-stream') === true;
}
