/**
 * The typed errors of triage, one hierarchy that callers test with `instanceof` or by `code`.
 * Messages say what was wrong and where; they never contain prompt text or secrets.
 *
 * ```
 * TriageError                       every error triage throws on purpose (`code`)
 * ├─ ConfigError                    a configuration was rejected (`issues`, `source`)
 * ├─ InputError                     an input cannot be used (a malformed request, an empty task,
 * │  │                              an event that does not fit the trajectory, …)
 * │  ├─ TierRequestError            (tier)          ├─ EmptyTaskError     (capabilities)
 * │  ├─ TrajectoryEventError        (guidance)      └─ PipelineInputError (pipeline)
 * ├─ DecisionTimeoutError           a decision function did not answer within its time limit
 * └─ LlmError                       an LLM call failed (`provider`, `retriable`)
 *    ├─ LlmTimeoutError             it did not answer in time: a timeout is an LLM error
 *    ├─ LlmHttpError                the provider answered with an HTTP error status
 *    ├─ LlmNetworkError             the provider could not be reached, or the connection broke
 *    └─ LlmInvalidOutputError       the answer could not be used (not JSON, not the schema, …)
 * ```
 *
 * A decision never rejects because of its LLM: the hybrid falls back and its audit says why
 * (`fallbackCause`: `llm_timeout` for either timeout, `llm_invalid`, `llm_error`). These errors
 * reach a caller who uses the LLM layer directly (`askJson`, a provider's `complete`).
 */

/** Base class of every error triage throws on purpose. */
export class TriageError extends Error {
  /** A stable, machine-readable error code (e.g. `config_invalid`, `llm_timeout`). */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** One problem found while validating a configuration object or file. */
export interface ConfigIssue {
  /** JSON-pointer-like path of the bad field, e.g. `/tiers/SIMPLE/0/model`; `` for the root. */
  readonly path: string;
  /** What is wrong with it, e.g. `must be <= 1`. */
  readonly message: string;
}

/**
 * A configuration was rejected. `issues` lists every bad field; the message names the first ones,
 * so a user sees at once which key to fix.
 */
export class ConfigError extends TriageError {
  readonly issues: readonly ConfigIssue[];
  /** Where the configuration came from (a file path, or a name such as `tier router options`). */
  readonly source: string;

  constructor(source: string, issues: readonly ConfigIssue[]) {
    const shown = issues
      .slice(0, 5)
      .map((issue) => `${issue.path || '(root)'} ${issue.message}`)
      .join('; ');
    const more = issues.length > 5 ? ` (and ${issues.length - 5} more)` : '';
    super('config_invalid', `invalid ${source}: ${shown}${more}`);
    this.issues = issues;
    this.source = source;
  }
}

/**
 * An input a call was given cannot be used: a malformed chat request, an empty task, an agent
 * event that does not fit the trajectory, a conversation the pipeline cannot classify. Each
 * subsystem throws its own subclass with its own `code`; the message names the bad field and
 * never contains the input's text.
 */
export class InputError extends TriageError {}

/**
 * A decision function or classifier did not answer within its time limit.
 *
 * Until the next release `error instanceof DecisionTimeoutError` also holds for an
 * {@link LlmTimeoutError}, as it did when that class extended this one.
 */
export class DecisionTimeoutError extends TriageError {
  readonly timeoutMs: number;

  constructor(what: string, timeoutMs: number, code = 'decision_timeout') {
    super(code, `${what} did not answer within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }

  /** @deprecated compatibility: LLM timeouts were DecisionTimeoutErrors; test {@link isTimeoutError}. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // `this` on purpose: a subclass's own instanceof must not match LLM timeouts.
    // biome-ignore lint/complexity/noThisInStatic: see above
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    // biome-ignore lint/complexity/noThisInStatic: see above
    return this === DecisionTimeoutError && value instanceof LlmTimeoutError;
  }
}

/** An LLM call failed. `provider` is the provider id; `retriable` says whether to try again. */
export class LlmError extends TriageError {
  /** The provider id. */
  readonly provider: string;
  /** Whether trying again may succeed (timeouts, connection errors, 429, 5xx). */
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

/** The LLM call did not finish within its time limit (an {@link LlmError}, code `llm_timeout`). */
export class LlmTimeoutError extends LlmError {
  readonly timeoutMs: number;

  constructor(provider: string, timeoutMs: number) {
    super('llm_timeout', provider, `LLM call did not answer within ${timeoutMs} ms`, true);
    this.timeoutMs = timeoutMs;
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

/** Whether `error` is a timeout: a decision's ({@link DecisionTimeoutError}) or an LLM call's. */
export function isTimeoutError(error: unknown): error is DecisionTimeoutError | LlmTimeoutError {
  return (
    error instanceof LlmTimeoutError ||
    Function.prototype[Symbol.hasInstance].call(DecisionTimeoutError, error)
  );
}

/** Describes any thrown value in one line, without assuming it is an Error. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
