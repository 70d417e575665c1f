import Type, { type Static } from 'typebox';
import type { Classifier } from '../../core/classifier.js';
import { ClassificationResult } from '../../core/result.js';
import type { GuidanceContext } from '../types.js';
import { classifierOptions } from './options.js';

/** Options of {@link HighToolCountClassifier}. */
export const HighToolCountOptionsSchema = Type.Object(
  {
    /** Tool calls at which it fires with confidence 1. Default 50. */
    threshold: Type.Integer({ minimum: 1, default: 50 }),
    /** From `threshold × warningRatio` calls it answers `maybe` (confidence 0.6). Default 0.8. */
    warningRatio: Type.Number({ exclusiveMinimum: 0, maximum: 1, default: 0.8 }),
  },
  { additionalProperties: false },
);
export type HighToolCountOptions = Static<typeof HighToolCountOptionsSchema>;
const options = classifierOptions('high_tool_count', HighToolCountOptionsSchema);

/**
 * Fires after many tool calls (requested calls, pending ones included): `yes` (1.0) from
 * `threshold`, `maybe` (0.6) from `threshold × warningRatio`.
 */
export class HighToolCountClassifier implements Classifier<GuidanceContext> {
  readonly name = 'high_tool_count';
  readonly threshold: number;
  readonly warningRatio: number;

  constructor(input?: Partial<HighToolCountOptions>) {
    const { threshold, warningRatio } = options(input);
    this.threshold = threshold;
    this.warningRatio = warningRatio;
  }

  classify(context: GuidanceContext): ClassificationResult {
    const count = context.toolCallCount;
    if (count >= this.threshold) {
      return ClassificationResult.yes(1, {
        reason: `${count} tool calls reach the limit of ${this.threshold}`,
        metadata: { count },
      });
    }
    if (count > 0 && count >= this.threshold * this.warningRatio) {
      return ClassificationResult.maybe(0.6, {
        reason: `${count} tool calls approach the limit of ${this.threshold}`,
        metadata: { count },
      });
    }
    return ClassificationResult.no();
  }
}
