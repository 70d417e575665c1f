import Type, { type Static } from 'typebox';
import type { Classifier } from '../../core/classifier.js';
import { ClassificationResult } from '../../core/result.js';
import type { GuidanceContext } from '../types.js';
import { classifierOptions } from './options.js';

/** Options of {@link ProgressStallClassifier}. */
export const ProgressStallOptionsSchema = Type.Object(
  {
    /** Calls in a row without progress needed to fire. Default 5. */
    stallThreshold: Type.Integer({ minimum: 1, default: 5 }),
  },
  { additionalProperties: false },
);
export type ProgressStallOptions = Static<typeof ProgressStallOptionsSchema>;
const options = classifierOptions('progress_stall', ProgressStallOptionsSchema);

/**
 * Fires when `stallThreshold` calls in a row made no progress. A call makes progress when it
 * succeeds and either tries something not tried recently (an action with new params) or produces
 * an output not seen recently (departing from the original design: "no successful call, and nothing new produced").
 * Failures, and successful repeats that return what was already seen, do not. Confidence 0.8.
 */
export class ProgressStallClassifier implements Classifier<GuidanceContext> {
  readonly name = 'progress_stall';
  readonly stallThreshold: number;

  constructor(input?: Partial<ProgressStallOptions>) {
    this.stallThreshold = options(input).stallThreshold;
  }

  classify(context: GuidanceContext): ClassificationResult {
    const stall = context.trajectory.progressStall();
    if (stall === undefined || stall.actionsDuringStall < this.stallThreshold) {
      return ClassificationResult.no();
    }
    return ClassificationResult.yes(0.8, {
      reason: `no progress in ${stall.actionsDuringStall} actions`,
      metadata: { actionsDuringStall: stall.actionsDuringStall, since: stall.since },
    });
  }
}
