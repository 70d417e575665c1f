import type { Classifier } from './classifier.js';
import {
  type ClassifierConfig,
  type CooldownTracker,
  DEFAULT_CLASSIFIER_CONFIG,
} from './cooldown.js';
import type { ClassificationResult } from './result.js';

/** A classifier and the limits it fires under. */
export interface ClassifierEntry<C> {
  readonly classifier: Classifier<C>;
  /** Validated config (see `classifierConfig`); defaults to {@link DEFAULT_CLASSIFIER_CONFIG}. */
  readonly config?: ClassifierConfig;
}

/** A classifier that threw during a run. The run failed open past it. */
export interface ClassifierFailure {
  readonly name: string;
  readonly error: unknown;
}

/** Why a classifier was not evaluated: its cooldown or its session limit held it back. */
export type SuppressionReason = 'cooldown' | 'max_fires';

/** What one run decided. */
export interface RunOutcome<C> {
  /** The first classifier that fired, with its result; absent when none did. */
  readonly fired?: { readonly classifier: Classifier<C>; readonly result: ClassificationResult };
  /** Classifiers that threw (in order). Never silently lost: the caller logs or audits these. */
  readonly failures: readonly ClassifierFailure[];
  /** Classifiers skipped, unevaluated, because their cooldown or session limit held them back. */
  readonly suppressed: readonly { readonly name: string; readonly reason: SuppressionReason }[];
}

/** Options of {@link runClassifiers}. */
export interface RunOptions {
  /** The current turn, for cooldowns. */
  readonly turn: number;
  /** Tracks fires across turns; without one, cooldowns and limits are not enforced. */
  readonly tracker?: CooldownTracker;
  /** Called for each classifier that throws, as it happens (e.g. to log it). */
  readonly onError?: (failure: ClassifierFailure) => void;
}

const EMPTY: readonly never[] = Object.freeze([]);

/**
 * Runs classifiers in declaration order and returns the first that fires: relevant, at or above
 * its config's `minConfidence`, and allowed by the tracker (cooldown, max fires per session). A
 * fire is recorded in the tracker. A classifier that throws is skipped (fail open) and reported in
 * `failures`. Classifiers after the one that fires are not evaluated.
 */
export function runClassifiers<C>(
  entries: readonly ClassifierEntry<C>[],
  context: C,
  options: RunOptions,
): RunOutcome<C> {
  let failures: ClassifierFailure[] | undefined;
  let suppressed: { name: string; reason: SuppressionReason }[] | undefined;
  const { tracker, turn } = options;
  for (const entry of entries) {
    const { classifier } = entry;
    const config = entry.config ?? DEFAULT_CLASSIFIER_CONFIG;
    // Skip classifiers that could not fire anyway, before paying for classify().
    const blocked = tracker?.blockedBy(classifier.name, turn, config);
    if (blocked !== undefined) {
      suppressed ??= [];
      suppressed.push({ name: classifier.name, reason: blocked });
      continue;
    }
    let result: ClassificationResult;
    try {
      result = classifier.classify(context);
    } catch (error) {
      const failure = { name: classifier.name, error };
      failures ??= [];
      failures.push(failure);
      options.onError?.(failure);
      continue;
    }
    if (!result.relevant || result.confidence < config.minConfidence) continue;
    if (tracker) tracker.recordFire(classifier.name, turn);
    return {
      fired: { classifier, result },
      failures: failures ?? EMPTY,
      suppressed: suppressed ?? EMPTY,
    };
  }
  return { failures: failures ?? EMPTY, suppressed: suppressed ?? EMPTY };
}
