import { InputError, isTimeoutError, TriageError } from '../core/errors.js';
import type { FallbackCause } from '../core/hybrid.js';
import { LlmError } from '../llm/errors.js';

/** Capability selection was asked to classify an empty task (nothing left after directives). */
export class EmptyTaskError extends InputError {
  constructor() {
    super('task_empty', 'capability selection needs a task: the text is empty');
  }
}

/** One capability whose classification failed. */
export interface CapabilityFailure {
  readonly name: string;
  /** `timeout`: the LLM did not answer in time; `error`: it failed or answered unusably. */
  readonly cause: 'timeout' | 'error';
  /** The decision's fallback cause: `llm_timeout`, `deadline`, `llm_error`, `llm_invalid`, … */
  readonly fallbackCause?: FallbackCause;
  /** One line describing the error (never the task text). */
  readonly error: string;
  /** Whether trying again may succeed (timeouts, connection errors, HTTP 429 and 5xx). */
  readonly retriable: boolean;
}

/**
 * Some capabilities could not be classified. Raised by the classifier step of an agent (see
 * `runClassifierStep`) so the router can retry: it is retriable when every failure is.
 */
export class CapabilitySelectionError extends TriageError {
  readonly failures: readonly CapabilityFailure[];
  readonly retriable: boolean;

  constructor(failures: readonly CapabilityFailure[]) {
    const names = failures.map((failure) => failure.name);
    const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? `, … (${names.length})` : '');
    const first = failures[0]?.error ?? 'unknown error';
    super('capability_selection_failed', `could not classify ${shown}: ${first}`);
    this.failures = failures;
    this.retriable = failures.length > 0 && failures.every((failure) => failure.retriable);
  }
}

/**
 * Whether an error is worth retrying: timeouts, and LLM errors that say so (connection errors,
 * HTTP 408, 429 and 5xx). Invalid output and configuration errors are not.
 */
export function isRetriableError(error: unknown): boolean {
  if (isTimeoutError(error)) return true;
  if (error instanceof LlmError) return error.retriable;
  if (error instanceof CapabilitySelectionError) return error.retriable;
  return false;
}
