import Type, { type Static } from 'typebox';
import type { Classifier } from '../../core/classifier.js';
import { ClassificationResult } from '../../core/result.js';
import type { GuidanceContext } from '../types.js';
import { classifierOptions } from './options.js';

/** Options of {@link ErrorStreakClassifier}. */
export const ErrorStreakOptionsSchema = Type.Object(
  {
    /** Failed calls in a row needed to fire. Default 3. */
    threshold: Type.Integer({ minimum: 1, default: 3 }),
  },
  { additionalProperties: false },
);
export type ErrorStreakOptions = Static<typeof ErrorStreakOptionsSchema>;
const options = classifierOptions('error_streak', ErrorStreakOptionsSchema);

/**
 * Fires on `threshold` or more failed calls in a row. Confidence `streak / (2 × threshold)`,
 * capped at 1. The metadata lists the last errors' normalised messages (numbers, paths and ids
 * folded: raw tool output may hold secrets) and how many in a row were the same error.
 */
export class ErrorStreakClassifier implements Classifier<GuidanceContext> {
  readonly name = 'error_streak';
  readonly threshold: number;

  constructor(input?: Partial<ErrorStreakOptions>) {
    this.threshold = options(input).threshold;
  }

  classify(context: GuidanceContext): ClassificationResult {
    const { trajectory } = context;
    const streak = trajectory.consecutiveErrors;
    if (streak < this.threshold) return ClassificationResult.no();
    const same = trajectory.consecutiveSameError;
    const repeated =
      same === streak
        ? ', all the same error'
        : same > 1
          ? `, the last ${same} the same error`
          : '';
    return ClassificationResult.yes(Math.min(1, streak / (this.threshold * 2)), {
      reason: `${streak} consecutive errors${repeated}`,
      metadata: {
        errors: trajectory
          .recentErrors(Math.min(streak, this.threshold))
          .map((e) => e.normalisedError),
        consecutiveSameError: same,
      },
    });
  }
}
