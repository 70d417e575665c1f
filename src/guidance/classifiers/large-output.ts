import Type, { type Static } from 'typebox';
import type { Classifier } from '../../core/classifier.js';
import { ClassificationResult } from '../../core/result.js';
import type { GuidanceContext, ToolCallRecord } from '../types.js';
import { classifierOptions } from './options.js';

/** Options of {@link LargeOutputClassifier}. */
export const LargeOutputOptionsSchema = Type.Object(
  {
    /** Characters (code points) of the last result message above which it fires. Default 10,000. */
    sizeThreshold: Type.Integer({ minimum: 0, default: 10_000 }),
  },
  { additionalProperties: false },
);
export type LargeOutputOptions = Static<typeof LargeOutputOptionsSchema>;
const options = classifierOptions('large_output', LargeOutputOptionsSchema);

/**
 * Fires when the last completed call's result message is longer than `sizeThreshold` characters
 * (code points, so emoji and CJK count once, departing from the original design). Confidence 0.7. Counting stops at the
 * threshold, and the answer for the last record is remembered, so a megabyte of output costs
 * at most one bounded count, however often the classifier runs.
 */
export class LargeOutputClassifier implements Classifier<GuidanceContext> {
  readonly name = 'large_output';
  readonly sizeThreshold: number;
  #lastRecord: ToolCallRecord | undefined;
  #lastLarge = false;

  constructor(input?: Partial<LargeOutputOptions>) {
    this.sizeThreshold = options(input).sizeThreshold;
  }

  classify(context: GuidanceContext): ClassificationResult {
    const last = context.trajectory.fromEnd(0);
    if (last === undefined) return ClassificationResult.no();
    if (last !== this.#lastRecord) {
      this.#lastRecord = last;
      this.#lastLarge = exceeds(last.result.message, this.sizeThreshold);
    }
    if (!this.#lastLarge) return ClassificationResult.no();
    return ClassificationResult.yes(0.7, {
      reason: `${last.toolName} returned more than ${this.sizeThreshold} characters, which may overwhelm the context`,
      metadata: { tool: last.toolName, length: last.result.message.length },
    });
  }
}

/** Whether `text` has more than `limit` code points, counting no further than needed. */
function exceeds(text: string, limit: number): boolean {
  const units = text.length;
  if (units <= limit) return false;
  if (units > 2 * limit) return true; // a code point is at most two UTF-16 units
  let points = 0;
  for (let i = 0; i < units; i++) {
    const code = text.charCodeAt(i);
    // The high half of a valid pair is counted with its low half, an unpaired half on its own.
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < units) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    if (++points > limit) return true;
  }
  return false;
}
