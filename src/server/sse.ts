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
  const lf = chunk.lastIndexOf(LF_LF);
  const crlf = chunk.lastIndexOf(CRLF_CRLF);
  if (lf < 0 && crlf < 0) return -1;
  return Math.max(lf < 0 ? -1 : lf + 2, crlf < 0 ? -1 : crlf + 4);
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
