import { ConfigError, describeError, isTimeoutError, TriageError } from '../../core/errors.js';
import { LlmError } from '../../llm/errors.js';
import { CapabilitySelectionError } from '../errors.js';

/**
 * How bad an error is, which decides where the router sends the agent next (the original design,
 * corrected):
 * - `RETRIABLE`: transient (timeouts, connection errors, rate limits): run the same step again
 *   after a backoff, up to the step's attempts;
 * - `REPLANNING`: the plan does not work: back to the orchestrator (at most 2 plans);
 * - `RECLASSIFICATION`: the wrong capabilities were selected: back to the classifier (at most 1
 *   reclassification);
 * - `CRITICAL`: this run cannot go on: to the error step, which tells the user;
 * - `FATAL`: nothing more should run at all (e.g. the run was aborted): to the error step, marked
 *   fatal.
 */
export const ERROR_SEVERITIES = [
  'RETRIABLE',
  'REPLANNING',
  'RECLASSIFICATION',
  'CRITICAL',
  'FATAL',
] as const;

/** One severity. */
export type ErrorSeverity = (typeof ERROR_SEVERITIES)[number];

/** The severities by name, as the original design's enum reads: `ErrorSeverity.RETRIABLE`. */
export const ErrorSeverity: { readonly [S in ErrorSeverity]: S } = Object.freeze({
  RETRIABLE: 'RETRIABLE',
  REPLANNING: 'REPLANNING',
  RECLASSIFICATION: 'RECLASSIFICATION',
  CRITICAL: 'CRITICAL',
  FATAL: 'FATAL',
});

/** A classified error. */
export interface ErrorClassification {
  readonly severity: ErrorSeverity;
  /** A line a user may see. */
  readonly message: string;
}

/**
 * An error a step raises on purpose with its severity: a capability that finds it was the wrong
 * choice throws `new StepError('RECLASSIFICATION', 'needs live data, not the archive')`.
 */
export class StepError extends TriageError {
  readonly severity: ErrorSeverity;

  constructor(severity: ErrorSeverity, message: string, options?: { cause?: unknown }) {
    super('step_error', message, options);
    this.severity = severity;
  }
}

// Node's codes for connections that failed or broke: worth another try.
const CONNECTION_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/**
 * The default classification of an error raised by `step`:
 * - a {@link StepError} keeps its own severity;
 * - timeouts, connection errors and LLM errors marked retriable (HTTP 408, 429, 5xx) are
 *   RETRIABLE, as is a capability selection whose every failure is;
 * - an aborted run (`AbortError`) is FATAL: nobody is waiting for the answer any more;
 * - everything else, including configuration and validation errors (`ConfigError`, `TypeError`,
 *   `RangeError`), invalid LLM output and HTTP 4xx, is CRITICAL: trying again would fail the same
 *   way.
 */
export function classifyStepError(error: unknown, step: string): ErrorClassification {
  const what = describeError(error);
  if (error instanceof StepError) return { severity: error.severity, message: error.message };
  if (isAbort(error)) return { severity: 'FATAL', message: `${step} was aborted` };
  if (isTransient(error)) {
    return { severity: 'RETRIABLE', message: `${step} is temporarily unavailable (${what})` };
  }
  if (error instanceof ConfigError) {
    return { severity: 'CRITICAL', message: `${step} is misconfigured: ${error.message}` };
  }
  return { severity: 'CRITICAL', message: `${step} failed: ${what}` };
}

function isTransient(error: unknown): boolean {
  if (isTimeoutError(error)) return true;
  if (error instanceof LlmError || error instanceof CapabilitySelectionError)
    return error.retriable;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return (
    cause !== undefined && cause !== error && !(error instanceof TriageError) && isTransient(cause)
  );
}

function isAbort(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'AbortError';
}
