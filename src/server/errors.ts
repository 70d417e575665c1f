import { STATUS_CODES } from 'node:http';
import { TriageError } from '../core/errors.js';

/**
 * Errors in the shape OpenAI clients parse (`{ error: { message, type, param, code } }`), so an SDK
 * pointed at triage surfaces them as it would a provider's. Messages never contain prompt text.
 */

/** The body of an OpenAI-style error response. */
export interface OpenAiErrorBody {
  readonly error: {
    readonly message: string;
    readonly type: string;
    readonly param: string | null;
    readonly code: string | null;
  };
}

/** An error the server answers with a given HTTP status and an OpenAI-style body. */
export class HttpError extends TriageError {
  readonly statusCode: number;
  readonly type: string;
  readonly param: string | null;
  /** Extra response headers (e.g. `retry-after`). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    statusCode: number,
    code: string,
    message: string,
    options: { type?: string; param?: string; headers?: Record<string, string> } = {},
  ) {
    super(code, message);
    this.statusCode = statusCode;
    this.type = options.type ?? errorTypeOf(statusCode);
    this.param = options.param ?? null;
    this.headers = options.headers ?? {};
  }

  /** The response body. */
  body(): OpenAiErrorBody {
    return errorBody(this.message, this.type, this.code, this.param);
  }
}

/** Builds an OpenAI-style error body. */
export function errorBody(
  message: string,
  type: string,
  code: string | null = null,
  param: string | null = null,
): OpenAiErrorBody {
  return { error: { message, type, param, code } };
}

/** The OpenAI error `type` conventionally used for a status. */
export function errorTypeOf(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/** The reason phrase of a status, for messages. */
export function statusText(status: number): string {
  return STATUS_CODES[status] ?? `HTTP ${status}`;
}
