import type { AttemptFailure } from './attempt.js';
import type { Target } from './catalog.js';
import { errorBody, errorTypeOf, statusText } from './errors.js';

/**
 * What went wrong with an upstream, in words a client or an operator can use: the kind of failure
 * (never an error message, which may quote a URL or a body), and the provider's own message.
 */

/** An upstream request stopped by the proxy: why, in one line for the client. */
export class StoppedAttempt extends Error {
  override readonly name = 'StoppedAttempt';
  readonly reason: 'timeout' | 'too_large' | 'invalid_answer' | 'client_gone' | 'shutdown';

  constructor(reason: StoppedAttempt['reason'], detail: string) {
    super(detail);
    this.reason = reason;
  }
}

/** The failure of an attempt that ended with `error` before anything reached the client. */
export function failure(error: unknown, timeoutMs: number, ms: number): AttemptFailure {
  if (error instanceof StoppedAttempt) {
    if (error.reason === 'too_large' || error.reason === 'invalid_answer') {
      return { kind: 'failed', reason: error.reason, detail: error.message, ms };
    }
    if (error.reason === 'timeout') {
      return { kind: 'failed', reason: 'timeout', detail: error.message, ms };
    }
  }
  const code = (error as { code?: string } | undefined)?.code;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
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
export function describeCause(error: unknown): string {
  const e = error as { code?: unknown; name?: unknown } | undefined;
  if (typeof e?.code === 'string') return e.code;
  if (typeof e?.name === 'string') return e.name;
  return 'unknown error';
}

/**
 * The message of an error body: OpenAI's `{ error: { message } }`, or (unless `strict`) a plain
 * `{ error: "…" }` or `{ message: "…" }`. Capped at 500 characters.
 */
export function providerMessageOf(payload: Buffer, strict = false): string | undefined {
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

export function wrapUpstreamError(target: Target, status: number, payload: Buffer) {
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
