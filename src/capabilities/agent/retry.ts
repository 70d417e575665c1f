import Type, { type Static } from 'typebox';
import { hashString, seededRandom } from '../random.js';

/**
 * Retry policies and backoff. The router never sleeps: it returns the delay, and the caller waits
 * however it likes (a timer, a queue's visibility timeout, a scheduled job).
 */

/** How a step is retried. */
export const StepRetryPolicySchema = Type.Object(
  {
    /** Attempts in all, the first one included (4 = the first try and 3 retries). */
    maxAttempts: Type.Integer({ minimum: 1, maximum: 100 }),
    /** Delay before the first retry, in milliseconds. */
    delayMs: Type.Number({ minimum: 0 }),
    /** Each further retry waits this many times longer. */
    backoffFactor: Type.Number({ minimum: 1 }),
  },
  { additionalProperties: false },
);

/** A retry policy. */
export type StepRetryPolicy = Static<typeof StepRetryPolicySchema>;

/**
 * Default policies by step. The classifier's is the source framework's (departing from the original design: 4 attempts,
 * 1.0 s, ×1.8); the others are this project's choice: the orchestrator is as patient as the
 * classifier, task extraction a little less, and capabilities (`default`) retry quickly.
 */
export const DEFAULT_STEP_RETRY_POLICIES: Readonly<Record<string, StepRetryPolicy>> = Object.freeze(
  {
    classifier: { maxAttempts: 4, delayMs: 1_000, backoffFactor: 1.8 },
    orchestrator: { maxAttempts: 4, delayMs: 1_000, backoffFactor: 2 },
    task_extraction: { maxAttempts: 3, delayMs: 1_000, backoffFactor: 1.5 },
    default: { maxAttempts: 3, delayMs: 500, backoffFactor: 1.5 },
  },
);

/** How delays are spread and capped. */
export interface RetryDelayOptions {
  /** Each delay is moved by up to ± this share of itself, at random. Default 0.2. */
  readonly jitter: number;
  /** No delay exceeds this, in milliseconds. Default 30,000. */
  readonly maxDelayMs: number;
}

/**
 * The delay before retry number `retry` (1 for the first retry): `delayMs × factor^(retry−1)`
 * (a departure from the original design), capped at `maxDelayMs`, then moved by up to ±`jitter` of itself. `unit` in [0, 1)
 * picks the point in the jitter range, so the caller decides where the randomness comes from.
 */
export function retryDelayMs(
  policy: StepRetryPolicy,
  retry: number,
  unit: number,
  options: RetryDelayOptions,
): number {
  const base = Math.min(
    options.maxDelayMs,
    policy.delayMs * policy.backoffFactor ** Math.max(0, retry - 1),
  );
  const spread = 1 - options.jitter + 2 * options.jitter * unit;
  return Math.max(0, Math.min(options.maxDelayMs, Math.round(base * spread)));
}

/**
 * A number in [0, 1) that depends only on its inputs: the router stays a pure function, and
 * concurrent runs (different run ids) still retry at different moments.
 */
export function jitterUnit(runKey: string, step: string, retry: number, seed: number): number {
  return seededRandom(hashString(`${runKey}\u0000${step}\u0000${retry}`, seed))();
}
