import type { FallbackCause } from '../core/hybrid.js';

/**
 * How each classifier's output came about, recorded in the audit (`meta.classifiers[name].status`).
 * Field names are snake_case like the rest of the audit envelope.
 */

/** The model answered with a valid output. */
export interface LlmStatus {
  readonly source: 'llm';
  /** Attempts made (1, or 2 after a retry). */
  readonly attempts: number;
  /** Wall time of the classifier in milliseconds, retries included. */
  readonly ms: number;
  /** The model asked. */
  readonly model: string;
  /** Top-level fields of the reply the classifier does not define, set aside (names only). */
  readonly ignored_fields?: readonly string[];
  /** The local stage's confidence, when one ran first and was unsure. */
  readonly local_confidence?: number;
}

/** A local stage was sure enough: the model was not asked. */
export interface LocalStatus {
  readonly source: 'local';
  readonly ms: number;
  readonly local_confidence: number;
}

/** The classifier failed; the manifest's fallback output was used. */
export interface FallbackStatus {
  readonly source: 'fallback';
  /** `timeout` when the last attempt (or the run) ran out of time, `error` otherwise. */
  readonly reason: 'timeout' | 'error';
  /**
   * Why, in the vocabulary every triage decision uses: `llm_timeout`, `deadline` (the run's
   * time limit or the caller's deadline), `llm_invalid` (an answer that failed validation) or
   * `llm_error`.
   */
  readonly fallback_cause: FallbackCause;
  /** The last error, described (never containing prompt or reply text). */
  readonly error: string;
  readonly attempts: number;
  readonly ms: number;
  readonly model: string;
  readonly local_confidence?: number;
}

/** How a classifier's output came about. */
export type ClassifierStatus = LlmStatus | LocalStatus | FallbackStatus;
