import type { Target } from '../catalog.js';
import { errorBody } from '../errors.js';
import { sseErrorEvent } from '../sse.js';
import { providerMessageOf, wrapUpstreamError } from '../upstream-errors.js';

/**
 * The wire format a client speaks, as far as errors go: every error the server itself answers
 * (refusals, limits, upstream failures, a stream broken after its start) reaches the client in
 * the shape its SDK parses. OpenAI: `{ error: { message, type, param, code } }`; Anthropic:
 * `{ type: "error", error: { type, message } }`.
 */

/** The wire formats of clients and upstreams. */
export type WireFormat = 'openai' | 'anthropic';

/** How errors are written for one kind of client. */
export interface ClientProtocol {
  readonly format: WireFormat;
  /** An error body; `type` in OpenAI's vocabulary (translated for other formats). */
  errorBody(message: string, type: string, code: string): unknown;
  /** The event that ends a stream broken after its start. */
  streamError(message: string, code: string): Buffer;
  /** An upstream's error answer (relayed as the answer) in this format. */
  upstreamError(status: number, payload: Buffer, target: Target): Buffer;
}

/** Anthropic's error types, from OpenAI's (and from a status when the type is unknown). */
export function anthropicErrorType(type: string, status?: number): string {
  switch (type) {
    case 'invalid_request_error':
    case 'authentication_error':
    case 'permission_error':
    case 'not_found_error':
    case 'rate_limit_error':
    case 'overloaded_error':
    case 'request_too_large':
      return type;
    default:
      if (status === 413) return 'request_too_large';
      if (status === 529) return 'overloaded_error';
      return status !== undefined && status < 500 ? 'invalid_request_error' : 'api_error';
  }
}

/** An Anthropic error body. */
export function anthropicErrorBody(message: string, type: string, status?: number) {
  return { type: 'error', error: { type: anthropicErrorType(type, status), message } };
}

/** Whether a parsed body is an OpenAI-style error body. */
export function isOpenAiError(
  value: unknown,
): value is { error: { message: string; type: string; code: string | null } } {
  const error = (value as { error?: unknown } | null)?.error;
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { message?: unknown }).message === 'string' &&
    (value as { type?: unknown }).type === undefined
  );
}

export const OPENAI_CLIENT: ClientProtocol = {
  format: 'openai',
  errorBody: (message, type, code) => errorBody(message, type, code),
  streamError: (message, code) => sseErrorEvent(errorBody(message, 'server_error', code)),
  upstreamError(status, payload, target) {
    if (providerMessageOf(payload, true) !== undefined && !isAnthropicError(payload)) {
      return payload;
    }
    return Buffer.from(JSON.stringify(wrapUpstreamError(target, status, payload)));
  },
};

export const ANTHROPIC_CLIENT: ClientProtocol = {
  format: 'anthropic',
  errorBody: (message, type) => anthropicErrorBody(message, type),
  streamError: (message) =>
    Buffer.from(
      `event: error\ndata: ${JSON.stringify(anthropicErrorBody(message, 'server_error'))}\n\n`,
    ),
  upstreamError(status, payload, target) {
    if (isAnthropicError(payload)) return payload;
    const wrapped = wrapUpstreamError(target, status, payload);
    return Buffer.from(
      JSON.stringify(anthropicErrorBody(wrapped.error.message, wrapped.error.type, status)),
    );
  },
};

function isAnthropicError(payload: Buffer): boolean {
  // A cheap look before a parse: Anthropic's error bodies start with their type.
  if (payload.indexOf('"type"') < 0) return false;
  try {
    const value = JSON.parse(payload.toString('utf8')) as { type?: unknown; error?: unknown };
    return value.type === 'error' && typeof value.error === 'object' && value.error !== null;
  } catch {
    return false;
  }
}
