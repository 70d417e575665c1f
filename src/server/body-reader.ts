import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { type ParsedBody, parseJsonBody } from './body.js';
import { HttpError } from './errors.js';
import { JsonLimitGuard, type JsonLimits, JsonTooComplexError } from './json-scan.js';

/**
 * Receives a request body and parses it as JSON ({@link parseJsonBody}), in place of Fastify's
 * buffering parser: a body that arrives in several chunks is checked against the JSON limits
 * chunk by chunk, so that one built to stall the parser (10 MB of nested arrays) is refused at
 * its first chunk, and is never gathered into one buffer (a copy of 10 MB and the garbage
 * collection it causes, four bodies at once, held the event loop for a tenth of a second). The
 * rest of a refused body is received and dropped (up to the body limit) before the 400 goes out:
 * a client still sending when the connection closed would see a broken pipe, not the error. A
 * body in one chunk, the usual request, is scanned once, whole.
 */

/** What the reader enforces. */
export interface BodyReaderOptions {
  /** Largest body, in bytes (larger: 413). */
  readonly bodyLimit: number;
  readonly limits: JsonLimits;
}

/** The body of `payload` (a request), parsed, or the error to answer with. */
export function readJsonBody(
  headers: IncomingHttpHeaders,
  payload: Readable,
  options: BodyReaderOptions,
  done: (error: HttpError | null, body?: ParsedBody) => void,
): void {
  const { bodyLimit, limits } = options;
  if (Number(headers['content-length']) > bodyLimit) {
    done(tooLarge());
    return;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  let guard: JsonLimitGuard | undefined;
  /** Set once the body is refused: the rest is dropped, then this is the answer. */
  let refused: HttpError | undefined;
  const stop = (error: HttpError | null, body?: ParsedBody) => {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onError);
    done(error, body);
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > bodyLimit) return stop(tooLarge());
    if (refused !== undefined) return;
    chunks.push(chunk);
    if (chunks.length === 1) return;
    try {
      // A second chunk: from now on, each is checked as it comes (the first one too).
      if (guard === undefined) {
        guard = new JsonLimitGuard(limits);
        guard.push(chunks[0] as Buffer);
      }
      guard.push(chunk);
    } catch (error) {
      if (!(error instanceof JsonTooComplexError)) throw error;
      chunks.length = 0;
      refused = new HttpError(400, 'json_too_complex', error.message);
    }
  };
  const onEnd = () => {
    if (refused !== undefined) return stop(refused);
    // Copied, as Fastify does: never a view over a buffer the socket may reuse.
    const raw = Buffer.concat(chunks, received);
    try {
      stop(null, parseJsonBody(raw, guard === undefined ? limits : CHECKED));
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      stop(error);
    }
  };
  const onError = (error: Error) => {
    // The client went away while sending: there is no one to answer, but Fastify needs an error.
    stop(
      new HttpError(
        400,
        'incomplete_body',
        `the request body was not received whole (${error.name})`,
      ),
    );
  };
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
  payload.resume();
}

/** Limits already enforced chunk by chunk. */
const CHECKED: JsonLimits = {
  maxDepth: Number.POSITIVE_INFINITY,
  maxValues: Number.POSITIVE_INFINITY,
};

function tooLarge(): HttpError {
  return new HttpError(413, 'body_too_large', 'request body is larger than the server accepts');
}
