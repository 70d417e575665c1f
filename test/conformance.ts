/**
 * The shared conformance contract (ARCHITECTURE: one contract, one shared case test). Every local
 * classifier in the project registers here by exporting `conformance` from a
 * `src/**\/<name>.conformance.ts` file beside it; `conformance.test.ts` runs each case against
 * every kind of text: empty, huge, emoji, invalid surrogates, control characters, mixed scripts.
 */

/** What a classifier answered, reduced to what the conformance rules check. */
export interface ConformanceResult {
  /** Must be a finite number in [0, 1]. */
  readonly confidence: number;
  /** Whether the classifier fired; decisions that always choose a value (a tier) omit it. */
  readonly relevant?: boolean;
  /** Must be a non-empty string whenever the result is relevant (or `relevant` is omitted). */
  readonly reason?: string;
  /** Anything else that must be deterministic (the chosen value, the signals). */
  readonly value?: unknown;
}

/** One classifier under test. */
export interface ConformanceCase {
  /** Shown in test names, e.g. `tier: local scorer`. */
  readonly name: string;
  /** Classifies one text. Build the classifier once, outside this function. */
  classify(text: string): ConformanceResult;
}
