import { maxHeaderSize, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody } from './errors.js';
import type { ServerMetrics } from './metrics.js';

/**
 * Requests Node's HTTP parser refuses before any route sees them (headers too large, a request
 * not received in time, broken chunked encoding, Content-Length with Transfer-Encoding): answered
 * in OpenAI's error shape like every other error, so that an SDK reports them as API errors
 * instead of a body it cannot parse.
 */

/** The answer to a parser error, by the error's code. */
function describe(
  code: string | undefined,
  requestTimeoutMs: number,
): { status: number; code: string; message: string } {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      status: 408,
      code: 'request_timeout',
      message: `the request was not received whole within ${requestTimeoutMs} ms`,
    };
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      code: 'headers_too_large',
      message: `request headers are larger than the server accepts (${maxHeaderSize} bytes)`,
    };
  }
  const what = code === undefined ? undefined : PARSER_ERRORS[code];
  return {
    status: 400,
    code: 'invalid_http',
    message: `the request is not valid HTTP/1.1 (${what ?? code ?? 'unreadable'})`,
  };
}

const PARSER_ERRORS: Readonly<Record<string, string>> = {
  HPE_INVALID_CHUNK_SIZE: 'malformed chunked encoding',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'Content-Length together with Transfer-Encoding',
  HPE_INVALID_TRANSFER_ENCODING: 'unsupported Transfer-Encoding',
  HPE_INVALID_CONTENT_LENGTH: 'invalid Content-Length',
  HPE_INVALID_HEADER_TOKEN: 'invalid character in a header',
  HPE_INVALID_METHOD: 'invalid method',
  HPE_INVALID_URL: 'invalid URL',
  HPE_INVALID_VERSION: 'invalid HTTP version',
};

/** The `clientError` handler of the server's HTTP listener (Fastify's `clientErrorHandler`). */
export function protocolErrorHandler(
  metrics: ServerMetrics,
  requestTimeoutMs: number,
): (error: Error & { code?: string }, socket: Duplex) => void {
  return (error, socket) => {
    // A connection reset has nothing left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const answer = describe(error.code, requestTimeoutMs);
    metrics.errors.inc({ kind: answer.code });
    // As Node does: answer only when no response has started on this connection, so that an
    // error never lands in the middle of another answer.
    const inFlight = (socket as { _httpMessage?: ServerResponse | null })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      const body = JSON.stringify(errorBody(answer.message, 'invalid_request_error', answer.code));
      socket.write(
        `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n` +
          'Content-Type: application/json\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\n` +
          `Connection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}
