import { DecisionTimeoutError, TriageError } from '../core/errors.js';

/**
 * Typed errors of the LLM provider layer. Messages name the provider and what went wrong; they
 * never contain API keys or prompt text.
 */
export class LlmError extends TriageError {
  /** The provider id. */
  readonly provider: string;
  /** Whether trying again may succeed (connection errors, 429, 5xx). */
  readonly retriable: boolean;

  constructor(
    code: string,
    provider: string,
    message: string,
    retriable: boolean,
    options?: { cause?: unknown },
  ) {
    super(code, `${provider}: ${message}`, options);
    this.provider = provider;
    this.retriable = retriable;
  }
}

/**
 * The call did not finish within its time limit. A {@link DecisionTimeoutError}, so a hybrid
 * decision counts it as a timeout.
 */
export class LlmTimeoutError extends DecisionTimeoutError {
  readonly provider: string;
  readonly retriable = true;

  constructor(provider: string, timeoutMs: number) {
    super(`${provider} LLM call`, timeoutMs, 'llm_timeout');
    this.provider = provider;
  }
}

/** The provider answered with an HTTP error status. */
export class LlmHttpError extends LlmError {
  readonly status: number;
  /** The provider's own error message, when it sent one. */
  readonly providerMessage?: string;
  /** How long the provider asked the client to wait (`Retry-After`), in milliseconds. */
  readonly retryAfterMs?: number;

  constructor(provider: string, status: number, providerMessage?: string, retryAfterMs?: number) {
    super(
      'llm_http_status',
      provider,
      `HTTP ${status}${providerMessage ? `: ${providerMessage}` : ''}`,
      status === 408 || status === 429 || status >= 500,
    );
    this.status = status;
    if (providerMessage !== undefined) this.providerMessage = providerMessage;
    if (retryAfterMs !== undefined) this.retryAfterMs = retryAfterMs;
  }
}

/** The provider could not be reached, or the connection broke. */
export class LlmNetworkError extends LlmError {
  constructor(provider: string, message: string, options?: { cause?: unknown }) {
    super('llm_network', provider, message, true, options);
  }
}

/** The reply could not be used: not JSON, not matching the schema, not one of the labels, … */
export class LlmInvalidOutputError extends LlmError {
  constructor(provider: string, message: string) {
    super('llm_invalid_output', provider, message, false);
  }
}
